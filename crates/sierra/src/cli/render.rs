//! `sierra render LEVEL.json --frames N --size WxH --out DIR`.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use super::Size;
use crate::game::Game;
use crate::game_loop::DEFAULT_TICK_HZ;
use crate::headless::{run_headless, HeadlessOptions};

/// Arguments of `sierra render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// Level file (JSON, format v0; see assets/levels/schema.json).
    pub level: PathBuf,
    /// Frames to render; each advances the simulation one 60 Hz tick.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub frames: u32,
    /// Image size in pixels, WIDTHxHEIGHT.
    #[arg(long, default_value = "640x360")]
    pub size: Size,
    /// Output folder (created if missing).
    #[arg(long, default_value = "out/render")]
    pub out: PathBuf,
    /// Scripted input track (JSON: timed key presses by tick) replayed instead of a keyboard.
    #[arg(long)]
    pub input: Option<PathBuf>,
    /// Asset root and budgets.
    #[command(flatten)]
    pub assets: super::AssetArgs,
}

/// Runs `sierra render`.
///
/// # Errors
/// Level errors (file, line:column, JSON path), an unwritable `--out`, GPU errors.
pub fn run(args: RenderArgs) -> Result<()> {
    let mut game = Game::load_with(&args.level, &args.assets.load_options(), DEFAULT_TICK_HZ)?;
    if let Some(track) = &args.input {
        game.gameplay.track = Some(crate::gameplay::input::InputTrack::load(track)?);
    }
    let summary = run_headless(
        game,
        &HeadlessOptions {
            frames: args.frames as usize,
            width: args.size.width,
            height: args.size.height,
            out: args.out,
            profile: true,
        },
    )?;
    println!("{}", summary.line());
    Ok(())
}
