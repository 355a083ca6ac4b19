//! Initial water states: still water, the thesis's sinc bump, a dam break.

use glam::Vec2;

use super::error::{Result, WaterError};
use super::grid::check_field;
use super::params::WaterParams;

/// How the water starts. Levels are world heights of the water surface (metres, Y up);
/// the depth of a cell is `max(0, surface - terrain)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum InitialState {
    /// A flat surface at `level`: a lake at rest.
    Still {
        /// Surface height, metres.
        level: f32,
    },
    /// The thesis's initial disturbance (seed 002, Annex E, `InitSim`): surface
    /// `level + amplitude * sin(k r) / (k r)` with `r` the distance in cells from `center`
    /// and `k = frequency` radians per cell (the thesis: amplitude 40, k = 0.1).
    Bump {
        /// Rest surface height, metres.
        level: f32,
        /// Centre, in cells (column, row).
        center: Vec2,
        /// Peak height above `level`, metres.
        amplitude: f32,
        /// Radians per cell.
        frequency: f32,
    },
    /// A dam break: surface at `high` inside a disc of `radius` metres around `center`
    /// (grid metres), `low` elsewhere.
    Dam {
        /// Surface outside the disc, metres.
        low: f32,
        /// Surface inside the disc, metres.
        high: f32,
        /// Centre, grid metres (`x` along +X, `y` along +Z).
        center: Vec2,
        /// Radius, metres.
        radius: f32,
    },
}

impl InitialState {
    /// The thesis's `InitSim` (seed 002, Annex E.3): surface `level + 40 sin(0.1 r) / (0.1 r)`,
    /// `r` in cells from column 32, row 96 (its grid is 256x256 columns). The thesis's heights
    /// have no floor and dip to `-8.7` m; over a floor at 0 `level` must be above 8.7 m for
    /// the pool to stay wet everywhere.
    pub fn thesis(level: f32) -> Self {
        Self::Bump {
            level,
            center: Vec2::new(32.0, 96.0),
            amplitude: 40.0,
            frequency: 0.1,
        }
    }

    /// The depth field, metres, `[rows * cols]` row-major, over `terrain` (same layout).
    ///
    /// # Errors
    /// Invalid parameters, a terrain of the wrong length or with NaN, or non-finite values
    /// in the state.
    pub fn depth(&self, p: &WaterParams, terrain: &[f32]) -> Result<Vec<f32>> {
        p.validate()?;
        check_field(p, "terrain", terrain)?;
        self.check()?;
        let cell = p.cell_size;
        let surface = |x: usize, y: usize| -> f32 {
            match *self {
                Self::Still { level } => level,
                Self::Bump {
                    level,
                    center,
                    amplitude,
                    frequency,
                } => {
                    let kr = (Vec2::new(x as f32, y as f32) - center).length() * frequency;
                    let sinc = if kr.abs() < 1e-6 { 1.0 } else { kr.sin() / kr };
                    level + amplitude * sinc
                }
                Self::Dam {
                    low,
                    high,
                    center,
                    radius,
                } => {
                    let pos = (Vec2::new(x as f32, y as f32) + 0.5) * cell;
                    if pos.distance(center) <= radius {
                        high
                    } else {
                        low
                    }
                }
            }
        };
        Ok((0..p.cell_count())
            .map(|i| (surface(i % p.cols, i / p.cols) - terrain[i]).max(0.0))
            .collect())
    }

    fn check(&self) -> Result<()> {
        let values: Vec<(&'static str, f32)> = match self {
            Self::Still { level } => vec![("level", *level)],
            Self::Bump {
                level,
                center,
                amplitude,
                frequency,
            } => vec![
                ("level", *level),
                ("center.x", center.x),
                ("center.y", center.y),
                ("amplitude", *amplitude),
                ("frequency", *frequency),
            ],
            Self::Dam {
                low,
                high,
                center,
                radius,
            } => vec![
                ("low", *low),
                ("high", *high),
                ("center.x", center.x),
                ("center.y", center.y),
                ("radius", *radius),
            ],
        };
        for (name, value) in values {
            if !value.is_finite() {
                return Err(WaterError::Parameter {
                    name,
                    value,
                    reason: "must be finite",
                });
            }
        }
        Ok(())
    }
}
