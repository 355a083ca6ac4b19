//! `sierra bench scene [--frames N] [--size WxH] [--backend cpu|gpu|both] [--json] [--out DIR]`:
//! the thesis's §2.4 performance analysis (seed 002) for this engine: runs a level (the demo by
//! default) headless for N frames with its terrain generation and sea simulation on the CPU path,
//! the GPU path or each in turn, and reports the start-up time by stage, the frame time split by
//! stage (CPU, from the `sierra_profile` scopes `gameplay` (with the CPU sea's `sea_cpu` inside
//! it), `build_frame`, `render`) and by pass (GPU timestamp queries, where the adapter has them),
//! as a table or JSON. Into `DIR` it writes the report `bench_scene.json`, the frame time per
//! frame (`bench_scene.png`), the two backends side by side (`bench_scene_compare.png`: start-up
//! and mean frame time per stage, in ms, a bar per backend) and each backend's last frame
//! (`frame_cpu.png`, `frame_gpu.png`); with `both`, the report gives how much the two last frames
//! differ (they draw the same island).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use plotters::style::RGBColor;
use sierra_profile::{Profiler, ProfilerConfig};
use sierra_render::pipeline_statistics::PassStatistics;
use sierra_render::{FrameStats, GpuContext, GpuFrameTimings, HeadlessRenderer};
use sierra_terrain::island::Backend;

use super::scene_plot::{bar_colour, line_colour, plot_comparison, plot_frames, Line};
use super::scene_run::{backend_name, BackendRun, Summary, STAGES};
use super::scene_run::{lookup, union};
use crate::cli::demo::DEMO_LEVEL;
use crate::cli::Size;
use crate::frame_runner::{start_headless, FrameRunner};
use crate::game::Game;
use crate::game_loop::DEFAULT_TICK_HZ;

/// Which compute path `sierra bench scene` runs the terrain generation and the sea on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum BackendChoice {
    /// The CPU path (SIMD fBm grids on all threads; the water columns stepped in the tick).
    Cpu,
    /// The GPU path (compute shaders), the demo's default.
    #[default]
    Gpu,
    /// The CPU path, then the GPU path, compared side by side.
    Both,
}

impl BackendChoice {
    /// The backends to run, in order.
    pub fn backends(self) -> &'static [Backend] {
        match self {
            Self::Cpu => &[Backend::Cpu],
            Self::Gpu => &[Backend::Gpu],
            Self::Both => &[Backend::Cpu, Backend::Gpu],
        }
    }
}

/// Arguments of `sierra bench scene`.
#[derive(Debug, Args)]
pub struct SceneBenchArgs {
    /// Frames to run (per backend).
    #[arg(long, default_value_t = 120, value_parser = crate::cli::limits::parse_frames)]
    pub frames: u32,
    /// Render size, WIDTHxHEIGHT.
    #[arg(long, default_value = "320x180")]
    pub size: Size,
    /// Level to run instead of the demo.
    #[arg(long)]
    pub level: Option<PathBuf>,
    /// Where the terrain generation and the sea simulation run, overriding the level's
    /// `backend` fields: `cpu`, `gpu` or `both` (each in turn, compared).
    #[arg(long, value_enum, default_value_t = BackendChoice::Gpu)]
    pub backend: BackendChoice,
    /// Print the report (one JSON object) instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Folder of the report and plots (see the module docs); Sierra's output folder rules
    /// apply (new, empty, or written by Sierra before).
    #[arg(long, default_value = "out/bench_scene")]
    pub out: PathBuf,
    /// Write into `--out` even when it holds files Sierra did not write (they are left alone).
    #[arg(long)]
    pub force: bool,
}

/// A level loaded and uploaded for headless frames without output files: the frame runner
/// ([`FrameRunner::headless_frame`]) with its GPU context and off-screen renderer, shared by the
/// scene bench and the soak run.
pub struct SceneRunner {
    /// GPU context.
    pub ctx: GpuContext,
    /// Renderer with its off-screen image.
    pub headless: HeadlessRenderer,
    /// The running level and what was uploaded for it.
    pub runner: FrameRunner,
}

