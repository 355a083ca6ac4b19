//! `FollowCamera`: the camera follows an object.

use glam::Vec3;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Makes the level camera follow an object (the gameplay code in `sierra` does the motion).
///
/// The camera eases towards `target position + offset` with a critically damped spring
/// (or exponential smoothing) of rate `stiffness`, and looks at the target.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FollowCamera {
    /// Name of the object to follow (must exist in the level).
    pub target: String,
    /// Camera position relative to the target, world axes, metres.
    #[schemars(with = "[f32; 3]")]
    pub offset: Vec3,
    /// Smoothing rate in 1/seconds (default 5): larger follows more tightly.
    #[serde(default = "default_stiffness")]
    pub stiffness: f32,
}

fn default_stiffness() -> f32 {
    5.0
}
