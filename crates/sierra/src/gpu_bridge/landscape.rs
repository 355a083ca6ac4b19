//! The island's GPU half: its chunked level-of-detail meshes uploaded once (every chunk at every
//! LOD), picked per frame by distance (seed 002, §2.3), and GPU terrain generation for a level
//! whose heights are not computed on the CPU. The chunks share
//! one bump-mapped surface material (the thesis's mountain and beach normal maps): metre-scale
//! relief from the forward pass's world-space detail bump ([`ISLAND_DETAIL`]) and finer grain
//! from a tiled, mipmapped tangent-space normal map ([`sierra_terrain::detail`], the engine's
//! tileable fBm) on the chunks' `(x, z) / UV_TILE` texture coordinates and tangents.

use anyhow::{Context, Result};
use glam::{Mat4, Vec2, Vec3, Vec4};
use sierra_content::terrain::{generate_island_gpu, terrain_mesh};
use sierra_render::compute::noise::NoiseCompute;
use sierra_render::material::{DetailBump, SurfaceMaterial};
use sierra_render::texture::{ColorSpace, Texture2d};
use sierra_render::{DrawItem, GpuContext, Material, MeshHandle, Renderer};
use sierra_terrain::chunks::{ChunkGrid, ChunkLod};
use sierra_terrain::detail::DetailMap;

use crate::world::landscape::Landscape;

/// Horizontal distance drawn at full detail, metres; LOD `k` beyond `LOD_DISTANCE · 2^(k−1)`.
pub const LOD_DISTANCE: f32 = 90.0;

/// The island's detail normal map: grain below [`ISLAND_DETAIL`]'s smallest octave (0.5 m),
/// 50 cm down to 12 cm bumps a few centimetres high, tiled every [`DetailMap::tile`] metres.
pub const ISLAND_NORMAL_MAP: DetailMap = DetailMap {
    size: 512,
    tile: sierra_terrain::detail::UV_TILE,
    period: 32,
    octaves: 3,
    gain: 0.5,
    depth: 0.06,
    seed: Some(0x5EED_D37A),
};

/// Scale of the detail normal map's slopes (glTF `normalTexture.scale`); the bump depth itself
/// is [`DetailMap::depth`].
pub const DETAIL_NORMAL_SCALE: f32 = 1.0;

/// The detail normal map `detail` describes, uploaded as a linear texture with mipmaps (which
/// filter the grain away with distance).
///
/// # Errors
/// Invalid detail-map parameters, GPU errors.
pub fn detail_normal_texture(ctx: &GpuContext, detail: &DetailMap) -> Result<Texture2d> {
    let pixels = detail
        .normal_map()
        .context("generating the terrain's detail normal map")?;
    Texture2d::from_rgba8(
        ctx,
        "terrain detail normal map",
        detail.size,
        detail.size,
        &pixels,
        ColorSpace::Linear,
    )
    .context("uploading the terrain's detail normal map")
}

/// Uploaded chunk meshes: `handles[(cz · n + cx) · (max_lod + 1) + lod]`.
pub struct LandscapeGpu {
    grid: ChunkGrid,
    handles: Vec<MeshHandle>,
}

impl LandscapeGpu {
    /// Generates GPU heights if needed and uploads every chunk at every LOD, all bound to one
    /// material: [`island_surface`] with the [`ISLAND_NORMAL_MAP`] normal map.
    ///
    /// # Errors
    /// GPU errors.
    pub fn upload(
        landscape: &mut Landscape,
        ctx: &GpuContext,
        renderer: &mut Renderer,
    ) -> Result<Self> {
        if landscape.island.is_none() {
            let compute = NoiseCompute::new(ctx)?;
            landscape.island = Some(
                generate_island_gpu(ctx, &compute, &landscape.params)
                    .context("generating the island on the GPU")?,
            );
        }
        let island = landscape.island.as_ref().context("island heights")?;
        let grid = ChunkGrid::new(island);
        let n = grid.chunks_per_side;
        let mut handles = Vec::with_capacity(n * n * (grid.max_lod as usize + 1));
        for cz in 0..n {
            for cx in 0..n {
                for lod in 0..=grid.max_lod {
                    let chunk = ChunkLod { cx, cz, lod };
                    let mesh = grid.mesh(island, chunk);
                    let handle = renderer.upload_mesh(ctx, &terrain_mesh(&mesh), &mesh.name)?;
                    // The skirt hangs below the ground and shadows nothing: the ground casts.
                    let surface = u32::try_from(grid.surface_index_count(chunk)).ok();
                    renderer.set_caster_indices(handle, surface);
                    handles.push(handle);
                }
            }
        }
        // Relief below the vertex spacing (close up the chunks would be smooth-shaded slopes).
        let surface = SurfaceMaterial {
            normal: Some(detail_normal_texture(ctx, &ISLAND_NORMAL_MAP)?),
            normal_scale: DETAIL_NORMAL_SCALE,
            ..island_surface()
        };
        renderer.set_shared_material(ctx, &handles, &surface)?;
        Ok(Self { grid, handles })
    }

    /// One draw per chunk at the LOD its distance from `eye` asks for (as
    /// [`ChunkGrid::select`], without allocating).
    pub fn push_draws(&self, landscape: &Landscape, eye: Vec3, draws: &mut Vec<DrawItem>) {
        let grid = &self.grid;
        let n = grid.chunks_per_side;
        let side = landscape.params.size / (landscape.params.resolution - 1).max(1) as f32
            * grid.chunk_cells as f32;
        let lods = grid.max_lod as usize + 1;
        for cz in 0..n {
            for cx in 0..n {
                let center = grid.chunk_center(cx, cz);
                let d = ((Vec2::new(eye.x, eye.z) - center).abs() - Vec2::splat(side * 0.5))
                    .max(Vec2::ZERO)
                    .length();
                let mut lod = 0;
                while lod < grid.max_lod && d > LOD_DISTANCE * (1u32 << lod) as f32 {
                    lod += 1;
                }
                draws.push(DrawItem {
                    mesh: self.handles[(cz * n + cx) * lods + lod as usize],
                    model: Mat4::IDENTITY,
                    material: Material {
                        base_color: Vec4::ONE,
                        specular_color: Vec3::splat(0.04),
                        specular_power: 12.0,
                        emissive: Vec3::ZERO,
                    },
                    surface: None,
                });
            }
        }
    }
}

/// First octave of the island's bump detail (seed 002: bump-mapped terrain): 2 m features
/// (0.5 cycles per metre) 0.25 m high, then 1 m and 0.5 m octaves, each tilting the normal by up
/// to about 0.3 rad: the smooth-shaded slopes break up close up; far away the octaves fade out
/// (`forward.wgsl`), leaving the island's look from afar unchanged.
pub const ISLAND_DETAIL: DetailBump = DetailBump {
    frequency: 0.5,
    amplitude: 0.25,
};

/// The island chunks' surface material: Phong with [`ISLAND_DETAIL`].
pub fn island_surface() -> SurfaceMaterial {
    SurfaceMaterial {
        detail: Some(ISLAND_DETAIL),
        ..SurfaceMaterial::default()
    }
}
