//! `Spinner`: turns its node at a constant rate (seed 000's spinning platforms).

use glam::{Quat, Vec3};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Turns its node about `axis` at `degreesPerSecond`.
///
/// The axis is in the node's parent frame (the rotation is applied before the node's
/// own rotation), so a platform tilted by its `rotation` still spins about the
/// parent's axis. Positive rates turn counter-clockwise looking down the axis
/// (right-hand rule).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Spinner {
    /// Rotation axis in the parent frame (default +Y; need not be normalised).
    #[serde(default = "default_axis")]
    #[schemars(with = "[f32; 3]")]
    pub axis: Vec3,
    /// Turn rate in degrees per second.
    pub degrees_per_second: f32,
}

fn default_axis() -> Vec3 {
    Vec3::Y
}

impl Spinner {
    /// The node's local rotation after `dt` seconds more of spinning, renormalised so
    /// that thousands of ticks do not drift.
    pub fn spin(&self, rotation: Quat, dt: f32) -> Quat {
        let axis = self.axis.try_normalize().unwrap_or(Vec3::Y);
        (Quat::from_axis_angle(axis, self.degrees_per_second.to_radians() * dt) * rotation)
            .normalize()
    }
}
