//! The view group (group 0) every scene pass binds: the frame's camera, lights and environment
//! parameters, the environment's maps and the sun's shadow map ([`FrameBindings`]), with the
//! WGSL declarations of its camera and lights (`view.wgsl`, [`VIEW_WGSL`]) that each scene
//! pass's shader begins with, and the uniforms' CPU mirrors ([`CameraUniform`],
//! [`LightsUniform`]). The renderer owns the group and writes it once a frame; the forward,
//! crowd, sky and sea passes each bind it.

use std::borrow::Cow;
use std::sync::{Arc, Mutex};

use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Vec3, Vec4};

use super::scene_pipelines::ScenePipelines;
use super::shadow::{ShadowPass, ShadowReceiver};
use crate::context::GpuContext;
use crate::environment::{layout_entries, EnvironmentMaps, EnvironmentSizes, EnvironmentUniform};
use crate::error::Result;
use crate::frame::{FrameData, MAX_POINT_LIGHTS};
use crate::gpu_util;

/// WGSL of the view group's camera and lights (group 0, bindings 0-1), prepended to the shader of
/// every scene pass (forward, crowd, sky, sea).
pub const VIEW_WGSL: &str = include_str!("view.wgsl");

/// [`LightsUniform::water_level`] of a frame without a sea: below anything drawn.
pub const NO_WATER_LEVEL: f32 = -1.0e30;

/// `CameraUniform` in `view.wgsl` (group 0, binding 0), 208 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct CameraUniform {
    /// World → clip.
    pub view_proj: Mat4,
    /// World → view.
    pub view: Mat4,
    /// xyz: camera world position (metres), w: 1.
    pub position: Vec4,
    /// Clip → world (inverse of `view_proj`): the sky's view rays.
    pub inv_view_proj: Mat4,
}

/// `PointLightUniform` in `view.wgsl`, 32 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub struct PointLightUniform {
    /// World position, metres.
    pub position: Vec3,
    /// Full-strength radius, metres.
    pub inner_radius: f32,
    /// Linear RGB colour × intensity.
    pub color: Vec3,
    /// Zero-strength radius, metres.
    pub outer_radius: f32,
}

/// `LightsUniform` in `view.wgsl` (group 0, binding 1), 304 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct LightsUniform {
    /// Unit vector from the scene towards the sun (the negated [`crate::Sun::direction`]).
    pub to_sun: Vec3,
    /// Number of valid entries in `point_lights` (≤ [`MAX_POINT_LIGHTS`]).
    pub point_light_count: u32,
    /// Sun colour × intensity.
    pub sun_color: Vec3,
    /// [`crate::DebugView`] of the frame: 0 lit, 1 unlit albedo, 2 the sea's foam mask.
    pub debug_view: u32,
    /// Ambient light.
    pub ambient: Vec3,
    /// World height of the sea's still surface, metres ([`crate::frame::SeaFrame::level`];
    /// [`NO_WATER_LEVEL`] without a sea).
    pub water_level: f32,
    /// Point lights; entries past `point_light_count` are zero.
    pub point_lights: [PointLightUniform; MAX_POINT_LIGHTS],
}

impl CameraUniform {
    /// From the frame's camera.
    pub fn new(frame: &FrameData) -> Self {
        let view_proj = frame.camera.view_proj();
        Self {
            view_proj,
            view: frame.camera.view,
            position: frame.camera.position.extend(1.0),
            inv_view_proj: view_proj.inverse(),
        }
    }
}

