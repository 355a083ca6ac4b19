//! Commands from outside the simulation — the window's debug overlay and keys — applied by the
//! next tick ([`crate::game::Game::tick`]), never in the middle of one or after a frame was
//! extracted: the overlay asks, the game decides when.

use glam::{Vec2, Vec3};

/// A change to the running game, queued with [`crate::game::Game::push_command`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Command {
    /// Character `character` (index into `Gameplay::characters`) crossfades to clip `clip` over
    /// `fade` seconds, keeping its playback mode.
    PlayClip {
        /// Character index.
        character: usize,
        /// Clip index of the character's model.
        clip: usize,
        /// Crossfade, seconds.
        fade: f32,
    },
    /// Sets character `character`'s playing clip time, seconds (the scrubber).
    Scrub {
        /// Character index.
        character: usize,
        /// Clip time, seconds.
        time: f32,
    },
    /// Points the sun: `direction` is the way its light travels (world space, normalised by
    /// the renderer).
    Sun {
        /// Direction of the light.
        direction: Vec3,
    },
    /// Bloom threshold and intensity of the level's post settings.
    Bloom {
        /// Bright-pass threshold (linear HDR).
        threshold: f32,
        /// Added fraction of the blurred highlights.
        intensity: f32,
    },
    /// Draws meshes as lines (where the adapter can) or filled.
    Wireframe(bool),
    /// A water drop on the sea at world `(x, z)`, metres.
    DropWater {
        /// Where, world `(x, z)`.
        at: Vec2,
    },
}
