//! Crowds from baked animation textures (seed 004 "Animation Rendering", done better): every
//! clip's skinning matrices ([`BakedPalettes`]) live in ONE `Rgba32Float` 2D texture
//! (width `3 · joint_count` texels, one row per global frame, a row range per clip, so no clip is
//! padded to the longest and there is no layer limit), read with `textureLoad` (32-bit float
//! formats need no filtering, which many GPUs lack). One instanced draw per crowd: each instance
//! has a world transform, a clip, a time offset, a speed and an optional second clip with a
//! crossfade weight. The vertex shader (`crowd.wgsl`) derives each instance's time from one
//! global time uniform, interpolates the two nearest baked frames (looping) and skins position,
//! normal and tangent with 4 influences; it is appended to `forward.wgsl` so the forward
//! fragment shader lights crowds like every other mesh.
//!
//! Crowds cast sun shadows: the pass is a [`ShadowCaster`], which the shadow pass records into
//! its map with the frame's other casters (depth only, `crowd_shadow.wgsl`, the same baked
//! skinning), so the ground and the crowd itself receive them.
//!
//! CPU cost per frame: the frame's crowd clock ([`crate::CrowdFrame::time`]) is one `f32` written
//! per crowd; instance buffers are written only at [`CrowdPass::set_instances`] (placing a crowd)
//! and for the member ranges a frame's [`crate::CrowdFrame::updates`] list (members changing
//! state at run time, [`CrowdInstance::switch_to`]).
//!
//! Members are culled on the CPU before the vertex stage ([`bounds`]): each keeps a world box
//! that holds it in every baked pose, and a crowd is drawn as the runs of consecutive members
//! whose boxes meet the view frustum (the lit pass) or the sun's box (the shadow pass), so a
//! crowd wholly outside costs no vertex invocations.

pub mod baked;
pub mod bounds;
pub mod instance;

use std::ops::Range;

use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Vec4};

use crate::context::GpuContext;
use crate::error::{RenderError, Result};
use crate::frame::Material;
use crate::gpu_util;
use crate::material::{GpuMaterial, MaterialBinder, SurfaceMaterial};
use crate::mesh::{GpuMesh, Vertex};
use crate::passes::forward::ObjectUniform;
use crate::passes::frustum::Frustum;
use crate::passes::scene_pipelines::ScenePipelines;
use crate::passes::shadow::ShadowPass;
use crate::passes::view::FrameBindings;
use crate::passes::{Encoder, Pass, PassInputs, PassQueries, ShadowCaster};
use crate::pipeline_cache::{PipelineKey, VertexLayout};
use crate::skinned_mesh::SkinnedMeshData;
use crate::targets::RenderTargets;
pub use baked::{BakedPaletteClip, BakedPalettes};
pub use instance::{CrowdHandle, CrowdInstance};

/// Most clips one baked texture may hold (`MAX_CROWD_CLIPS` in `crowd.wgsl`).
pub const MAX_CROWD_CLIPS: usize = 64;

/// WGSL of the crowd pipeline: `forward.wgsl` (shared lighting), `crowd_common.wgsl` (baked
/// skinning) and `crowd.wgsl` (the lit vertex stage).
pub fn shader_source() -> String {
    format!(
        "{}\n{}\n{}",
        crate::passes::forward::SHADER,
        include_str!("crowd_common.wgsl"),
        include_str!("crowd.wgsl")
    )
}

/// WGSL of the crowd shadow caster pipeline: `crowd_common.wgsl` (the same baked skinning as the
/// lit pipeline) and `crowd_shadow.wgsl` (depth only, the shadow pass's light view-projection).
pub fn shadow_shader_source() -> String {
    format!(
        "{}\n{}",
        include_str!("crowd_common.wgsl"),
        include_str!("crowd_shadow.wgsl")
    )
}

