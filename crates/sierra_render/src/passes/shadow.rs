//! Sun shadow map: the scene drawn from the sun into a depth texture, then sampled by the forward
//! pass with percentage-closer filtering (seed 002 "Shadow", with the smoothed edges it asks for).
//!
//! - **Fit to the view**: the orthographic sun frustum is the rectangle, in the sun's axes, that
//!   bounds the camera frustum cut at `max_distance`, extended towards the sun by
//!   `caster_margin` metres so casters outside the view still cast; its sides come in whole
//!   steps and its corner is snapped to whole shadow-map texels so the shadow does not shimmer
//!   as the camera moves ([`fit_sun_view_proj`]).
//! - **Casters culled**: each caster whose world bounds miss that box is not drawn
//!   ([`super::ShadowCaster::record_shadow`] gets the box as a [`Frustum`]).
//! - **Bias**: the caster pipeline uses a constant + slope-scaled depth bias
//!   (`DepthBiasState`), and the receiver offsets its lookup along the surface normal by a
//!   fraction of a texel (normal-offset shadows, Holbein 2011), so lit slopes show no acne while
//!   the small constant keeps contact shadows attached (no peter-panning).
//! - **PCF**: the forward pass takes (2r+1)² hardware-filtered comparison samples
//!   (`sampler_comparison` with linear filtering is itself a 2×2 bilinear PCF), giving an edge
//!   that ramps over about 2r+2 texels.
//!
//! [`ShadowPass::receiver`] is what the scene passes bind in their view group (group 0,
//! [`crate::passes::view::FrameBindings`]); a receiving shader reads it through
//! [`SUN_SHADOW_WGSL`] (`shadow_map`, `shadow_sampler`, `shadow` and the PCF lookup
//! `sun_shadow`), which the forward, crowd and sea shaders each prepend.

use glam::camera::rh::{proj::directx, view};
use glam::{Mat4, Vec2, Vec3, Vec4};

use super::frustum::Frustum;
use super::{Encoder, Pass, PassInputs, PassQueries};
use crate::camera::Camera;
use crate::context::GpuContext;
use crate::error::Result;
use crate::gpu_util::{
    bind_group, bind_group_layout, pipeline_layout, sampler_entry, storage_entry, texture_entry,
    uniform_entry_for,
};
use crate::mesh::Vertex;

/// WGSL of a shadow receiver (`sun_shadow.wgsl`): the view group's bindings 7-9 and
/// `sun_shadow(world_position, normal) -> f32` (1 lit, 0 shadowed; PCF over the map), to be
/// prepended after [`super::view::VIEW_WGSL`].
pub const SUN_SHADOW_WGSL: &str = include_str!("sun_shadow.wgsl");

/// Depth format of the shadow map.
pub const SHADOW_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// The caster pipelines' depth bias, fixed when they are built (per-frame shadow settings
/// travel in the frame: [`crate::PostSettings::shadow`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShadowBias {
    /// Constant depth bias of the caster pass (depth-format units).
    pub depth_bias: i32,
    /// Slope-scaled depth bias of the caster pass.
    pub slope_bias: f32,
}

impl Default for ShadowBias {
    fn default() -> Self {
        Self {
            depth_bias: 2,
            slope_bias: 2.0,
        }
    }
}

/// Mirror of `ShadowUniform` in `shadow.wgsl` / `sun_shadow.wgsl` (80 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct ShadowUniform {
    /// World → sun clip space.
    pub light_view_proj: Mat4,
    /// x: enabled (0/1), y: texel size in uv, z: normal offset (metres), w: PCF radius (texels).
    pub params: Vec4,
}

/// The fitted box's sides are whole multiples of this many metres (rounded up): they change,
/// and move the texel grid, only when the view turns far enough to need another step, not
/// with every small turn of the camera.
pub const FIT_STEP: f32 = 2.0;

/// The sun's orthographic box for one frame ([`fit_sun_view_proj`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SunFit {
    /// World → sun clip space (depth 0 on the sun's side).
    pub view_proj: Mat4,
    /// World size of one shadow-map texel along the map's x and y axes (metres).
    pub texel: Vec2,
}