impl SceneRunner {
    /// Loads `level`, creates a `width` × `height` renderer, uploads the level's content.
    ///
    /// # Errors
    /// Level, GPU and upload errors.
    pub fn new(level: &Path, width: u32, height: u32) -> Result<Self> {
        Self::on(level, width, height, None)
    }

    /// [`SceneRunner::new`] with the terrain and the sea on `backend` when given (else as the
    /// level says).
    ///
    /// # Errors
    /// Level, GPU and upload errors.
    pub fn on(level: &Path, width: u32, height: u32, backend: Option<Backend>) -> Result<Self> {
        let options = sierra_scene::LoadOptions::default();
        let game = Game::load_on(level, &options, backend, DEFAULT_TICK_HZ)?;
        let (ctx, headless, runner) = start_headless(game, width, height)?;
        Ok(Self {
            ctx,
            headless,
            runner,
        })
    }

    /// One tick, one frame rendered and read back (the image and the frame's counters), inside
    /// the profiler's stage scopes.
    ///
    /// # Errors
    /// GPU errors.
    pub fn frame(&mut self) -> Result<(image::RgbaImage, FrameStats)> {
        self.runner.headless_frame(&self.ctx, &mut self.headless)
    }
}

/// Per GPU scope label, its milliseconds in each frame, the frame's whole GPU time first
/// (`total`: first scope's start to last scope's end), in first-seen order.
fn pass_samples(gpu: &[GpuFrameTimings]) -> Vec<(String, Vec<f64>)> {
    let mut out: Vec<(String, Vec<f64>)> = Vec::new();
    for t in gpu {
        let whole = ("total".to_owned(), t.gpu_ms());
        for (label, ms) in std::iter::once(whole).chain(t.per_label_ms()) {
            match out.iter_mut().find(|(n, _)| *n == label) {
                Some((_, v)) => v.push(ms),
                None => out.push((label, vec![ms])),
            }
        }
    }
    out
}

/// Per render-pass label, the mean of each pipeline statistic over the frames that reported
/// statistics, and the mean vertex and fragment invocations per pixel of a `pixels`-pixel
/// screen (`None` when no frame reported: the adapter has no `PIPELINE_STATISTICS_QUERY`).
fn mean_statistics(
    gpu: &[GpuFrameTimings],
    pixels: u64,
) -> Option<serde_json::Map<String, serde_json::Value>> {
    let frames: Vec<_> = gpu
        .iter()
        .filter_map(|t| t.pass_statistics.as_deref())
        .collect();
    if frames.is_empty() {
        return None;
    }
    let mut sums: Vec<(String, [u64; 4])> = Vec::new();
    for s in frames.iter().flat_map(|f| f.iter()) {
        let values = [
            s.vertex_shader_invocations,
            s.clipper_invocations,
            s.clipper_primitives_out,
            s.fragment_shader_invocations,
        ];
        match sums.iter_mut().find(|(l, _)| *l == s.label) {
            Some((_, sum)) => sum.iter_mut().zip(values).for_each(|(a, v)| *a += v),
            None => sums.push((s.label.clone(), values)),
        }
    }
    let n = frames.len() as f64;
    let names = [
        "vertex_shader_invocations",
        "clipper_invocations",
        "clipper_primitives_out",
        "fragment_shader_invocations",
    ];
    Some(
        sums.into_iter()
            .map(|(label, sum)| {
                let mean_of = |v: u64| v as f64 / n;
                let counted = PassStatistics {
                    vertex_shader_invocations: sum[0],
                    fragment_shader_invocations: sum[3],
                    ..PassStatistics::default()
                };
                let per_pixel = counted.per_pixel(pixels);
                let means = names
                    .iter()
                    .zip(sum)
                    .map(|(k, v)| (k.to_string(), mean_of(v).into()))
                    .chain([
                        (
                            "vertex_invocations_per_pixel".to_owned(),
                            (per_pixel.vertex / n).into(),
                        ),
                        (
                            "fragment_invocations_per_pixel".to_owned(),
                            (per_pixel.fragment / n).into(),
                        ),
                    ]);
                (label, serde_json::Value::Object(means.collect()))
            })
            .collect(),
    )
}

