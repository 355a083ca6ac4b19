//! The parameters of the GPU water columns, shared by both kernels ([`super::water`], Mei's
//! 4 pipes, and [`super::water8`], the thesis's 8 connections): [`WaterGpuParams`] (checked by
//! [`WaterGpuParams::validate`]), [`WaterBoundary`] and the uniforms both shaders read
//! ([`WaterUniforms`], `WaterUniforms` in `water_common.wgsl`). A leaf: no GPU objects.

use bytemuck::{Pod, Zeroable};

use crate::error::{RenderError, Result};

/// Workgroup side: 16x16 invocations, 18x18 staged tile.
pub const WORKGROUP_SIDE: u32 = 16;

/// What happens at the grid's edge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WaterBoundary {
    /// Reflective wall: no flux crosses the edge.
    #[default]
    Closed,
    /// Free outflow: water leaves the grid.
    Open,
}

/// Grid and physical parameters of the virtual-pipes model (Mei, Decaudin & Hu 2007, §3), the
/// GPU's copy of `sierra_terrain::water::WaterParams` (same meaning, same units).
///
/// Grid: `cols` cells along +X, `rows` along +Z, row-major `index = row * cols + col`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WaterGpuParams {
    /// Cells along +X, >= 1.
    pub cols: u32,
    /// Cells along +Z, >= 1.
    pub rows: u32,
    /// Side of a square cell, metres, > 0.
    pub cell_size: f32,
    /// Gravity, m/s², > 0.
    pub gravity: f32,
    /// Pipe cross-section, m², > 0.
    pub pipe_area: f32,
    /// Pipe length, metres, > 0.
    pub pipe_length: f32,
    /// Flux damping rate, 1/s, >= 0.
    pub damping: f32,
    /// Edge behaviour.
    pub boundary: WaterBoundary,
}

impl WaterGpuParams {
    /// Number of cells, `cols * rows`.
    pub fn cell_count(&self) -> usize {
        self.cols as usize * self.rows as usize
    }

    /// Checks the grid is not empty and every quantity is finite and in range.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] naming the first bad field.
    pub fn validate(&self) -> Result<()> {
        if self.cols == 0 || self.rows == 0 {
            return Err(invalid(format!(
                "grid {}x{} has no cells",
                self.cols, self.rows
            )));
        }
        for (name, value) in [
            ("cell_size", self.cell_size),
            ("gravity", self.gravity),
            ("pipe_area", self.pipe_area),
            ("pipe_length", self.pipe_length),
        ] {
            if !(value > 0.0 && value.is_finite()) {
                return Err(invalid(format!("{name} {value} must be finite and > 0")));
            }
        }
        if !(self.damping >= 0.0 && self.damping.is_finite()) {
            return Err(invalid(format!(
                "damping {} must be finite and >= 0",
                self.damping
            )));
        }
        Ok(())
    }

    /// Largest stable step in water up to `max_depth` metres deep, seconds: the pipe-model bound
    /// `sqrt(l · cell² / (4 A g))` and the CFL bound `cell / sqrt(g · max_depth)`, whichever is
    /// smaller (derived in `sierra_terrain::water::WaterParams::pipe_dt_limit`; the content
    /// crate's test `gpu_water_params_have_the_cpu_stability_limit` holds the two equal).
    pub fn max_stable_dt(&self, max_depth: f32) -> f32 {
        let pipe = (self.pipe_length * self.cell_size * self.cell_size
            / (4.0 * self.pipe_area * self.gravity))
            .sqrt();
        let cfl = if max_depth > 0.0 {
            self.cell_size / (self.gravity * max_depth).sqrt()
        } else {
            f32::INFINITY
        };
        pipe.min(cfl)
    }
}

/// Mirror of `WaterUniforms` in `water_common.wgsl` (48 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct WaterUniforms {
    /// Cells along +X.
    pub cols: u32,
    /// Cells along +Z.
    pub rows: u32,
    /// 0 closed, 1 open.
    pub boundary: u32,
    /// Padding.
    pub _pad0: u32,
    /// `dt * A * g / l`.
    pub gravity_coef: f32,
    /// `max(0, 1 - damping * dt)`.
    pub damp: f32,
    /// Step, seconds.
    pub dt: f32,
    /// `cell_size²`, m².
    pub cell_area: f32,
    /// `dt / cell_size²`.
    pub dt_over_area: f32,
    /// `rain * dt`, metres.
    pub rain_dt: f32,
    /// Cell side, metres.
    pub cell_size: f32,
    /// Padding.
    pub _pad1: f32,
}

impl WaterUniforms {
    /// The uniforms of one step of `dt` seconds with `rain` m/s.
    pub fn new(p: &WaterGpuParams, dt: f32, rain: f32) -> Self {
        let area = p.cell_size * p.cell_size;
        Self {
            cols: p.cols,
            rows: p.rows,
            boundary: match p.boundary {
                WaterBoundary::Closed => 0,
                WaterBoundary::Open => 1,
            },
            _pad0: 0,
            gravity_coef: dt * p.pipe_area * p.gravity / p.pipe_length,
            damp: (1.0 - p.damping * dt).max(0.0),
            dt,
            cell_area: area,
            dt_over_area: dt / area,
            rain_dt: rain * dt,
            cell_size: p.cell_size,
            _pad1: 0.0,
        }
    }
}

/// An [`RenderError::InvalidInput`] prefixed `water:`.
pub(crate) fn invalid(e: impl std::fmt::Display) -> RenderError {
    RenderError::InvalidInput(format!("water: {e}"))
}
