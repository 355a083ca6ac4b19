//! Sierra, the game: the fixed-step game loop ([`game`], [`game_loop`]), the extract step from
//! game state to a complete render frame ([`scene_to_frame`], reading the game; what was uploaded
//! for it is the [`gpu_bridge`]'s), the one frame runner every entry
//! point uses ([`frame_runner`]: tick → extract → render → read-back; `docs/architecture.md`),
//! commands from the window ([`commands`]), headless and windowed runs, and the `sierra` command
//! line ([`cli`]).
//!
//! Cargo features (both default): `window` (the window, its egui overlay, the interactive
//! viewer and scripted key tracks: [`window`], [`overlay`], [`viewer`], [`key_track`]) and
//! `audio-device` (ambient sound on the sound device). `--no-default-features` builds the
//! headless engine: no winit, egui, cpal or ALSA (docs/building.md).

#![warn(missing_docs)]

/// `println!` that returns the write's `std::io::Result` instead of panicking, so a closed
/// stdout (`sierra inspect ... | head -1`) ends a command through its error path; `main` turns
/// a broken pipe into a quiet exit 0.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

pub mod camera_path;
pub mod cli;
pub mod commands;
pub mod device_loss;
pub mod fly_camera;
pub mod frame_runner;
pub mod frame_settings;
pub mod game;
pub mod game_audio;
pub mod game_loop;
pub mod gameplay;
pub mod gpu_bridge;
pub mod headless;
#[cfg(feature = "window")]
pub mod hot_reload;
#[cfg(feature = "window")]
pub mod key_track;
pub mod minimise_script;
pub mod output;
#[cfg(feature = "window")]
pub mod overlay;
pub mod prelude;
pub mod runtime_dir;
pub mod scene_to_frame;
#[cfg(feature = "window")]
pub mod viewer;
#[cfg(feature = "window")]
pub mod window;
pub mod world;

/// Reads a text file the user named on the command line (an input or key track) the way
/// assets are read: opened in its folder, a regular file (not a FIFO or device), at most the
/// default [`sierra_assets::Budgets::file_bytes`].
///
/// # Errors
/// An I/O error whose message says what was refused.
pub fn read_user_text(path: &std::path::Path) -> std::io::Result<String> {
    let budgets = sierra_assets::Budgets::DEFAULT;
    let read = || -> Result<Vec<u8>, sierra_assets::AssetError> {
        let (resolver, _) = sierra_assets::Resolver::for_user_file(path, None, budgets)?;
        resolver.read(std::path::Path::new(path.file_name().unwrap_or_default()))
    };
    let bytes = read().map_err(|e| match e {
        sierra_assets::AssetError::Io { source, .. } => source,
        sierra_assets::AssetError::NotFound { .. } => {
            std::io::Error::new(std::io::ErrorKind::NotFound, "no such file")
        }
        other => std::io::Error::other(other.to_string()),
    })?;
    String::from_utf8(bytes).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}