/// Runs `level` headless for `frames` frames with its terrain and sea on `backend`, each frame
/// inside a profiler of its own (this thread's scopes).
///
/// # Errors
/// Level, GPU and profiler errors.
pub fn measure(level: &Path, size: Size, frames: usize, backend: Backend) -> Result<BackendRun> {
    let (profiler, dispatch, _guard) = Profiler::build(ProfilerConfig {
        window_frames: frames.max(1),
        ..ProfilerConfig::default()
    })
    .context("starting the profiler")?;
    tracing::dispatcher::with_default(&dispatch, || {
        let mut runner = SceneRunner::on(level, size.width, size.height, Some(backend))?;
        let mut frame_ms = Vec::with_capacity(frames);
        let mut gpu = Vec::new();
        let mut skinned_draws = 0u64;
        let mut last_frame = image::RgbaImage::new(0, 0);
        let label = match backend {
            Backend::Cpu => "bench scene frame (cpu)",
            Backend::Gpu => "bench scene frame (gpu)",
        };
        let mut progress = sierra_profile::progress::Progress::new(label, frames as u64);
        for index in 0..frames {
            let t = Instant::now();
            let (image, stats) = runner.frame().with_context(|| format!("frame {index}"))?;
            skinned_draws += u64::from(stats.skinned_draws);
            profiler.end_frame();
            frame_ms.push(t.elapsed().as_secs_f64() * 1e3);
            gpu.extend(stats.gpu);
            last_frame = image;
            progress.inc();
        }
        progress.finish();
        gpu.extend(runner.headless.renderer.flush_gpu_timings(&runner.ctx)?);
        Ok(BackendRun {
            backend,
            startup_ms: crate::headless::startup_stages(&runner.runner.game().startup),
            frame_ms,
            stages: STAGES
                .iter()
                .map(|&s| (s, profiler.history_ms(s).unwrap_or_default()))
                .collect(),
            passes: pass_samples(&gpu),
            pipeline_statistics: mean_statistics(
                &gpu,
                u64::from(size.width) * u64::from(size.height),
            ),
            skinned_draws: skinned_draws as f64 / frames.max(1) as f64,
            adapter: runner.ctx.adapter_summary(),
            gpu_memory: (&runner.ctx.gpu_memory()).into(),
            last_frame,
        })
    })
}

/// How much two images of the same size differ: the mean absolute difference over the RGB
/// channels (in 1/255 steps) and the fraction of pixels with a channel more than 8/255 apart.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ImageDifference {
    /// Mean absolute difference per RGB channel, in units of 1/255.
    pub mean_abs: f64,
    /// Fraction of pixels (0..1) with any RGB channel differing by more than 8/255.
    pub fraction_over_8: f64,
}

impl ImageDifference {
    /// Of `a` and `b`; `None` when their sizes differ or they are empty.
    pub fn of(a: &image::RgbaImage, b: &image::RgbaImage) -> Option<Self> {
        if a.dimensions() != b.dimensions() || a.width() * a.height() == 0 {
            return None;
        }
        let (mut sum, mut over) = (0u64, 0u64);
        for (p, q) in a.pixels().zip(b.pixels()) {
            let d = (0..3).map(|c| p[c].abs_diff(q[c]));
            sum += d.clone().map(u64::from).sum::<u64>();
            over += u64::from(d.max().unwrap_or(0) > 8);
        }
        let pixels = f64::from(a.width() * a.height());
        Some(Self {
            mean_abs: sum as f64 / (3.0 * pixels),
            fraction_over_8: over as f64 / pixels,
        })
    }
}

