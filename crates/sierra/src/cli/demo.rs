//! `sierra demo [--headless] [--frames N] [--size WxH] [--out DIR] [--camera-path aerial|walk]
//! [--mute]`: the built-in demo level (the island), with its ambient sound. A headless run also
//! writes a few seconds of the level's sound mix as `ambient.wav`.

use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::Args;

use super::Size;
use crate::camera_path::{CameraPath, CameraPathKind};
use crate::game::Game;
use crate::game_loop::DEFAULT_TICK_HZ;
use crate::gameplay::input::InputTrack;
use crate::headless::{run_headless_into, HeadlessOptions};
#[cfg(feature = "window")]
use crate::window::{run_window, WindowOptions, WindowOutcome};
use sierra_audio::{write_wav, AudioOptions};

/// The demo level shipped in the repository.
pub const DEMO_LEVEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/levels/demo.json");

/// Headless image size when `--size` is not given.
pub const HEADLESS_SIZE: Size = Size {
    width: 480,
    height: 270,
};

/// Window size when `--size` is not given (made smaller to fit the screen).
pub const WINDOW_SIZE: Size = Size {
    width: 1280,
    height: 720,
};

/// Headless frame count when `--frames` is not given (at the default 480x270 on the software
/// rasteriser, about 30 s here).
pub const DEFAULT_HEADLESS_FRAMES: u32 = 60;

/// Fixed ticks each headless demo frame advances: 60 frames show 4 s of the island.
pub const HEADLESS_TICKS_PER_FRAME: u32 = 4;

/// The headless demo's scripted play (`assets/input/demo_play.json`): from the end of the
/// aerial flight, the player walks up the beach, jumps onto the red platform and walks off it.
pub const DEMO_PLAY: &str = include_str!("../../../../assets/input/demo_play.json");

/// Seconds a windowed camera path takes.
pub const WINDOW_PATH_SECONDS: f32 = 40.0;

/// Seconds of the level's sound mix written as `ambient.wav` by a headless run.
pub const AMBIENT_SECONDS: f64 = 4.0;

/// File name of the sound mix a headless run writes.
pub const AMBIENT_FILE: &str = "ambient.wav";

/// Arguments of `sierra demo`.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Render headless even when a display exists.
    #[arg(long)]
    pub headless: bool,
    /// Frames to render (headless default 60, 4 ticks each; a window runs until Esc when not
    /// given).
    #[arg(long, value_parser = crate::cli::limits::parse_frames)]
    pub frames: Option<u32>,
    /// Image or window size in pixels, WIDTHxHEIGHT (default: 480x270 headless; a 1280x720
    /// window, made smaller to fit the screen).
    #[arg(long)]
    pub size: Option<Size>,
    /// Output folder of a headless run: new, empty, or an earlier Sierra run's (replaced).
    #[arg(long, default_value = "out/demo")]
    pub out: PathBuf,
    /// Overwrite files in `--out` (or the screenshot folder) under the names this run writes
    /// even when Sierra did not write them; every other file is left alone.
    #[arg(long)]
    pub force: bool,
    /// Level to run instead of the built-in demo.
    #[arg(long)]
    pub level: Option<PathBuf>,
    /// Scripted camera path (headless: run once over the frames; default aerial).
    #[arg(long, value_enum)]
    pub camera_path: Option<CameraPathKind>,
    /// No sound (no sound device is opened).
    #[arg(long)]
    pub mute: bool,
    /// Headless: draw every scene pass as lines where the adapter can (in the window, `F`
    /// toggles wireframe).
    #[arg(long)]
    pub wireframe: bool,
    /// Headless: a debug view instead of the lit image (`foam`: the sea's foam mask).
    #[arg(long, value_enum, default_value_t)]
    pub debug_view: super::DebugViewArg,
    /// Scripted key track for the window (see `sierra::key_track`): key events by game tick,
    /// one tick per frame; the window closes after the track's last event unless `--frames`
    /// says how long to run.
    #[arg(long)]
    pub input: Option<PathBuf>,
    /// Folder for window screenshots (F12 or P).
    #[arg(long, default_value = "out/screenshots")]
    pub screenshot_dir: PathBuf,
    /// Watch the level's files and reload it when they change (the window's default; F5
    /// reloads by hand either way). A headless run never watches.
    #[arg(long, overrides_with = "no_watch")]
    pub watch: bool,
    /// Do not watch the level's files (F5 still reloads).
    #[arg(long, overrides_with = "watch")]
    pub no_watch: bool,
    /// Read the engine's reloadable WGSL (bloom.wgsl, tonemap.wgsl, fxaa.wgsl) from DIR instead
    /// of the embedded copies, in the window; an edit rebuilds that pass's pipelines.
    #[arg(long, value_name = "DIR")]
    pub shader_dir: Option<PathBuf>,
    /// Reload test: write a screenshot after each successful reload.
    #[arg(long, hide = true)]
    pub test_screenshot_on_reload: bool,
    /// Look test: draw the sea as before issue #49 (the control of
    /// `crates/sierra/tests/sea_foam_view.rs`).
    #[arg(long, hide = true)]
    pub test_sea_legacy: bool,
    /// Window test: resize the window to 1x1 and back.
    #[arg(long, hide = true)]
    pub test_resize: bool,
    /// Window test: inject a minimise (0x0 and unmap), restore, then a storm of 100 resizes.
    #[arg(long, hide = true)]
    pub test_minimise: bool,
    /// Fault test: destroy the GPU device before frame N, headless or in the window (the run
    /// ends with the device-loss error, exit 3; `docs/faults.md`).
    #[arg(long, hide = true, value_name = "N")]
    pub test_lose_device_at_frame: Option<u32>,
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
    if !args.headless && has_display && run_in_window(level, &args)? {
        return Ok(());
    }
    if args.watch || args.shader_dir.is_some() {
        eprintln!("note: --watch and --shader-dir apply to the window; a headless run reads the files once");
    }
    run_headless_demo(level, &args)
}

