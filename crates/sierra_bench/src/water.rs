//! `sierra bench water`: the virtual-pipes water step in ns per cell per step, CPU on one and
//! two threads and GPU, grids 256² to 2048² (table, or one JSON object with `--json`), and
//! beside it the thesis's 8-connection columns (`columns8`) on two CPU threads and the GPU.
//!
//! Beside each CPU figure, measured in the same invocation, best step against best step:
//! the C baseline `benchmarks/c/pipes.c` (built with gcc now) on one and two threads and the
//! ratio of the 2-thread speed-ups, and a 2-thread banded copy of the same bytes as one step
//! ([`CopyProbe`]: 6 arrays read, 5 written), against which the step's achieved bandwidth is
//! reported.

use std::time::Instant;

use anyhow::Result;
use clap::Args;
use sierra_render::compute::water::WaterKernels;
use sierra_render::GpuContext;
use sierra_terrain::water::{
    Boundary, Columns8Sim, CopyProbe, InitialState, WaterParams, WaterSim,
};

use crate::c_baseline::{self, CBaseline};

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
    /// Run without the C baseline (benchmarks/c/pipes.c, built with gcc).
    #[arg(long)]
    pub no_c_baseline: bool,
}

/// One row of the water benchmark; times in nanoseconds per cell per step.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct WaterBenchRow {
    /// Grid side.
    pub size: usize,
    /// The compiled step loop the CPU figures ran (`WaterSim::kernel`: avx512, avx2, portable).
    pub cpu_kernel: String,
    /// Steps timed per backend.
    pub steps: u32,
    /// CPU, one thread.
    pub cpu_1_thread_ns_per_cell_step: f64,
    /// CPU, two threads.
    pub cpu_2_threads_ns_per_cell_step: f64,
    /// A 2-thread banded copy of the bytes one step moves, ns per cell.
    pub copy_2_threads_ns_per_cell: f64,
    /// Achieved bandwidth of the 2-thread step as a fraction of the copy's (copy time / step time).
    pub bandwidth_fraction_of_copy: f64,
    /// `pipes.c`, one thread, same run (`None` with `--no-c-baseline`).
    pub pipes_c_1_thread_ns_per_cell_step: Option<f64>,
    /// `pipes.c`, two threads, same run.
    pub pipes_c_2_threads_ns_per_cell_step: Option<f64>,
    /// Sierra's 2-thread speed-up divided by pipes.c's.
    pub speed_up_ratio_to_pipes_c: Option<f64>,
    /// GPU with the thesis's staged 18x18 tiles (submission to completion), `None` when
    /// skipped or unavailable.
    pub gpu_staged_ns_per_cell_step: Option<f64>,
    /// GPU with direct neighbour loads (no workgroup memory).
    pub gpu_direct_ns_per_cell_step: Option<f64>,
    /// The thesis's 8-connection columns on the CPU, two threads.
    pub columns8_cpu_2_threads_ns_per_cell_step: f64,
    /// The 8-connection columns on the GPU (three dispatches per step).
    pub columns8_gpu_ns_per_cell_step: Option<f64>,
}

/// ns per cell per step of `steps` GPU steps after a one-step warm-up (shader compilation),
/// submission to completion.
fn gpu_ns_per_cell(cells: f64, steps: u32, mut run: impl FnMut(u32) -> Result<()>) -> Result<f64> {
    run(1)?;
    let t = Instant::now();
    run(steps)?;
    Ok(t.elapsed().as_secs_f64() * 1e9 / (cells * f64::from(steps)))
}

/// Best of `reps` timings of `f` after one warm-up call, ns per cell.
fn best_ns_per_cell(cells: f64, reps: u32, mut f: impl FnMut() -> Result<()>) -> Result<f64> {
    f()?; // warm-up: page faults of the second buffers
    let mut best = f64::MAX;
    for _ in 0..reps {
        let t = Instant::now();
        f()?;
        best = best.min(t.elapsed().as_secs_f64() * 1e9 / cells);
    }
    Ok(best)
}

