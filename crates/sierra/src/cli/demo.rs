//! `sierra demo [--headless] [--frames N] [--size WxH] [--out DIR]`: the built-in demo level.

use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::Args;

use super::Size;
use crate::game::Game;
use crate::game_loop::DEFAULT_TICK_HZ;
use crate::headless::{run_headless, HeadlessOptions};
use crate::window::{run_window, WindowOptions, WindowOutcome};

/// The demo level shipped in the repository.
pub const DEMO_LEVEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/levels/demo.json");

/// Headless frame count when `--frames` is not given.
pub const DEFAULT_HEADLESS_FRAMES: u32 = 120;

/// Arguments of `sierra demo`.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Render headless even when a display exists.
    #[arg(long)]
    pub headless: bool,
    /// Frames to render (headless default 120; a window runs until Esc when not given).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub frames: Option<u32>,
    /// Image or window size in pixels, WIDTHxHEIGHT.
    #[arg(long, default_value = "960x540")]
    pub size: Size,
    /// Output folder of a headless run.
    #[arg(long, default_value = "out/demo")]
    pub out: PathBuf,
    /// Level to run instead of the built-in demo.
    #[arg(long)]
    pub level: Option<PathBuf>,
    /// Window test: resize the window to 1x1 and back.
    #[arg(long, hide = true)]
    pub test_resize: bool,
}

/// Runs `sierra demo`.
///
/// # Errors
/// Level, output, GPU and window errors.
pub fn run(args: DemoArgs) -> Result<()> {
    let level = args.level.as_deref().unwrap_or(Path::new(DEMO_LEVEL));
    let has_display = ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()));
    if !args.headless && has_display {
        let options = WindowOptions {
            width: args.size.width,
            height: args.size.height,
            frames: args.frames.map(u64::from),
            test_resize: args.test_resize,
        };
        match run_window(Game::load(level, DEFAULT_TICK_HZ)?, options)? {
            WindowOutcome::Ran { frames, adapter } => {
                println!("window closed after {frames} frames [{adapter}]");
                return Ok(());
            }
            WindowOutcome::NoDisplay(reason) => {
                println!("no window ({reason}); rendering headless instead");
            }
        }
    }
    run_headless_demo(level, &args)
}

fn run_headless_demo(level: &Path, args: &DemoArgs) -> Result<()> {
    let summary = run_headless(
        Game::load(level, DEFAULT_TICK_HZ)?,
        &HeadlessOptions {
            frames: args.frames.unwrap_or(DEFAULT_HEADLESS_FRAMES) as usize,
            width: args.size.width,
            height: args.size.height,
            out: args.out.clone(),
            profile: true,
        },
    )?;
    println!("{}", summary.line());
    Ok(())
}
