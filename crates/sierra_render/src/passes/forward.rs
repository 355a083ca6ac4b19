//! Forward pass: opaque meshes, Blinn-Phong lit by the sun, ambient and up to
//! [`crate::MAX_POINT_LIGHTS`] point lights, into the HDR target with depth testing.
//! The shading model is documented in `forward.wgsl`.
//!
//! # Uniform or storage
//! Data the shader only reads as values (camera, per-draw object transforms) are uniform
//! buffers. Data it *branches or loops on* (the lights with their count, the shadow parameters
//! with the PCF radius, the material flags) are read-only storage buffers. Both are ordinary on
//! any GPU; the split matters to Mesa's software driver (lavapipe 22.x), which specialises a
//! shader on the values of uniforms that steer control flow ("inlined uniforms") and compiles a
//! new variant, never freed, whenever such a buffer is rebound: per draw here, which grew the
//! demo by ~115 MB per frame and made its forward pass 3-5x slower. Storage buffers are never
//! inlined. The same rule holds in the crowd, tonemap and other passes
//! ([`crate::gpu_util::storage_buffer`]); `sierra/tests/renderer_memory.rs` guards it.

use bytemuck::{Pod, Zeroable};
use glam::{Mat3, Mat4, Vec3, Vec4};

use super::frustum::{transform_aabb, Frustum};
use super::scene_pipelines::ScenePipelines;
use super::shadow::ShadowPass;
use super::view::FrameBindings;
use super::{Encoder, Pass, PassInputs, PassQueries, ShadowCaster};
use crate::context::GpuContext;
use crate::error::{RenderError, Result};
use crate::gpu_util;
use crate::material::MaterialVariant;
use crate::material_store::MaterialStore;
use crate::mesh::{GpuMesh, Vertex};
use crate::mesh_store::MeshStore;
use crate::pipeline_cache::{PipelineKey, VertexLayout};
use crate::targets::RenderTargets;

/// WGSL source of the pass: `view.wgsl`, the sun's shadow lookup (`sun_shadow.wgsl`,
/// [`super::shadow::SUN_SHADOW_WGSL`]), then `forward.wgsl`.
pub const SHADER: &str = concat!(
    include_str!("view.wgsl"),
    include_str!("sun_shadow.wgsl"),
    include_str!("forward.wgsl")
);

/// `ObjectUniform` in `forward.wgsl` (group 1, binding 0, dynamic offset), 176 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct ObjectUniform {
    /// Model → world.
    pub model: Mat4,
    /// Inverse transpose of `model`, for normals.
    pub normal_matrix: Mat4,
    /// Linear RGBA albedo.
    pub base_color: Vec4,
    /// rgb: specular colour, a: specular power.
    pub specular: Vec4,
    /// rgb: emitted light.
    pub emissive: Vec4,
}

impl ObjectUniform {
    /// From a draw's model matrix and material.
    pub fn new(model: Mat4, material: &crate::frame::Material) -> Self {
        Self {
            model,
            normal_matrix: model.inverse().transpose(),
            base_color: material.base_color,
            specular: material
                .specular_color
                .extend(material.specular_power.max(1.0)),
            emissive: material.emissive.extend(0.0),
        }
    }
}

/// The forward pass (see the module docs).
pub struct ForwardPass {
    /// The pipelines by key, warmed for every key of each sample count the targets had.
    pipelines: ScenePipelines,
    /// Depth-only pipeline drawing the draws into the sun's shadow map ([`ShadowCaster`]),
    /// with the same per-draw uniforms.
    caster_pipeline: wgpu::RenderPipeline,
    /// Whether the device draws lines (`Features::POLYGON_MODE_LINE`): wireframe mode.
    lines: bool,
    /// Frustum culling of draws by their world bounds (on by default).
    pub culling: bool,
    /// Draws this frame's `prepare` culled.
    culled: u32,
    /// This frame's draw indices with their sort keys: opaque ones front to back (distance to
    /// their bounds), then blended ones back to front (view depth).
    draw_order: Vec<(f32, u32)>,
    /// Group 0: camera, lights, environment ([`FrameBindings`], the renderer's).
    frame: FrameBindings,
    object_layout: wgpu::BindGroupLayout,
    object_buffer: wgpu::Buffer,
    object_bind_group: wgpu::BindGroup,
    /// Bytes between consecutive objects' uniforms (`min_uniform_buffer_offset_alignment`-aligned).
    object_stride: u64,
    /// Objects `object_buffer` holds.
    object_capacity: u64,
    /// CPU copy of this frame's object uniforms; reused so frames do not allocate.
    staging: Vec<u8>,
    /// Samples per pixel the pipelines were built for ([`RenderTargets::sample_count`]).
    sample_count: u32,
}

