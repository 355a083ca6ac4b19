//! `sierra bench soak [--frames 2000] [--size 64x64]`: runs a level (the demo by default)
//! headless and compares the resident set size (`VmRSS` of `/proc/self/status`) at frame 200
//! with the end: a leak of per-frame allocations or GPU objects shows as growth. Fails (non-zero
//! exit) when the end is more than 5 % above frame 200.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::Args;

use super::scene::SceneRunner;
use crate::cli::demo::DEMO_LEVEL;
use crate::cli::Size;

/// Frame at which the baseline RSS is taken (start-up and first-use caches have settled).
pub const BASELINE_FRAME: usize = 200;

/// Largest allowed growth from the baseline to the end, as a fraction.
pub const MAX_GROWTH: f64 = 0.05;

/// Arguments of `sierra bench soak`.
#[derive(Debug, Args)]
pub struct SoakArgs {
    /// Frames to run (> 200).
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u32).range(201..=crate::cli::limits::MAX_FRAMES as i64))]
    pub frames: u32,
    /// Render size, WIDTHxHEIGHT.
    #[arg(long, default_value = "64x64")]
    pub size: Size,
    /// Level to run instead of the demo.
    #[arg(long)]
    pub level: Option<PathBuf>,
}

/// Resident set sizes of a soak run, kibibytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SoakReport {
    /// Frames run.
    pub frames: usize,
    /// Skinned meshes skinned over the run (the level's characters × frames).
    pub skinned_draws: u64,
    /// `VmRSS` after frame [`BASELINE_FRAME`], KiB.
    pub baseline_kib: u64,
    /// `VmRSS` after the last frame, KiB.
    pub end_kib: u64,
}

impl SoakReport {
    /// End over baseline, minus one (0.03 = 3 % growth).
    pub fn growth(&self) -> f64 {
        self.end_kib as f64 / self.baseline_kib.max(1) as f64 - 1.0
    }
}

/// This process's resident set size in KiB (`VmRSS` of `/proc/self/status`, Linux).
///
/// # Errors
/// No `/proc` (not Linux) or no `VmRSS` line.
pub fn rss_kib() -> Result<u64> {
    let status =
        std::fs::read_to_string("/proc/self/status").context("reading /proc/self/status")?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .context("no VmRSS line in /proc/self/status")
}

/// Runs `frames` headless frames of `level` at `width` × `height` and measures RSS.
///
/// # Errors
/// Level and GPU errors, no `/proc`.
pub fn soak(level: &Path, frames: usize, width: u32, height: u32) -> Result<SoakReport> {
    let mut runner = SceneRunner::new(level, width, height)?;
    let mut baseline_kib = 0;
    let mut skinned_draws = 0;
    let mut progress = sierra_profile::progress::Progress::new("soak frame", frames as u64);
    for index in 0..frames {
        let (_, stats) = runner.frame().with_context(|| format!("frame {index}"))?;
        skinned_draws += u64::from(stats.skinned_draws);
        if index + 1 == BASELINE_FRAME {
            baseline_kib = rss_kib()?;
        }
        progress.inc();
    }
    progress.finish();
    Ok(SoakReport {
        frames,
        skinned_draws,
        baseline_kib,
        end_kib: rss_kib()?,
    })
}

/// Runs `sierra bench soak`.
///
/// # Errors
/// As [`soak`], and growth above [`MAX_GROWTH`].
pub fn run(args: SoakArgs) -> Result<()> {
    let level = args.level.as_deref().unwrap_or(Path::new(DEMO_LEVEL));
    let start = std::time::Instant::now();
    let report = soak(
        level,
        args.frames as usize,
        args.size.width,
        args.size.height,
    )?;
    outln!(
        "soak: {} frames at {}x{} in {:.1} s ({} skinned draws); RSS at frame {BASELINE_FRAME}: {} KiB, at the end: {} KiB ({:+.2} %)",
        report.frames,
        args.size.width,
        args.size.height,
        start.elapsed().as_secs_f64(),
        report.skinned_draws,
        report.baseline_kib,
        report.end_kib,
        report.growth() * 100.0
    )?;
    if report.growth() > MAX_GROWTH {
        bail!(
            "memory grew {:.2} % from frame {BASELINE_FRAME} to the end (limit {:.0} %)",
            report.growth() * 100.0,
            MAX_GROWTH * 100.0
        );
    }
    Ok(())
}