/// Runs the demo in a window until it closes; `Ok(false)` when no window could open (the caller
/// renders headless instead).
#[cfg(feature = "window")]
fn run_in_window(level: &Path, args: &DemoArgs) -> Result<bool> {
    let options = sierra_scene::LoadOptions::default();
    let mut cache = None;
    let mut game = Game::load_cached(level, &options, None, DEFAULT_TICK_HZ, &mut cache)?;
    start_audio(&mut game, args.mute);
    let reload = crate::hot_reload::ReloadSetup {
        level: level.to_path_buf(),
        options,
        cache,
        watch: !args.no_watch,
        ignore: vec![args.screenshot_dir.clone()],
        shader_dir: args.shader_dir.clone(),
    };
    let size = args.size.unwrap_or(WINDOW_SIZE);
    let options = WindowOptions {
        width: size.width,
        height: size.height,
        fit_to_screen: args.size.is_none(),
        frames: args.frames.map(u64::from),
        test_resize: args.test_resize,
        test_minimise: args.test_minimise,
        lose_device_at_frame: args.test_lose_device_at_frame.map(u64::from),
        key_track: args
            .input
            .as_deref()
            .map(crate::key_track::KeyTrack::load)
            .transpose()?,
        screenshot_dir: args.screenshot_dir.clone(),
        force: args.force,
        reload: Some(reload),
        screenshot_on_reload: args.test_screenshot_on_reload,
    };
    game.camera_path = args
        .camera_path
        .map(|kind| CameraPath::new(kind, WINDOW_PATH_SECONDS));
    match run_window(game, options)? {
        WindowOutcome::Ran {
            frames,
            adapter,
            overlay,
            gpu_timed,
            gpu_timing_waits,
            ..
        } => {
            if let Some(shown) = overlay {
                outln!("overlay: {}", shown.fps)?;
                outln!("overlay: {}", shown.gpu)?;
            }
            if gpu_timed {
                outln!("gpu timing: on, {gpu_timing_waits} waits")?;
            } else {
                outln!("gpu timing: off (no timestamp queries on this adapter)")?;
            }
            outln!("window closed after {frames} frames [{adapter}]")?;
            Ok(true)
        }
        WindowOutcome::NoDisplay(reason) => {
            outln!("no window ({reason}); rendering headless instead")?;
            Ok(false)
        }
    }
}

/// A headless build (no `window` feature) has no window to open: it says so and the caller
/// renders headless.
#[cfg(not(feature = "window"))]
fn run_in_window(_level: &Path, _args: &DemoArgs) -> Result<bool> {
    outln!("no window (this sierra was built without the `window` feature); rendering headless instead")?;
    Ok(false)
}

