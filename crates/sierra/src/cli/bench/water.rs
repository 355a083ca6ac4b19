//! `sierra bench water`: the virtual-pipes water step in ns per cell per step, CPU on one and
//! two threads and GPU, grids 256² to 2048² (table, or one JSON object with `--json`).
//! Reference from the issue: a plain C single-thread version takes 8–9 ns at 1024² on the CI
//! machine; the memory-bandwidth floor is about 2–4 ns.

use std::time::Instant;

use anyhow::Result;
use clap::Args;
use sierra_render::compute::water::{WaterCompute, WaterKernels};
use sierra_render::GpuContext;
use sierra_terrain::water::WaterSim;

use crate::cli::water::{initial_state, pool, Init};

/// Arguments of `sierra bench water`.
#[derive(Debug, Args)]
pub struct WaterBenchArgs {
    /// Grid sides to measure.
    #[arg(long, value_delimiter = ',', default_value = "256,512,1024,2048")]
    pub sizes: Vec<usize>,
    /// Skip the GPU column.
    #[arg(long)]
    pub no_gpu: bool,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// One row of the water benchmark; times in nanoseconds per cell per step.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct WaterBenchRow {
    /// Grid side.
    pub size: usize,
    /// Steps timed per backend.
    pub steps: u32,
    /// CPU, one thread.
    pub cpu_1_thread_ns_per_cell_step: f64,
    /// CPU, two threads.
    pub cpu_2_threads_ns_per_cell_step: f64,
    /// GPU with the thesis's staged 18x18 tiles (submission to completion), `None` when
    /// skipped or unavailable.
    pub gpu_staged_ns_per_cell_step: Option<f64>,
    /// GPU with direct neighbour loads (no workgroup memory).
    pub gpu_direct_ns_per_cell_step: Option<f64>,
}

/// The reference the issue gives: a plain C single-thread version at 1024², ns/cell/step.
pub const C_REFERENCE_NS_PER_CELL_STEP: (f64, f64) = (8.0, 9.0);

/// Measures the water step at each size (CPU 1 and 2 threads, GPU).
///
/// # Errors
/// Bad sizes; GPU errors other than a missing adapter (reported as `None`).
pub fn bench(sizes: &[usize], gpu: bool) -> Result<(Vec<WaterBenchRow>, Option<String>)> {
    let ctx = if gpu {
        GpuContext::headless().ok()
    } else {
        None
    };
    let adapter = ctx.as_ref().map(GpuContext::adapter_summary);
    let mut rows = Vec::new();
    for &size in sizes {
        let (params, terrain, depth) = initial_state(size, Init::Bump, false)?;
        let cells = params.cell_count() as f64;
        // About 50 M cell updates per measurement, 5..=200 steps.
        let steps = ((5e7 / cells) as u32).clamp(5, 200);
        let cpu = |threads| -> Result<f64> {
            let pool = pool(Some(threads))?;
            let mut sim = WaterSim::new(params, terrain.clone(), depth.clone())?;
            let dt = 0.9 * sim.max_stable_dt();
            pool.install(|| -> Result<f64> {
                sim.step(dt)?; // warm-up: page faults of the second buffers
                let t = Instant::now();
                for _ in 0..steps {
                    sim.step(dt)?;
                }
                Ok(t.elapsed().as_secs_f64() * 1e9 / (cells * f64::from(steps)))
            })
        };
        let one = cpu(1)?;
        let two = cpu(2)?;
        let gpu = |kernels: WaterKernels| -> Result<Option<f64>> {
            let Some(ctx) = &ctx else { return Ok(None) };
            let mut sim = WaterCompute::new(ctx, params, &terrain, &depth)?;
            sim.set_kernels(kernels);
            let dt = 0.9 * sim.max_stable_dt();
            sim.step(ctx, dt, 1)?; // warm-up: shader compilation
            sim.wait(ctx)?;
            let t = Instant::now();
            sim.step(ctx, dt, steps)?;
            sim.wait(ctx)?;
            Ok(Some(
                t.elapsed().as_secs_f64() * 1e9 / (cells * f64::from(steps)),
            ))
        };
        let staged = gpu(WaterKernels::Staged)?;
        let direct = gpu(WaterKernels::Direct)?;
        rows.push(WaterBenchRow {
            size,
            steps,
            cpu_1_thread_ns_per_cell_step: one,
            cpu_2_threads_ns_per_cell_step: two,
            gpu_staged_ns_per_cell_step: staged,
            gpu_direct_ns_per_cell_step: direct,
        });
    }
    Ok((rows, adapter))
}

/// Runs `sierra bench water`: a table, or one JSON object with `--json`.
///
/// # Errors
/// As [`bench`].
pub fn run(args: WaterBenchArgs) -> Result<()> {
    let (rows, adapter) = bench(&args.sizes, !args.no_gpu)?;
    if args.json {
        let json = serde_json::json!({
            "water": rows,
            "gpu_adapter": adapter,
            "c_reference_1024_ns_per_cell_step": [C_REFERENCE_NS_PER_CELL_STEP.0, C_REFERENCE_NS_PER_CELL_STEP.1],
        });
        outln!("{}", serde_json::to_string_pretty(&json)?)?;
        return Ok(());
    }
    outln!(
        "water columns (virtual pipes), ns per cell per step; plain C 1 thread at 1024²: 8-9 ns"
    )?;
    outln!(
        "{:>6} {:>6} {:>10} {:>10} {:>11} {:>11}",
        "size",
        "steps",
        "cpu 1t",
        "cpu 2t",
        "gpu staged",
        "gpu direct"
    )?;
    let cell = |v: Option<f64>| v.map_or("-".to_owned(), |v| format!("{v:.2}"));
    for r in &rows {
        outln!(
            "{:>6} {:>6} {:>10.2} {:>10.2} {:>11} {:>11}",
            format!("{}²", r.size),
            r.steps,
            r.cpu_1_thread_ns_per_cell_step,
            r.cpu_2_threads_ns_per_cell_step,
            cell(r.gpu_staged_ns_per_cell_step),
            cell(r.gpu_direct_ns_per_cell_step),
        )?;
    }
    if let Some(a) = adapter {
        outln!("gpu: {a}")?;
    }
    Ok(())
}
