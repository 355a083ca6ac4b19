//! `sierra water --size N --steps K [--backend cpu|gpu] [--model pipes|columns8]
//! [--init bump|dam|still|thesis] [--out DIR --every M]` (`sierra bench water` lives in
//! the `sierra_bench` crate).
//!
//! The simulation is `sierra_terrain::water` (CPU reference, rayon) or
//! `sierra_render::compute::water` / `water8` (GPU compute), with Mei's 4 virtual pipes or the
//! thesis's 8-connection columns; this module only drives them and reports.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use glam::Vec2;
use sierra_render::compute::water::{WaterCompute, WaterKernels};
use sierra_render::compute::water8::Water8Compute;
use sierra_render::GpuContext;
use sierra_terrain::water::{Boundary, Columns8Sim, InitialState, WaterParams, WaterSim};

use sierra_profile::progress::Progress;

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

/// Which water model runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Model {
    /// Mei's 4 virtual pipes per cell (`WaterSim`, `WaterCompute`).
    Pipes,
    /// The thesis's 8 connections per column, 4 shared flows (`Columns8Sim`, `Water8Compute`).
    Columns8,
}

/// The initial water.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Init {
    /// A small sinc bump (0.5 m, 0.3 rad per cell) in the middle of a 1 m deep pool.
    Bump,
    /// The thesis's InitSim (Annex E.3): `40 sin(0.1 r) / (0.1 r)` at column 32, row 96
    /// (on its 256x256 grid), over a 10 m pool so the troughs (-8.7 m) stay wet.
    Thesis,
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
    /// Water model: Mei's 4 virtual pipes or the thesis's 8-connection columns (closed edges).
    #[arg(long, value_enum, default_value_t = Model::Pipes)]
    pub model: Model,
    /// GPU kernels (Mei's pipes only).
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
    /// With `--out`: also write `wire_NNNNNN.png`, the surface in wireframe from the thesis's
    /// camera (Annex E, figure 50), beside each height image.
    #[arg(long)]
    pub wireframe: bool,
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
        Init::Thesis => InitialState::thesis(10.0),
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
    crate::output::write_image(&image, path)
}

/// Which simulation runs: backend, model and (GPU pipes only) kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Engine {
    /// CPU reference or GPU compute.
    pub backend: Backend,
    /// Mei's pipes or the thesis's 8-connection columns.
    pub model: Model,
    /// GPU kernels of Mei's pipes.
    pub kernels: Kernels,
}

/// One of the four simulations behind one step / read interface.
enum Runner {
    Cpu(WaterSim),
    Cpu8(Columns8Sim),
    Gpu(GpuContext, WaterCompute),
    Gpu8(GpuContext, Water8Compute),
}

impl Runner {
    fn new(engine: Engine, params: WaterParams, terrain: &[f32], depth: &[f32]) -> Result<Self> {
        let (t, d) = (terrain.to_vec(), depth.to_vec());
        Ok(match (engine.backend, engine.model) {
            (Backend::Cpu, Model::Pipes) => Self::Cpu(WaterSim::new(params, t, d)?),
            (Backend::Cpu, Model::Columns8) => Self::Cpu8(Columns8Sim::new(params, t, d)?),
            (Backend::Gpu, Model::Pipes) => {
                let ctx = GpuContext::headless()?;
                let mut sim = sierra_content::water::water_compute(&ctx, params, terrain, depth)?;
                sim.set_kernels(engine.kernels.into());
                Self::Gpu(ctx, sim)
            }
            (Backend::Gpu, Model::Columns8) => {
                let ctx = GpuContext::headless()?;
                let sim = sierra_content::water::water8_compute(&ctx, params, terrain, depth)?;
                Self::Gpu8(ctx, sim)
            }
        })
    }

    fn max_stable_dt(&self) -> f32 {
        match self {
            Self::Cpu(s) => s.max_stable_dt(),
            Self::Cpu8(s) => s.max_stable_dt(),
            Self::Gpu(_, s) => s.max_stable_dt(),
            Self::Gpu8(_, s) => s.max_stable_dt(),
        }
    }

    /// `steps` steps of `dt` seconds; returns the wall-clock seconds they took (GPU:
    /// submission to completion).
    fn advance(&mut self, dt: f32, steps: u32) -> Result<f64> {
        let t = Instant::now();
        match self {
            Self::Cpu(s) => (0..steps).try_for_each(|_| s.step(dt))?,
            Self::Cpu8(s) => (0..steps).try_for_each(|_| s.step(dt))?,
            Self::Gpu(ctx, s) => {
                s.step(ctx, dt, steps)?;
                s.wait(ctx)?;
            }
            Self::Gpu8(ctx, s) => {
                s.step(ctx, dt, steps)?;
                s.wait(ctx)?;
            }
        }
        Ok(t.elapsed().as_secs_f64())
    }

    fn depth(&self) -> Result<Vec<f32>> {
        Ok(match self {
            Self::Cpu(s) => s.depth().to_vec(),
            Self::Cpu8(s) => s.depth().to_vec(),
            Self::Gpu(ctx, s) => s.read_depth(ctx)?,
            Self::Gpu8(ctx, s) => s.read_depth(ctx)?,
        })
    }
}

/// Where and how often a run writes images.
#[derive(Clone, Copy, Debug)]
pub struct Snapshots<'a> {
    /// Folder.
    pub dir: &'a Path,
    /// Every this many steps (and at the start and end).
    pub every: u32,
    /// Also the wireframe view (`wire_NNNNNN.png`, [`super::water_wire`]).
    pub wireframe: bool,
}