/// `CrowdClip` in `crowd.wgsl`, 16 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
struct ClipUniform {
    first_frame: u32,
    frame_count: u32,
    duration: f32,
    _pad: f32,
}

/// `CrowdUniform` in `crowd.wgsl`, 16 + 16 · [`MAX_CROWD_CLIPS`] bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
struct CrowdUniform {
    time: f32,
    sample_rate: f32,
    clip_count: u32,
    _pad: u32,
    clips: [ClipUniform; MAX_CROWD_CLIPS],
}

/// Checks `baked` fits one texture of the device and returns its size `(width, height)` in texels.
///
/// # Errors
/// [`RenderError::InvalidInput`] for an empty bake, more than [`MAX_CROWD_CLIPS`] clips or a
/// texel count that does not match; [`RenderError::LimitExceeded`] (naming
/// `max_texture_dimension_2d`) when `3 · joint_count` or the total frame count is too large.
pub fn baked_texture_size(ctx: &GpuContext, baked: &BakedPalettes) -> Result<(u32, u32)> {
    let frames = baked.total_frames();
    if baked.joint_count == 0 || frames == 0 || baked.clips.is_empty() {
        return Err(RenderError::InvalidInput(format!(
            "baked animation has {} joints, {} clips and {frames} frames: nothing to draw",
            baked.joint_count,
            baked.clips.len()
        )));
    }
    if baked.clips.len() > MAX_CROWD_CLIPS {
        return Err(RenderError::InvalidInput(format!(
            "baked animation has {} clips; a crowd texture holds at most {MAX_CROWD_CLIPS}",
            baked.clips.len()
        )));
    }
    if baked.texels.len() != frames * baked.joint_count * 3 {
        return Err(RenderError::InvalidInput(format!(
            "baked animation has {} texels, expected {frames} frames × {} joints × 3",
            baked.texels.len(),
            baked.joint_count
        )));
    }
    let limit = u64::from(ctx.device.limits().max_texture_dimension_2d);
    let width = baked.joint_count as u64 * 3;
    for (what, requested) in [
        ("baked animation texture width (3 texels × joints)", width),
        ("baked animation texture height (total baked frames over all clips; lower the sample rate or bake fewer clips)", frames as u64),
    ] {
        if requested > limit {
            return Err(RenderError::LimitExceeded {
                what: what.to_owned(),
                requested,
                limit,
                limit_name: "max_texture_dimension_2d",
            });
        }
    }
    Ok((width as u32, frames as u32))
}

struct Crowd {
    /// Bind-pose vertices and indices.
    mesh: GpuMesh,
    /// Model-space box holding the mesh in every baked pose ([`bounds::posed_bounds`]).
    posed: Option<(glam::Vec3, glam::Vec3)>,
    /// `[member]` world boxes (`posed` under each instance's model), for culling.
    member_bounds: Vec<(glam::Vec3, glam::Vec3)>,
    /// `[vertex]` joints (`Uint32x4`) then weights (`Float32x4`), interleaved.
    influences: wgpu::Buffer,
    instances: wgpu::Buffer,
    instance_capacity: u32,
    instance_count: u32,
    uniform_buffer: wgpu::Buffer,
    uniform: CrowdUniform,
    bind_group: wgpu::BindGroup,
    material: GpuMaterial,
    _texture: wgpu::Texture,
}

impl Crowd {
    /// The runs of members to draw in `frustum`: all of them when `culling` is off.
    fn runs<'a>(
        &'a self,
        frustum: &'a Frustum,
        culling: bool,
    ) -> Box<dyn Iterator<Item = Range<u32>> + 'a> {
        if culling {
            Box::new(bounds::visible_runs(&self.member_bounds, frustum))
        } else {
            Box::new(std::iter::once(0..self.instance_count).filter(|r| !r.is_empty()))
        }
    }

    /// Binds the crowd's vertex buffers (mesh, influences, instances) once and draws each run
    /// of `members` (instance ranges) as one instanced draw.
    fn draw(&self, pass: &mut wgpu::RenderPass<'_>, members: impl Iterator<Item = Range<u32>>) {
        pass.set_vertex_buffer(0, self.mesh.vertex_buffer.slice(..));
        pass.set_vertex_buffer(1, self.influences.slice(..));
        pass.set_vertex_buffer(2, self.instances.slice(..));
        pass.set_index_buffer(self.mesh.index_buffer.slice(..), wgpu::IndexFormat::Uint32);
        for run in members {
            pass.draw_indexed(self.mesh.indices(), 0, run);
        }
    }
}