impl ForwardPass {
    /// Creates the pass binding the view group `view` (group 0: camera, lights, environment,
    /// the sun's shadow map; [`FrameBindings::unlit`] for none), casting into a shadow map
    /// through a pipeline built like `shadow`'s casters, drawing with the bind groups of
    /// `materials` (group 2).
    ///
    /// # Errors
    /// [`RenderError::Gpu`] when pipeline or buffer creation fails.
    pub fn new(
        ctx: &GpuContext,
        view: &FrameBindings,
        shadow: &ShadowPass,
        materials: &MaterialStore,
    ) -> Result<Self> {
        let device = &ctx.device;
        let frame = view.clone();
        let object_layout = object_layout(device);
        // A model matrix with a negative determinant mirrors the mesh and turns its
        // counter-clockwise front faces clockwise (glTF 2.0 §3.7.4 "Instantiation"): those draws
        // use the mirrored keys, so culling and `front_facing` still mean the mesh's outside.
        let mut pipelines = frame.lit_pipelines(
            ctx,
            ("forward", "forward.wgsl", SHADER.into(), "vs_main"),
            (&object_layout, materials.layout()),
            &[Some(Vertex::layout())],
        )?;
        let lines = device
            .features()
            .contains(wgpu::Features::POLYGON_MODE_LINE);
        pipelines.warm(ctx, forward_keys(1, lines))?;
        let caster_pipeline = ctx.scoped(
            || "creating the forward pass's shadow casters".to_owned(),
            || shadow.mesh_caster_pipeline(ctx, &object_layout),
        )?;
        let align = u64::from(device.limits().min_uniform_buffer_offset_alignment);
        let object_stride = (size_of::<ObjectUniform>() as u64).div_ceil(align) * align;
        let object_capacity = 64;
        let (object_buffer, object_bind_group) =
            create_object_buffer(ctx, &object_layout, object_stride, object_capacity)?;
        Ok(Self {
            pipelines,
            caster_pipeline,
            lines,
            culling: true,
            culled: 0,
            draw_order: Vec::new(),
            frame,
            object_layout,
            object_buffer,
            object_bind_group,
            object_stride,
            object_capacity,
            staging: Vec::new(),
            sample_count: 1,
        })
    }

    /// Whether wireframe mode can draw lines here (the device has `POLYGON_MODE_LINE`; Vulkan,
    /// Metal and D3D12 adapters do, WebGPU and OpenGL ones do not). Without it
    /// a frame's `post.wireframe` is ignored and the scene is drawn filled.
    pub fn wireframe_supported(&self) -> bool {
        self.lines
    }
}

/// The forward pass's group 1 layout (the objects' uniforms at dynamic offsets); group 0 is
/// [`FrameBindings`].
fn object_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let stages = wgpu::ShaderStages::VERTEX_FRAGMENT;
    gpu_util::bind_group_layout(
        device,
        "forward object",
        &[gpu_util::dynamic_uniform_entry(
            0,
            stages,
            size_of::<ObjectUniform>() as u64,
        )],
    )
}

/// Every key the forward pass can draw with at `sample_count` samples: each
/// [`MaterialVariant`] in both windings, and the line-mode key where `lines`.
fn forward_keys(sample_count: u32, lines: bool) -> impl Iterator<Item = PipelineKey> {
    let base = PipelineKey::new(sample_count, VertexLayout::Mesh);
    let filled = [false, true].into_iter().flat_map(move |blend| {
        [false, true].into_iter().flat_map(move |double_sided| {
            [false, true].map(move |mirrored| PipelineKey {
                blend,
                double_sided,
                mirrored,
                ..base
            })
        })
    });
    let wireframe = PipelineKey {
        double_sided: true,
        wireframe: true,
        ..base
    };
    filled.chain(lines.then_some(wireframe))
}

/// The key a draw of `variant` with `model` needs (the line-mode one when `wireframe`).
fn draw_key(
    sample_count: u32,
    variant: MaterialVariant,
    model: &Mat4,
    wireframe: bool,
) -> PipelineKey {
    let base = PipelineKey::new(sample_count, VertexLayout::Mesh);
    if wireframe {
        return PipelineKey {
            double_sided: true,
            wireframe: true,
            ..base
        };
    }
    PipelineKey {
        blend: variant.blend,
        double_sided: variant.double_sided,
        mirrored: is_mirrored(model),
        ..base
    }
}

fn buffer_desc(label: &str, size: u64, usage: wgpu::BufferUsages) -> wgpu::BufferDescriptor<'_> {
    wgpu::BufferDescriptor {
        label: Some(label),
        size,
        usage,
        mapped_at_creation: false,
    }
}

