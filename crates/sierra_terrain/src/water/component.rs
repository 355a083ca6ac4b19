//! The `Water` level component: the parameters a level file gives the sea.

use glam::Vec2;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::error::{Result, WaterError};
use super::init::InitialState;
use super::params::{Boundary, WaterParams};

/// `Water` component of a level (JSON, camelCase, unknown fields refused), e.g.
/// ```json
/// { "type": "Water", "gridSize": [256, 256], "cellSize": 1.0, "initialLevel": 0.0,
///   "boundary": "closed", "bump": { "center": [64, 64], "amplitude": 1.0, "frequency": 0.3 },
///   "drops": { "period": 2.0, "radius": 3.0, "amplitude": 0.5, "seed": 7 } }
/// ```
/// The grid lies in the node's local XZ plane from `(0, 0)` to `gridSize * cellSize` metres.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WaterComponent {
    /// Cells along X and Z.
    #[serde(default = "default_grid")]
    pub grid_size: [usize; 2],
    /// Cell side, metres.
    #[serde(default = "one")]
    pub cell_size: f32,
    /// Rest water surface height, metres (node-local Y).
    #[serde(default)]
    pub initial_level: f32,
    /// `"closed"` (reflective) or `"open"` (outflow) edges.
    #[serde(default)]
    pub boundary: Boundary,
    /// Flux damping, 1/s.
    #[serde(default)]
    pub damping: f32,
    /// Fixed simulation step, seconds; several steps run per frame.
    #[serde(default = "default_dt")]
    pub time_step: f32,
    /// Optional sinc bump at start (seed 002, Annex E).
    #[serde(default)]
    pub bump: Option<BumpSpec>,
    /// Optional periodic drops (birds diving into the sea).
    #[serde(default)]
    pub drops: Option<DropSchedule>,
    /// Where the game simulates the sea: `"gpu"` (compute shader, default) or `"cpu"`
    /// ([`super::WaterSim`] each tick, its state uploaded for drawing). Both draw the same
    /// surface; `sierra bench scene --backend` compares them.
    #[serde(default)]
    pub backend: crate::island::Backend,
}

/// The sinc bump of [`InitialState::Bump`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BumpSpec {
    /// Centre in cells (column, row).
    pub center: [f32; 2],
    /// Peak height, metres.
    pub amplitude: f32,
    /// Radians per cell.
    pub frequency: f32,
}

/// Drops every `period` seconds at pseudo-random cells (deterministic from `seed`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DropSchedule {
    /// Seconds between drops, > 0.
    pub period: f32,
    /// Drop radius, metres.
    pub radius: f32,
    /// Drop height, metres.
    pub amplitude: f32,
    /// Seed of the drop positions.
    #[serde(default)]
    pub seed: u64,
}

impl DropSchedule {
    /// Centre (grid metres) of drop number `k`, inside a grid of `size` metres, keeping a
    /// `radius` margin from the edges.
    pub fn position(&self, k: u64, size: Vec2) -> Vec2 {
        let a = splitmix64(self.seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let b = splitmix64(a);
        let unit = |v: u64| (v >> 40) as f32 / (1u64 << 24) as f32;
        let margin = Vec2::splat(self.radius).min(size * 0.5);
        margin + Vec2::new(unit(a), unit(b)) * (size - 2.0 * margin)
    }

    /// Numbers of the drops falling in `(t0, t1]` seconds (drop `k` falls at `k * period`).
    pub fn drops_between(&self, t0: f64, t1: f64) -> std::ops::Range<u64> {
        let p = f64::from(self.period);
        let first = (t0 / p).floor() as i64 + 1;
        let last = (t1 / p).floor() as i64;
        first.max(0) as u64..(last + 1).max(0) as u64
    }
}

fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn default_grid() -> [usize; 2] {
    [256, 256]
}
fn one() -> f32 {
    1.0
}
fn default_dt() -> f32 {
    1.0 / 120.0
}

impl Default for WaterComponent {
    fn default() -> Self {
        Self {
            grid_size: default_grid(),
            cell_size: 1.0,
            initial_level: 0.0,
            boundary: Boundary::Closed,
            damping: 0.0,
            time_step: default_dt(),
            bump: None,
            drops: None,
            backend: crate::island::Backend::Gpu,
        }
    }
}

impl WaterComponent {
    /// The simulation parameters (defaults of [`WaterParams::new`] for the rest).
    ///
    /// # Errors
    /// Everything [`WaterParams::validate`] refuses, a non-positive or non-finite time step
    /// or drop period/radius/amplitude.
    pub fn params(&self) -> Result<WaterParams> {
        let mut p = WaterParams::new(self.grid_size[0], self.grid_size[1], self.cell_size);
        p.boundary = self.boundary;
        p.damping = self.damping;
        p.validate()?;
        let check = |name, value: f32| {
            if value > 0.0 && value.is_finite() {
                Ok(())
            } else {
                Err(WaterError::Parameter {
                    name,
                    value,
                    reason: "must be finite and > 0",
                })
            }
        };
        check("timeStep", self.time_step)?;
        if !self.initial_level.is_finite() {
            return Err(WaterError::Parameter {
                name: "initialLevel",
                value: self.initial_level,
                reason: "must be finite",
            });
        }
        if let Some(d) = &self.drops {
            check("drops.period", d.period)?;
            check("drops.radius", d.radius)?;
            check("drops.amplitude", d.amplitude)?;
        }
        Ok(p)
    }

    /// The initial state: the bump when given, else still water at `initialLevel`.
    pub fn initial_state(&self) -> InitialState {
        match self.bump {
            Some(b) => InitialState::Bump {
                level: self.initial_level,
                center: Vec2::from(b.center),
                amplitude: b.amplitude,
                frequency: b.frequency,
            },
            None => InitialState::Still {
                level: self.initial_level,
            },
        }
    }
}