/// The crowd pass: draws every crowd into the HDR target after the forward pass (loading its
/// colour and depth), lit by the same sun, shadow map and point lights.
pub struct CrowdPass {
    /// Lit pipelines by key (single- and double-sided per sample count the targets had).
    pipelines: ScenePipelines,
    /// Depth-only pipeline drawing crowds into the sun's shadow map.
    shadow_pipeline: wgpu::RenderPipeline,
    crowd_layout: wgpu::BindGroupLayout,
    materials: MaterialBinder,
    /// Group 0: camera, lights, environment: the forward pass's, written once per frame there.
    frame: FrameBindings,
    crowds: Vec<Crowd>,
    time: f32,
    /// Culling of members outside the view or the sun's box before the vertex stage (on by
    /// default; off draws every member, as a control).
    pub culling: bool,
    /// Samples per pixel `pipelines` were built for ([`RenderTargets::sample_count`]).
    sample_count: u32,
}

/// Vertex buffers of the crowd pipelines: mesh vertices, joint influences, instances.
fn vertex_buffers() -> [Option<wgpu::VertexBufferLayout<'static>>; 3] {
    [
        Some(Vertex::layout()),
        Some(wgpu::VertexBufferLayout {
            array_stride: 32,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &INFLUENCE_ATTRIBUTES,
        }),
        Some(wgpu::VertexBufferLayout {
            array_stride: size_of::<CrowdInstance>() as u64,
            step_mode: wgpu::VertexStepMode::Instance,
            attributes: &INSTANCE_ATTRIBUTES,
        }),
    ]
}

/// The lit crowd pipelines' keys at `sample_count` samples per pixel (the forward pass's
/// count): one-sided, double-sided, and the wireframe key where the device draws lines
/// (`lines`: `Features::POLYGON_MODE_LINE`).
fn lit_keys(sample_count: u32, lines: bool) -> Vec<PipelineKey> {
    let key = PipelineKey::new(sample_count, VertexLayout::MeshInstanced);
    let double = PipelineKey {
        double_sided: true,
        ..key
    };
    let mut keys = vec![key, double];
    if lines {
        keys.push(wireframe_key(sample_count));
    }
    keys
}

/// The crowd's wireframe key (lines, both sides: as the forward pass draws wireframe).
fn wireframe_key(sample_count: u32) -> PipelineKey {
    PipelineKey {
        double_sided: true,
        wireframe: true,
        ..PipelineKey::new(sample_count, VertexLayout::MeshInstanced)
    }
}

/// Whether the device draws lines (`Features::POLYGON_MODE_LINE`, requested only where the
/// adapter offers it: [`crate::context::OPTIONAL_FEATURES`]).
fn lines(ctx: &GpuContext) -> bool {
    ctx.device
        .features()
        .contains(wgpu::Features::POLYGON_MODE_LINE)
}

const INFLUENCE_ATTRIBUTES: [wgpu::VertexAttribute; 2] =
    wgpu::vertex_attr_array![5 => Uint32x4, 6 => Float32x4];
const INSTANCE_ATTRIBUTES: [wgpu::VertexAttribute; 8] = wgpu::vertex_attr_array![
    7 => Float32x4, 8 => Float32x4, 9 => Float32x4, 10 => Float32x4, 11 => Uint32x2, 12 => Float32x4,
    13 => Float32x2, 14 => Float32x4
];