fn create_object_buffer(
    ctx: &GpuContext,
    layout: &wgpu::BindGroupLayout,
    stride: u64,
    capacity: u64,
) -> Result<(wgpu::Buffer, wgpu::BindGroup)> {
    let buffer = ctx.create_buffer(&buffer_desc(
        "forward objects",
        stride * capacity,
        wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
    ))?;
    let bind_group = ctx.scoped(
        || "creating the forward object bind group".to_owned(),
        || {
            let size = size_of::<ObjectUniform>() as u64;
            gpu_util::dynamic_uniform_group(&ctx.device, "forward objects", layout, &buffer, size)
        },
    )?;
    Ok((buffer, bind_group))
}

/// Distance in metres from `eye` to `draw`'s world bounds (0 inside them), or to its origin
/// when its mesh has no bounds.
fn distance_to_draw(eye: Vec3, meshes: &MeshStore, draw: &crate::DrawItem) -> f32 {
    match meshes.bounds(draw.mesh) {
        Some((min, max)) => {
            let (lo, hi) = transform_aabb(&draw.model, min, max);
            eye.clamp(lo, hi).distance(eye)
        }
        None => draw.model.w_axis.truncate().distance(eye),
    }
}

/// Whether `model` mirrors (negative determinant of its linear part), reversing the winding.
fn is_mirrored(model: &Mat4) -> bool {
    Mat3::from_mat4(*model).determinant() < 0.0
}

impl ForwardPass {
    /// Draws the last `prepare` culled (outside the view frustum).
    pub fn culled_draws(&self) -> u32 {
        self.culled
    }

    /// Indices into [`FrameData::draws`] of the draws the last `prepare` kept, in draw order.
    pub fn drawn(&self) -> impl Iterator<Item = usize> + '_ {
        self.draw_order.iter().map(|&(_, i)| i as usize)
    }

    /// Whether `draw` may be visible in `frustum` (draws of meshes without bounds always are).
    fn visible(&self, frustum: &Frustum, meshes: &MeshStore, draw: &crate::DrawItem) -> bool {
        match meshes.bounds(draw.mesh) {
            Some((min, max)) if self.culling => {
                let (lo, hi) = transform_aabb(&draw.model, min, max);
                frustum.intersects_aabb(lo, hi)
            }
            _ => true,
        }
    }
}

