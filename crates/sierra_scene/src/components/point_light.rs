//! `PointLight`: a light that follows its node (seed 000's point light component).

use glam::Vec3;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A point light at its node's world position.
///
/// Radiance is `lightColor * intensity`, fully bright within `innerRadius` and falling to
/// zero at `outerRadius` with `1 - smoothstep(inner, outer, distance)` (seed 000's shader).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PointLight {
    /// Linear RGB colour.
    #[schemars(with = "[f32; 3]")]
    pub light_color: Vec3,
    /// Multiplier on `lightColor` (default 1).
    #[serde(default = "one")]
    pub intensity: f32,
    /// Distance in metres within which the light is at full strength.
    pub inner_radius: f32,
    /// Distance in metres at which the light reaches zero.
    pub outer_radius: f32,
}

fn one() -> f32 {
    1.0
}