/// The baked palettes as one `Rgba32Float` texture (one frame per row), uploaded.
fn baked_texture(ctx: &GpuContext, baked: &BakedPalettes) -> Result<wgpu::Texture> {
    let (width, height) = baked_texture_size(ctx, baked)?;
    let texture = ctx.create_texture(&crate::targets::texture_desc(
        "baked animation",
        width,
        height,
        wgpu::TextureFormat::Rgba32Float,
        wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
    ))?;
    ctx.queue.write_texture(
        wgpu::TexelCopyTextureInfo {
            texture: &texture,
            mip_level: 0,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        },
        bytemuck::cast_slice::<Vec4, u8>(&baked.texels),
        wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(width * 16),
            rows_per_image: Some(height),
        },
        wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
    );
    Ok(texture)
}

/// `[vertex]` 32 bytes: four `u32` joints then four `f32` weights (vertex buffer 1).
fn packed_influences(mesh: &SkinnedMeshData) -> Vec<u8> {
    let mut influences = Vec::with_capacity(mesh.joints.len() * 32);
    for (j, w) in mesh.joints.iter().zip(&mesh.weights) {
        influences.extend_from_slice(bytemuck::bytes_of(j));
        influences.extend_from_slice(bytemuck::bytes_of(w));
    }
    influences
}

impl CrowdUniform {
    /// The uniform of a crowd of `baked` clips at `time` seconds.
    fn new(time: f32, baked: &BakedPalettes) -> Self {
        let mut uniform = Self {
            time,
            sample_rate: baked.sample_rate,
            clip_count: baked.clips.len() as u32,
            _pad: 0,
            clips: [ClipUniform::default(); MAX_CROWD_CLIPS],
        };
        for (slot, clip) in uniform.clips.iter_mut().zip(&baked.clips) {
            *slot = ClipUniform {
                first_frame: clip.first_frame,
                frame_count: clip.frame_count.max(1),
                duration: clip.duration,
                _pad: 0.0,
            };
        }
        uniform
    }
}

/// The crowd pass's per-crowd layout (uniform, baked texture, clip uniform); its frame layout
/// is the view group's ([`FrameBindings`]).
fn crowd_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let vertex = wgpu::ShaderStages::VERTEX;
    let unfiltered = wgpu::TextureSampleType::Float { filterable: false };
    gpu_util::bind_group_layout(
        device,
        "crowd",
        &[
            gpu_util::uniform_entry(0, wgpu::ShaderStages::VERTEX_FRAGMENT),
            gpu_util::texture_entry(1, vertex, unfiltered),
            gpu_util::uniform_entry(2, wgpu::ShaderStages::VERTEX_FRAGMENT),
        ],
    )
}

impl CrowdPass {
    /// Creates the pass, lit through `shadow`'s shadow map, with `frame` as its group 0: the
    /// renderer's view group (camera, lights and environment), written once per frame before
    /// the passes record.
    ///
    /// # Errors
    /// [`RenderError::Gpu`] when shader, pipeline or buffer creation fails.
    pub fn new(ctx: &GpuContext, shadow: &ShadowPass, frame: &FrameBindings) -> Result<Self> {
        let device = &ctx.device;
        let materials = MaterialBinder::new(ctx)?;
        let crowd_layout = crowd_layout(device);
        let mut pipelines = frame.lit_pipelines(
            ctx,
            (
                "crowd",
                "forward.wgsl + crowd.wgsl",
                shader_source().into(),
                "vs_crowd",
            ),
            (&crowd_layout, materials.layout()),
            &vertex_buffers(),
        )?;
        pipelines.warm(ctx, lit_keys(1, lines(ctx)))?;
        let shadow_pipeline = ctx.scoped(
            || "creating the crowd shadow casters".to_owned(),
            || {
                let module = ctx.create_shader_module(
                    "crowd_common.wgsl + crowd_shadow.wgsl",
                    shadow_shader_source(),
                );
                let (entry, groups) = ("vs_crowd_shadow", [&crowd_layout]);
                shadow.caster_pipeline(ctx, (&module, entry), &groups, &vertex_buffers())
            },
        )?;
        Ok(Self {
            pipelines,
            shadow_pipeline,
            crowd_layout,
            materials,
            frame: frame.clone(),
            crowds: Vec::new(),
            time: 0.0,
            culling: true,
            sample_count: 1,
        })
    }

