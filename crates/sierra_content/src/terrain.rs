//! Terrain content as renderer inputs: meshes as [`MeshData`], fBm grids as the noise compute
//! pass's plain parameters, and the island generated with its noise on the GPU.

use sierra_render::compute::noise::{
    FbmGpuParams, NoiseCompute, NoiseGridParams, PermutationTable,
};
use sierra_render::{GpuContext, MeshData, RenderError, Result};
use sierra_terrain::island::{Island, NoiseGridRequest, TerrainParams};
use sierra_terrain::noise::grid::GridSpec;
use sierra_terrain::noise::{Fbm, FbmKind, Permutation};

/// Terrain, palm, bird and planet meshes (`sierra_terrain`'s glam layout) as renderer data;
/// tangents where the mesh has them (terrain chunks, for the detail normal map).
pub fn terrain_mesh(m: &sierra_terrain::Mesh) -> MeshData {
    MeshData {
        positions: m.positions.iter().map(|p| p.to_array()).collect(),
        normals: m.normals.iter().map(|n| n.to_array()).collect(),
        uvs: m.uvs.iter().map(|u| u.to_array()).collect(),
        tangents: m.tangents.iter().map(|t| t.to_array()).collect(),
        colors: m.colors.iter().map(|c| c.to_array()).collect(),
        indices: m.indices.clone(),
    }
}

/// The permutation as the shader reads it (`[512]`, entries 0..=255).
pub fn permutation_table(perm: &Permutation) -> PermutationTable {
    perm.table().map(u32::from)
}

/// An fBm's parameters as the shader reads them (`f64` factors rounded to `f32`, as the
/// terrain crate's `f32` path uses them).
pub fn fbm_params(fbm: &Fbm) -> FbmGpuParams {
    let params = fbm.params();
    FbmGpuParams {
        kind: match fbm.kind() {
            FbmKind::Standard => 0,
            FbmKind::Ridged => 1,
            FbmKind::Billow => 2,
        },
        full_octaves: fbm.full_octaves(),
        fraction: fbm.fraction() as f32,
        lacunarity: params.lacunarity as f32,
        gain: params.gain as f32,
    }
}

/// A sample grid as the shader reads it.
///
/// # Errors
/// [`RenderError::InvalidInput`] when a side does not fit a `u32`.
pub fn grid_params(grid: &GridSpec) -> Result<NoiseGridParams> {
    let side = |n: usize| {
        u32::try_from(n).map_err(|_| {
            RenderError::InvalidInput(format!("grid {}x{} is too large", grid.width, grid.height))
        })
    };
    Ok(NoiseGridParams {
        origin: [grid.x0, grid.y0],
        spacing: [grid.dx, grid.dy],
        size: [side(grid.width)?, side(grid.height)?],
    })
}

/// `sierra_terrain::noise::grid::fbm2_grid` on the GPU: `[height][width]` row-major.
///
/// # Errors
/// As [`NoiseCompute::fbm2_grid`] and [`grid_params`].
pub fn fbm2_grid_gpu(
    ctx: &GpuContext,
    compute: &NoiseCompute,
    perm: &Permutation,
    fbm: &Fbm,
    grid: &GridSpec,
) -> Result<Vec<f32>> {
    compute.fbm2_grid(
        ctx,
        &permutation_table(perm),
        &fbm_params(fbm),
        &grid_params(grid)?,
    )
}

/// Runs one island noise request on the GPU.
///
/// # Errors
/// As [`fbm2_grid_gpu`].
pub fn run_request(
    ctx: &GpuContext,
    compute: &NoiseCompute,
    request: &NoiseGridRequest,
) -> Result<Vec<f32>> {
    fbm2_grid_gpu(
        ctx,
        compute,
        &request.permutation,
        &request.fbm,
        &request.grid,
    )
}

/// Generates the island with its fBm grids computed on the GPU (heights read back once for
/// gameplay queries), the default `Terrain` backend.
///
/// # Errors
/// [`RenderError::InvalidInput`] for invalid parameters (the terrain error's message), or a GPU
/// error from [`NoiseCompute::fbm2_grid`].
pub fn generate_island_gpu(
    ctx: &GpuContext,
    compute: &NoiseCompute,
    params: &TerrainParams,
) -> Result<Island> {
    let invalid = |e: sierra_terrain::Error| RenderError::InvalidInput(e.to_string());
    let [coast, mountains] = params.noise_requests().map_err(invalid)?;
    let coast = run_request(ctx, compute, &coast)?;
    let mountains = run_request(ctx, compute, &mountains)?;
    Island::from_noise(params, &coast, &mountains).map_err(invalid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fbm_and_grid_parameters_keep_their_values() {
        let fbm = Fbm::new(sierra_terrain::noise::FbmParams {
            octaves: 4.5,
            lacunarity: 2.25,
            gain: 0.4,
        })
        .unwrap()
        .with_kind(FbmKind::Ridged);
        let p = fbm_params(&fbm);
        assert_eq!((p.kind, p.full_octaves), (1, 4));
        assert_eq!((p.fraction, p.lacunarity, p.gain), (0.5, 2.25, 0.4));
        let grid = GridSpec {
            width: 3,
            height: 5,
            x0: -1.0,
            y0: 2.0,
            dx: 0.5,
            dy: 0.25,
        };
        let g = grid_params(&grid).unwrap();
        assert_eq!(g.size, [3, 5]);
        assert_eq!((g.origin, g.spacing), ([-1.0, 2.0], [0.5, 0.25]));
        let perm = Permutation::from_seed(7);
        let table = permutation_table(&perm);
        assert_eq!(table.to_vec(), perm.table_u32());
        assert!(table[..256].iter().all(|&v| v <= 255));
        assert_eq!(table[..256], table[256..]);
    }
}
