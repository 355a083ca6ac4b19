//! What a program using Sierra as a library needs, in one `use sierra::prelude::*;`: a level
//! built in code (objects, components, camera), the game, and the two ways to show it (PNG
//! frames headless, or a window), all on the one frame runner. `examples/hello_character.rs`
//! shows them together.

pub use crate::frame_runner::FrameRunner;
pub use crate::game::Game;
pub use crate::game_loop::DEFAULT_TICK_HZ;
pub use crate::gameplay::input::{InputTrack, Key};
pub use crate::headless::{run_headless, HeadlessOptions, RunSummary};
#[cfg(feature = "window")]
pub use crate::window::{run_window, WindowOptions};
pub use glam::{Quat, Vec3};
pub use sierra_scene::components::{
    AnimatorClip, Character, ClipBinding, ClipWithSpeed, FollowCamera, PlayerControl, PointLight,
};
pub use sierra_scene::level::{Camera, Material, Sun};
pub use sierra_scene::{Component, Level, MeshRef, ObjectDef, Primitive};