    /// Uploads a crowd: the skinned mesh `mesh` (bind pose + 4 influences, joints indexing the
    /// same skin as `baked`), its baked clips as one texture, `material` / `surface` for
    /// shading, and the first `instances`.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] for a mesh that fails [`SkinnedMeshData::validate`] or whose
    /// skin does not match `baked`, an instance naming a clip past `baked.clips`;
    /// the errors of [`baked_texture_size`]; [`RenderError::Gpu`].
    pub fn add_crowd(
        &mut self,
        ctx: &GpuContext,
        mesh: &SkinnedMeshData,
        baked: &BakedPalettes,
        material: &Material,
        surface: &SurfaceMaterial,
        instances: &[CrowdInstance],
    ) -> Result<CrowdHandle> {
        mesh.validate()?;
        if mesh.joint_count as usize != baked.joint_count {
            return Err(RenderError::InvalidInput(format!(
                "crowd mesh skin has {} joints but the baked animation has {}",
                mesh.joint_count, baked.joint_count
            )));
        }
        let texture = baked_texture(ctx, baked)?;
        let uniform = CrowdUniform::new(self.time, baked);
        let usage = wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST;
        let uniform_buffer =
            ctx.create_buffer_init("crowd", bytemuck::bytes_of(&uniform), usage)?;
        let object = ObjectUniform::new(Mat4::IDENTITY, material);
        let object_buffer =
            ctx.create_buffer_init("crowd material", bytemuck::bytes_of(&object), usage)?;
        let view = texture.create_view(&Default::default());
        let bind_group = ctx.scoped(
            || "creating the crowd bind group".to_owned(),
            || {
                gpu_util::bind_group(
                    &ctx.device,
                    "crowd",
                    &self.crowd_layout,
                    &[
                        object_buffer.as_entire_binding(),
                        wgpu::BindingResource::TextureView(&view),
                        uniform_buffer.as_entire_binding(),
                    ],
                )
            },
        )?;
        let influences = ctx.create_buffer_init(
            "crowd influences",
            &packed_influences(mesh),
            wgpu::BufferUsages::VERTEX,
        )?;
        let gpu_mesh = GpuMesh::upload(ctx, &mesh.mesh, "crowd mesh")?;
        let material = self.materials.bind(ctx, surface)?;
        let (instances_buffer, capacity) = create_instances(ctx, instances.len().max(1))?;
        self.crowds.push(Crowd {
            mesh: gpu_mesh,
            posed: bounds::posed_bounds(mesh, baked),
            member_bounds: Vec::new(),
            influences,
            instances: instances_buffer,
            instance_capacity: capacity,
            instance_count: 0,
            uniform_buffer,
            uniform,
            bind_group,
            material,
            _texture: texture,
        });
        let handle = CrowdHandle(self.crowds.len() as u32 - 1);
        self.set_instances(ctx, handle, instances)?;
        Ok(handle)
    }

