//! Simulation parameters and the stable time-step limit.

use super::error::{Result, WaterError};

/// Largest grid side accepted, in cells.
pub const MAX_GRID_SIDE: usize = 16_384;
/// Largest grid accepted, in cells (4096²): about 44 bytes of state per cell on the CPU.
pub const MAX_GRID_CELLS: usize = 4096 * 4096;

/// What happens at the edge of the grid.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Boundary {
    /// Reflective wall: no flux crosses the edge, waves bounce back, volume is conserved.
    #[default]
    Closed,
    /// Free outflow: the edge behaves like a neighbour with the same ground and no water,
    /// so water leaves the grid and never comes back (counted in
    /// [`super::WaterSim::volume_removed`]).
    Open,
}

/// Physical and grid parameters of the virtual-pipes model (Mei, Decaudin & Hu 2007, §3).
///
/// Grid convention: `cols` cells along +X, `rows` along +Z (Y up), row-major
/// `index = row * cols + col`; cell `(col, row)` covers
/// `[col, col + 1) x [row, row + 1)` times `cell_size` metres. Pipes: *left* = `col - 1`,
/// *right* = `col + 1`, *top* = `row - 1`, *bottom* = `row + 1`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WaterParams {
    /// Cells along +X.
    pub cols: usize,
    /// Cells along +Z.
    pub rows: usize,
    /// Side of a square cell (`l_X = l_Y` in Mei et al.), metres, > 0.
    pub cell_size: f32,
    /// Gravity `g`, m/s², > 0.
    pub gravity: f32,
    /// Pipe cross-section `A`, m², > 0. The model's gravity waves travel at about
    /// `sqrt(g * A / pipe_length)` m/s, so `A = cell_size * depth` mimics shallow water of
    /// that depth.
    pub pipe_area: f32,
    /// Pipe length `l`, metres, > 0 (usually the cell size).
    pub pipe_length: f32,
    /// Flux damping rate, 1/s, >= 0: each step the old flux is scaled by
    /// `max(0, 1 - damping * dt)` before the gravity term is added. 0 = no damping.
    pub damping: f32,
    /// Edge behaviour.
    pub boundary: Boundary,
}

impl WaterParams {
    /// Parameters for a `cols x rows` grid of `cell_size`-metre cells with `g = 9.81`,
    /// `A = cell_size²`, `l = cell_size`, no damping and closed boundaries.
    pub fn new(cols: usize, rows: usize, cell_size: f32) -> Self {
        Self {
            cols,
            rows,
            cell_size,
            gravity: 9.81,
            pipe_area: cell_size * cell_size,
            pipe_length: cell_size,
            damping: 0.0,
            boundary: Boundary::Closed,
        }
    }

    /// Number of cells, `cols * rows`.
    pub fn cell_count(&self) -> usize {
        self.cols * self.rows
    }

    /// Checks sizes and ranges.
    ///
    /// # Errors
    /// [`WaterError::GridSize`] for a zero or too large grid, [`WaterError::Parameter`] for a
    /// non-positive or non-finite cell size, gravity, pipe area or length, or a negative damping.
    pub fn validate(&self) -> Result<()> {
        let side_ok = |s: usize| (1..=MAX_GRID_SIDE).contains(&s);
        if !side_ok(self.cols)
            || !side_ok(self.rows)
            || self.cols.saturating_mul(self.rows) > MAX_GRID_CELLS
        {
            return Err(WaterError::GridSize {
                cols: self.cols,
                rows: self.rows,
                max_side: MAX_GRID_SIDE,
                max_cells: MAX_GRID_CELLS,
            });
        }
        positive("cell_size", self.cell_size)?;
        positive("gravity", self.gravity)?;
        positive("pipe_area", self.pipe_area)?;
        positive("pipe_length", self.pipe_length)?;
        if !(self.damping >= 0.0 && self.damping.is_finite()) {
            return Err(WaterError::Parameter {
                name: "damping",
                value: self.damping,
                reason: "must be finite and >= 0 (1/s)",
            });
        }
        Ok(())
    }

    /// Largest step the flux update allows, whatever the depth, seconds:
    /// `sqrt(l * cell² / (4 * A * g))` (with `A = cell²`, `l = cell`: `0.5 * sqrt(cell / g)`).
    ///
    /// Why: linearised, the net flux `q` between two cells is the difference of the two
    /// opposite pipes, and both respond to the same height difference, so while both carry
    /// water `q` changes by `2 dt A g Δh / l` per step. The heights then follow
    /// `d'' = (2 A g / (l cell²)) * L(h)` with `L` the 5-point Laplacian, whose largest
    /// eigenvalue magnitude is 8 (the checkerboard mode). The update (flux from the old heights,
    /// then heights from the new flux) is symplectic Euler, stable while `omega * dt <= 2`,
    /// i.e. `dt² * 16 A g / (l cell²) <= 4`. The unit test
    /// `the_pipe_bound_is_where_the_update_turns_unstable` checks both sides of it.
    pub fn pipe_dt_limit(&self) -> f32 {
        (self.pipe_length * self.cell_size * self.cell_size / (4.0 * self.pipe_area * self.gravity))
            .sqrt()
    }

    /// CFL bound of shallow-water waves in water `max_depth` metres deep, seconds:
    /// `cell_size / sqrt(g * max_depth)` (infinite for dry grids).
    pub fn cfl_dt_limit(&self, max_depth: f32) -> f32 {
        if max_depth > 0.0 {
            self.cell_size / (self.gravity * max_depth).sqrt()
        } else {
            f32::INFINITY
        }
    }

    /// The stable time-step limit used by [`super::WaterSim::step`], seconds:
    /// `min(pipe_dt_limit(), cfl_dt_limit(max_depth))`.
    pub fn max_stable_dt(&self, max_depth: f32) -> f32 {
        self.pipe_dt_limit().min(self.cfl_dt_limit(max_depth))
    }
}

fn positive(name: &'static str, value: f32) -> Result<()> {
    if value > 0.0 && value.is_finite() {
        Ok(())
    } else {
        Err(WaterError::Parameter {
            name,
            value,
            reason: "must be finite and > 0",
        })
    }
}
