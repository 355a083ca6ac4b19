//! The sea pass: the simulated water surface drawn into the HDR target (`sea.wgsl`).
//!
//! The vertex shader reads the water simulation's own GPU buffers
//! ([`WaterCompute::terrain_buffer`], the current depth buffer and the velocity buffer), so the
//! surface moves with no CPU round trip. No vertex or index buffer: vertex `i` of the draw is
//! corner `i % 6` of grid quad `i / 6`; with [`SeaSettings::lod`] the grid is drawn as tiles
//! whose stride grows with their distance from the camera, one draw per tile
//! ([`crate::passes::sea_lod`]). Normals come from height differences, bent in the fragment
//! shader by procedural detail waves; colour from depth (shallow → deep), a Schlick-Fresnel
//! sky reflection, a GGX sun glint, the sun's shadow (`sun_shadow.wgsl`, the forward pass's
//! PCF lookup) on the sunlit and glint terms, and soft foam from the simulation's fields
//! (shallow, fast and converging water) broken up by noise. Alpha-blended over what the
//! forward pass drew (depth test on, depth write off), so the beach shows through shallow
//! water. [`crate::DebugView::Foam`] draws the foam mask instead.
//!
//! How the renderer runs it (after the opaque forward pass, before bloom):
//! ```text
//! let mut sea = SeaPass::new(ctx, forward.frame_bindings())?;  // once
//! sea.bind_water(ctx, &water)?;                      // once per WaterCompute
//! // each frame:
//! water.record_steps(&ctx.queue, &mut encoder, dt, steps_per_frame)?;  // or water.step(..)
//! sea.set_current(water.current_index());
//! sea.prepare(ctx, &inputs)?;                        // the sea's parameters
//! sea.record(&mut encoder, &inputs, queries);     // draws into targets.hdr_view / depth_view
//! ```
//!
//! Groups: 0 is the view group ([`FrameBindings`]: camera, sun and ambient light, the sun's
//! shadow map, written once a frame by the renderer), 1 the sea's own ([`SeaUniforms`] and the
//! water's buffers).

use bytemuck::{Pod, Zeroable};
use glam::{Vec3, Vec4};

use crate::compute::water::WaterCompute;
use crate::context::GpuContext;
use crate::error::{RenderError, Result};
use crate::gpu_util;
use crate::passes::scene_pipelines::ScenePipelines;
use crate::passes::sea_lod::{self, SeaLod, SeaTile};
use crate::passes::shadow::SUN_SHADOW_WGSL;
use crate::passes::view::{FrameBindings, VIEW_WGSL};
use crate::passes::{Encoder, Pass, PassInputs, PassQueries};
use crate::pipeline_cache::{PipelineKey, VertexLayout};
use crate::targets::RenderTargets;

/// How the sea looks and where its grid lies. Colours linear RGB.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeaSettings {
    /// World position of the grid's corner (cell (0, 0) starts here; the grid extends along
    /// +X and +Z by `cols * cell_size` and `rows * cell_size`); heights add to `origin.y`.
    pub origin: Vec3,
    /// Colour of thin water.
    pub shallow_color: Vec3,
    /// Colour of deep water.
    pub deep_color: Vec3,
    /// Depth over which the colour goes from shallow to deep (1 - e^-1 of the way), metres.
    pub absorption_depth: f32,
    /// Ground deeper than this below [`SeaSettings::rest_level`] is never seen, metres: the
    /// sea over it is opaque, its transmittance fading to zero over the [`FLOOR_FADE`] metres
    /// of ground above ([`SeaSettings::hidden_floor_height`]), so the landscape need not draw
    /// it. `f32::INFINITY`: every floor shows through as the absorption lets it.
    pub opaque_floor_depth: f32,
    /// Sky colour reflected at grazing angles.
    pub sky_color: Vec3,
    /// GGX alpha (roughness²) of the water's surface under the sun's glint, besides the detail
    /// waves `sea.wgsl` bends the normals with (and the roughness they add where they are
    /// finer than a pixel): a smaller value gives smaller, brighter sparkles.
    pub glint_roughness: f32,
    /// The most radiance the glint may add, in units of the sun's light value (colour ×
    /// intensity): bounds its energy, so a sparkle cannot bloom into a column.
    pub glint_max: f32,
    /// Strength of the sun's glint (1: GGX × Smith visibility × water's Schlick Fresnel).
    pub specular_strength: f32,
    /// The sun's shadow map darkens the sea's sunlit terms (the glint, and the light the
    /// water body scatters back, less under deep water); `false`: the sea ignores shadows.
    pub receive_shadows: bool,
    /// The sea as it was drawn before issue #49 (no shadows, hard-edged foam cut-outs, a
    /// Blinn-Phong highlight on the simulation's normals alone): only the control of the look
    /// tests (`sierra_content/tests/sea_look.rs`).
    pub legacy: bool,
    /// Water thinner than this foams (shorelines), metres.
    pub foam_depth: f32,
    /// Water faster than this starts to foam (full at twice), m/s.
    pub foam_speed: f32,
    /// Cells with less water are not drawn (dry land), metres.
    pub min_depth: f32,
    /// Draw every `stride`-th cell (1 = full resolution; 2 or 4 for large grids).
    pub stride: u32,
    /// World height of still water (metres): the open sea around the grid lies at it.
    pub rest_level: f32,
    /// Half-side of the square of open sea drawn around the grid, metres from the grid's
    /// centre (flat, deep, still water shaded like the grid, so the grid's edge does not
    /// show); 0 draws none.
    pub horizon: f32,
    /// Level of detail away from the camera ([`crate::passes::sea_lod`]): tiles of the grid
    /// drawn at coarser strides with distance; `None` draws every `stride`-th cell everywhere.
    pub lod: Option<SeaLod>,
}