    /// Replaces the instances of `crowd` (the only per-instance upload; call it when the crowd
    /// changes, not every frame).
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] for an unknown handle or an instance whose clip is out of
    /// range; [`RenderError::Gpu`] / [`RenderError::LimitExceeded`] when growing the buffer fails.
    pub fn set_instances(
        &mut self,
        ctx: &GpuContext,
        crowd: CrowdHandle,
        instances: &[CrowdInstance],
    ) -> Result<()> {
        let c = self.crowd_mut(crowd)?;
        check_clips(instances, c.uniform.clip_count)?;
        if instances.len() > c.instance_capacity as usize {
            let (buffer, capacity) = create_instances(ctx, instances.len())?;
            c.instances = buffer;
            c.instance_capacity = capacity;
        }
        if !instances.is_empty() {
            ctx.queue
                .write_buffer(&c.instances, 0, bytemuck::cast_slice(instances));
        }
        c.instance_count = instances.len() as u32;
        c.member_bounds = bounds::member_bounds(c.posed, instances);
        Ok(())
    }

    /// Rewrites instances `first..first + instances.len()` of `crowd` in place (members whose
    /// state changed), without touching the others.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] for an unknown handle, a range past the crowd's instance
    /// count, or a clip out of range.
    pub fn update_instances(
        &mut self,
        ctx: &GpuContext,
        crowd: CrowdHandle,
        first: usize,
        instances: &[CrowdInstance],
    ) -> Result<()> {
        let c = self.crowd_mut(crowd)?;
        let end = first.saturating_add(instances.len());
        if end > c.instance_count as usize {
            return Err(RenderError::InvalidInput(format!(
                "crowd instances {first}..{end} past the crowd's {} instances",
                c.instance_count
            )));
        }
        check_clips(instances, c.uniform.clip_count)?;
        if !instances.is_empty() {
            let offset = (first * size_of::<CrowdInstance>()) as u64;
            ctx.queue
                .write_buffer(&c.instances, offset, bytemuck::cast_slice(instances));
        }
        let moved = bounds::member_bounds(c.posed, instances);
        c.member_bounds[first..end].copy_from_slice(&moved);
        Ok(())
    }

    /// The crowd of `handle`.
    fn crowd_mut(&mut self, handle: CrowdHandle) -> Result<&mut Crowd> {
        self.crowds
            .get_mut(handle.0 as usize)
            .ok_or_else(|| RenderError::InvalidInput(format!("unknown crowd {}", handle.0)))
    }

    /// Triangles the crowd pass submits for a view of `view_proj` (world → clip): those of the
    /// members it does not cull (all of them with [`Self::culling`] off).
    pub fn drawn_triangles(&self, view_proj: Mat4) -> u64 {
        let frustum = Frustum::from_view_proj(view_proj);
        let members = |c: &Crowd| -> u64 {
            c.runs(&frustum, self.culling)
                .map(|r| u64::from(r.end - r.start))
                .sum()
        };
        self.crowds
            .iter()
            .map(|c| members(c) * u64::from(c.mesh.index_count / 3))
            .sum()
    }

    /// Crowds added so far.
    pub fn crowd_count(&self) -> usize {
        self.crowds.len()
    }

    /// Instances placed over all crowds, and the triangles they would submit unculled (what a
    /// frame draws is [`Self::drawn_triangles`]).
    pub fn totals(&self) -> (u64, u64) {
        self.crowds.iter().fold((0, 0), |(n, t), c| {
            let n_c = u64::from(c.instance_count);
            (n + n_c, t + n_c * u64::from(c.mesh.index_count / 3))
        })
    }
}

/// Crowds cast sun shadows: the shadow pass draws every crowd into its map, posed as
/// [`Pass::record`] poses them (`crowd_shadow.wgsl`, the same baked skinning).
impl ShadowCaster for CrowdPass {
    fn casts_shadows(&self, _inputs: &PassInputs<'_>) -> bool {
        self.crowds.iter().any(|c| c.instance_count > 0)
    }

    fn record_shadow(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        _inputs: &PassInputs<'_>,
        light: &Frustum,
    ) {
        pass.set_pipeline(&self.shadow_pipeline);
        for c in &self.crowds {
            let mut runs = c.runs(light, self.culling).peekable();
            if runs.peek().is_some() {
                pass.set_bind_group(1, &c.bind_group, &[]);
                c.draw(pass, runs);
            }
        }
    }
}

