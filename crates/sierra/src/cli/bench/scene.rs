//! `sierra bench scene [--frames N] [--size WxH] [--json] [--out DIR]`: the thesis's §2.4
//! performance analysis (seed 002) for this engine: runs a level (the demo by default) headless
//! for N frames and reports the start-up time, the frame time split by stage (CPU, from the
//! `sierra_profile` scopes `gameplay`, `build_frame`, `render`) and by pass (GPU timestamp
//! queries, where the adapter has them), as a table or JSON, and plots the frame time per
//! frame per stage (`plotters`, bitmap backend; axes in frames and ms, a legend) into
//! `DIR/bench_scene.png`.
//!
//! Terrain and water run on the level's configured backend (the demo's GPU compute path); a
//! CPU-path comparison needs a backend switch on the loaded game and is reported as not run.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use plotters::prelude::*;
use sierra_profile::Profiler;
use sierra_render::{FrameStats, GpuContext, GpuFrameTimings, HeadlessRenderer};

use crate::cli::demo::DEMO_LEVEL;
use crate::cli::Size;
use crate::frame_runner::{start_headless, FrameRunner};
use crate::game::Game;
use crate::game_loop::DEFAULT_TICK_HZ;

/// Arguments of `sierra bench scene`.
#[derive(Debug, Args)]
pub struct SceneBenchArgs {
    /// Frames to run.
    #[arg(long, default_value_t = 120, value_parser = crate::cli::limits::parse_frames)]
    pub frames: u32,
    /// Render size, WIDTHxHEIGHT.
    #[arg(long, default_value = "320x180")]
    pub size: Size,
    /// Level to run instead of the demo.
    #[arg(long)]
    pub level: Option<PathBuf>,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Folder of the plot `bench_scene.png` (frame time per frame per stage); Sierra's output
    /// folder rules apply (new, empty, or written by Sierra before).
    #[arg(long, default_value = "out/bench_scene")]
    pub out: PathBuf,
    /// Write into `--out` even when it holds files Sierra did not write (they are left alone).
    #[arg(long)]
    pub force: bool,
}

/// CPU stages timed per frame (profiler scope names), in frame order.
pub const STAGES: [&str; 3] = ["gameplay", "build_frame", "render"];

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
        let game = Game::load(level, DEFAULT_TICK_HZ)?;
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

/// Mean, p95 and max of `values` (all 0 when empty).
fn summary(values: &mut [f64]) -> (f64, f64, f64) {
    if values.is_empty() {
        return (0.0, 0.0, 0.0);
    }
    values.sort_by(f64::total_cmp);
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    let p95 = values[((values.len() - 1) as f64 * 0.95).round() as usize];
    (mean, p95, values[values.len() - 1])
}

/// Runs `sierra bench scene`.
///
/// # Errors
/// Level, GPU, profiler and plot errors.
pub fn run(args: SceneBenchArgs) -> Result<()> {
    let level = args.level.as_deref().unwrap_or(Path::new(DEMO_LEVEL));
    // Before the run, so a refused folder costs nothing.
    let out = crate::output::OutputDir::replace(&args.out, &[PLOT_FILE.to_owned()], args.force)?;
    let plot_path = out.dir().join(PLOT_FILE);
    let (profiler, _guard) = Profiler::start(None).context("starting the profiler")?;
    let mut runner = SceneRunner::new(level, args.size.width, args.size.height)?;
    let startup = runner.runner.game().startup.clone();
    let frames = args.frames as usize;
    let mut frame_ms = Vec::with_capacity(frames);
    let mut gpu = Vec::new();
    let mut skinned_draws = 0u64;
    let mut progress = crate::progress::Progress::new("bench scene frame", frames as u64);
    for index in 0..frames {
        let t = Instant::now();
        let (_, stats) = runner.frame().with_context(|| format!("frame {index}"))?;
        skinned_draws += u64::from(stats.skinned_draws);
        profiler.end_frame();
        frame_ms.push(t.elapsed().as_secs_f64() * 1e3);
        gpu.extend(stats.gpu);
        progress.inc();
    }
    progress.finish();
    gpu.extend(runner.headless.renderer.flush_gpu_timings(&runner.ctx)?);
    let mut pass_ms = pass_samples(&gpu);
    let stage_history: Vec<(&str, Vec<(u64, f64)>)> = STAGES
        .iter()
        .map(|&s| (s, profiler.history_ms(s).unwrap_or_default()))
        .collect();
    plot(&plot_path, &stage_history, &frame_ms)?;
    let stage_rows: Vec<_> = stage_history
        .iter()
        .map(|(name, h)| {
            let mut v: Vec<f64> = h.iter().map(|&(_, ms)| ms).collect();
            (*name, summary(&mut v))
        })
        .collect();
    let pass_rows: Vec<_> = pass_ms
        .iter_mut()
        .map(|(name, v)| (name.as_str(), summary(v)))
        .collect();
    let frame_row = summary(&mut frame_ms.clone());
    let adapter = runner.ctx.adapter_summary();
    let planet = super::planet::measure(&runner.ctx)?;
    if args.json {
        let row = |(mean, p95, max): (f64, f64, f64)| serde_json::json!({"mean_ms": mean, "p95_ms": p95, "max_ms": max});
        let out = serde_json::json!({
            "level": level.display().to_string(),
            "adapter": adapter,
            "width": args.size.width,
            "height": args.size.height,
            "frames": frames,
            "skinned_draws_per_frame": skinned_draws as f64 / frames.max(1) as f64,
            "startup_ms": crate::headless::startup_ms(&startup),
            "compute_path": "gpu",
            "cpu_path": null,
            "frame": row(frame_row),
            "cpu_stages": stage_rows.iter().map(|(n, r)| (n.to_string(), row(*r))).collect::<serde_json::Map<_, _>>(),
            "gpu_passes": pass_rows.iter().map(|(n, r)| (n.to_string(), row(*r))).collect::<serde_json::Map<_, _>>(),
            "plot": plot_path.display().to_string(),
            "planet_thesis_density": planet,
        });
        outln!("{}", serde_json::to_string_pretty(&out)?)?;
        return Ok(());
    }
    outln!(
        "scene bench: {} at {}x{}, {frames} frames on {adapter}",
        level.display(),
        args.size.width,
        args.size.height
    )?;
    outln!("start-up: {:.1} ms", startup.total_ms())?;
    for (stage, ms) in startup.stages() {
        outln!("  {stage:<20} {ms:>10.1} ms")?;
    }
    outln!(
        "skinned meshes per frame (GPU skinning): {:.1}",
        skinned_draws as f64 / frames.max(1) as f64
    )?;
    outln!(
        "terrain/water path: GPU compute (CPU path: not run, no backend switch on the loaded game)"
    )?;
    outln!("{planet}")?;
    outln!(
        "{:<22} {:>10} {:>10} {:>10}",
        "",
        "mean ms",
        "p95 ms",
        "max ms"
    )?;
    let print = |label: String, (mean, p95, max): (f64, f64, f64)| {
        outln!("{label:<22} {mean:>10.3} {p95:>10.3} {max:>10.3}")
    };
    print("frame (wall)".into(), frame_row)?;
    for (name, r) in &stage_rows {
        print(format!("cpu  {name}"), *r)?;
    }
    if pass_rows.is_empty() {
        outln!("gpu  (no timestamp queries on this adapter)")?;
    }
    for (name, r) in &pass_rows {
        print(format!("gpu  {name}"), *r)?;
    }
    outln!(
        "plot: {} (CPU ms per frame: the whole frame and each stage)",
        plot_path.display()
    )?;
    Ok(())
}