/// Height of ground over which the sea's transmittance fades from what its absorption lets
/// through to zero, metres above [`SeaSettings::hidden_floor_height`]: a band, not a step, so no
/// contour line shows where the floor stops showing.
pub const FLOOR_FADE: f32 = 2.0;

impl SeaSettings {
    /// World height (metres) of the ground below which the sea hides the floor completely
    /// (`rest_level - opaque_floor_depth`); `-inf` when [`SeaSettings::opaque_floor_depth`] is
    /// infinite. Over ground there the sea is opaque however its waves move, since the fade is
    /// keyed to the ground's height, not to the water's current depth.
    pub fn hidden_floor_height(&self) -> f32 {
        self.rest_level - self.opaque_floor_depth
    }

    /// Linear colour of the open sea where it meets the horizon under `sun`: `sea.wgsl`'s
    /// shading of deep, still water seen at a 1° grazing angle (Schlick Fresnel ≈ 0.92 towards
    /// `sky_color`, no sun highlight). The sky pass paints this below the horizon
    /// ([`crate::SkySettings::ground`]) when a sea reaches out, so the strip between the sea's
    /// far edge and the horizon reads as more sea, not as ground.
    pub fn horizon_color(&self, sun: &crate::frame::Sun) -> Vec3 {
        let grazing = 1f32.to_radians().sin();
        let fresnel = 0.02 + 0.98 * (1.0 - grazing).powi(5);
        let light = -sun.direction.normalize_or_zero();
        let n_dot_l = light.y.max(0.0);
        let body = self.deep_color * (sun.ambient + 0.6 * n_dot_l * sun.color * sun.intensity);
        body.lerp(self.sky_color, fresnel)
    }
}

impl Default for SeaSettings {
    fn default() -> Self {
        Self {
            origin: Vec3::ZERO,
            shallow_color: Vec3::new(0.10, 0.55, 0.50),
            deep_color: Vec3::new(0.005, 0.05, 0.12),
            absorption_depth: 2.0,
            opaque_floor_depth: 6.0,
            sky_color: Vec3::new(0.45, 0.6, 0.8),
            glint_roughness: 0.004,
            glint_max: 2.0,
            specular_strength: 1.0,
            receive_shadows: true,
            legacy: false,
            foam_depth: 0.15,
            foam_speed: 1.5,
            min_depth: 0.01,
            stride: 1,
            rest_level: 0.0,
            horizon: 0.0,
            lod: None,
        }
    }
}

