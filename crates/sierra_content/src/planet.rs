//! The fractal planet and its clouds generated on the GPU: every vertex's fBm evaluated by the
//! noise compute shader (`sierra_render::compute::noise`, `points_main` over the sphere's
//! sample points), the meshes assembled from those values by the same code as the CPU
//! reference (`sierra_terrain::planet::{planet_mesh, cloud_mesh}`), which the test
//! `tests/planet_gpu.rs` holds the GPU to (positions within 1e-4 of the radius at the
//! thesis's density).

use sierra_render::compute::noise::{NoiseCompute, NoiseFunction};
use sierra_render::{GpuContext, RenderError, Result};
use sierra_terrain::planet::{
    cloud_mesh_from_noise, planet_mesh_from_noise, PlanetNoise, PlanetParams,
};
use sierra_terrain::Mesh;

use crate::terrain::{fbm_params, permutation_table};

fn invalid(e: impl std::fmt::Display) -> RenderError {
    RenderError::InvalidInput(format!("planet: {e}"))
}

/// One fBm at every vertex of a `rings`-ring sphere, on the GPU.
fn evaluate(
    ctx: &GpuContext,
    compute: &NoiseCompute,
    noise: &PlanetNoise,
    rings: usize,
) -> Result<Vec<f32>> {
    compute.evaluate_points(
        ctx,
        &permutation_table(&noise.perm),
        NoiseFunction::Fbm3,
        Some(&fbm_params(&noise.fbm)),
        &noise.points(rings),
    )
}

/// The planet surface and its cloud shell (local frame, as `planet_mesh` and `cloud_mesh`),
/// their fBm computed by the noise compute shader.
///
/// # Errors
/// [`RenderError::InvalidInput`] for parameters `PlanetParams::validate` refuses; the noise
/// pass's errors.
pub fn planet_meshes_gpu(
    ctx: &GpuContext,
    compute: &NoiseCompute,
    params: &PlanetParams,
) -> Result<(Mesh, Mesh)> {
    let surface = PlanetNoise::surface(params).map_err(invalid)?;
    let clouds = PlanetNoise::clouds(params).map_err(invalid)?;
    let rings = params.rings as usize;
    let planet = planet_mesh_from_noise(params, &evaluate(ctx, compute, &surface, rings)?)
        .map_err(invalid)?;
    let cloud =
        cloud_mesh_from_noise(params, &evaluate(ctx, compute, &clouds, rings)?).map_err(invalid)?;
    Ok((planet, cloud))
}
