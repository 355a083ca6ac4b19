//! Sierra's benchmarks, run by the `sierra` binary as `sierra bench …`: performance figures as
//! a readable table, or one JSON object with `--json` (units in the key names). One module per
//! benchmark; add a variant to [`Bench`] and an arm to [`run`].
//!
//! Every figure that has a baseline is printed as a ratio to it, measured in the same invocation
//! on the same machine: the project's own C programs (`benchmarks/c/`, embedded here and built
//! with `gcc` when the benchmark runs, see [`c_baseline`]). `sierra bench report` reruns them
//! all several times, interleaved, and writes the median and spread of each ratio
//! (`docs/performance.md` is generated from its output).
//!
//! The benchmarks that drive the whole game (`bench scene`, `soak`, `crowd`) live with the
//! game in the `sierra` crate; this crate depends only on the engine's library crates.

#![warn(missing_docs)]

/// `writeln!` to stdout, returning the `io::Result` (a closed pipe ends the command quietly).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

pub mod anim;
pub mod c_baseline;
pub mod compression;
pub mod limits;
pub mod noise;
pub mod planet;
pub mod propagation;
pub mod report;
pub mod terrain;
pub mod throughput;
pub mod water;

use clap::Subcommand;

/// The benchmarks of this crate.
#[derive(Debug, Subcommand)]
pub enum Bench {
    /// Noise: ns per sample on one thread (scalar perlin3, 128³ grid, 1024² heightmaps), each
    /// with its ratio to the C baseline benchmarks/c/perlin.c built and run alongside.
    Noise(noise::NoiseBenchArgs),
    /// Island generation per size: CPU one thread, CPU all threads, GPU; vertices, triangles.
    Terrain(terrain::TerrainBenchArgs),
    /// Animation job: N characters × 68 joints crossfading two clips; µs per character, ns per
    /// joint on one thread, 2-thread speed-up, per-stage times, beside benchmarks/c/skeleton.c.
    Anim(anim::AnimBenchArgs),
    /// Water columns (virtual pipes): ns per cell per step, CPU 1 and 2 threads and GPU,
    /// 256²..2048², beside benchmarks/c/pipes.c and a copy of the same bytes.
    Water(water::WaterBenchArgs),
    /// Clip compression: raw → compressed bytes and max virtual-vertex error per clip of the
    /// built-in mannequin, the anchor workload and (when present) the shared sample models.
    Compression(compression::CompressionBenchArgs),
    /// Scene-graph transform propagation: ns per updated node on rigs of 68 nodes, beside
    /// benchmarks/c/skeleton.c (full and --no-skin) on one thread.
    Propagation(propagation::PropagationBenchArgs),
    /// Every performance figure the docs quote, re-measured: N rounds (default 5) of anim,
    /// propagation, noise and water beside their baselines; median and min–max of each ratio,
    /// with the CPU, SIMD paths, cores, commit and date (markdown, or JSON with --json).
    Report(report::ReportArgs),
}

/// Runs a benchmark.
///
/// # Errors
/// Whatever the benchmark reports.
pub fn run(bench: Bench) -> anyhow::Result<()> {
    match bench {
        Bench::Noise(a) => noise::run(a),
        Bench::Terrain(a) => terrain::run(a),
        Bench::Anim(a) => anim::run(a),
        Bench::Water(a) => water::run(a),
        Bench::Compression(a) => compression::run(a),
        Bench::Propagation(a) => propagation::run(a),
        Bench::Report(a) => report::run(a),
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
