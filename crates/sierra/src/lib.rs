//! Sierra, the game: the fixed-step game loop, level → frame conversion,
//! headless and windowed runs, and the `sierra` command line ([`cli`]).

#![warn(missing_docs)]

pub mod camera_path;
pub mod cli;
pub mod game;
pub mod game_loop;
pub mod gameplay;
pub mod headless;
pub mod output;
pub mod scene_to_frame;
pub mod window;
pub mod world;