impl Pass for ForwardPass {
    fn name(&self) -> &'static str {
        "forward"
    }

    fn resize(&mut self, ctx: &GpuContext, targets: &RenderTargets) -> Result<()> {
        self.pipelines
            .warm(ctx, forward_keys(targets.sample_count, self.lines))?;
        self.sample_count = targets.sample_count;
        Ok(())
    }

    fn prepare(&mut self, ctx: &GpuContext, inputs: &PassInputs<'_>) -> Result<()> {
        let frame = inputs.frame;
        if let Some((i, draw)) =
            inputs.draws.iter().enumerate().find(|(_, d)| {
                d.mesh.0 as usize >= inputs.meshes.len() || !inputs.materials.knows(d)
            })
        {
            return Err(RenderError::InvalidInput(format!(
                "draw {i} uses mesh handle {} and surface {:?} but only {} meshes and {} materials exist",
                draw.mesh.0,
                draw.surface.map(|h| h.0),
                inputs.meshes.len(),
                inputs.materials.len()
            )));
        }
        let draw_count = inputs.draws.len() as u64;
        if draw_count > self.object_capacity {
            let capacity = draw_count.next_power_of_two();
            let (buffer, bind_group) =
                create_object_buffer(ctx, &self.object_layout, self.object_stride, capacity)?;
            self.object_buffer = buffer;
            self.object_bind_group = bind_group;
            self.object_capacity = capacity;
        }
        self.staging.clear();
        self.staging
            .resize((self.object_stride * draw_count) as usize, 0);
        for (slot, draw) in self
            .staging
            .chunks_exact_mut(self.object_stride as usize)
            .zip(inputs.draws)
        {
            let uniform = ObjectUniform::new(draw.model, &draw.material);
            slot[..size_of::<ObjectUniform>()].copy_from_slice(bytemuck::bytes_of(&uniform));
        }
        if !self.staging.is_empty() {
            ctx.queue
                .write_buffer(&self.object_buffer, 0, &self.staging);
        }
        // Opaque draws near to far (by the distance from the eye to each draw's world bounds),
        // so a GPU's early depth test rejects what nearer draws already cover; then blended
        // ones far to near (painter's order by the view depth of each draw's origin).
        // Draws outside the view frustum are left out of the order (and counted).
        let frustum = Frustum::from_view_proj(frame.camera.view_proj());
        let eye = frame.camera.position;
        self.draw_order.clear();
        self.culled = 0;
        for (i, draw) in inputs.draws.iter().enumerate() {
            if !self.visible(&frustum, inputs.meshes, draw) {
                self.culled += 1;
            } else if !inputs.materials.of_draw(draw).variant.blend {
                let distance = distance_to_draw(eye, inputs.meshes, draw);
                self.draw_order.push((distance, i as u32));
            }
        }
        let opaque = self.draw_order.len();
        // Stable: draws at equal distances keep their submission order.
        self.draw_order[..opaque].sort_by(|a, b| a.0.total_cmp(&b.0));
        for (i, draw) in inputs.draws.iter().enumerate() {
            if inputs.materials.of_draw(draw).variant.blend
                && self.visible(&frustum, inputs.meshes, draw)
            {
                let view_z = frame
                    .camera
                    .view
                    .transform_point3(draw.model.w_axis.truncate())
                    .z;
                // Right-handed view space looks down -z: more negative is farther.
                self.draw_order.push((view_z, i as u32));
            }
        }
        self.draw_order[opaque..].sort_by(|a, b| a.0.total_cmp(&b.0));
        Ok(())
    }

    fn record(&self, encoder: &mut Encoder, inputs: &PassInputs<'_>, queries: PassQueries<'_>) {
        let c = inputs.frame.clear_color.as_dvec4();
        let clear = wgpu::Color {
            r: c.x,
            g: c.y,
            b: c.z,
            a: c.w,
        };
        let mut pass = inputs.targets.begin_scene_pass(
            encoder,
            "forward",
            wgpu::LoadOp::Clear(clear),
            wgpu::LoadOp::Clear(1.0),
            queries,
        );
        pass.set_bind_group(0, &self.frame.group(), &[]);
        for &(_, i) in &self.draw_order {
            let i = i as usize;
            // prepare() checked every handle.
            let Some((draw, mesh)) = inputs
                .draws
                .get(i)
                .and_then(|d| Some((d, inputs.meshes.get(d.mesh)?)))
            else {
                continue;
            };
            let material = inputs.materials.of_draw(draw);
            let wireframe = self.lines && inputs.frame.post.wireframe;
            let key = draw_key(self.sample_count, material.variant, &draw.model, wireframe);
            // Warmed for every key of this sample count.
            let Some(pipeline) = self.pipelines.get(&key) else {
                continue;
            };
            pass.set_pipeline(pipeline);
            pass.set_bind_group(2, &material.bind_group, &[]);
            self.draw_object(&mut pass, i, mesh, mesh.index_count);
        }
    }

    fn shadow_caster(&self) -> Option<&dyn ShadowCaster> {
        Some(self)
    }
}

impl ForwardPass {
    /// Binds draw `i`'s object uniforms (group 1) and `mesh`'s buffers, and draws the first
    /// `indices` indices of its range.
    fn draw_object(&self, pass: &mut wgpu::RenderPass<'_>, i: usize, mesh: &GpuMesh, indices: u32) {
        let offset = (i as u64 * self.object_stride) as u32;
        pass.set_bind_group(1, &self.object_bind_group, &[offset]);
        pass.set_vertex_buffer(0, mesh.vertex_buffer.slice(..));
        pass.set_index_buffer(mesh.index_buffer.slice(..), wgpu::IndexFormat::Uint32);
        pass.draw_indexed(mesh.first_index..mesh.first_index + indices, 0, 0..1);
    }
}

/// The frame's meshes and its skinned outputs cast sun shadows, each with its model matrix from
/// this pass's per-draw uniforms (one buffer for both passes): every one of
/// [`PassInputs::draws`] whose world bounds meet the light's frustum, whether the camera sees it
/// or not (a caster outside the view still shadows what is in it), with the indices its mesh
/// casts ([`MeshStore::caster_index_count`]: a terrain chunk's ground, not its skirt). Draws
/// without bounds always cast.
impl ShadowCaster for ForwardPass {
    fn casts_shadows(&self, inputs: &PassInputs<'_>) -> bool {
        !inputs.draws.is_empty()
    }

    fn record_shadow(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        inputs: &PassInputs<'_>,
        light: &Frustum,
    ) {
        pass.set_pipeline(&self.caster_pipeline);
        for (i, draw) in inputs.draws.iter().enumerate() {
            if !self.visible(light, inputs.meshes, draw) {
                continue;
            }
            if let Some(mesh) = inputs.meshes.get(draw.mesh) {
                let indices = inputs.meshes.caster_index_count(draw.mesh);
                self.draw_object(pass, i, mesh, indices);
            }
        }
    }
}
