//! `sierra water --size N --steps K [--backend cpu|gpu] [--init bump|dam|still] [--out DIR --every M]`
//! (`sierra bench water` lives in `cli/bench/water.rs`).
//!
//! The simulation is `sierra_terrain::water` (CPU reference, rayon) or
//! `sierra_render::compute::water` (GPU compute); this module only drives them and reports.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use glam::Vec2;
use sierra_render::compute::water::WaterKernels;
use sierra_render::GpuContext;
use sierra_terrain::water::{Boundary, InitialState, WaterParams, WaterSim};

use crate::progress::Progress;

/// Which simulation runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Backend {
    /// `sierra_terrain::water::WaterSim` (rayon over row bands).
    Cpu,
    /// `sierra_render::compute::water::WaterCompute` (WGSL compute, uploaded by `sierra_content::water`).
    Gpu,
}

/// GPU kernels (see `sierra_render::compute::water::WaterKernels`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Kernels {
    /// 16x16 workgroups staging 18x18 tiles in workgroup memory (the thesis's design).
    Staged,
    /// Neighbours read straight from storage (no workgroup memory).
    Direct,
}

impl From<Kernels> for WaterKernels {
    fn from(k: Kernels) -> Self {
        match k {
            Kernels::Staged => WaterKernels::Staged,
            Kernels::Direct => WaterKernels::Direct,
        }
    }
}

/// The initial water.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Init {
    /// The thesis's sinc bump in the middle of a 1 m deep pool.
    Bump,
    /// A 2 m column of radius size/8 in a 1 m pool (dam break).
    Dam,
    /// Still water 1 m deep.
    Still,
}

/// Arguments of `sierra water`.
#[derive(Debug, Args)]
pub struct WaterArgs {
    /// Grid side in cells (1 m each), 1..=4096.
    #[arg(long, default_value_t = 256)]
    pub size: usize,
    /// Steps to run.
    #[arg(long, default_value_t = 1000, value_parser = crate::cli::limits::parse_steps)]
    pub steps: u32,
    /// CPU reference or GPU compute.
    #[arg(long, value_enum, default_value_t = Backend::Cpu)]
    pub backend: Backend,
    /// Initial state.
    #[arg(long, value_enum, default_value_t = Init::Bump)]
    pub init: Init,
    /// GPU kernels.
    #[arg(long, value_enum, default_value_t = Kernels::Staged)]
    pub kernels: Kernels,
    /// Open (outflow) edges instead of closed (reflective) ones.
    #[arg(long)]
    pub open: bool,
    /// CPU threads (default: all cores).
    #[arg(long, value_parser = crate::cli::limits::parse_threads)]
    pub threads: Option<usize>,
    /// Folder for height images (`height_NNNNNN.png`, grey = surface height): new, empty, or
    /// an earlier Sierra run's (replaced).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Overwrite files in `--out` under the names this run writes even when Sierra did not
    /// write them; every other file is left alone.
    #[arg(long)]
    pub force: bool,
    /// With `--out`: write an image every M steps (and at the start and end).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    pub every: u32,
}

/// What a run measured.
#[derive(Clone, Debug, PartialEq)]
pub struct WaterReport {
    /// Total volume at the start, m³.
    pub volume_start: f64,
    /// Total volume at the end, m³.
    pub volume_end: f64,
    /// Highest water surface at the start, metres.
    pub max_height_start: f32,
    /// Highest water surface at the end, metres.
    pub max_height_end: f32,
    /// Fixed step used, seconds.
    pub dt: f32,
    /// Wall-clock time per step, seconds (GPU: submission to completion, averaged).
    pub seconds_per_step: f64,
    /// Images written.
    pub images: Vec<PathBuf>,
}