/// Mirror of `SeaUniforms` in `sea.wgsl` (144 bytes): the water's own parameters (camera,
/// sun, ambient light and shadow map come from the view group).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct SeaUniforms {
    /// Shallow colour, absorption depth.
    pub shallow: Vec4,
    /// Deep colour, [`FLOOR_FADE`].
    pub deep: Vec4,
    /// Sky colour, the hidden floor's height ([`SeaSettings::hidden_floor_height`], at least
    /// −1e30).
    pub sky: Vec4,
    /// Foam depth, foam speed, specular strength, min depth.
    pub foam: Vec4,
    /// Grid corner, cell size.
    pub origin: Vec4,
    /// cols, rows, stride, 1 for the barycentric wireframe (else 0).
    pub grid: glam::UVec4,
    /// Open sea: rest level, half-side (0 = none), depth its colour is taken at; the frame's
    /// time (seconds, wrapped every [`TIME_WRAP_S`]).
    pub far: Vec4,
    /// Glint: GGX alpha, most radiance (× the sun's light), 0, 0.
    pub glint: Vec4,
    /// Flags: bit 0 [`SeaSettings::legacy`], bit 1 [`SeaSettings::receive_shadows`]; 0, 0, 0.
    pub flags: glam::UVec4,
}

/// Period of the time `sea.wgsl` animates foam and detail waves with, seconds (f32 keeps
/// millisecond steps up to it; the pattern jumps once per period).
pub const TIME_WRAP_S: f64 = 1024.0;

/// The sea's WGSL as compiled: the view group's declarations, the sun's shadow lookup, then
/// `sea.wgsl`.
pub fn shader_source() -> String {
    format!(
        "{VIEW_WGSL}\n{SUN_SHADOW_WGSL}\n{}",
        include_str!("sea.wgsl")
    )
}

/// Depth the open sea's colour is taken at, metres (deep enough to be fully absorbed).
const OPEN_SEA_DEPTH: f32 = 50.0;

/// Vertices of the open-sea ring: four quads.
const OPEN_SEA_VERTICES: u32 = 24;

/// The sea pass (see the module docs for how a frame runs it).
pub struct SeaPass {
    /// Look and placement; read by the next [`Pass::prepare`].
    pub settings: SeaSettings,
    /// The pipeline per sample count the targets had (one key each).
    pipelines: ScenePipelines,
    /// Group 1's layout (the sea's uniforms and the water's buffers).
    layout: wgpu::BindGroupLayout,
    /// Group 0: the view group, shared with the other scene passes.
    frame: FrameBindings,
    uniforms: wgpu::Buffer,
    /// One bind group per water depth buffer, and the grid size.
    water: Option<([wgpu::BindGroup; 2], u32, u32, f32)>,
    /// The LOD tiles of the last [`Pass::prepare`] (empty without `settings.lod`), and the
    /// storage buffer `sea.wgsl` reads them from (sized at [`Self::bind_water`]).
    tiles: Vec<SeaTile>,
    tiles_buffer: Option<wgpu::Buffer>,
    /// The ground under the water at the terrain mesh's resolution (`sea.wgsl`'s `shore`):
    /// `[origin x, origin z, spacing, resolution, heights…]`; resolution 0 = none.
    shore: wgpu::Buffer,
    current: usize,
    /// Samples per pixel `pipeline` was built for ([`RenderTargets::sample_count`]).
    sample_count: u32,
    /// Draw wireframe frames with barycentric edges in the fragment shader (filled pipeline,
    /// fragments away from the triangle's edges discarded) even where the device has line
    /// mode. Without `POLYGON_MODE_LINE` the pass does so always.
    pub barycentric_wireframe: bool,
}

/// The ground's heights on a square grid, world space: sample `(i, j)` lies at
/// `origin + (i, j) * spacing` (x, z) with height `heights[j * resolution + i]` (metres).
#[derive(Clone, Copy, Debug)]
pub struct ShoreHeights<'a> {
    /// World (x, z) of sample (0, 0), metres.
    pub origin: glam::Vec2,
    /// Distance between samples, metres.
    pub spacing: f32,
    /// Samples per side (0: no shore data).
    pub resolution: u32,
    /// `[resolution²]` heights, row-major (`j * resolution + i`), metres.
    pub heights: &'a [f32],
}

impl ShoreHeights<'_> {
    /// No ground data: the water ends where the simulation's cells run dry.
    pub const NONE: ShoreHeights<'static> = ShoreHeights {
        origin: glam::Vec2::ZERO,
        spacing: 1.0,
        resolution: 0,
        heights: &[],
    };
}

/// The `shore` storage buffer of `shore` (header of 4 floats, then the heights).
fn shore_buffer(ctx: &GpuContext, shore: &ShoreHeights<'_>) -> Result<wgpu::Buffer> {
    let mut data = vec![
        shore.origin.x,
        shore.origin.y,
        shore.spacing,
        shore.resolution as f32,
    ];
    data.extend_from_slice(shore.heights);
    ctx.create_buffer_init(
        "sea shore heights",
        bytemuck::cast_slice(&data),
        wgpu::BufferUsages::STORAGE,
    )
}

