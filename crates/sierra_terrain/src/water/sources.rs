//! Sources, sinks and drops: water added to or taken from the columns between pipe updates
//! (Mei et al. 2007 §3, step 1 "water increment").

use glam::Vec2;

use super::error::{Result, WaterError};
use super::params::WaterParams;

/// A disc that adds (`rate > 0`, a spring, a river mouth) or removes (`rate < 0`, a drain)
/// water at a constant volume rate.
#[derive(Debug, Clone, PartialEq)]
pub struct WaterSource {
    /// Centre in grid metres: `x` along +X from the grid's corner, `y` along +Z.
    pub center: Vec2,
    /// Radius, metres; cells whose centre lies inside share the rate (at least the nearest cell).
    pub radius: f32,
    /// Volume rate, m³/s; negative for a sink.
    pub rate: f32,
    cells: Vec<usize>,
}

impl WaterSource {
    /// Applies the source for `dt` s. Returns (volume added, volume removed, max depth touched).
    pub(super) fn apply(&self, depth: &mut [f32], area: f32, dt: f32) -> (f64, f64, f32) {
        let share = self.rate.abs() * dt / (self.cells.len() as f32 * area);
        let mut moved = 0.0f64;
        let mut max = 0.0f32;
        for &i in &self.cells {
            let amount = if self.rate >= 0.0 {
                share
            } else {
                -share.min(depth[i])
            };
            depth[i] += amount;
            moved += f64::from(amount) * f64::from(area);
            max = max.max(depth[i]);
        }
        if self.rate >= 0.0 {
            (moved, 0.0, max)
        } else {
            (0.0, -moved, max)
        }
    }
}

/// Indices of the cells whose centres lie within `radius` of `center` (grid metres);
/// the nearest cell when none does. `None` when the centre is outside the grid.
fn cells_in_disc(p: &WaterParams, center: Vec2, radius: f32) -> Option<Vec<(usize, f32)>> {
    let cell = p.cell_size;
    let g = center / cell;
    if !(g.x >= 0.0 && g.y >= 0.0 && g.x < p.cols as f32 && g.y < p.rows as f32) {
        return None;
    }
    let r = radius / cell;
    let (x0, x1) = (
        (g.x - r).floor().max(0.0) as usize,
        ((g.x + r).ceil() as usize).min(p.cols),
    );
    let (y0, y1) = (
        (g.y - r).floor().max(0.0) as usize,
        ((g.y + r).ceil() as usize).min(p.rows),
    );
    let mut cells = Vec::new();
    for y in y0..y1 {
        for x in x0..x1 {
            let dist = (Vec2::new(x as f32 + 0.5, y as f32 + 0.5) - g).length();
            if dist <= r {
                cells.push((y * p.cols + x, dist / r.max(f32::MIN_POSITIVE)));
            }
        }
    }
    if cells.is_empty() {
        cells.push((g.y as usize * p.cols + g.x as usize, 0.0));
    }
    Some(cells)
}

fn check_disc(center: Vec2, radius: f32) -> Result<()> {
    if !center.is_finite() {
        return Err(WaterError::Parameter {
            name: "center",
            value: if center.x.is_finite() {
                center.y
            } else {
                center.x
            },
            reason: "must be finite (grid metres)",
        });
    }
    if !(radius > 0.0 && radius.is_finite()) {
        return Err(WaterError::Parameter {
            name: "radius",
            value: radius,
            reason: "must be finite and > 0 (metres)",
        });
    }
    Ok(())
}

impl WaterSource {
    /// A constant source (`rate > 0`) or sink (`rate < 0`), m³/s, over a disc of a grid with
    /// parameters `params` ([`super::WaterSim::add_source`]).
    ///
    /// # Errors
    /// [`WaterError::Parameter`] for a non-finite centre or rate, a non-positive radius or a
    /// centre outside the grid.
    pub(super) fn new(params: &WaterParams, center: Vec2, radius: f32, rate: f32) -> Result<Self> {
        check_disc(center, radius)?;
        if !rate.is_finite() {
            return Err(WaterError::Parameter {
                name: "rate",
                value: rate,
                reason: "must be finite (m³/s)",
            });
        }
        let cells = cells_in_disc(params, center, radius).ok_or(outside(center))?;
        Ok(WaterSource {
            center,
            radius,
            rate,
            cells: cells.into_iter().map(|(i, _)| i).collect(),
        })
    }
}

/// The depth a drop adds per cell ([`super::WaterSim::add_drop`]): a raised-cosine bump
/// `amplitude * (1 + cos(pi * r / radius)) / 2` metres around `center` (grid metres), as
/// `(cell index, metres)`.
///
/// # Errors
/// [`WaterError::Parameter`] for a non-finite centre, a non-positive radius, a negative or
/// non-finite amplitude, or a centre outside the grid.
pub(super) fn drop_bump(
    params: &WaterParams,
    center: Vec2,
    radius: f32,
    amplitude: f32,
) -> Result<Vec<(usize, f32)>> {
    check_disc(center, radius)?;
    if !(amplitude >= 0.0 && amplitude.is_finite()) {
        return Err(WaterError::Parameter {
            name: "amplitude",
            value: amplitude,
            reason: "must be finite and >= 0 (metres)",
        });
    }
    let cells = cells_in_disc(params, center, radius).ok_or(outside(center))?;
    let bump = move |(i, t): (usize, f32)| {
        (
            i,
            amplitude * 0.5 * (1.0 + (std::f32::consts::PI * t).cos()),
        )
    };
    Ok(cells.into_iter().map(bump).collect())
}

fn outside(center: Vec2) -> WaterError {
    WaterError::Parameter {
        name: "center",
        value: center.x,
        reason: "the centre lies outside the water grid",
    }
}
