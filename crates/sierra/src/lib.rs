//! Sierra, the game: the fixed-step game loop, level → frame conversion,
//! headless and windowed runs, and the `sierra` command line ([`cli`]).

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
pub mod character_meshes;
pub mod cli;
pub mod fly_camera;
pub mod game;
pub mod game_audio;
pub mod game_loop;
pub mod gameplay;
pub mod headless;
pub mod key_track;
pub mod output;
pub mod overlay;
pub mod scene_to_frame;
pub mod window;
pub mod world;
