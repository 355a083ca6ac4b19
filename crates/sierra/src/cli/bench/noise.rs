//! `sierra bench noise`: nanoseconds per noise sample on one thread (published references on
//! this machine: scalar C 7.1 ns per perlin3 sample; FastNoise2 3.2 ns (AVX2) on grids and
//! 4.0 ns per sample of 6-octave 2D fBm), and the 1024×1024 six-octave heightmap.

use std::hint::black_box;

use clap::Args;
use serde::Serialize;
use sierra_terrain::noise::grid::{fbm2_grid, perlin3_row, uses_avx2, GridSpec, Threads};
use sierra_terrain::noise::{perlin3, Fbm, FbmParams, Permutation};

use super::median_ms;

/// `sierra bench noise` arguments.
#[derive(Debug, Args)]
pub struct NoiseBenchArgs {
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// The figures.
#[derive(Debug, Serialize)]
pub struct NoiseBench {
    /// Whether the AVX2 grid path ran.
    pub avx2: bool,
    /// Threads in the rayon pool (the "all threads" figures).
    pub threads: usize,
    /// perlin3 f64, scattered points, one thread.
    pub perlin3_scalar_f64_ns_per_sample: f64,
    /// perlin3 f32, scattered points, one thread.
    pub perlin3_scalar_f32_ns_per_sample: f64,
    /// perlin3 f32 on a grid row (SIMD), one thread.
    pub perlin3_grid_simd_ns_per_sample: f64,
    /// 6-octave fBm2 on a 256² grid, one thread, per sample.
    pub fbm2_6oct_grid_ns_per_sample: f64,
    /// The same per octave.
    pub fbm2_grid_ns_per_octave: f64,
    /// 1024² six-octave heightmap, one thread.
    pub heightmap_1024_6oct_one_thread_ms: f64,
    /// 1024² six-octave heightmap, all threads.
    pub heightmap_1024_6oct_all_threads_ms: f64,
}

/// Measures everything (a few seconds).
pub fn measure() -> NoiseBench {
    let perm = Permutation::reference();
    let n = 1 << 16;
    let pts: Vec<[f64; 3]> = (0..n)
        .map(|i| {
            let t = i as f64;
            [t * 0.731 - 9000.0, t * 0.377 - 3000.0, t * 0.113 + 5.0]
        })
        .collect();
    let pts32: Vec<[f32; 3]> = pts.iter().map(|p| p.map(|v| (v % 256.0) as f32)).collect();
    let per = |ms: f64, count: usize| ms * 1e6 / count as f64;
    let f64_ms = median_ms(5, || {
        let mut acc = 0.0;
        for p in &pts {
            acc += perlin3(&perm, black_box(p[0]), p[1], p[2]);
        }
        black_box(acc);
    });
    let f32_ms = median_ms(5, || {
        let mut acc = 0.0f32;
        for p in &pts32 {
            acc += perlin3(&perm, black_box(p[0]), p[1], p[2]);
        }
        black_box(acc);
    });
    let mut row = vec![0f32; 4096];
    let rows = 64;
    let grid_ms = median_ms(5, || {
        for r in 0..rows {
            perlin3_row(&perm, -20.3, 0.0731, r as f32 * 0.37, 7.7, &mut row);
        }
        black_box(&row);
    });
    let fbm = Fbm::new(FbmParams::default())
        .unwrap_or_else(|_| unreachable!("default fBm parameters are valid"));
    let run_grid = |side: usize, threads: Threads, runs: usize| {
        let grid = GridSpec {
            width: side,
            height: side,
            x0: 0.0,
            y0: 0.0,
            dx: 1.0 / 128.0,
            dy: 1.0 / 128.0,
        };
        let mut out = vec![0f32; side * side];
        median_ms(runs, || {
            let _ = fbm2_grid(&perm, &fbm, &grid, threads, &mut out);
        })
    };
    let fbm_ms = run_grid(256, Threads::One, 5);
    let one = run_grid(1024, Threads::One, 3);
    let all = run_grid(1024, Threads::All, 5);
    let fbm_ns = per(fbm_ms, 256 * 256);
    NoiseBench {
        avx2: uses_avx2(),
        threads: rayon::current_num_threads(),
        perlin3_scalar_f64_ns_per_sample: per(f64_ms, n),
        perlin3_scalar_f32_ns_per_sample: per(f32_ms, n),
        perlin3_grid_simd_ns_per_sample: per(grid_ms, 4096 * rows),
        fbm2_6oct_grid_ns_per_sample: fbm_ns,
        fbm2_grid_ns_per_octave: fbm_ns / 6.0,
        heightmap_1024_6oct_one_thread_ms: one,
        heightmap_1024_6oct_all_threads_ms: all,
    }
}

/// Runs and prints.
///
/// # Errors
/// JSON serialisation failure only.
pub fn run(args: NoiseBenchArgs) -> anyhow::Result<()> {
    let b = measure();
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&b)?)?;
        return Ok(());
    }
    outln!("noise, one thread (AVX2 grid path: {})", b.avx2)?;
    outln!(
        "  perlin3 scalar f64          {:8.2} ns/sample   (reference-exact path)",
        b.perlin3_scalar_f64_ns_per_sample
    )?;
    outln!(
        "  perlin3 scalar f32          {:8.2} ns/sample   (scalar C reference: 7.1)",
        b.perlin3_scalar_f32_ns_per_sample
    )?;
    outln!(
        "  perlin3 grid (SIMD)         {:8.2} ns/sample   (FastNoise2 AVX2: 3.2)",
        b.perlin3_grid_simd_ns_per_sample
    )?;
    outln!(
        "  fbm2 6 octaves grid         {:8.2} ns/sample   (FastNoise2: 4.0)",
        b.fbm2_6oct_grid_ns_per_sample
    )?;
    outln!(
        "  fbm2 grid                   {:8.2} ns/octave",
        b.fbm2_grid_ns_per_octave
    )?;
    outln!("heightmap 1024x1024, 6 octaves")?;
    outln!(
        "  one thread                  {:8.2} ms",
        b.heightmap_1024_6oct_one_thread_ms
    )?;
    outln!(
        "  all {} threads               {:8.2} ms   (target < 30 ms on 2 threads)",
        b.threads,
        b.heightmap_1024_6oct_all_threads_ms
    )?;
    Ok(())
}
