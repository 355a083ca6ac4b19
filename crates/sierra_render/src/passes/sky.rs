//! Procedural sky behind everything: horizon → zenith gradient, ground colour below the horizon,
//! and a sun disc placed on the frame's sun direction (the same direction that lights the scene,
//! seed 002's sun + sky). See `sky.wgsl` for the model.
//!
//! Runs after the forward pass into the HDR target, depth-tested `LessEqual` at depth 1.0 against
//! the scene depth without writing it, so only pixels no geometry covered get sky.

use bytemuck::Zeroable;
use glam::{Mat4, Vec3, Vec4};

use super::scene_pipelines::ScenePipelines;
use super::{Encoder, Pass, PassInputs, PassQueries};
use crate::context::GpuContext;
use crate::error::Result;
use crate::frame::{FrameData, Sun};
use crate::gpu_util::{
    bind_group, bind_group_layout, pipeline_layout, uniform_buffer, uniform_entry_for,
};
use crate::pipeline_cache::{PipelineKey, VertexLayout};
use crate::post::SkySettings;
use crate::targets::RenderTargets;

/// Mirror of `SkyUniform` in `sky.wgsl` (176 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct SkyUniform {
    /// Inverse of the camera's view-projection.
    pub inv_view_proj: Mat4,
    /// Camera position (w unused).
    pub camera_position: Vec4,
    /// Unit vector towards the sun; w: cosine of the disc's angular radius.
    pub to_sun: Vec4,
    /// Zenith colour.
    pub zenith: Vec4,
    /// Horizon colour; w: gradient exponent.
    pub horizon: Vec4,
    /// Ground colour.
    pub ground: Vec4,
    /// Disc radiance; w: glow strength.
    pub sun: Vec4,
}

impl SkyUniform {
    /// The uniform for `frame` with `settings`.
    pub fn new(frame: &FrameData, settings: &SkySettings) -> Self {
        Self {
            inv_view_proj: frame.camera.view_proj().inverse(),
            camera_position: frame.camera.position.extend(1.0),
            ..Self::for_sun(&frame.sun, settings)
        }
    }

    /// The sky of `settings` under `sun`, seen from no camera (zero matrix and position): what
    /// the environment bake reads ([`crate::environment`]).
    pub fn for_sun(sun: &Sun, settings: &SkySettings) -> Self {
        let to_sun = (-sun.direction).normalize_or(Vec3::Y);
        Self {
            inv_view_proj: Mat4::ZERO,
            camera_position: Vec4::ZERO,
            to_sun: to_sun.extend(settings.sun_angular_radius.cos()),
            zenith: settings.zenith.extend(0.0),
            horizon: settings
                .horizon
                .extend(settings.gradient_exponent.max(1e-3)),
            ground: settings.ground.extend(0.0),
            sun: (sun.color * sun.intensity * settings.sun_disc_scale).extend(settings.sun_glow),
        }
    }
}

/// The sky pass.
pub struct SkyPass {
    /// The pipeline per sample count the targets had (one key each).
    pipelines: ScenePipelines,
    uniform: wgpu::Buffer,
    group: wgpu::BindGroup,
    /// The frame's settings, copied at `prepare` (`FrameData::post.sky`).
    settings: SkySettings,
    /// Samples per pixel of the targets (the key drawn with).
    sample_count: u32,
}

impl SkyPass {
    /// Creates the pass (it draws only for frames whose `post.sky.enabled` is set).
    ///
    /// # Errors
    /// [`crate::RenderError::Gpu`] when shader or pipeline creation fails.
    pub fn new(ctx: &GpuContext) -> Result<Self> {
        let mut pass = ctx.scoped(|| "creating the sky pass".to_owned(), || Self::create(ctx))?;
        pass.pipelines.warm(ctx, [key(1)])?;
        Ok(pass)
    }

    fn create(ctx: &GpuContext) -> Self {
        let device = &ctx.device;
        let module = ctx.create_shader_module("sky.wgsl", include_str!("sky.wgsl"));
        let fragment = wgpu::ShaderStages::FRAGMENT;
        let layout = bind_group_layout(
            device,
            "sky",
            &[uniform_entry_for::<SkyUniform>(0, fragment)],
        );
        let uniform = uniform_buffer(device, "sky uniform", &SkyUniform::zeroed());
        let group = bind_group(device, "sky", &layout, &[uniform.as_entire_binding()]);
        // Behind everything: drawn where the depth is still the far plane, never written.
        let pipelines = ScenePipelines::new(
            "sky",
            pipeline_layout(device, "sky", &[&layout]),
            module,
            ("vs_sky", "fs_sky"),
        )
        .depth_read_only(wgpu::CompareFunction::LessEqual);
        Self {
            pipelines,
            uniform,
            group,
            settings: SkySettings::default(),
            sample_count: 1,
        }
    }
}

/// The sky pipeline's key at `sample_count` samples per pixel.
fn key(sample_count: u32) -> PipelineKey {
    // One full-screen triangle: no faces to cull.
    PipelineKey {
        double_sided: true,
        ..PipelineKey::new(sample_count, VertexLayout::None)
    }
}

impl Pass for SkyPass {
    fn name(&self) -> &'static str {
        "sky"
    }

    fn active(&self) -> bool {
        self.settings.enabled
    }

    fn resize(&mut self, ctx: &GpuContext, targets: &RenderTargets) -> Result<()> {
        self.pipelines.warm(ctx, [key(targets.sample_count)])?;
        self.sample_count = targets.sample_count;
        Ok(())
    }

    fn prepare(&mut self, ctx: &GpuContext, inputs: &PassInputs<'_>) -> Result<()> {
        self.settings = inputs.frame.post.sky;
        let uniform = SkyUniform::new(inputs.frame, &self.settings);
        ctx.queue
            .write_buffer(&self.uniform, 0, bytemuck::bytes_of(&uniform));
        Ok(())
    }

    fn record(&self, encoder: &mut Encoder, inputs: &PassInputs<'_>, queries: PassQueries<'_>) {
        if !self.settings.enabled {
            return;
        }
        let mut pass = inputs.continue_scene_pass(encoder, "sky", queries);
        let Some(pipeline) = self.pipelines.get(&key(self.sample_count)) else {
            return;
        };
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, &self.group, &[]);
        pass.draw(0..3, 0..1);
    }
}
