//! Criterion benchmarks: ns per perlin3 sample (scalar and SIMD grid rows), per fBm octave, the
//! 1024×1024 six-octave heightmap on one thread and on all threads, and the workloads of the C
//! baseline `perlin_tbl.c` (`noise::workloads`). Ratios to that C program, built and run in the
//! same invocation, come from `sierra bench noise`.
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use sierra_terrain::noise::grid::{fbm2_grid, perlin3_row, GridSpec, Threads};
use sierra_terrain::noise::workloads::{perlin_tbl_grid, perlin_tbl_heightmap, GRID_SIDE};
use sierra_terrain::noise::{perlin3, Fbm, FbmParams, Permutation};
use std::hint::black_box;

fn noise(c: &mut Criterion) {
    let perm = Permutation::reference();
    let mut g = c.benchmark_group("perlin3");
    let n = 4096u64;
    g.throughput(Throughput::Elements(n));
    let pts: Vec<[f32; 3]> = (0..n)
        .map(|i| {
            let t = i as f32;
            [t * 0.731 - 90.0, t * 0.377 - 30.0, t * 0.113 + 5.0]
        })
        .collect();
    g.bench_function("scalar_f32_scattered", |b| {
        b.iter(|| {
            let mut acc = 0.0f32;
            for p in &pts {
                acc += perlin3(&perm, black_box(p[0]), p[1], p[2]);
            }
            acc
        })
    });
    let pts64: Vec<[f64; 3]> = pts.iter().map(|p| p.map(f64::from)).collect();
    g.bench_function("scalar_f64_scattered", |b| {
        b.iter(|| {
            let mut acc = 0.0f64;
            for p in &pts64 {
                acc += perlin3(&perm, black_box(p[0]), p[1], p[2]);
            }
            acc
        })
    });
    let mut row = vec![0f32; n as usize];
    g.bench_function("simd_grid_row", |b| {
        b.iter(|| perlin3_row(&perm, black_box(-20.3), 0.0731, 4.2, 7.7, &mut row))
    });
    g.finish();

    let mut g = c.benchmark_group("fbm2_grid_256x256");
    for octaves in [1.0, 6.0] {
        let fbm = Fbm::new(FbmParams {
            octaves,
            ..FbmParams::default()
        })
        .unwrap();
        let grid = GridSpec::new(256, 256, [0.0, 0.0], [1.0 / 64.0; 2]).unwrap();
        let mut out = vec![0f32; 256 * 256];
        g.throughput(Throughput::Elements(256 * 256 * octaves as u64));
        g.bench_with_input(BenchmarkId::new("octaves", octaves), &fbm, |b, fbm| {
            b.iter(|| fbm2_grid(&perm, fbm, &grid, Threads::One, &mut out).unwrap())
        });
    }
    g.finish();

    let mut g = c.benchmark_group("perlin_tbl_workloads");
    g.sample_size(10);
    let mut grid = vec![0f32; GRID_SIDE.pow(3)];
    g.throughput(Throughput::Elements(grid.len() as u64));
    g.bench_function("grid_128", |b| {
        b.iter(|| perlin_tbl_grid(&perm, &mut grid).unwrap())
    });
    let mut height = vec![0f32; 1024 * 1024];
    g.throughput(Throughput::Elements(height.len() as u64));
    g.bench_function("heightmap_1024_z05", |b| {
        b.iter(|| perlin_tbl_heightmap(&perm, &mut height).unwrap())
    });
    g.finish();

    let mut g = c.benchmark_group("heightmap_1024_6oct");
    g.sample_size(10);
    let fbm = Fbm::new(FbmParams::default()).unwrap();
    let grid = GridSpec::new(1024, 1024, [0.0, 0.0], [1.0 / 128.0; 2]).unwrap();
    let mut out = vec![0f32; 1024 * 1024];
    for (name, threads) in [("one_thread", Threads::One), ("all_threads", Threads::All)] {
        g.bench_function(name, |b| {
            b.iter(|| fbm2_grid(&perm, &fbm, &grid, threads, &mut out).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, noise);
criterion_main!(benches);
