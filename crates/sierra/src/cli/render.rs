//! `sierra render LEVEL.json --frames N --size WxH --out DIR [--play-audio]`: the frames, and
//! when the level has `AudioLoop`s, `audio.wav`, the sound mix of the same ticks heard from
//! the camera (offline, no sound device); `--play-audio` also plays it on the device.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use sierra_audio::AudioOptions;

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
    #[arg(long, default_value_t = 1, value_parser = crate::cli::limits::parse_frames)]
    pub frames: u32,
    /// Image size in pixels, WIDTHxHEIGHT.
    #[arg(long, default_value = "640x360")]
    pub size: Size,
    /// Output folder (created if missing). It must be new, empty, or hold only files of an
    /// earlier Sierra run (listed in its `.sierra-manifest.json`), which are replaced.
    #[arg(long, default_value = "out/render")]
    pub out: PathBuf,
    /// Overwrite files in `--out` under the names this run writes even when Sierra did not
    /// write them; every other file is left alone.
    #[arg(long)]
    pub force: bool,
    /// Scripted input track (JSON: timed key presses by tick) replayed instead of a keyboard.
    #[arg(long)]
    pub input: Option<PathBuf>,
    /// Also play the level's sound on the default sound device while rendering (the
    /// offline mix, `audio.wav`, is written either way).
    #[arg(long)]
    pub play_audio: bool,
    /// Draw every scene pass (terrain and meshes, skinned meshes, crowds, sea) as lines where
    /// the adapter can (`POLYGON_MODE_LINE`; filled elsewhere).
    #[arg(long)]
    pub wireframe: bool,
    /// A debug view instead of the lit image (`albedo`: unlit albedo; `foam`: the sea's foam
    /// mask, grey on black).
    #[arg(long, value_enum, default_value_t)]
    pub debug_view: super::DebugViewArg,
    /// Asset root and budgets.
    #[command(flatten)]
    pub assets: super::AssetArgs,
    /// Fault test: destroy the GPU device before frame N (the run ends with the device-loss
    /// error, exit 3; `docs/faults.md`).
    #[arg(long, hide = true, value_name = "N")]
    pub test_lose_device_at_frame: Option<u32>,
}

/// Runs `sierra render`.
///
/// # Errors
/// Level errors (file, line:column, JSON path), an unwritable `--out`, GPU errors.
pub fn run(args: RenderArgs) -> Result<()> {
    let mut game = Game::load_with(&args.level, &args.assets.load_options(), DEFAULT_TICK_HZ)?;
    game.wireframe = args.wireframe;
    game.debug_view = args.debug_view.into();
    if let Some(track) = &args.input {
        game.gameplay.track = Some(crate::gameplay::input::InputTrack::load(track)?);
    }
    if game.audio.loop_count() > 0 {
        game.audio
            .start_recording(&game.scene, sierra_audio::BUILTIN_SAMPLE_RATE)
            .with_context(|| format!("{}: audio", args.level.display()))?;
        if args.play_audio {
            let status = game
                .audio
                .start_playback(&game.scene, AudioOptions::default());
            // A silent fallback was already reported by the audio engine (once, as a warning).
            if !matches!(status, sierra_audio::AudioStatus::Silent { .. }) {
                eprintln!("{status}");
            }
        }
    }
    let summary = run_headless(
        game,
        &HeadlessOptions {
            frames: args.frames as usize,
            ticks_per_frame: 1,
            width: args.size.width,
            height: args.size.height,
            out: args.out,
            force: args.force,
            profile: true,
            lose_device_at_frame: args.test_lose_device_at_frame.map(|n| n as usize),
        },
    )?;
    outln!("{}", summary.line())?;
    Ok(())
}