/// Runs a simulation of `steps` steps from the given state and measures it, writing images
/// as `out` says when given.
///
/// # Errors
/// Bad parameters (open edges with the 8-connection model), GPU errors, unwritable `out`.
pub fn simulate(
    params: WaterParams,
    terrain: Vec<f32>,
    depth: Vec<f32>,
    steps: u32,
    engine: Engine,
    out: Option<Snapshots<'_>>,
) -> Result<WaterReport> {
    let cell = params.cell_size;
    let volume_start = volume(&depth, cell);
    let max_height_start = max_surface(&terrain, &depth);
    let lo = terrain.iter().copied().fold(f32::INFINITY, f32::min);
    let range = (lo, max_height_start.max(lo + 1e-3));
    if let Some(o) = out {
        std::fs::create_dir_all(o.dir).with_context(|| format!("creating {}", o.dir.display()))?;
    }
    // The rest level of the wireframe: the mean surface.
    let level = (volume_start / (f64::from(cell).powi(2) * params.cell_count() as f64)) as f32
        + terrain.iter().sum::<f32>() / params.cell_count() as f32;
    let mut images = Vec::new();
    let mut snapshot = |step: u32, depth: &[f32]| -> Result<()> {
        let Some(o) = out else { return Ok(()) };
        if step.is_multiple_of(o.every) || step == steps {
            let path = o.dir.join(format!("height_{step:06}.png"));
            write_height_image(&path, &params, &terrain, depth, range)?;
            images.push(path);
            if o.wireframe {
                let surface: Vec<f32> = terrain.iter().zip(depth).map(|(b, d)| b + d).collect();
                let path = o.dir.join(format!("wire_{step:06}.png"));
                super::water_wire::write(&path, params.cols, params.rows, &surface, level)?;
                images.push(path);
            }
        }
        Ok(())
    };
    let mut runner = Runner::new(engine, params, &terrain, &depth)?;
    let dt = 0.9 * runner.max_stable_dt();
    snapshot(0, &depth)?;
    let mut seconds = 0.0;
    let mut done = 0;
    let mut progress = Progress::new("water step", u64::from(steps));
    while done < steps {
        let batch = out.map_or(steps - done, |o| o.every.min(steps - done));
        seconds += runner.advance(dt, batch)?;
        done += batch;
        if out.is_some() {
            snapshot(done, &runner.depth()?)?;
        }
        progress.add(u64::from(batch));
    }
    progress.finish();
    let end_depth = runner.depth()?;
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
        let prefixes: &[&str] = if args.wireframe {
            &["height", "wire"]
        } else {
            &["height"]
        };
        let names: Vec<String> = (0..=args.steps)
            .filter(|step| step % args.every == 0 || *step == args.steps)
            .flat_map(|step| prefixes.iter().map(move |p| format!("{p}_{step:06}.png")))
            .collect();
        crate::output::OutputDir::replace(dir, &names, args.force)?;
    }
    let out = args.out.as_deref().map(|dir| Snapshots {
        dir,
        every: args.every,
        wireframe: args.wireframe,
    });
    let report = pool.install(|| {
        simulate(
            params,
            terrain,
            depth,
            args.steps,
            Engine {
                backend: args.backend,
                model: args.model,
                kernels: args.kernels,
            },
            out,
        )
    })?;
    let cells = params.cell_count() as f64;
    outln!(
        "water {n}x{n} {backend:?} {model:?}{kernels} init {init:?} {edges} edges: {steps} steps of {dt:.4} s",
        n = args.size,
        backend = args.backend,
        model = args.model,
        kernels = if args.backend == Backend::Gpu && args.model == Model::Pipes { format!(" ({:?} kernels)", args.kernels) } else { String::new() },
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
        outln!("{} images in {}", report.images.len(), dir.display())?;
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
            Engine {
                backend: Backend::Cpu,
                model: Model::Pipes,
                kernels: Kernels::Staged,
            },
            Some(Snapshots {
                dir: dir.path(),
                every: 10,
                wireframe: false,
            }),
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

    /// `--init thesis` on the thesis's grid with its 8-connection model: the peak is 40 m over
    /// the 10 m pool at column 32, row 96, and 100 steps later the bump has fallen with the
    /// volume kept.
    #[test]
    fn thesis_init_with_the_8_connection_model() {
        let (p, t, d) = initial_state(256, Init::Thesis, false).unwrap();
        assert_eq!(d[96 * 256 + 32], 50.0);
        let engine = Engine {
            backend: Backend::Cpu,
            model: Model::Columns8,
            kernels: Kernels::Staged,
        };
        let r = simulate(p, t.clone(), d.clone(), 100, engine, None).unwrap();
        assert_eq!(r.max_height_start, 50.0);
        assert!(r.max_height_end < 49.0, "{}", r.max_height_end);
        assert!((r.volume_end - r.volume_start).abs() / r.volume_start < 1e-5);
        let (p, _, _) = initial_state(16, Init::Still, true).unwrap();
        let e = simulate(p, vec![0.0; 256], vec![1.0; 256], 1, engine, None).unwrap_err();
        assert!(e.to_string().contains("closed edges only"), "{e}");
    }

    #[test]
    fn bad_sizes_are_clear_errors() {
        for size in [0, 5000] {
            let e = initial_state(size, Init::Still, false).unwrap_err();
            assert!(e.to_string().contains("invalid water grid size"), "{e}");
        }
    }
}
