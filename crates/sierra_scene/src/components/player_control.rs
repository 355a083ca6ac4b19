//! `PlayerControl`: the object the player moves.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Marks the player-controlled object (the controller itself lives in `sierra`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PlayerControl {
    /// Walking speed, metres per second (default 4).
    #[serde(default = "default_speed")]
    pub speed: f32,
    /// Vertical launch speed of a jump, metres per second (default 5).
    #[serde(default = "default_jump_speed")]
    pub jump_speed: f32,
}

fn default_speed() -> f32 {
    4.0
}

fn default_jump_speed() -> f32 {
    5.0
}