/// Grid, flat floor and initial depth of a `--size N --init X` run.
///
/// # Errors
/// A size of 0 or above the limits ([`sierra_terrain::water::WaterError::GridSize`]).
pub fn initial_state(
    size: usize,
    init: Init,
    open: bool,
) -> Result<(WaterParams, Vec<f32>, Vec<f32>)> {
    let mut params = WaterParams::new(size, size, 1.0);
    params.boundary = if open {
        Boundary::Open
    } else {
        Boundary::Closed
    };
    params.validate()?;
    let half = size as f32 * 0.5;
    let state = match init {
        Init::Still => InitialState::Still { level: 1.0 },
        Init::Bump => InitialState::Bump {
            level: 1.0,
            center: Vec2::splat(half),
            amplitude: 0.5,
            frequency: 0.3,
        },
        Init::Dam => InitialState::Dam {
            low: 1.0,
            high: 2.0,
            center: Vec2::splat(half),
            radius: (size as f32 / 8.0).max(1.0),
        },
    };
    let terrain = vec![0.0; params.cell_count()];
    let depth = state.depth(&params, &terrain)?;
    Ok((params, terrain, depth))
}

fn volume(depth: &[f32], cell: f32) -> f64 {
    depth.iter().map(|&d| f64::from(d)).sum::<f64>() * f64::from(cell).powi(2)
}

fn max_surface(terrain: &[f32], depth: &[f32]) -> f32 {
    terrain
        .iter()
        .zip(depth)
        .map(|(b, d)| b + d)
        .fold(f32::NEG_INFINITY, f32::max)
}

/// Writes the surface height as an 8-bit grey PNG, `range` (metres) mapped to black..white.
///
/// # Errors
/// An unwritable file.
pub fn write_height_image(
    path: &Path,
    params: &WaterParams,
    terrain: &[f32],
    depth: &[f32],
    range: (f32, f32),
) -> Result<()> {
    let span = (range.1 - range.0).max(1e-6);
    let pixels = terrain
        .iter()
        .zip(depth)
        .map(|(b, d)| (((b + d - range.0) / span).clamp(0.0, 1.0) * 255.0).round() as u8)
        .collect();
    let image = image::GrayImage::from_raw(params.cols as u32, params.rows as u32, pixels)
        .context("height image size")?;
    image
        .save(path)
        .with_context(|| format!("writing {}", path.display()))
}

/// Runs a simulation of `steps` steps from the given state and measures it.
///
/// # Errors
/// Bad parameters, GPU errors, unwritable `out`.
pub fn simulate(
    params: WaterParams,
    terrain: Vec<f32>,
    depth: Vec<f32>,
    steps: u32,
    backend: Backend,
    kernels: Kernels,
    out: Option<(&Path, u32)>,
) -> Result<WaterReport> {
    let cell = params.cell_size;
    let volume_start = volume(&depth, cell);
    let max_height_start = max_surface(&terrain, &depth);
    let lo = terrain.iter().copied().fold(f32::INFINITY, f32::min);
    let range = (lo, max_height_start.max(lo + 1e-3));
    if let Some((dir, _)) = out {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut images = Vec::new();
    let mut snapshot = |step: u32, depth: &[f32]| -> Result<()> {
        if let Some((dir, every)) = out {
            if step % every == 0 || step == steps {
                let path = dir.join(format!("height_{step:06}.png"));
                write_height_image(&path, &params, &terrain, depth, range)?;
                images.push(path);
            }
        }
        Ok(())
    };
    let (dt, seconds, end_depth) = match backend {
        Backend::Cpu => {
            let mut sim = WaterSim::new(params, terrain.clone(), depth)?;
            let dt = 0.9 * sim.max_stable_dt();
            snapshot(0, sim.depth())?;
            let mut seconds = 0.0;
            let mut progress = Progress::new("water step", u64::from(steps));
            for step in 1..=steps {
                let t = Instant::now();
                sim.step(dt)?;
                seconds += t.elapsed().as_secs_f64();
                snapshot(step, sim.depth())?;
                progress.inc();
            }
            progress.finish();
            (dt, seconds, sim.depth().to_vec())
        }
        Backend::Gpu => {
            let ctx = GpuContext::headless()?;
            let mut sim = sierra_content::water::water_compute(&ctx, params, &terrain, &depth)?;
            sim.set_kernels(kernels.into());
            let dt = 0.9 * sim.max_stable_dt();
            snapshot(0, &depth)?;
            let mut seconds = 0.0;
            let mut done = 0;
            let mut progress = Progress::new("water step", u64::from(steps));
            while done < steps {
                let batch = match out {
                    Some((_, every)) => every.min(steps - done),
                    None => steps - done,
                };
                let t = Instant::now();
                sim.step(&ctx, dt, batch)?;
                sim.wait(&ctx)?;
                seconds += t.elapsed().as_secs_f64();
                done += batch;
                if out.is_some() {
                    snapshot(done, &sim.read_depth(&ctx)?)?;
                }
                progress.add(u64::from(batch));
            }
            progress.finish();
            (dt, seconds, sim.read_depth(&ctx)?)
        }
    };
    Ok(WaterReport {
        volume_start,
        volume_end: volume(&end_depth, cell),
        max_height_start,
        max_height_end: max_surface(&terrain, &end_depth),
        dt,
        seconds_per_step: seconds / f64::from(steps.max(1)),
        images,
    })
}

pub(crate) fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        if t == 0 || t as u64 > crate::cli::limits::MAX_THREADS {
            bail!(
                "--threads {t} is outside 1..={}",
                crate::cli::limits::MAX_THREADS
            );
        }
        builder = builder.num_threads(t);
    }
    Ok(builder.build()?)
}