/// Refuses instances that play a clip past the crowd's `clip_count`.
fn check_clips(instances: &[CrowdInstance], clip_count: u32) -> Result<()> {
    match instances
        .iter()
        .enumerate()
        .find(|(_, i)| i.clip >= clip_count || i.second_clip >= clip_count)
    {
        Some((i, inst)) => Err(RenderError::InvalidInput(format!(
            "crowd instance {i} plays clips {} and {} but the baked animation has {clip_count} clips",
            inst.clip, inst.second_clip
        ))),
        None => Ok(()),
    }
}

fn create_instances(ctx: &GpuContext, count: usize) -> Result<(wgpu::Buffer, u32)> {
    let capacity = count.next_power_of_two() as u64;
    let buffer = ctx.create_buffer(&wgpu::BufferDescriptor {
        label: Some("crowd instances"),
        size: capacity * size_of::<CrowdInstance>() as u64,
        usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })?;
    Ok((buffer, capacity as u32))
}

impl Pass for CrowdPass {
    fn name(&self) -> &'static str {
        "crowd"
    }

    fn resize(&mut self, ctx: &GpuContext, targets: &RenderTargets) -> Result<()> {
        self.pipelines
            .warm(ctx, lit_keys(targets.sample_count, lines(ctx)))?;
        self.sample_count = targets.sample_count;
        Ok(())
    }

    fn prepare(&mut self, ctx: &GpuContext, inputs: &PassInputs<'_>) -> Result<()> {
        if self.crowds.is_empty() {
            return Ok(());
        }
        let frame = inputs.frame;
        for u in &frame.crowds.updates {
            let start = u.start as usize;
            let states = frame
                .crowds
                .instances
                .get(start..start + u.count as usize)
                .ok_or_else(|| {
                    RenderError::InvalidInput(format!(
                        "crowd update of {} members from {} lies outside the frame's {} states",
                        u.count,
                        u.start,
                        frame.crowds.instances.len()
                    ))
                })?;
            self.update_instances(ctx, u.crowd, u.first as usize, states)?;
        }
        self.time = frame.crowds.time;
        for c in &mut self.crowds {
            // Only the time changes per frame: 4 bytes per crowd, whatever the instance count.
            c.uniform.time = self.time;
            ctx.queue
                .write_buffer(&c.uniform_buffer, 0, bytemuck::bytes_of(&self.time));
        }
        Ok(())
    }

    fn record(&self, encoder: &mut Encoder, inputs: &PassInputs<'_>, queries: PassQueries<'_>) {
        let mut pass = inputs.continue_scene_pass(encoder, "crowd", queries);
        pass.set_bind_group(0, &self.frame.group(), &[]);
        let base = PipelineKey::new(self.sample_count, VertexLayout::MeshInstanced);
        // Warmed only where the device draws lines; elsewhere the lookup falls back to filled.
        let wireframe = inputs.frame.post.wireframe
            && self
                .pipelines
                .get(&wireframe_key(self.sample_count))
                .is_some();
        let frustum = Frustum::from_view_proj(inputs.frame.camera.view_proj());
        for c in &self.crowds {
            let mut runs = c.runs(&frustum, self.culling).peekable();
            if runs.peek().is_none() {
                continue;
            }
            let key = if wireframe {
                wireframe_key(self.sample_count)
            } else {
                PipelineKey {
                    double_sided: c.material.variant.double_sided,
                    ..base
                }
            };
            let Some(pipeline) = self.pipelines.get(&key) else {
                continue;
            };
            pass.set_pipeline(pipeline);
            pass.set_bind_group(1, &c.bind_group, &[]);
            pass.set_bind_group(2, &c.material.bind_group, &[]);
            c.draw(&mut pass, runs);
        }
    }

    fn shadow_caster(&self) -> Option<&dyn ShadowCaster> {
        Some(self)
    }
}