/// Report file name in `--out`.
pub const REPORT_FILE: &str = "bench_scene.json";
/// Per-frame plot file name in `--out`.
pub const PLOT_FILE: &str = "bench_scene.png";
/// Side-by-side plot file name in `--out`.
pub const COMPARE_FILE: &str = "bench_scene_compare.png";

/// File name of `backend`'s last frame in `--out`.
pub fn frame_file(backend: Backend) -> String {
    format!("frame_{}.png", backend_name(backend))
}

/// Runs `sierra bench scene`.
///
/// # Errors
/// Level, GPU, profiler, plot and output-folder errors.
pub fn run(args: SceneBenchArgs) -> Result<()> {
    let level = args.level.as_deref().unwrap_or(Path::new(DEMO_LEVEL));
    let backends = args.backend.backends();
    let mut planned: Vec<String> = [REPORT_FILE, PLOT_FILE, COMPARE_FILE]
        .map(str::to_owned)
        .into();
    planned.extend(backends.iter().map(|&b| frame_file(b)));
    // Before the run, so a refused folder costs nothing.
    let out = crate::output::OutputDir::replace(&args.out, &planned, args.force)?;
    let frames = args.frames as usize;
    let runs = backends
        .iter()
        .map(|&b| measure(level, args.size, frames, b))
        .collect::<Result<Vec<_>>>()?;
    let path = |name: &str| out.dir().join(name);
    for run in &runs {
        crate::output::write_png(&run.last_frame, &path(&frame_file(run.backend)))?;
    }
    plot_frames(&path(PLOT_FILE), &frame_lines(&runs))?;
    plot_comparison(&path(COMPARE_FILE), &runs)?;
    let difference = match runs.as_slice() {
        [a, b] => ImageDifference::of(&a.last_frame, &b.last_frame),
        _ => None,
    };
    // The thesis's Table 1 density, built both ways (independent of the level's backend).
    let planet = sierra_bench::planet::measure(&GpuContext::headless()?)?;
    let report = serde_json::json!({
        "level": level.display().to_string(),
        "adapter": runs.first().map(|r| r.adapter.clone()),
        "width": args.size.width,
        "height": args.size.height,
        "frames": frames,
        "runs": runs.iter().map(|r| r.json(&path(&frame_file(r.backend)))).collect::<Vec<_>>(),
        "last_frame_difference": difference.map(|d| serde_json::json!({
            "mean_abs_255": d.mean_abs, "fraction_over_8_255": d.fraction_over_8,
        })),
        "report": path(REPORT_FILE).display().to_string(),
        "plot": path(PLOT_FILE).display().to_string(),
        "comparison_plot": path(COMPARE_FILE).display().to_string(),
        "planet_thesis_density": planet,
    });
    let text = serde_json::to_string_pretty(&report)?;
    sierra_assets::write_atomic(&path(REPORT_FILE), text.as_bytes())?;
    if args.json {
        outln!("{text}")?;
        return Ok(());
    }
    print_table(level, args.size, frames, &runs, difference)?;
    outln!("{planet}")?;
    outln!("report: {}", path(REPORT_FILE).display())?;
    outln!(
        "plots: {} (CPU ms per frame), {} (backends side by side)",
        path(PLOT_FILE).display(),
        path(COMPARE_FILE).display()
    )?;
    Ok(())
}

/// The per-frame plot's lines: with one backend the whole frame and each stage; with both,
/// each backend's whole frame and `gameplay` stage (where the CPU sea runs).
fn frame_lines(runs: &[BackendRun]) -> Vec<Line> {
    let mut lines = Vec::new();
    for (k, run) in runs.iter().enumerate() {
        let name = backend_name(run.backend);
        let both = runs.len() > 1;
        // With both backends, each has its colour: the whole frame solid, gameplay lighter.
        let colour = |i: usize| match (both, i) {
            (false, _) => line_colour(i),
            (true, 0) => bar_colour(k),
            (true, _) => {
                let RGBColor(r, g, b) = bar_colour(k);
                RGBColor(r / 2 + 127, g / 2 + 127, b / 2 + 127)
            }
        };
        let frame = run
            .frame_ms
            .iter()
            .enumerate()
            .map(|(i, &ms)| (i as u64, ms))
            .collect();
        lines.push(Line {
            label: format!("{name}: frame (wall)"),
            points: frame,
            colour: colour(0),
        });
        let stages = run.stages.iter().filter(|(s, _)| !both || *s == "gameplay");
        for (i, (stage, history)) in stages.enumerate() {
            lines.push(Line {
                label: format!("{name}: {stage}"),
                points: history.clone(),
                colour: colour(i + 1),
            });
        }
    }
    lines
}