/// The sea pipeline's key at `sample_count` samples per pixel.
fn key(sample_count: u32) -> PipelineKey {
    // Waves can fold a triangle over; the sea has no back to hide. Blended over the scene.
    PipelineKey {
        double_sided: true,
        blend: true,
        ..PipelineKey::new(sample_count, VertexLayout::None)
    }
}

/// The sea's keys at `sample_count`: filled, and lines where the device draws them
/// (`Features::POLYGON_MODE_LINE`, requested only where offered; without it wireframe frames
/// draw the sea's triangle edges from barycentric coordinates in `sea.wgsl`).
fn keys(ctx: &GpuContext, sample_count: u32) -> Vec<PipelineKey> {
    let lines = ctx
        .device
        .features()
        .contains(wgpu::Features::POLYGON_MODE_LINE);
    let filled = key(sample_count);
    let mut keys = vec![filled];
    if lines {
        keys.push(PipelineKey {
            wireframe: true,
            ..filled
        });
    }
    keys
}

impl SeaPass {
    /// Creates the pipeline (HDR colour target, depth test without depth write, alpha blending),
    /// reading camera, sun and ambient light from `frame` (the view group the forward pass
    /// writes each frame).
    ///
    /// # Errors
    /// [`RenderError::Gpu`].
    pub fn new(ctx: &GpuContext, frame: &FrameBindings) -> Result<Self> {
        let (layout, mut pipelines) = ctx.scoped(
            || "creating the sea pipeline".to_owned(),
            || Self::layouts(ctx, frame),
        )?;
        pipelines.warm(ctx, keys(ctx, 1))?;
        let uniforms = ctx.create_buffer_init(
            "sea uniforms",
            bytemuck::bytes_of(&SeaUniforms::default()),
            wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        )?;
        let shore = shore_buffer(ctx, &ShoreHeights::NONE)?;
        Ok(Self {
            settings: SeaSettings::default(),
            pipelines,
            layout,
            frame: frame.clone(),
            uniforms,
            water: None,
            tiles: Vec::new(),
            tiles_buffer: None,
            shore,
            current: 0,
            sample_count: 1,
            barycentric_wireframe: false,
        })
    }

    /// The sea's group layout (group 1: uniforms; terrain, depth, velocity, shore and tiles as
    /// storage) and its pipelines (group 0: `frame`'s), none built yet.
    fn layouts(ctx: &GpuContext, frame: &FrameBindings) -> (wgpu::BindGroupLayout, ScenePipelines) {
        let device = &ctx.device;
        let vertex = wgpu::ShaderStages::VERTEX;
        let layout = gpu_util::bind_group_layout(
            device,
            "sea",
            &[
                gpu_util::uniform_entry(0, wgpu::ShaderStages::VERTEX_FRAGMENT),
                gpu_util::storage_entry(1, vertex, true),
                // Depth and velocity: the fragment stage reads them too (the foam).
                gpu_util::storage_entry(2, wgpu::ShaderStages::VERTEX_FRAGMENT, true),
                gpu_util::storage_entry(3, wgpu::ShaderStages::VERTEX_FRAGMENT, true),
                gpu_util::storage_entry(4, wgpu::ShaderStages::FRAGMENT, true),
                gpu_util::storage_entry(5, vertex, true),
            ],
        );
        let module =
            ctx.create_shader_module("view.wgsl + sun_shadow.wgsl + sea.wgsl", shader_source());
        let pipelines = ScenePipelines::new(
            "sea",
            gpu_util::pipeline_layout(device, "sea", &[frame.layout(), &layout]),
            module,
            ("vs_main", "fs_main"),
        )
        .depth_read_only(wgpu::CompareFunction::Less);
        (layout, pipelines)
    }