impl LightsUniform {
    /// From the frame's sun and its first [`MAX_POINT_LIGHTS`] point lights.
    /// A zero sun direction means "no sun"; an outer radius not above the inner
    /// one is raised slightly, because `smoothstep(a, a, x)` is undefined in WGSL.
    pub fn new(frame: &FrameData) -> Self {
        let sun = &frame.sun;
        let mut point_lights = [PointLightUniform::default(); MAX_POINT_LIGHTS];
        let used = frame.point_lights.len().min(MAX_POINT_LIGHTS);
        for (slot, light) in point_lights.iter_mut().zip(&frame.point_lights) {
            let inner = light.inner_radius.max(0.0);
            *slot = PointLightUniform {
                position: light.position,
                inner_radius: inner,
                color: light.color * light.intensity,
                outer_radius: light.outer_radius.max(inner + 1e-4),
            };
        }
        let to_sun = (-sun.direction).normalize_or_zero();
        Self {
            to_sun,
            point_light_count: used as u32,
            sun_color: if to_sun == Vec3::ZERO {
                Vec3::ZERO
            } else {
                sun.color * sun.intensity
            },
            debug_view: match frame.post.debug_view {
                crate::DebugView::Lit => 0,
                crate::DebugView::UnlitAlbedo => 1,
                crate::DebugView::Foam => 2,
            },
            ambient: sun.ambient,
            water_level: frame.sea.level.unwrap_or(NO_WATER_LEVEL),
            point_lights,
        }
    }
}

/// The view group, group 0 of every scene pass (forward, crowd, sky, sea): the frame's camera
/// (binding 0, uniform), lights and environment parameters (1, 2: read-only storage, the shader
/// branches on them), the environment's maps (3-6) and the sun's shadow map, comparison sampler
/// and parameters (7-9, [`ShadowReceiver`]). Camera and lights are declared in `view.wgsl`
/// ([`VIEW_WGSL`]), which each scene pass's shader begins with; a pass reads only the bindings
/// its shader declares.
///
/// The renderer owns it: it creates the set, hands each scene pass a clone, writes it once per
/// frame ([`FrameBindings::write`]) and rebinds it when the environment maps change
/// ([`FrameBindings::bind_environment`]). A clone shares the buffers and the bound group, so
/// every pass holding one binds the new maps without being told.
#[derive(Clone)]
pub struct FrameBindings {
    layout: wgpu::BindGroupLayout,
    /// The sun's shadow map as receivers bind it.
    shadow: ShadowReceiver,
    camera: wgpu::Buffer,
    lights: wgpu::Buffer,
    environment: wgpu::Buffer,
    /// The bound group and the sizes of its environment maps (the shader's last prefiltered
    /// mip), shared by every clone.
    bound: Arc<Mutex<Bound>>,
}

/// What [`FrameBindings::bind_environment`] replaces.
struct Bound {
    group: wgpu::BindGroup,
    environment_sizes: EnvironmentSizes,
}

impl FrameBindings {
    /// Creates the layout and buffers of the pass `label` and binds them with `environment` and
    /// `shadow`.
    ///
    /// # Errors
    /// [`crate::RenderError::Gpu`] when creation fails.
    pub fn new(
        ctx: &GpuContext,
        label: &str,
        environment: &EnvironmentMaps,
        shadow: &ShadowReceiver,
    ) -> Result<Self> {
        let stages = wgpu::ShaderStages::VERTEX_FRAGMENT;
        let mut entries = vec![
            gpu_util::uniform_entry(0, stages),
            gpu_util::storage_entry(1, stages, true),
        ];
        entries.extend(layout_entries(2));
        entries.extend(ShadowReceiver::layout_entries(7));
        let layout = ctx.scoped(
            || format!("creating the {label} frame layout"),
            || gpu_util::bind_group_layout(&ctx.device, label, &entries),
        )?;
        let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST;
        let uniform = wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST;
        let camera = ctx.create_buffer_init(label, &[0; size_of::<CameraUniform>()], uniform)?;
        let lights = ctx.create_buffer_init(label, &[0; size_of::<LightsUniform>()], storage)?;
        let environment_buffer =
            ctx.create_buffer_init(label, &[0; size_of::<EnvironmentUniform>()], storage)?;
        let group = bind(
            ctx,
            &layout,
            [&camera, &lights, &environment_buffer],
            (environment, shadow),
        )?;
        Ok(Self {
            layout,
            shadow: shadow.clone(),
            camera,
            lights,
            environment: environment_buffer,
            bound: Arc::new(Mutex::new(Bound {
                group,
                environment_sizes: environment.sizes,
            })),
        })
    }