/// The table: start-up stages and frame rows (CPU and GPU times, every pass's shader
/// invocations per pixel where the adapter counts them, memory), one column per backend.
fn print_table(
    level: &Path,
    size: Size,
    frames: usize,
    runs: &[BackendRun],
    difference: Option<ImageDifference>,
) -> Result<()> {
    let adapter = runs.first().map(|r| r.adapter.as_str()).unwrap_or("");
    outln!(
        "scene bench: {} at {}x{}, {frames} frames on {adapter}",
        level.display(),
        size.width,
        size.height
    )?;
    let mut header = format!("{:<26}", "");
    for run in runs {
        header += &format!(" {:>12}", format!("{} mean ms", backend_name(run.backend)));
    }
    outln!("{header}")?;
    let row = |label: &str, value: &dyn Fn(&BackendRun) -> Option<f64>| -> Result<()> {
        let mut line = format!("{label:<26}");
        for run in runs {
            line += &match value(run) {
                Some(v) => format!(" {v:>12.3}"),
                None => format!(" {:>12}", "-"),
            };
        }
        Ok(outln!("{line}")?)
    };
    for stage in union(runs.iter().map(|r| r.startup_ms.iter().map(|(s, _)| s))) {
        row(&format!("start-up {stage}"), &|r| {
            lookup(&r.startup_ms, stage)
        })?;
    }
    row("frame (wall)", &|r| Some(Summary::of(&r.frame_ms).mean))?;
    for (i, stage) in STAGES.iter().enumerate() {
        row(&format!("cpu  {stage}"), &|r| Some(r.stage_means()[i].1))?;
    }
    for label in union(runs.iter().map(|r| r.passes.iter().map(|(l, _)| l))) {
        row(&format!("gpu  {label}"), &|r| {
            r.passes
                .iter()
                .find(|(l, _)| l == label)
                .map(|(_, v)| Summary::of(v).mean)
        })?;
    }
    // Shader invocations per screen pixel, each pass's mean over the frames (where counted).
    let counted = |r: &BackendRun, label: &str, key: &str| {
        r.pipeline_statistics
            .as_ref()?
            .get(label)?
            .get(key)?
            .as_f64()
    };
    let statistics = runs.iter().filter_map(|r| r.pipeline_statistics.as_ref());
    for label in union(statistics.map(|s| s.keys())) {
        row(&format!("frag/px {label}"), &|r| {
            counted(r, label, "fragment_invocations_per_pixel")
        })?;
        row(&format!("vert/px {label}"), &|r| {
            counted(r, label, "vertex_invocations_per_pixel")
        })?;
    }
    row("skinned meshes per frame", &|r| Some(r.skinned_draws))?;
    let mib = |bytes: u64| Some(bytes as f64 / (1024.0 * 1024.0));
    row("gpu memory total MiB", &|r| mib(r.gpu_memory.0.total))?;
    for class in sierra_render::MemoryClass::ALL {
        row(&format!("  {} MiB", class.name()), &|r| {
            mib(r.gpu_memory.0.class(class))
        })?;
    }
    if let Some(d) = difference {
        outln!(
            "last frames differ by {:.3}/255 on average; {:.3} % of pixels by more than 8/255",
            d.mean_abs,
            d.fraction_over_8 * 100.0
        )?;
    }
    Ok(())
}
