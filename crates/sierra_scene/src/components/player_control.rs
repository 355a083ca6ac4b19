//! `PlayerControl`: the object the player moves.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Marks the player-controlled object (the controller itself lives in `sierra`).
///
/// The body moves at `speed` while walking and `runSpeed` while running (the RUN key held);
/// a `Character`'s clip binding with a `speed` (`"walk": {"clip": "Walk", "speed": 1.2}`)
/// overrides them, so the body moves as fast as the clip's feet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PlayerControl {
    /// Walking speed, metres per second (default 4).
    #[serde(default = "default_speed")]
    pub speed: f32,
    /// Running speed, metres per second (default: twice `speed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_speed: Option<f32>,
    /// Vertical launch speed of a jump, metres per second (default 5).
    #[serde(default = "default_jump_speed")]
    pub jump_speed: f32,
}

impl PlayerControl {
    /// The running speed, metres per second: `runSpeed`, else twice `speed`.
    pub fn run_speed(&self) -> f32 {
        self.run_speed.unwrap_or(2.0 * self.speed)
    }
}

fn default_speed() -> f32 {
    4.0
}

fn default_jump_speed() -> f32 {
    5.0
}
