//! Headless runs: N frames of a level into PNGs, a contact sheet and stats, through the frame
//! runner ([`FrameRunner::headless_frame`]: one tick per frame, or
//! [`HeadlessOptions::ticks_per_frame`]).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use sierra_profile::{profile_scope, Profiler, StartupTimes, TrackSpan};
use sierra_render::GpuFrameTimings;

use crate::frame_runner::start_headless;
use crate::game::Game;
use crate::output::{self, FrameRecord, RunStats};
use sierra_profile::progress::Progress;

/// The recorded sound mix a run writes when the game records ([`RunSummary::audio`]).
pub const AUDIO_FILE: &str = "audio.wav";

/// What to render.
#[derive(Clone, Debug)]
pub struct HeadlessOptions {
    /// Frames to render.
    pub frames: usize,
    /// Fixed ticks each frame advances the simulation (≥ 1; 0 counts as 1): a long stretch of
    /// play in few images.
    pub ticks_per_frame: u32,
    /// Image width, pixels.
    pub width: u32,
    /// Image height, pixels.
    pub height: u32,
    /// Output folder (see [`output::OutputDir`]: new, empty, or Sierra's own).
    pub out: PathBuf,
    /// Overwrite files under the names the run writes even when no Sierra manifest lists them
    /// (other files are left alone).
    pub force: bool,
    /// Profile the run: per-stage CPU statistics in `stats.json` and a Chrome trace
    /// (`trace.json`, CPU threads plus a GPU track). Installs the process-wide `tracing`
    /// subscriber, so only one profiled run per process.
    pub profile: bool,
    /// Fault test (`--test-lose-device-at-frame N`): destroy the GPU device before frame N
    /// ([`crate::device_loss::inject`]); the run then ends with the device-loss error.
    pub lose_device_at_frame: Option<usize>,
}

impl HeadlessOptions {
    /// `frames` frames of `width` × `height` pixels into `out`, one tick per frame, not
    /// overwriting, not profiled, no fault injected; set other fields with struct update
    /// syntax (`HeadlessOptions { force: true, ..HeadlessOptions::new(…) }`).
    pub fn new(frames: usize, width: u32, height: u32, out: impl Into<PathBuf>) -> Self {
        Self {
            frames,
            ticks_per_frame: 1,
            width,
            height,
            out: out.into(),
            force: false,
            profile: false,
            lose_device_at_frame: None,
        }
    }
}

/// What a run wrote.
#[derive(Clone, Debug)]
pub struct RunSummary {
    /// Frame PNGs written.
    pub frames: usize,
    /// The output folder.
    pub out: PathBuf,
    /// The contact sheet.
    pub contact_sheet: PathBuf,
    /// The stats file.
    pub stats: PathBuf,
    /// Adapter description.
    pub adapter: String,
    /// Mean CPU milliseconds per frame.
    pub mean_cpu_ms: f64,
    /// Whether `trace.json` was written.
    pub traced: bool,
    /// The recorded sound mix (`audio.wav`), when the game was recording
    /// ([`crate::game_audio::GameAudio::start_recording`]).
    pub audio: Option<PathBuf>,
}

impl RunSummary {
    /// One line for the terminal.
    pub fn line(&self) -> String {
        format!(
            "wrote {} frames (frame_0000.png..frame_{:04}.png), contact_sheet.png, stats.json{}{} to {} [{}, {:.1} ms/frame]",
            self.frames,
            self.frames.saturating_sub(1),
            if self.audio.is_some() { ", audio.wav" } else { "" },
            if self.traced { " and trace.json" } else { "" },
            self.out.display(),
            self.adapter,
            self.mean_cpu_ms
        )
    }
}

/// Renders `game` headless: [`HeadlessOptions::ticks_per_frame`] ticks per frame, every frame
/// written as PNG.
///
/// # Errors
/// An output folder holding files Sierra did not write (without `force`) or unwritable, no GPU
/// adapter, GPU errors, I/O errors; each with context. A lost GPU device ends the run with
/// [`sierra_render::RenderError::DeviceLost`] in the chain ([`crate::device_loss`]): the frames
/// written before it are complete, nothing later is written.
pub fn run_headless(game: Game, options: &HeadlessOptions) -> Result<RunSummary> {
    let mut names = output::headless_names(options.frames, options.profile);
    if game.audio.recorded().is_some() {
        // Listed in the manifest like every other file of the run.
        names.push(AUDIO_FILE.to_owned());
    }
    let out = output::OutputDir::replace(&options.out, &names, options.force)?;
    run_headless_into(game, options, &out)
}

