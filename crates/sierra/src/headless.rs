//! Headless runs: N frames of a level into PNGs, a contact sheet and stats.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use sierra_render::{GpuContext, HeadlessRenderer};

use crate::game::Game;
use crate::output::{self, FrameRecord, RunStats};
use crate::scene_to_frame::{build_frame, empty_frame, upload_scene_meshes};

/// What to render.
#[derive(Clone, Debug)]
pub struct HeadlessOptions {
    /// Frames to render (each advances the simulation one tick).
    pub frames: usize,
    /// Image width, pixels.
    pub width: u32,
    /// Image height, pixels.
    pub height: u32,
    /// Output folder.
    pub out: PathBuf,
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
}

impl RunSummary {
    /// One line for the terminal.
    pub fn line(&self) -> String {
        format!(
            "wrote {} frames (frame_0000.png..frame_{:04}.png), contact_sheet.png and stats.json to {} [{}, {:.1} ms/frame]",
            self.frames,
            self.frames.saturating_sub(1),
            self.out.display(),
            self.adapter,
            self.mean_cpu_ms
        )
    }
}

/// Renders `game` headless: one tick per frame, every frame written as PNG.
///
/// # Errors
/// Unwritable output folder, no GPU adapter, GPU errors, I/O errors; each with context.
pub fn run_headless(mut game: Game, options: &HeadlessOptions) -> Result<RunSummary> {
    output::prepare_out_dir(&options.out)?;
    let level_name = game.file.display().to_string();
    let ctx = GpuContext::headless()?;
    let mut headless = HeadlessRenderer::new(&ctx, options.width, options.height)
        .with_context(|| format!("creating a {}x{} renderer", options.width, options.height))?;
    let meshes = upload_scene_meshes(&ctx, &mut headless.renderer, &game)?;
    let aspect = options.width as f32 / options.height as f32;
    let mut frame = empty_frame();
    let sheet_indices = output::contact_sheet_indices(options.frames);
    let mut sheet_frames = Vec::with_capacity(sheet_indices.len());
    let mut records = Vec::with_capacity(options.frames);
    for index in 0..options.frames {
        let start = Instant::now();
        game.tick();
        build_frame(&game, &meshes, aspect, &mut frame);
        let (image, stats) = headless
            .render(&ctx, &frame)
            .with_context(|| format!("rendering frame {index}"))?;
        let cpu_ms = start.elapsed().as_secs_f64() * 1e3;
        output::write_png(&image, &output::frame_path(&options.out, index))?;
        records.push(FrameRecord {
            frame: index,
            tick: game.clock.tick(),
            cpu_ms,
            gpu_ms: stats.gpu_ms,
            gpu_pass_ms: stats
                .pass_gpu_ms
                .iter()
                .map(|(name, ms)| ((*name).to_owned(), *ms))
                .collect(),
            triangles: stats.triangles,
            draw_calls: stats.draw_calls,
        });
        if sheet_indices.contains(&index) {
            sheet_frames.push(image);
        }
    }
    let contact_sheet = options.out.join("contact_sheet.png");
    output::write_png(&output::contact_sheet(&sheet_frames), &contact_sheet)?;
    let stats_path = options.out.join("stats.json");
    let mean_cpu_ms = records.iter().map(|r| r.cpu_ms).sum::<f64>() / records.len().max(1) as f64;
    let stats = RunStats {
        level: level_name,
        adapter: ctx.adapter_summary(),
        width: options.width,
        height: options.height,
        tick_hz: 1.0 / game.clock.dt(),
        frames: records,
    };
    output::write_stats(&stats, &stats_path)?;
    Ok(RunSummary {
        frames: options.frames,
        out: options.out.clone(),
        contact_sheet,
        stats: stats_path,
        adapter: stats.adapter,
        mean_cpu_ms,
    })
}