/// The orthographic world → sun clip box fitted to what `camera` sees up to `max_distance`.
///
/// The view frustum cut at `max_distance` from the eye (its 8 corners, the far ones pulled in
/// along their rays) is bounded in the sun's axes; the box is that rectangle (each side rounded
/// up to whole [`FIT_STEP`]s and its corner snapped to whole texels of the sun's axes through the
/// world origin, so the shadow does not shimmer while the camera moves), and in depth it
/// reaches `caster_margin` metres beyond the view towards the sun, so casters outside the view
/// still cast. A rectangle rather than the slice's bounding sphere spends the map's texels on
/// what the camera sees: about half the area of the sphere's square for the demo's views.
///
/// `to_sun` points from the scene towards the sun (need not be unit length; zero is taken as
/// straight up); `resolution` is the shadow map's side in texels.
pub fn fit_sun_view_proj(
    camera: &Camera,
    to_sun: Vec3,
    max_distance: f32,
    caster_margin: f32,
    resolution: u32,
) -> SunFit {
    let to_sun = to_sun.normalize_or(Vec3::Y);
    let up = if to_sun.y.abs() > 0.99 {
        Vec3::Z
    } else {
        Vec3::Y
    };
    // Rotation only: the sun's axes through the world origin, so whole-texel offsets along
    // them form a grid fixed in the world.
    let rotation = view::look_to_mat4(Vec3::ZERO, -to_sun, up);
    let (mut lo, mut hi) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
    for corner in view_slice_corners(camera, max_distance) {
        let p = rotation.transform_point3(corner);
        (lo, hi) = (lo.min(p), hi.max(p));
    }
    let res = resolution.max(2) as f32;
    let mut min = Vec2::ZERO;
    let mut extent = Vec2::ZERO;
    for axis in 0..2 {
        // One texel more than the slice needs, so snapping the corner down keeps it covered.
        let needed = (hi[axis] - lo[axis]).max(1e-3) * res / (res - 1.0);
        extent[axis] = (needed / FIT_STEP).ceil() * FIT_STEP;
        let texel = extent[axis] / res;
        min[axis] = (lo[axis] / texel).floor() * texel;
    }
    // The view looks down −z: depth along the sun's rays is −z.
    let (near, far) = (-hi.z - caster_margin, -lo.z);
    let proj = directx::orthographic(
        min.x,
        min.x + extent.x,
        min.y,
        min.y + extent.y,
        near,
        far.max(near + 1e-3),
    );
    SunFit {
        view_proj: proj * rotation,
        texel: extent / res,
    }
}

/// The 8 world-space corners of `camera`'s frustum, the far ones pulled in along their rays
/// to `max_distance` metres from the eye.
fn view_slice_corners(camera: &Camera, max_distance: f32) -> [Vec3; 8] {
    let inv_view_proj = camera.view_proj().inverse();
    let mut corners = [Vec3::ZERO; 8];
    for (i, corner) in corners.iter_mut().enumerate() {
        let ndc = Vec3::new(
            if i & 1 == 0 { -1.0 } else { 1.0 },
            if i & 2 == 0 { -1.0 } else { 1.0 },
            if i & 4 == 0 { 0.0 } else { 1.0 },
        );
        let world = inv_view_proj.project_point3(ndc);
        let ray = world - camera.position;
        *corner = if ray.length() > max_distance {
            camera.position + ray.normalize() * max_distance
        } else {
            world
        };
    }
    corners
}

/// The shadow pass: owns the shadow map, its caster pipeline and the receivers' bind group.
pub struct ShadowPass {
    resolution: u32,
    _map: wgpu::Texture,
    map_view: wgpu::TextureView,
    uniform: wgpu::Buffer,
    caster_layout: wgpu::BindGroupLayout,
    caster_group: wgpu::BindGroup,
    /// What receivers bind: the map, the comparison sampler, the uniform.
    receiver: ShadowReceiver,
    /// The caster pipelines' depth bias.
    bias: ShadowBias,
    /// Whether this frame casts (its [`crate::PostSettings::shadow`], read in `prepare`).
    enabled: bool,
    /// This frame's light frustum (the map's box), against which casters are culled.
    light: Frustum,
}

