//! `FigureEight`: the object flies a figure-eight (a 1:2 Lissajous curve) around its level position.

use glam::Vec3;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Moves the object's local translation to `start + (a·sin ωt, b·sin 2ωt, c·sin 2ωt)` with
/// `(a, b, c) = size` and `ω = 2π / period`: a figure eight (the glowing orb of seed 000).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FigureEight {
    /// Amplitudes along the parent's X, Y, Z, metres.
    #[schemars(with = "[f32; 3]")]
    pub size: Vec3,
    /// Seconds per loop of the eight (default 4, must be > 0).
    #[serde(default = "default_period")]
    pub period: f32,
}

impl FigureEight {
    /// Offset from the start position at `time` seconds.
    pub fn offset(&self, time: f32) -> Vec3 {
        let w = std::f32::consts::TAU / self.period.max(1e-3) * time;
        Vec3::new(
            self.size.x * w.sin(),
            self.size.y * (2.0 * w).sin(),
            self.size.z * (2.0 * w).sin(),
        )
    }
}

fn default_period() -> f32 {
    4.0
}