    /// Binds a water simulation's buffers (both depth buffers, so swapping costs nothing).
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] for a grid smaller than 2x2; [`RenderError::Gpu`].
    pub fn bind_water(&mut self, ctx: &GpuContext, water: &WaterCompute) -> Result<()> {
        self.bind(ctx, water)
    }

    /// Gives the pass the ground's heights at the terrain mesh's resolution (the island's
    /// height field), so the water fades out and ends where it meets the ground as drawn, not
    /// along the simulation's coarser cells; rebinds `water` when given.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] for heights that do not fill `resolution²`;
    /// [`RenderError::Gpu`] and buffer-size errors.
    pub fn set_shore(
        &mut self,
        ctx: &GpuContext,
        shore: &ShoreHeights<'_>,
        water: Option<&WaterCompute>,
    ) -> Result<()> {
        if shore.heights.len() != (shore.resolution as usize).pow(2) {
            return Err(RenderError::InvalidInput(format!(
                "sea shore: {} heights for a {res}x{res} grid",
                shore.heights.len(),
                res = shore.resolution
            )));
        }
        self.shore = shore_buffer(ctx, shore)?;
        match water {
            Some(water) => self.bind(ctx, water),
            None => Ok(()),
        }
    }

    fn bind(&mut self, ctx: &GpuContext, water: &WaterCompute) -> Result<()> {
        let p = water.params();
        if p.cols < 2 || p.rows < 2 {
            return Err(RenderError::InvalidInput(format!(
                "sea: a {}x{} water grid has no quads to draw (need at least 2x2)",
                p.cols, p.rows
            )));
        }
        let tile_count = (p.cols - 1).div_ceil(sea_lod::TILE_QUADS) as u64
            * (p.rows - 1).div_ceil(sea_lod::TILE_QUADS) as u64;
        let tiles_buffer = ctx.create_buffer(&wgpu::BufferDescriptor {
            label: Some("sea lod tiles"),
            size: tile_count * std::mem::size_of::<SeaTile>() as u64,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })?;
        let group = |i: usize| {
            gpu_util::bind_group(
                &ctx.device,
                "sea water",
                &self.layout,
                &[
                    self.uniforms.as_entire_binding(),
                    water.terrain_buffer().as_entire_binding(),
                    water.depth_buffers()[i].as_entire_binding(),
                    water.velocity_buffer().as_entire_binding(),
                    self.shore.as_entire_binding(),
                    tiles_buffer.as_entire_binding(),
                ],
            )
        };
        let groups = ctx.scoped(
            || "creating the sea bind groups".to_owned(),
            || [group(0), group(1)],
        )?;
        self.water = Some((groups, p.cols, p.rows, p.cell_size));
        self.tiles_buffer = Some(tiles_buffer);
        self.tiles.clear();
        self.current = water.current_index();
        Ok(())
    }

    /// Which depth buffer to draw: pass [`WaterCompute::current_index`] after stepping.
    pub fn set_current(&mut self, index: usize) {
        self.current = index & 1;
    }

    fn quad_counts(&self) -> Option<(u32, u32)> {
        let (_, cols, rows, _) = self.water.as_ref()?;
        let s = self.settings.stride.max(1);
        Some(((cols - 1) / s, (rows - 1) / s))
    }

    /// Vertices the uniform-stride draw issues (6 per quad); 0 before [`Self::bind_water`].
    pub fn vertex_count(&self) -> u32 {
        self.quad_counts().map_or(0, |(x, z)| x * z * 6)
    }

    /// Triangles of the simulated grid the next [`Pass::record`] draws (the open sea's 8 not
    /// counted): the LOD tiles' of the last [`Pass::prepare`] with `settings.lod`, else the
    /// uniform-stride grid's.
    pub fn triangle_count(&self) -> u32 {
        if self.tiles.is_empty() {
            self.vertex_count() / 3
        } else {
            sea_lod::triangle_count(&self.tiles)
        }
    }

    /// Whether wireframe frames use the line-mode pipeline (warmed where the device has
    /// `POLYGON_MODE_LINE`, and not [`Self::barycentric_wireframe`]).
    fn lines_available(&self) -> bool {
        let lines = PipelineKey {
            wireframe: true,
            ..key(self.sample_count)
        };
        !self.barycentric_wireframe && self.pipelines.get(&lines).is_some()
    }

    /// The LOD tiles of the last [`Pass::prepare`] (empty without `settings.lod`).
    pub fn lod_tiles(&self) -> &[SeaTile] {
        &self.tiles
    }

    /// Plans the LOD tiles for a camera at `camera` (world) and uploads them.
    fn plan_tiles(&mut self, ctx: &GpuContext, camera: Vec3) {
        self.tiles.clear();
        let (Some(lod), Some((_, cols, rows, cell)), Some(buffer)) =
            (self.settings.lod, &self.water, &self.tiles_buffer)
        else {
            return;
        };
        self.tiles = sea_lod::plan(*cols, *rows, *cell, self.settings.origin, camera, &lod);
        ctx.queue
            .write_buffer(buffer, 0, bytemuck::cast_slice(&self.tiles));
    }

    /// The uniforms of the current settings and water grid.
    pub fn uniforms(&self) -> SeaUniforms {
        let s = &self.settings;
        let (cols, rows, cell) = self
            .water
            .as_ref()
            .map_or((0, 0, 1.0), |(_, c, r, cell)| (*c, *r, *cell));
        SeaUniforms {
            shallow: s.shallow_color.extend(s.absorption_depth.max(1e-3)),
            deep: s.deep_color.extend(FLOOR_FADE),
            sky: s.sky_color.extend(s.hidden_floor_height().max(-1e30)),
            foam: Vec4::new(
                s.foam_depth.max(1e-4),
                s.foam_speed.max(1e-4),
                s.specular_strength,
                s.min_depth,
            ),
            origin: s.origin.extend(cell),
            grid: glam::UVec4::new(cols, rows, s.stride.max(1), 0),
            far: Vec4::new(s.rest_level, s.horizon.max(0.0), OPEN_SEA_DEPTH, 0.0),
            glint: Vec4::new(s.glint_roughness.max(1e-3), s.glint_max.max(0.0), 0.0, 0.0),
            flags: glam::UVec4::new(
                u32::from(s.legacy) | (u32::from(s.receive_shadows) << 1),
                0,
                0,
                0,
            ),
        }
    }
}