/// `pipes.c` at `size`², one and two threads, ns per cell per step.
///
/// # Errors
/// gcc missing or failing, or the program's output unreadable.
fn pipes_c(size: usize) -> Result<(f64, f64)> {
    let out = c_baseline::build_and_run(CBaseline::Pipes, &[&size.to_string()])
        .map_err(anyhow::Error::msg)?;
    Ok((
        c_baseline::require(&out, "threads=1", " ns/cell").map_err(anyhow::Error::msg)?,
        c_baseline::require(&out, "threads=2", " ns/cell").map_err(anyhow::Error::msg)?,
    ))
}

/// A rayon pool of `threads` threads.
fn pool(threads: usize) -> Result<rayon::ThreadPool> {
    Ok(rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?)
}

/// The benchmark's state at `size`²: a closed 1 m pool on flat ground with a sinc bump in the
/// middle (`sierra water --init bump`).
fn bump_state(size: usize) -> Result<(WaterParams, Vec<f32>, Vec<f32>)> {
    let mut params = WaterParams::new(size, size, 1.0);
    params.boundary = Boundary::Closed;
    params.validate()?;
    let state = InitialState::Bump {
        level: 1.0,
        center: glam::Vec2::splat(size as f32 * 0.5),
        amplitude: 0.5,
        frequency: 0.3,
    };
    let terrain = vec![0.0; params.cell_count()];
    let depth = state.depth(&params, &terrain)?;
    Ok((params, terrain, depth))
}

/// Measures the water step at each size (CPU 1 and 2 threads, GPU).
///
/// # Errors
/// Bad sizes; the C baseline failing (unless `c` is false); GPU errors other than a missing
/// adapter (reported as `None`).
pub fn bench(sizes: &[usize], gpu: bool, c: bool) -> Result<(Vec<WaterBenchRow>, Option<String>)> {
    let ctx = if gpu {
        GpuContext::headless().ok()
    } else {
        None
    };
    let adapter = ctx.as_ref().map(GpuContext::adapter_summary);
    let mut rows = Vec::new();
    // Eight measurements per size: CPU 1 and 2 threads, copy, pipes.c, GPU staged and direct,
    // 8-connection columns on 2 CPU threads and on the GPU.
    let mut progress =
        sierra_profile::progress::Progress::new("bench water measurement", 8 * sizes.len() as u64);
    for &size in sizes {
        let (params, terrain, depth) = bump_state(size)?;
        let cells = params.cell_count() as f64;
        // About 50 M cell updates per measurement, 5..=200 steps.
        let steps = ((5e7 / cells) as u32).clamp(5, 200);
        let mut cpu_kernel = String::new();
        let mut cpu = |threads| -> Result<f64> {
            let pool = pool(threads)?;
            let mut sim = WaterSim::new(params, terrain.clone(), depth.clone())?;
            cpu_kernel = format!("{:?}", sim.kernel()).to_lowercase();
            let dt = 0.9 * sim.max_stable_dt();
            pool.install(|| best_ns_per_cell(cells, steps, || Ok(sim.step(dt)?)))
        };
        let one = cpu(1)?;
        progress.inc();
        let two = cpu(2)?;
        progress.inc();
        let mut probe = CopyProbe::new(params.cols, params.rows);
        let copy = pool(2)?.install(|| {
            best_ns_per_cell(cells, steps, || {
                probe.run();
                Ok(())
            })
        })?;
        progress.inc();
        let c = if c { Some(pipes_c(size)?) } else { None };
        progress.inc();
        let gpu = |kernels: WaterKernels| -> Result<Option<f64>> {
            let Some(ctx) = &ctx else { return Ok(None) };
            let mut sim = sierra_content::water::water_compute(ctx, params, &terrain, &depth)?;
            sim.set_kernels(kernels);
            let dt = 0.9 * sim.max_stable_dt();
            let ns = gpu_ns_per_cell(cells, steps, |n| {
                sim.step(ctx, dt, n)?;
                Ok(sim.wait(ctx)?)
            })?;
            Ok(Some(ns))
        };
        let staged = gpu(WaterKernels::Staged)?;
        progress.inc();
        let direct = gpu(WaterKernels::Direct)?;
        progress.inc();
        let columns8_cpu = pool(2)?.install(|| -> Result<f64> {
            let mut sim = Columns8Sim::new(params, terrain.clone(), depth.clone())?;
            let dt = 0.9 * sim.max_stable_dt();
            best_ns_per_cell(cells, steps, || Ok(sim.step(dt)?))
        })?;
        progress.inc();
        let columns8_gpu = match &ctx {
            None => None,
            Some(ctx) => {
                let mut sim = sierra_content::water::water8_compute(ctx, params, &terrain, &depth)?;
                let dt = 0.9 * sim.max_stable_dt();
                Some(gpu_ns_per_cell(cells, steps, |n| {
                    sim.step(ctx, dt, n)?;
                    Ok(sim.wait(ctx)?)
                })?)
            }
        };
        progress.inc();
        rows.push(WaterBenchRow {
            size,
            cpu_kernel,
            steps,
            cpu_1_thread_ns_per_cell_step: one,
            cpu_2_threads_ns_per_cell_step: two,
            copy_2_threads_ns_per_cell: copy,
            bandwidth_fraction_of_copy: copy / two,
            pipes_c_1_thread_ns_per_cell_step: c.map(|c| c.0),
            pipes_c_2_threads_ns_per_cell_step: c.map(|c| c.1),
            speed_up_ratio_to_pipes_c: c.map(|(c1, c2)| (one / two) / (c1 / c2)),
            gpu_staged_ns_per_cell_step: staged,
            gpu_direct_ns_per_cell_step: direct,
            columns8_cpu_2_threads_ns_per_cell_step: columns8_cpu,
            columns8_gpu_ns_per_cell_step: columns8_gpu,
        });
    }
    progress.finish();
    Ok((rows, adapter))
}