impl ShadowPass {
    /// Creates a `resolution` × `resolution` shadow map (2048 suits the demo; tests use less).
    ///
    /// # Errors
    /// [`crate::RenderError::InvalidInput`]/[`crate::RenderError::LimitExceeded`] for a bad
    /// resolution, [`crate::RenderError::Gpu`] when creation fails.
    pub fn new(ctx: &GpuContext, resolution: u32) -> Result<Self> {
        let map = shadow_map(ctx, resolution)?;
        let map_view = map.create_view(&wgpu::TextureViewDescriptor::default());
        // Storage too: receivers read it as a storage buffer (see `ShadowReceiver`).
        let uniform = ctx.create_buffer_init(
            "shadow uniform",
            bytemuck::bytes_of(&ShadowUniform {
                light_view_proj: Mat4::IDENTITY,
                params: Vec4::ZERO,
            }),
            wgpu::BufferUsages::UNIFORM
                | wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_DST,
        )?;
        ctx.scoped(
            || "creating the shadow pass".to_owned(),
            || {
                let device = &ctx.device;
                let caster_layout = bind_group_layout(
                    device,
                    "shadow caster",
                    &[uniform_entry_for::<ShadowUniform>(
                        0,
                        wgpu::ShaderStages::VERTEX,
                    )],
                );
                let caster_group = bind_group(
                    device,
                    "shadow caster",
                    &caster_layout,
                    &[uniform.as_entire_binding()],
                );
                let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
                    label: Some("shadow comparison"),
                    mag_filter: wgpu::FilterMode::Linear,
                    min_filter: wgpu::FilterMode::Linear,
                    compare: Some(wgpu::CompareFunction::LessEqual),
                    ..Default::default()
                });
                let receiver = ShadowReceiver {
                    map_view: map_view.clone(),
                    sampler,
                    uniform: uniform.clone(),
                };
                Self {
                    resolution,
                    _map: map,
                    map_view,
                    uniform,
                    caster_layout,
                    caster_group,
                    receiver,
                    bias: ShadowBias::default(),
                    enabled: false,
                    light: Frustum::from_view_proj(Mat4::IDENTITY),
                }
            },
        )
    }

    /// A depth-only pipeline drawing casters into this map: `entry_point` of `module` as its
    /// vertex stage, [`Self::caster_layout`] as group 0 and `groups` after it, `buffers` as its
    /// vertex buffers. Both faces cast (single-sided planes and open meshes must shadow too),
    /// with the pass's depth bias ([`shadow_depth_state`]).
    pub fn caster_pipeline(
        &self,
        ctx: &GpuContext,
        (module, entry_point): (&wgpu::ShaderModule, &str),
        groups: &[&wgpu::BindGroupLayout],
        buffers: &[Option<wgpu::VertexBufferLayout<'_>>],
    ) -> wgpu::RenderPipeline {
        let mut layouts = vec![&self.caster_layout];
        layouts.extend_from_slice(groups);
        let layout = pipeline_layout(&ctx.device, entry_point, &layouts);
        ctx.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(entry_point),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module,
                entry_point: Some(entry_point),
                compilation_options: Default::default(),
                buffers,
            },
            primitive: wgpu::PrimitiveState {
                cull_mode: None,
                ..Default::default()
            },
            depth_stencil: Some(shadow_depth_state(&self.bias)),
            multisample: Default::default(),
            fragment: None,
            multiview_mask: None,
            cache: None,
        })
    }

    /// The caster pipeline of meshes ([`Vertex`] buffers, `shadow.wgsl`), whose group 1 is
    /// `model_layout`: a uniform at a dynamic offset starting with the draw's model matrix
    /// (the forward pass's per-draw uniforms).
    pub fn mesh_caster_pipeline(
        &self,
        ctx: &GpuContext,
        model_layout: &wgpu::BindGroupLayout,
    ) -> wgpu::RenderPipeline {
        let module = ctx.create_shader_module("shadow.wgsl", include_str!("shadow.wgsl"));
        self.caster_pipeline(
            ctx,
            (&module, "vs_shadow"),
            &[model_layout],
            &[Some(Vertex::layout())],
        )
    }

    /// What receivers bind to sample the map ([`ShadowReceiver`]; valid for the pass's life).
    pub fn receiver(&self) -> &ShadowReceiver {
        &self.receiver
    }

    /// Side of the shadow map in texels.
    pub fn resolution(&self) -> u32 {
        self.resolution
    }

    /// Layout of the caster group (group 0 of caster pipelines: binding 0, the `ShadowUniform`,
    /// vertex stage), for other passes' shadow casters (crowds).
    pub fn caster_layout(&self) -> &wgpu::BindGroupLayout {
        &self.caster_layout
    }

    /// The caster group: this frame's light view-projection (written in `prepare`).
    pub fn caster_bind_group(&self) -> &wgpu::BindGroup {
        &self.caster_group
    }

    /// The shadow map's depth view ([`SHADOW_FORMAT`]), for casters drawn after this pass
    /// records (load, do not clear).
    pub fn map_view(&self) -> &wgpu::TextureView {
        &self.map_view
    }
}

