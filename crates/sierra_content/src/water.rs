//! The terrain crate's water state on the GPU: [`WaterParams`] as the compute pass's
//! [`WaterGpuParams`], validated by the CPU simulation's own constructor first.

use sierra_render::compute::water::{WaterBoundary, WaterCompute, WaterGpuParams};
use sierra_render::compute::water8::Water8Compute;
use sierra_render::{GpuContext, RenderError, Result};
use sierra_terrain::water::{Boundary, Columns8Sim, WaterParams, WaterSim};

fn invalid(e: impl std::fmt::Display) -> RenderError {
    RenderError::InvalidInput(format!("water: {e}"))
}

/// `params` as the GPU reads them.
///
/// # Errors
/// [`RenderError::InvalidInput`] for parameters [`WaterParams::validate`] refuses.
pub fn water_gpu_params(params: &WaterParams) -> Result<WaterGpuParams> {
    params.validate().map_err(invalid)?;
    // validate() bounds both sides by MAX_GRID_SIDE (16,384), so they fit a u32.
    let side = |n: usize| u32::try_from(n).map_err(invalid);
    Ok(WaterGpuParams {
        cols: side(params.cols)?,
        rows: side(params.rows)?,
        cell_size: params.cell_size,
        gravity: params.gravity,
        pipe_area: params.pipe_area,
        pipe_length: params.pipe_length,
        damping: params.damping,
        boundary: match params.boundary {
            Boundary::Closed => WaterBoundary::Closed,
            Boundary::Open => WaterBoundary::Open,
        },
    })
}

/// Uploads a state to the GPU: `terrain` and `depth` in metres, `[rows * cols]` row-major;
/// zero flux.
///
/// # Errors
/// [`RenderError::InvalidInput`] for what [`WaterSim::new`] refuses (sizes, NaN, negative
/// depth; its message), and the errors of [`WaterCompute::new`].
pub fn water_compute(
    ctx: &GpuContext,
    params: WaterParams,
    terrain: &[f32],
    depth: &[f32],
) -> Result<WaterCompute> {
    // The CPU constructor is the one validator of sizes and values.
    WaterSim::new(params, terrain.to_vec(), depth.to_vec()).map_err(invalid)?;
    WaterCompute::new(ctx, water_gpu_params(&params)?, terrain, depth)
}

/// Uploads the current state of a CPU simulation (its flux is not copied: starts at zero).
///
/// # Errors
/// As [`water_compute`].
pub fn water_compute_from_sim(ctx: &GpuContext, sim: &WaterSim) -> Result<WaterCompute> {
    water_compute(ctx, *sim.params(), sim.terrain(), sim.depth())
}

/// Uploads a state to the GPU's 8-connection columns (the thesis's model): `terrain` and
/// `depth` in metres, `[rows * cols]` row-major; zero flow.
///
/// # Errors
/// [`RenderError::InvalidInput`] for what [`Columns8Sim::new`] refuses (its message: sizes,
/// NaN, negative depth, open edges), and the errors of [`Water8Compute::new`].
pub fn water8_compute(
    ctx: &GpuContext,
    params: WaterParams,
    terrain: &[f32],
    depth: &[f32],
) -> Result<Water8Compute> {
    Columns8Sim::new(params, terrain.to_vec(), depth.to_vec()).map_err(invalid)?;
    Water8Compute::new(ctx, water_gpu_params(&params)?, terrain, depth)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpu_water_params_have_the_cpu_stability_limit() {
        for (cell, area, length, boundary) in [
            (1.0, 1.0, 1.0, Boundary::Closed),
            (0.5, 2.0, 0.75, Boundary::Open),
            (3.0, 0.1, 4.0, Boundary::Closed),
        ] {
            let p = WaterParams {
                pipe_area: area,
                pipe_length: length,
                boundary,
                damping: 0.3,
                ..WaterParams::new(40, 30, cell)
            };
            let g = water_gpu_params(&p).unwrap();
            assert_eq!((g.cols, g.rows, g.cell_count()), (40, 30, 1200));
            assert_eq!(
                g.boundary == WaterBoundary::Open,
                boundary == Boundary::Open
            );
            for depth in [0.0, 0.1, 2.0, 50.0] {
                assert_eq!(
                    g.max_stable_dt(depth),
                    p.max_stable_dt(depth),
                    "{p:?} {depth}"
                );
            }
        }
        assert!(water_gpu_params(&WaterParams::new(0, 4, 1.0)).is_err());
        let nan = WaterParams {
            gravity: f32::NAN,
            ..WaterParams::new(4, 4, 1.0)
        };
        assert!(water_gpu_params(&nan).is_err());
    }
}