/// [`run_headless`] into a folder already prepared with (at least) the names of
/// [`output::headless_names`]; `options.out` and `options.force` are not used.
///
/// # Errors
/// As [`run_headless`].
pub fn run_headless_into(
    game: Game,
    options: &HeadlessOptions,
    out: &output::OutputDir,
) -> Result<RunSummary> {
    let trace_path = out.file("trace.json");
    let profiling = if options.profile {
        Some(Profiler::start(Some(&trace_path)).context("starting the profiler")?)
    } else {
        None
    };
    let level_name = game.file.display().to_string();
    let (ctx, mut headless, mut runner) = start_headless(game, options.width, options.height)?;
    let sheet_indices = output::contact_sheet_indices(options.frames);
    let mut sheet_frames = Vec::with_capacity(sheet_indices.len());
    let mut records = Vec::with_capacity(options.frames);
    // Renderer frame number → index into `records`; GPU timings arrive by number.
    let mut record_of = std::collections::HashMap::new();
    let mut gpu = Vec::new();
    let mut progress = Progress::new("frame", options.frames as u64);
    let at_load = ctx.creation_counts();
    for index in 0..options.frames {
        let start = Instant::now();
        let created_before = ctx.creation_counts();
        if options.lose_device_at_frame == Some(index) {
            crate::device_loss::inject(&ctx, index as u64);
        }
        for _ in 1..options.ticks_per_frame {
            runner.tick();
        }
        let (image, stats) = runner
            .headless_frame(&ctx, &mut headless)
            .with_context(|| format!("frame {index}"))?;
        let cpu_ms = start.elapsed().as_secs_f64() * 1e3;
        let created = ctx.creation_counts().since(created_before);
        {
            profile_scope!("write_png");
            output::write_png(&image, &out.file(&output::frame_name(index)))?;
        }
        if let Some((profiler, _)) = &profiling {
            profiler.end_frame();
        }
        record_of.insert(stats.frame, records.len());
        gpu.extend(stats.gpu);
        records.push(FrameRecord {
            frame: index,
            tick: runner.game().clock.tick(),
            cpu_ms,
            gpu_ms: None,
            gpu_pass_ms: None,
            gpu_scopes: None,
            triangles: stats.triangles,
            draw_calls: stats.draw_calls,
            culled_draws: stats.culled_draws,
            pipelines_created: created.pipelines,
            shader_modules_created: created.shader_modules,
            gpu_pass_statistics: None,
        });
        if sheet_indices.contains(&index) {
            sheet_frames.push(image);
        }
        progress.inc();
    }
    progress.finish();
    gpu.extend(headless.renderer.flush_gpu_timings(&ctx)?);
    for timings in &gpu {
        if let Some(&i) = record_of.get(&timings.frame) {
            records[i].set_gpu(
                timings,
                u64::from(options.width) * u64::from(options.height),
            );
        }
    }
    let contact_sheet = out.file("contact_sheet.png");
    output::write_png(&output::contact_sheet(&sheet_frames), &contact_sheet)?;
    let stats_path = out.file("stats.json");
    let mean_cpu_ms = records.iter().map(|r| r.cpu_ms).sum::<f64>() / records.len().max(1) as f64;
    let stats = RunStats {
        level: level_name,
        adapter: ctx.adapter_summary(),
        width: options.width,
        height: options.height,
        tick_hz: 1.0 / runner.game().clock.dt(),
        startup_ms: startup_ms(&runner.game().startup),
        pipelines_at_load: at_load.pipelines,
        shader_modules_at_load: at_load.shader_modules,
        gpu_timing_waits: headless.renderer.gpu_timing_waits(),
        frame_times: output::FrameTimeSummary::of(&records),
        pass_invocations_median: output::median_invocations(&records),
        frames: records,
        cpu_scopes: profiling.as_ref().map(|(profiler, _)| profiler.stats()),
        gpu_memory: (&ctx.gpu_memory()).into(),
    };
    output::write_stats(&stats, &stats_path)?;
    if let Some((_, guard)) = profiling {
        let origin = guard.origin();
        guard.finish()?; // closes trace.json before the GPU track is appended
        let track: Vec<TrackSpan> = gpu.iter().flat_map(|t| gpu_spans(origin, t)).collect();
        sierra_profile::append_track(&trace_path, "GPU", &track)
            .context("adding the GPU track to trace.json")?;
    }
    let audio_path = out.dir().join(AUDIO_FILE);
    let audio = runner
        .game()
        .audio
        .write_recording(&audio_path)?
        .then_some(audio_path);
    Ok(RunSummary {
        audio,
        frames: options.frames,
        out: out.dir().to_path_buf(),
        contact_sheet,
        stats: stats_path,
        adapter: stats.adapter,
        mean_cpu_ms,
        traced: options.profile,
    })
}

/// `stats.json`'s `startup_ms`: every stage and their `total`.
pub fn startup_ms(startup: &StartupTimes) -> BTreeMap<String, f64> {
    startup_stages(startup).into_iter().collect()
}

/// Start-up stages in the order they ran, then `total`, milliseconds.
pub fn startup_stages(startup: &StartupTimes) -> Vec<(String, f64)> {
    startup
        .stages()
        .iter()
        .map(|&(stage, ms)| (stage.to_owned(), ms))
        .chain([("total".to_owned(), startup.total_ms())])
        .collect()
}

/// One frame's GPU scopes on the trace's GPU track. GPU timestamps share no clock with the
/// CPU, so the frame's block is anchored at the moment its last command buffer was submitted
/// ([`GpuFrameTimings::submitted`], after `origin`, the trace's time 0); within the block the
/// scopes keep their measured starts, durations and the gaps between them.
pub fn gpu_spans(origin: Instant, timings: &GpuFrameTimings) -> Vec<TrackSpan> {
    let anchor_us = timings
        .submitted
        .saturating_duration_since(origin)
        .as_secs_f64()
        * 1e6;
    timings
        .scopes
        .iter()
        .map(|s| TrackSpan {
            name: s.label.clone(),
            start_us: anchor_us + s.start_ms * 1e3,
            duration_us: s.ms() * 1e3,
        })
        .collect()
}