/// Starts the level's `AudioLoop`s on the sound device (silently, saying so once, without
/// one); the game's ticks keep the listener at the camera while it runs.
fn start_audio(game: &mut Game, mute: bool) {
    let loops = game.audio.loop_count();
    if loops == 0 {
        return;
    }
    let status = game
        .audio
        .start_playback(&game.scene, AudioOptions { mute });
    // Status on stderr: stdout keeps the one-line summary of what was written. A silent
    // fallback was already reported by the audio engine (once, as a warning).
    if !matches!(status, sierra_audio::AudioStatus::Silent { .. }) {
        eprintln!("{status} ({loops} loops)");
    }
}

/// Writes [`AMBIENT_SECONDS`] of the level's loops, mixed offline as heard from the level
/// camera, to `path` (none written when the level has no loops).
///
/// # Errors
/// Unloadable sound files, I/O errors.
pub fn write_ambient_wav(game: &Game, path: &Path) -> Result<bool> {
    if game.audio.loop_count() == 0 {
        return Ok(false);
    }
    let mut mixer = game
        .audio
        .mixer(&game.scene, sierra_audio::BUILTIN_SAMPLE_RATE)?;
    let frames = mixer.render_seconds(AMBIENT_SECONDS);
    write_wav(path, mixer.sample_rate(), &frames)?;
    Ok(true)
}

/// The headless demo's script over `ticks` ticks: the aerial flight for the first quarter, then
/// the player's follow camera while the player plays [`DEMO_PLAY`] from the end of the flight.
///
/// # Errors
/// A malformed [`DEMO_PLAY`] (a build defect, named).
pub fn script_headless_demo(game: &mut Game, ticks: u64) -> Result<()> {
    let intro = ticks / 4;
    let mut path = CameraPath::new(
        CameraPathKind::Aerial,
        intro as f32 / DEFAULT_TICK_HZ as f32,
    );
    path.then_follow = true;
    game.camera_path = Some(path);
    let track = InputTrack::from_json_str(DEMO_PLAY, Path::new("assets/input/demo_play.json"))?;
    game.gameplay.track = Some(track.delayed(intro));
    Ok(())
}

fn run_headless_demo(level: &Path, args: &DemoArgs) -> Result<()> {
    let frames = args.frames.unwrap_or(DEFAULT_HEADLESS_FRAMES);
    let mut game = Game::load(level, DEFAULT_TICK_HZ)?;
    game.wireframe = args.wireframe;
    game.debug_view = args.debug_view.into();
    if let Some(sea) = game.world.sea.as_mut() {
        sea.legacy_look = args.test_sea_legacy;
    }
    start_audio(&mut game, args.mute);
    let ticks = u64::from(frames) * u64::from(HEADLESS_TICKS_PER_FRAME);
    let seconds = ticks as f32 / DEFAULT_TICK_HZ as f32;
    match args.camera_path {
        None if args.level.is_none() => script_headless_demo(&mut game, ticks)?,
        kind => {
            game.camera_path = Some(CameraPath::new(
                kind.unwrap_or(CameraPathKind::Aerial),
                seconds,
            ));
        }
    }
    let size = args.size.unwrap_or(HEADLESS_SIZE);
    let options = HeadlessOptions {
        frames: frames as usize,
        ticks_per_frame: HEADLESS_TICKS_PER_FRAME,
        width: size.width,
        height: size.height,
        out: args.out.clone(),
        force: args.force,
        profile: true,
        lose_device_at_frame: args.test_lose_device_at_frame.map(|n| n as usize),
    };
    let mut names = crate::output::headless_names(options.frames, options.profile);
    names.push(AMBIENT_FILE.to_owned());
    if game.audio.recorded().is_some() {
        names.push(crate::headless::AUDIO_FILE.to_owned());
    }
    let out = crate::output::OutputDir::replace(&args.out, &names, args.force)?;
    // Written even with --mute: it is a file, not playback.
    let ambient_path = out.file(AMBIENT_FILE);
    let ambient = write_ambient_wav(&game, &ambient_path)?.then_some(ambient_path);
    let summary = run_headless_into(game, &options, &out)?;
    match ambient {
        Some(path) => outln!(
            "{}; {AMBIENT_SECONDS} s of the level's sound in {}",
            summary.line(),
            path.display()
        ),
        None => outln!("{}", summary.line()),
    }?;
    Ok(())
}
