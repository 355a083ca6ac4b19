//! `sierra bench terrain`: island generation time per size on the CPU (one thread, all threads)
//! and on the GPU (compute + read-back), with vertex and triangle counts — the thesis's CPU vs
//! GPU comparison (§2.4).

use clap::Args;
use serde::Serialize;
use sierra_content::terrain::generate_island_gpu;
use sierra_render::compute::noise::NoiseCompute;
use sierra_render::GpuContext;
use sierra_terrain::noise::grid::Threads;
use sierra_terrain::{Island, TerrainParams};

use crate::median_ms;

/// `sierra bench terrain` arguments.
#[derive(Debug, Args)]
pub struct TerrainBenchArgs {
    /// Comma-separated height samples per side (each 3..=16384).
    #[arg(long, default_value = "256,512,1024,2048")]
    pub size: String,
    /// Timed runs per figure (median reported).
    #[arg(long, default_value_t = 3)]
    pub runs: usize,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// One size's figures.
#[derive(Debug, Serialize)]
pub struct TerrainBenchRow {
    /// Samples per side.
    pub size: i64,
    /// Vertices of the full-resolution mesh.
    pub vertices: u64,
    /// Triangles of the full-resolution mesh.
    pub triangles: u64,
    /// CPU generation, one thread.
    pub cpu_one_thread_ms: f64,
    /// CPU generation, all threads.
    pub cpu_all_threads_ms: f64,
    /// GPU generation including read-back (null without a GPU).
    pub gpu_ms: Option<f64>,
}

/// All sizes.
#[derive(Debug, Serialize)]
pub struct TerrainBench {
    /// Rayon threads.
    pub threads: usize,
    /// GPU adapter, or why there is none.
    pub gpu: String,
    /// Per size.
    pub sizes: Vec<TerrainBenchRow>,
}

/// Parses `256,512` into sizes.
///
/// # Errors
/// Non-integers, sizes outside 3..=16384.
pub fn parse_sizes(text: &str) -> anyhow::Result<Vec<i64>> {
    text.split(',')
        .map(|f| {
            let v: i64 = f
                .trim()
                .parse()
                .map_err(|_| anyhow::anyhow!("--size: `{f}` is not an integer"))?;
            if !(3..=16384).contains(&v) {
                anyhow::bail!("--size: {v} is out of range 3..=16384");
            }
            Ok(v)
        })
        .collect()
}

/// Measures each size.
///
/// # Errors
/// Invalid sizes or island parameters; GPU errors other than a missing adapter.
pub fn measure(sizes: &[i64], runs: usize) -> anyhow::Result<TerrainBench> {
    let gpu = GpuContext::headless().and_then(|ctx| NoiseCompute::new(&ctx).map(|c| (ctx, c)));
    let gpu_name = match &gpu {
        Ok((ctx, _)) => ctx.adapter_summary(),
        Err(e) => format!("none: {e}"),
    };
    let mut rows = Vec::new();
    let mut progress =
        sierra_profile::progress::Progress::new("bench terrain size", sizes.len() as u64);
    for &size in sizes {
        let params = TerrainParams {
            resolution: size,
            ..TerrainParams::default()
        };
        params.validate()?;
        let cpu = |threads| -> anyhow::Result<f64> {
            Island::generate_cpu(&params, threads)?;
            Ok(median_ms(runs, || {
                let _ = Island::generate_cpu(&params, threads);
            }))
        };
        let cpu_one_thread_ms = cpu(Threads::One)?;
        let cpu_all_threads_ms = cpu(Threads::All)?;
        let gpu_ms = match &gpu {
            Ok((ctx, compute)) => {
                generate_island_gpu(ctx, compute, &params)?;
                Some(median_ms(runs, || {
                    let _ = generate_island_gpu(ctx, compute, &params);
                }))
            }
            Err(_) => None,
        };
        let n = size as u64;
        rows.push(TerrainBenchRow {
            size,
            vertices: n * n,
            triangles: 2 * (n - 1) * (n - 1),
            cpu_one_thread_ms,
            cpu_all_threads_ms,
            gpu_ms,
        });
        progress.inc();
    }
    progress.finish();
    Ok(TerrainBench {
        threads: rayon::current_num_threads(),
        gpu: gpu_name,
        sizes: rows,
    })
}

/// Runs and prints.
///
/// # Errors
/// As [`measure`].
pub fn run(args: TerrainBenchArgs) -> anyhow::Result<()> {
    let sizes = parse_sizes(&args.size)?;
    let b = measure(&sizes, args.runs)?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&b)?)?;
        return Ok(());
    }
    outln!(
        "island generation (two fBm grids + shaping), GPU: {}",
        b.gpu
    )?;
    outln!(
        "{:>6} {:>10} {:>10} {:>12} {:>14} {:>10}",
        "size",
        "vertices",
        "triangles",
        "cpu 1 thr ms",
        format!("cpu {} thr ms", b.threads),
        "gpu ms"
    )?;
    for r in &b.sizes {
        let gpu = r.gpu_ms.map_or("-".to_string(), |v| format!("{v:.1}"));
        outln!(
            "{:>6} {:>10} {:>10} {:>12.1} {:>14.1} {:>10}",
            r.size,
            r.vertices,
            r.triangles,
            r.cpu_one_thread_ms,
            r.cpu_all_threads_ms,
            gpu
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_and_bad_ones_are_errors() {
        assert_eq!(parse_sizes("256, 512").unwrap(), vec![256, 512]);
        assert!(parse_sizes("-256").is_err());
        assert!(parse_sizes("99999").is_err());
        assert!(parse_sizes("abc").is_err());
    }
}