/// File name of the plot in `--out`.
pub const PLOT_FILE: &str = "bench_scene.png";

/// Plot size, pixels.
pub const PLOT_SIZE: (u32, u32) = (800, 400);

/// Frame time per frame, one line per CPU stage plus the whole frame, into a PNG: x in frames,
/// y in milliseconds, a legend naming the lines.
///
/// # Errors
/// Drawing and writing errors, naming `path`.
fn plot(path: &Path, stages: &[(&str, Vec<(u64, f64)>)], frame_ms: &[f64]) -> Result<()> {
    // plotters draws text with ab_glyph from a registered font (no system fonts needed).
    plotters::style::register_font(
        "sans-serif",
        FontStyle::Normal,
        epaint_default_fonts::UBUNTU_LIGHT,
    )
    .map_err(|_| anyhow::anyhow!("the plot's font does not load"))?;
    let mut pixels = vec![0u8; (PLOT_SIZE.0 * PLOT_SIZE.1 * 3) as usize];
    draw_plot(&mut pixels, stages, frame_ms)
        .map_err(|e| anyhow::anyhow!("drawing the plot {}: {e}", path.display()))?;
    // Drawn into memory and written with `image`: plotters' own file output needs its `image` feature.
    let image =
        image::RgbImage::from_raw(PLOT_SIZE.0, PLOT_SIZE.1, pixels).context("plot buffer size")?;
    image
        .save(path)
        .with_context(|| format!("writing the plot {}", path.display()))
}

fn draw_plot(
    pixels: &mut [u8],
    stages: &[(&str, Vec<(u64, f64)>)],
    frame_ms: &[f64],
) -> std::result::Result<(), Box<dyn std::error::Error>> {
    let max_ms = frame_ms.iter().copied().fold(1.0, f64::max) * 1.1;
    let root = BitMapBackend::with_buffer(pixels, PLOT_SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption("bench scene: CPU time per frame", ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d(0..frame_ms.len().max(1), 0.0..max_ms)?;
    chart
        .configure_mesh()
        .x_desc("frame")
        .y_desc("time (ms)")
        .light_line_style(RGBColor(235, 235, 235))
        .draw()?;
    chart
        .draw_series(LineSeries::new(
            frame_ms.iter().enumerate().map(|(i, &ms)| (i, ms)),
            &BLACK,
        ))?
        .label("frame (wall)")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLACK));
    let colours = [RED, BLUE, GREEN, MAGENTA];
    for ((name, history), colour) in stages.iter().zip(colours) {
        // Frame indices count from the profiler's first frame, which is the bench's first.
        chart
            .draw_series(LineSeries::new(
                history.iter().map(|&(f, ms)| (f as usize, ms)),
                &colour,
            ))?
            .label(*name)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], colour));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}