    /// A set without shadows (a 1×1 map whose parameters say "disabled": the sun reaches every
    /// surface facing it) and with a black environment (metallic-roughness materials get no
    /// ambient light): for passes drawn outside a renderer (tests).
    ///
    /// # Errors
    /// [`crate::RenderError::Gpu`] when creation fails.
    pub fn unlit(ctx: &GpuContext) -> Result<Self> {
        let no_shadows = ShadowPass::new(ctx, 1)?;
        let black = EnvironmentMaps::new(ctx, EnvironmentSizes::smallest())?;
        Self::new(ctx, "scene frame", &black, no_shadows.receiver())
    }

    /// The bound state, whether or not another clone panicked while holding it.
    fn bound(&self) -> std::sync::MutexGuard<'_, Bound> {
        self.bound
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The group-0 layout.
    pub fn layout(&self) -> &wgpu::BindGroupLayout {
        &self.layout
    }

    /// The pipelines of a scene pass lit by `forward.wgsl`'s fragment stage (`fs_main`; the
    /// forward and crowd passes): `shader` is (label, file name, WGSL source, vertex entry
    /// point), the groups this layout (0), the pass's own (1) and the materials' (2); `buffers`
    /// the vertex buffers. Builds none until warmed.
    ///
    /// # Errors
    /// [`RenderError::Gpu`] when the shader or the layout fails validation.
    pub fn lit_pipelines(
        &self,
        ctx: &GpuContext,
        (label, file, source, vertex_entry): (&'static str, &str, Cow<'static, str>, &'static str),
        (own, materials): (&wgpu::BindGroupLayout, &wgpu::BindGroupLayout),
        buffers: &[Option<wgpu::VertexBufferLayout<'static>>],
    ) -> Result<ScenePipelines> {
        ctx.scoped(
            || format!("creating the {label} pipeline layout"),
            || {
                let module = ctx.create_shader_module(file, source);
                let groups = [&self.layout, own, materials];
                let layout = gpu_util::pipeline_layout(&ctx.device, label, &groups);
                ScenePipelines::new(label, layout, module, (vertex_entry, "fs_main"))
                    .buffers(buffers)
            },
        )
    }

    /// The bind group (bound to the newest environment maps).
    pub fn group(&self) -> wgpu::BindGroup {
        self.bound().group.clone()
    }

    /// Binds `environment`'s maps from now on, in this set and every clone of it.
    ///
    /// # Errors
    /// [`crate::RenderError::Gpu`] when binding fails.
    pub fn bind_environment(
        &mut self,
        ctx: &GpuContext,
        environment: &EnvironmentMaps,
    ) -> Result<()> {
        let buffers = [&self.camera, &self.lights, &self.environment];
        let group = bind(ctx, &self.layout, buffers, (environment, &self.shadow))?;
        *self.bound() = Bound {
            group,
            environment_sizes: environment.sizes,
        };
        Ok(())
    }

    /// Writes `frame`'s camera, lights and environment parameters (the renderer, once per
    /// frame, before the passes' `prepare`).
    pub fn write(&self, ctx: &GpuContext, frame: &FrameData) {
        let queue = &ctx.queue;
        queue.write_buffer(
            &self.camera,
            0,
            bytemuck::bytes_of(&CameraUniform::new(frame)),
        );
        queue.write_buffer(
            &self.lights,
            0,
            bytemuck::bytes_of(&LightsUniform::new(frame)),
        );
        let sizes = self.bound().environment_sizes;
        let environment = EnvironmentUniform::new(&frame.post.environment, &sizes);
        queue.write_buffer(&self.environment, 0, bytemuck::bytes_of(&environment));
    }
}

/// The bind group of `buffers` (camera, lights, environment), `environment`'s maps and
/// `shadow`'s map, sampler and parameters.
fn bind(
    ctx: &GpuContext,
    layout: &wgpu::BindGroupLayout,
    buffers: [&wgpu::Buffer; 3],
    (environment, shadow): (&EnvironmentMaps, &ShadowReceiver),
) -> Result<wgpu::BindGroup> {
    ctx.scoped(
        || "creating a scene pass's frame bind group".to_owned(),
        || {
            let mut resources: Vec<wgpu::BindingResource<'_>> =
                buffers.iter().map(|b| b.as_entire_binding()).collect();
            resources.extend(environment.bindings());
            resources.extend(shadow.bindings());
            gpu_util::bind_group(&ctx.device, "scene frame", layout, &resources)
        },
    )
}