/// The `resolution`² depth texture casters draw into and receivers sample.
fn shadow_map(ctx: &GpuContext, resolution: u32) -> Result<wgpu::Texture> {
    ctx.create_texture(&wgpu::TextureDescriptor {
        label: Some("shadow map"),
        size: wgpu::Extent3d {
            width: resolution,
            height: resolution,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: SHADOW_FORMAT,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
        view_formats: &[],
    })
}

/// What a receiver of the sun's shadow binds (`sun_shadow.wgsl`'s `shadow_map`, `shadow_sampler`,
/// `shadow`; in the scene passes' view group, [`crate::passes::view::FrameBindings`]): the
/// map, a comparison sampler and the [`ShadowUniform`] as read-only storage (the shader loops
/// on its PCF radius: see the forward pass's notes on storage buffers). Cloning shares them.
#[derive(Clone, Debug)]
pub struct ShadowReceiver {
    map_view: wgpu::TextureView,
    sampler: wgpu::Sampler,
    uniform: wgpu::Buffer,
}

impl ShadowReceiver {
    /// The layout entries at bindings `first..first + 3` (fragment stage).
    pub fn layout_entries(first: u32) -> [wgpu::BindGroupLayoutEntry; 3] {
        let fragment = wgpu::ShaderStages::FRAGMENT;
        let mut uniform = storage_entry(first + 2, fragment, true);
        if let wgpu::BindingType::Buffer {
            min_binding_size, ..
        } = &mut uniform.ty
        {
            *min_binding_size = wgpu::BufferSize::new(size_of::<ShadowUniform>() as u64);
        }
        [
            texture_entry(first, fragment, wgpu::TextureSampleType::Depth),
            sampler_entry(first + 1, fragment, wgpu::SamplerBindingType::Comparison),
            uniform,
        ]
    }

    /// The resources of [`Self::layout_entries`], in order.
    pub fn bindings(&self) -> [wgpu::BindingResource<'_>; 3] {
        [
            wgpu::BindingResource::TextureView(&self.map_view),
            wgpu::BindingResource::Sampler(&self.sampler),
            self.uniform.as_entire_binding(),
        ]
    }
}

/// Depth state of every shadow caster pipeline (static meshes and crowds): written, `Less`,
/// biased by `bias`.
pub fn shadow_depth_state(bias: &ShadowBias) -> wgpu::DepthStencilState {
    wgpu::DepthStencilState {
        format: SHADOW_FORMAT,
        depth_write_enabled: Some(true),
        depth_compare: Some(wgpu::CompareFunction::Less),
        stencil: Default::default(),
        bias: wgpu::DepthBiasState {
            constant: bias.depth_bias,
            slope_scale: bias.slope_bias,
            clamp: 0.0,
        },
    }
}

impl Pass for ShadowPass {
    fn name(&self) -> &'static str {
        "shadow"
    }

    fn prepare(&mut self, ctx: &GpuContext, inputs: &PassInputs<'_>) -> Result<()> {
        let frame = inputs.frame;
        let s = &frame.post.shadow;
        self.enabled = s.enabled;
        let to_sun = -frame.sun.direction;
        let enabled = s.enabled && to_sun != Vec3::ZERO && frame.sun.intensity > 0.0;
        let fit = fit_sun_view_proj(
            &frame.camera,
            to_sun,
            s.max_distance,
            s.caster_margin,
            self.resolution,
        );
        let light_view_proj = fit.view_proj;
        let uniform = ShadowUniform {
            light_view_proj,
            params: Vec4::new(
                f32::from(u8::from(enabled)),
                1.0 / self.resolution as f32,
                // Along the coarser of the map's axes, so the offset clears a texel on both.
                s.normal_offset_texels * fit.texel.max_element(),
                s.pcf_radius.min(4) as f32,
            ),
        };
        ctx.queue
            .write_buffer(&self.uniform, 0, bytemuck::bytes_of(&uniform));
        self.light = Frustum::from_view_proj(light_view_proj);

        Ok(())
    }

    fn record(&self, encoder: &mut Encoder, inputs: &PassInputs<'_>, queries: PassQueries<'_>) {
        // The map is cleared even when disabled, so the receivers never read stale depth.
        let mut pass = crate::gpu_util::depth_pass(
            encoder,
            "shadow",
            &self.map_view,
            wgpu::LoadOp::Clear(1.0),
            queries,
        );
        if !self.enabled {
            return;
        }
        // Every caster in one place: the frame's meshes and skinned outputs (drawn with the
        // forward pass's per-draw uniforms), then the crowds.
        for caster in inputs.shadow_casters {
            if caster.casts_shadows(inputs) {
                pass.set_bind_group(0, &self.caster_group, &[]);
                caster.record_shadow(&mut pass, inputs, &self.light);
            }
        }
    }
}