/// Runs `sierra bench water`: a table, or one JSON object with `--json`.
///
/// # Errors
/// As [`bench()`].
pub fn run(args: WaterBenchArgs) -> Result<()> {
    let (rows, adapter) = bench(&args.sizes, !args.no_gpu, !args.no_c_baseline)?;
    if args.json {
        let json = serde_json::json!({
            "water": rows,
            "gpu_adapter": adapter,
        });
        outln!("{}", serde_json::to_string_pretty(&json)?)?;
        return Ok(());
    }
    outln!(
        "water columns (virtual pipes), ns per cell per step, best step; pipes.c and a 2-thread copy \
         of the step's bytes measured in this run"
    )?;
    if let Some(first) = rows.first() {
        outln!("CPU step kernel that ran: {}", first.cpu_kernel)?;
    }
    outln!(
        "{:>6} {:>6} {:>8} {:>8} {:>8} {:>7} {:>8} {:>8} {:>9} {:>11} {:>11} {:>9} {:>9}",
        "size",
        "steps",
        "cpu 1t",
        "cpu 2t",
        "copy 2t",
        "% copy",
        "C 1t",
        "C 2t",
        "su/C su",
        "gpu staged",
        "gpu direct",
        "8c cpu 2t",
        "8c gpu"
    )?;
    let cell = |v: Option<f64>| v.map_or("-".to_owned(), |v| format!("{v:.2}"));
    for r in &rows {
        outln!(
            "{:>6} {:>6} {:>8.2} {:>8.2} {:>8.2} {:>6.0}% {:>8} {:>8} {:>9} {:>11} {:>11} {:>9.2} {:>9}",
            format!("{}²", r.size),
            r.steps,
            r.cpu_1_thread_ns_per_cell_step,
            r.cpu_2_threads_ns_per_cell_step,
            r.copy_2_threads_ns_per_cell,
            100.0 * r.bandwidth_fraction_of_copy,
            cell(r.pipes_c_1_thread_ns_per_cell_step),
            cell(r.pipes_c_2_threads_ns_per_cell_step),
            cell(r.speed_up_ratio_to_pipes_c),
            cell(r.gpu_staged_ns_per_cell_step),
            cell(r.gpu_direct_ns_per_cell_step),
            r.columns8_cpu_2_threads_ns_per_cell_step,
            cell(r.columns8_gpu_ns_per_cell_step),
        )?;
    }
    outln!("su/C su: Sierra's 2-thread speed-up over pipes.c's; % copy: achieved bandwidth of the 2-thread step")?;
    outln!("8c: the thesis's 8-connection columns (Annex E.2.1), same grid and initial state")?;
    if let Some(a) = adapter {
        outln!("gpu: {a}")?;
    }
    Ok(())
}
