//! `sierra bench …`: performance figures as a readable table, or one JSON object with `--json`
//! (units in the key names). One module per benchmark; add a variant and an arm below.

pub mod anim;
pub mod compression;
pub mod crowd;
pub mod noise;
pub mod planet;
pub mod scene;
pub mod scene_plot;
pub mod soak;
pub mod terrain;
pub mod water;

use clap::{Args, Subcommand};

/// `sierra bench` arguments.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Which benchmark.
    #[command(subcommand)]
    pub which: Bench,
}

/// Every benchmark.
#[derive(Debug, Subcommand)]
pub enum Bench {
    /// Noise: ns per sample on one thread (scalar perlin3, 128³ grid, 1024² six-octave
    /// heightmap), each with its ratio to the C baseline perlin_tbl.c built and run alongside.
    Noise(noise::NoiseBenchArgs),
    /// Island generation per size: CPU one thread, CPU all threads, GPU; vertices, triangles.
    Terrain(terrain::TerrainBenchArgs),
    /// Animation job: N characters × 68 joints crossfading two clips; µs per character, ns per
    /// joint on one thread, 2-thread speed-up, per-stage times.
    Anim(anim::AnimBenchArgs),
    /// Water columns (virtual pipes): ns per cell per step, CPU 1 and 2 threads and GPU, 256²..2048².
    Water(water::WaterBenchArgs),
    /// The demo level headless: start-up time, frame time per CPU stage and GPU pass (table or
    /// JSON) and a plot of frame time per frame per stage (`--out`/bench_scene.png).
    Scene(scene::SceneBenchArgs),
    /// Memory soak: N headless frames (default 2000 at 64x64); RSS at frame 200 vs the end within 5 %.
    Soak(soak::SoakArgs),
    /// Baked-animation crowds: CPU ms (record + submit) and GPU ms per frame for N mannequins
    /// in one instanced draw, per count; prints the adapter type.
    Crowd(crowd::CrowdBenchArgs),
    /// Clip compression: raw → compressed bytes and max virtual-vertex error per clip of the
    /// shared sample models, the built-in mannequin and the anchor workload.
    Compression(compression::CompressionBenchArgs),
}

/// Runs a benchmark.
///
/// # Errors
/// Whatever the benchmark reports.
pub fn run(args: BenchArgs) -> anyhow::Result<()> {
    match args.which {
        Bench::Noise(a) => noise::run(a),
        Bench::Terrain(a) => terrain::run(a),
        Bench::Anim(a) => anim::run(a),
        Bench::Water(a) => water::run(a),
        Bench::Scene(a) => scene::run(a),
        Bench::Soak(a) => soak::run(a),
        Bench::Crowd(a) => crowd::run(a),
        Bench::Compression(a) => compression::run(a),
    }
}

/// Median wall time in milliseconds of `runs` calls of `f` (after one warm-up call).
pub fn median_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    f();
    let mut t: Vec<f64> = (0..runs.max(1))
        .map(|_| {
            let start = std::time::Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}
