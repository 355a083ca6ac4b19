//! Noise timings robust to a shared machine: each figure is the fastest of many short runs
//! (preempted runs only get slower). `cargo run --release -p sierra_terrain --example noise_speed`.
use sierra_terrain::noise::grid::{fbm2_grid, perlin3_row, GridSpec, Threads};
use sierra_terrain::noise::{perlin3, Fbm, FbmParams, Permutation};
use std::hint::black_box;
use std::time::Instant;

fn fastest_ns(runs: usize, mut f: impl FnMut()) -> f64 {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e9
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let perm = Permutation::reference();
    let n = 4096;
    let pts: Vec<[f32; 3]> = (0..n)
        .map(|i| {
            let t = i as f32;
            [t * 0.731 - 90.0, t * 0.377 - 30.0, t * 0.113 + 5.0]
        })
        .collect();
    let pts64: Vec<[f64; 3]> = pts.iter().map(|p| p.map(f64::from)).collect();
    let f32_ns = fastest_ns(400, || {
        let mut acc = 0.0f32;
        for p in &pts {
            acc += perlin3(&perm, black_box(p[0]), p[1], p[2]);
        }
        black_box(acc);
    }) / n as f64;
    let f64_ns = fastest_ns(400, || {
        let mut acc = 0.0f64;
        for p in &pts64 {
            acc += perlin3(&perm, black_box(p[0]), p[1], p[2]);
        }
        black_box(acc);
    }) / n as f64;
    let mut row = vec![0f32; n];
    let row_ns = fastest_ns(400, || {
        perlin3_row(&perm, black_box(-20.3), 0.0731, 4.2, 7.7, &mut row);
    }) / n as f64;
    let fbm = Fbm::new(FbmParams::default()).unwrap();
    let grid = GridSpec::new(256, 256, [0.0, 0.0], [1.0 / 64.0; 2]).unwrap();
    let mut out = vec![0f32; 256 * 256];
    let fbm_ns = fastest_ns(40, || {
        fbm2_grid(&perm, &fbm, &grid, Threads::One, &mut out).unwrap();
    }) / (256.0 * 256.0);
    let grid = GridSpec::new(1024, 1024, [0.0, 0.0], [1.0 / 128.0; 2]).unwrap();
    let mut out = vec![0f32; 1024 * 1024];
    let one_ms = fastest_ns(5, || {
        fbm2_grid(&perm, &fbm, &grid, Threads::One, &mut out).unwrap();
    }) / 1e6;
    let all_ms = fastest_ns(10, || {
        fbm2_grid(&perm, &fbm, &grid, Threads::All, &mut out).unwrap();
    }) / 1e6;
    println!(
        "perlin3 scalar f32 {f32_ns:.2} ns, f64 {f64_ns:.2} ns, grid row {row_ns:.2} ns; \
         fbm2 6 oct grid {fbm_ns:.2} ns/sample; heightmap 1024² one thread {one_ms:.1} ms, \
         {} threads {all_ms:.1} ms",
        rayon::current_num_threads()
    );
}