impl Pass for SeaPass {
    fn name(&self) -> &'static str {
        "sea"
    }

    fn resize(&mut self, ctx: &GpuContext, targets: &RenderTargets) -> Result<()> {
        self.pipelines.warm(ctx, keys(ctx, targets.sample_count))?;
        self.sample_count = targets.sample_count;
        Ok(())
    }

    fn prepare(&mut self, ctx: &GpuContext, inputs: &PassInputs<'_>) -> Result<()> {
        let camera = &inputs.frame.camera;
        let mut u = self.uniforms();
        u.grid.w = u32::from(inputs.frame.post.wireframe && !self.lines_available());
        u.far.w = (inputs.frame.post.environment.time_s.rem_euclid(TIME_WRAP_S)) as f32;
        ctx.queue
            .write_buffer(&self.uniforms, 0, bytemuck::bytes_of(&u));
        self.plan_tiles(ctx, camera.position);
        Ok(())
    }

    fn active(&self) -> bool {
        self.water.is_some()
    }

    fn record(&self, encoder: &mut Encoder, inputs: &PassInputs<'_>, queries: PassQueries<'_>) {
        let groups = match &self.water {
            Some((groups, ..)) => groups,
            // Unbound: draw nothing, but still open a pass when asked to time it so the
            // renderer's per-pass queries stay in order.
            None if queries.timestamps.is_none() => return,
            None => {
                encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some("sea (no water bound)"),
                    timestamp_writes: queries.timestamps.map(|t| {
                        wgpu::ComputePassTimestampWrites {
                            query_set: t.query_set,
                            beginning_of_pass_write_index: t.beginning_of_pass_write_index,
                            end_of_pass_write_index: t.end_of_pass_write_index,
                        }
                    }),
                });
                return;
            }
        };
        let mut pass = inputs.continue_scene_pass(encoder, "sea", queries);
        let filled = key(self.sample_count);
        let lines = PipelineKey {
            wireframe: true,
            ..filled
        };
        let pipeline = match self.pipelines.get(&lines) {
            Some(p) if inputs.frame.post.wireframe && !self.barycentric_wireframe => p,
            _ => match self.pipelines.get(&filled) {
                Some(p) => p,
                None => return,
            },
        };
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, &self.frame.group(), &[]);
        pass.set_bind_group(1, &groups[self.current], &[]);
        // The open sea first: the grid, which overlaps its inner cell, blends over it.
        if self.settings.horizon > 0.0 {
            pass.draw(0..OPEN_SEA_VERTICES, 1..2);
        }
        if self.tiles.is_empty() {
            pass.draw(0..self.vertex_count(), 0..1);
        }
        for (t, tile) in (2u32..).zip(&self.tiles) {
            pass.draw(0..tile.quads() * 6, t..t + 1);
        }
    }
}
