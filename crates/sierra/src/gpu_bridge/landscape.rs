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
use sierra_render::material::{DetailBump, SurfaceDetailLayers, SurfaceMaterial};
use sierra_render::texture::{ColorSpace, Texture2d};
use sierra_render::{DrawItem, GpuContext, Material, MeshHandle, Renderer};
use sierra_terrain::chunks::{ChunkGrid, ChunkLod};
use sierra_terrain::detail::DetailMap;
use sierra_terrain::surface_detail::{SurfaceDetail, ISLAND_SURFACES};

use crate::world::hidden_floor::{drop_hidden_triangles, footprint, HiddenFloor};
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

/// The island's detail textures per surface type ([`SurfaceDetail`]: grass, sand, rock, snow),
/// generated now and uploaded as one mipmapped linear texture array.
///
/// # Errors
/// Invalid detail parameters, GPU errors.
pub fn surface_detail_layers(
    ctx: &GpuContext,
    detail: &SurfaceDetail,
) -> Result<SurfaceDetailLayers> {
    let layers = detail
        .layers_rgba8()
        .context("generating the terrain's surface detail textures")?;
    let layers = Texture2d::array_from_rgba8(
        ctx,
        "terrain surface detail",
        detail.size,
        &layers,
        ColorSpace::Linear,
    )
    .context("uploading the terrain's surface detail textures")?;
    Ok(SurfaceDetailLayers {
        layers,
        repeat: detail.repeat(),
        normal_scale: 1.0,
    })
}

/// Uploaded chunk meshes, each chunk at each LOD (`(cz · n + cx) · (max_lod + 1) + lod`) once,
/// registered as its ground (`ground[i]`) and the four sides of its skirt (`skirts[i]`, in
/// [`sierra_terrain::chunks::SKIRT_SIDES`] order), which share its buffers; `None` for a part
/// the sea hides whole ([`HiddenFloor`]).
pub struct LandscapeGpu {
    grid: ChunkGrid,
    ground: Vec<Option<MeshHandle>>,
    skirts: Vec<[Option<MeshHandle>; 4]>,
}

impl LandscapeGpu {
    /// Generates GPU heights if needed and uploads every chunk at every LOD, all bound to one
    /// material: [`island_surface`] with the [`ISLAND_NORMAL_MAP`] normal map and, unless
    /// [`Landscape::surface_detail`] is off, the [`ISLAND_SURFACES`] detail textures; leaves out
    /// the triangles a sea hides (`hidden`, the level's sea's [`HiddenFloor`]).
    ///
    /// # Errors
    /// GPU errors.
    pub fn upload(
        landscape: &mut Landscape,
        ctx: &GpuContext,
        renderer: &mut Renderer,
        hidden: Option<&HiddenFloor>,
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
        let count = n * n * (grid.max_lod as usize + 1);
        let (mut ground, mut skirts) = (Vec::with_capacity(count), Vec::with_capacity(count));
        for cz in 0..n {
            for cx in 0..n {
                for lod in 0..=grid.max_lod {
                    let chunk = ChunkLod { cx, cz, lod };
                    let (ground_handle, sides) =
                        upload_chunk(ctx, renderer, &grid, island, chunk, hidden)?;
                    ground.push(ground_handle);
                    skirts.push(sides);
                }
            }
        }
        // Relief below the vertex spacing (close up the chunks would be smooth-shaded slopes).
        let surface_detail = if landscape.surface_detail {
            Some(surface_detail_layers(ctx, &ISLAND_SURFACES)?)
        } else {
            None
        };
        let surface = SurfaceMaterial {
            normal: Some(detail_normal_texture(ctx, &ISLAND_NORMAL_MAP)?),
            normal_scale: DETAIL_NORMAL_SCALE,
            surface_detail,
            ..island_surface()
        };
        let every: Vec<MeshHandle> = ground
            .iter()
            .chain(skirts.iter().flatten())
            .flatten()
            .copied()
            .collect();
        renderer.set_shared_material(ctx, &every, &surface)?;
        Ok(Self {
            grid,
            ground,
            skirts,
        })
    }

