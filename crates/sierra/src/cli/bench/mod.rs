//! `sierra bench …`: the engine's benchmarks come from the `sierra_bench` crate; the ones that
//! drive the whole game (`scene`, `soak`, `crowd`) live here, beside the game they run.

pub mod crowd;
pub mod scene;
pub mod scene_plot;
pub mod scene_run;
pub mod soak;

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
    /// The engine's benchmarks (noise, terrain, anim, water, compression, …).
    #[command(flatten)]
    Engine(sierra_bench::Bench),
    /// The demo level headless: start-up time, frame time per CPU stage and GPU pass (table or
    /// JSON) and a plot of frame time per frame per stage (`--out`/bench_scene.png).
    Scene(scene::SceneBenchArgs),
    /// Memory soak: N headless frames (default 2000 at 64x64); RSS at frame 200 vs the end within 5 %.
    Soak(soak::SoakArgs),
    /// Baked-animation crowds: CPU ms (record + submit) and GPU ms per frame for N mannequins
    /// in one instanced draw, per count; prints the adapter type.
    Crowd(crowd::CrowdBenchArgs),
}

/// Runs a benchmark.
///
/// # Errors
/// Whatever the benchmark reports.
pub fn run(args: BenchArgs) -> anyhow::Result<()> {
    match args.which {
        Bench::Engine(b) => sierra_bench::run(b),
        Bench::Scene(a) => scene::run(a),
        Bench::Soak(a) => soak::run(a),
        Bench::Crowd(a) => crowd::run(a),
    }
}