/// Runs `sierra water`.
///
/// # Errors
/// Bad sizes (0 or above 4096²), GPU errors, unwritable `--out`.
pub fn run(args: WaterArgs) -> Result<()> {
    if args.steps == 0 {
        bail!("--steps must be at least 1");
    }
    let (params, terrain, depth) = initial_state(args.size, args.init, args.open)?;
    let pool = pool(args.threads)?;
    if let Some(dir) = &args.out {
        let names: Vec<String> = (0..=args.steps)
            .filter(|step| step % args.every == 0 || *step == args.steps)
            .map(|step| format!("height_{step:06}.png"))
            .collect();
        crate::output::OutputDir::replace(dir, &names, args.force)?;
    }
    let out = args.out.as_deref().map(|d| (d, args.every));
    let report = pool.install(|| {
        simulate(
            params,
            terrain,
            depth,
            args.steps,
            args.backend,
            args.kernels,
            out,
        )
    })?;
    let cells = params.cell_count() as f64;
    outln!(
        "water {n}x{n} {backend:?}{kernels} init {init:?} {edges} edges: {steps} steps of {dt:.4} s",
        n = args.size,
        backend = args.backend,
        kernels = if args.backend == Backend::Gpu { format!(" ({:?} kernels)", args.kernels) } else { String::new() },
        init = args.init,
        edges = if args.open { "open" } else { "closed" },
        steps = args.steps,
        dt = report.dt
    )?;
    outln!(
        "total volume: start {:.3} m³, end {:.3} m³ (relative change {:.2e})",
        report.volume_start,
        report.volume_end,
        (report.volume_end - report.volume_start) / report.volume_start.max(f64::MIN_POSITIVE)
    )?;
    outln!(
        "max height: start {:.4} m, end {:.4} m",
        report.max_height_start,
        report.max_height_end
    )?;
    outln!(
        "time per step: {:.3} ms ({:.2} ns per cell)",
        report.seconds_per_step * 1e3,
        report.seconds_per_step * 1e9 / cells
    )?;
    if let Some(dir) = &args.out {
        outln!("{} height images in {}", report.images.len(), dir.display())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_run_conserves_volume_and_writes_images() {
        let dir = tempfile::tempdir().unwrap();
        let (p, t, d) = initial_state(32, Init::Dam, false).unwrap();
        let r = simulate(
            p,
            t,
            d,
            20,
            Backend::Cpu,
            Kernels::Staged,
            Some((dir.path(), 10)),
        )
        .unwrap();
        assert!((r.volume_end - r.volume_start).abs() / r.volume_start < 1e-5);
        assert!(r.max_height_end < r.max_height_start, "the dam collapsed");
        assert_eq!(r.images.len(), 3, "steps 0, 10, 20");
        let img = image::open(&r.images[0]).unwrap().to_luma8();
        assert_eq!(img.dimensions(), (32, 32));
        assert_eq!(img.get_pixel(16, 16).0[0], 255, "the dam top is white");
        assert_eq!(img.get_pixel(0, 0).0[0], 128, "1 m of 0..2 m is mid grey");
    }

    #[test]
    fn bad_sizes_are_clear_errors() {
        for size in [0, 5000] {
            let e = initial_state(size, Init::Still, false).unwrap_err();
            assert!(e.to_string().contains("invalid water grid size"), "{e}");
        }
    }
}