    /// One draw per chunk at the LOD its distance from `eye` asks for (as
    /// [`ChunkGrid::select`], without allocating), and one per side of its skirt that
    /// [`ChunkGrid::skirt_sides`] asks for (the island's edge, or a neighbour at another step):
    /// between chunks of one step the skirt is hidden below the ground, and would only cost
    /// fragments.
    pub fn push_draws(&self, landscape: &Landscape, eye: Vec3, draws: &mut Vec<DrawItem>) {
        let grid = &self.grid;
        let n = grid.chunks_per_side;
        let side = landscape.params.size / (landscape.params.resolution - 1).max(1) as f32
            * grid.chunk_cells as f32;
        let lods = grid.max_lod as usize + 1;
        let lod_of = |cx: usize, cz: usize| {
            let center = grid.chunk_center(cx, cz);
            let d = ((Vec2::new(eye.x, eye.z) - center).abs() - Vec2::splat(side * 0.5))
                .max(Vec2::ZERO)
                .length();
            let mut lod = 0;
            while lod < grid.max_lod && d > LOD_DISTANCE * (1u32 << lod) as f32 {
                lod += 1;
            }
            lod
        };
        for cz in 0..n {
            for cx in 0..n {
                let lod = lod_of(cx, cz);
                let index = (cz * n + cx) * lods + lod as usize;
                let sides = grid.skirt_sides(ChunkLod { cx, cz, lod }, lod_of);
                let skirts = self.skirts[index]
                    .iter()
                    .zip(sides)
                    .filter_map(|(&mesh, needed)| mesh.filter(|_| needed));
                for mesh in self.ground[index].into_iter().chain(skirts) {
                    draws.push(chunk_draw(mesh));
                }
            }
        }
    }
}

/// Uploads `chunk`'s mesh once, without the triangles `hidden` hides, and registers its parts,
/// which share its buffers: the ground (casting sun shadows) and the four sides of its skirt
/// (casting none: a skirt hangs below the ground it borders), each with the bounds of its own
/// vertices; `None` for a part left with no triangle (nothing is uploaded for a chunk left with
/// none).
///
/// # Errors
/// GPU errors.
fn upload_chunk(
    ctx: &GpuContext,
    renderer: &mut Renderer,
    grid: &ChunkGrid,
    island: &sierra_terrain::Island,
    chunk: ChunkLod,
    hidden: Option<&HiddenFloor>,
) -> Result<(Option<MeshHandle>, [Option<MeshHandle>; 4])> {
    let mut mesh = grid.mesh(island, chunk);
    let mut ranges: Vec<_> = std::iter::once(0..grid.surface_index_count(chunk))
        .chain((0..4).map(|side| grid.skirt_index_range(chunk, side)))
        .collect();
    if let Some(hidden) = hidden {
        // A coarse triangle's corners can lie below the hidden floor while the full-detail
        // ground between them (which the sea shader's fade is keyed to) rises above it.
        let field = island.height_field();
        let hides = |corners| {
            let (lo, hi, top) = footprint(corners);
            let ground = field.max_in(lo, hi).unwrap_or(top);
            hidden.hides(lo, hi, top.max(ground))
        };
        (mesh.indices, ranges) =
            drop_hidden_triangles(&mesh.positions, &mesh.indices, &ranges, hides);
        if mesh.indices.is_empty() {
            return Ok((None, [None; 4]));
        }
    }
    let whole = renderer.upload_mesh(ctx, &terrain_mesh(&mesh), &mesh.name)?;
    let whole = renderer.mesh(whole).context("the chunk just uploaded")?;
    let parts: Vec<_> = ranges
        .into_iter()
        .map(|range| {
            let bounds = used_bounds(&mesh, range.clone());
            (whole.range(range.start as u32..range.end as u32), bounds)
        })
        .collect();
    let mut handles = parts.into_iter().map(|(part, bounds)| {
        // An empty part's bounds are `None`: nothing of it is left to draw.
        bounds.map(|bounds| {
            let handle = renderer.add_gpu_mesh(part);
            renderer.set_mesh_bounds(handle, Some(bounds));
            handle
        })
    });
    let ground = handles.next().context("a chunk's ground")?;
    let sides: Vec<Option<MeshHandle>> = handles.collect();
    for &side in sides.iter().flatten() {
        renderer.set_caster_indices(side, Some(0));
    }
    let sides = <[Option<MeshHandle>; 4]>::try_from(sides)
        .ok()
        .context("a chunk's four skirt sides")?;
    Ok((ground, sides))
}

/// A draw of one part of a chunk (its ground or a side of its skirt).
fn chunk_draw(mesh: MeshHandle) -> DrawItem {
    DrawItem {
        mesh,
        model: Mat4::IDENTITY,
        material: Material {
            base_color: Vec4::ONE,
            specular_color: Vec3::splat(0.04),
            specular_power: 12.0,
            emissive: Vec3::ZERO,
        },
        surface: None,
    }
}

/// Model-space bounds of the vertices `mesh`'s indices `range` use (a chunk's ground or one
/// side of its skirt); `None` for an empty range.
fn used_bounds(mesh: &sierra_terrain::Mesh, range: std::ops::Range<usize>) -> Option<(Vec3, Vec3)> {
    let mut used = mesh
        .indices
        .get(range)?
        .iter()
        .filter_map(|&i| mesh.positions.get(i as usize).copied());
    let first = used.next()?;
    Some(used.fold((first, first), |(lo, hi), p| (lo.min(p), hi.max(p))))
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
