//! Procedural sky behind everything: horizon → zenith gradient, ground colour below the horizon,
//! and a sun disc placed on the frame's sun direction (the same direction that lights the scene,
//! seed 002's sun + sky). See `sky_radiance.wgsl` for the model.
//!
//! Runs after the forward pass into the HDR target, depth-tested `LessEqual` at depth 1.0 against
//! the scene depth without writing it, so only pixels no geometry covered get sky.
//!
//! Groups: 0 is the view group ([`FrameBindings`]: the camera's inverse view-projection and
//! position, written once a frame by the forward pass), 1 the sky's own [`SkyUniform`].

use bytemuck::Zeroable;

use super::scene_pipelines::ScenePipelines;
use super::view::{FrameBindings, VIEW_WGSL};
use super::{Encoder, Pass, PassInputs, PassQueries};
use crate::context::GpuContext;
use crate::error::Result;
use crate::gpu_util::{
    bind_group, bind_group_layout, pipeline_layout, uniform_buffer, uniform_entry_for,
};
use crate::pipeline_cache::{PipelineKey, VertexLayout};
use crate::post::SkySettings;
use crate::targets::RenderTargets;

pub use super::sky_radiance::{SkyUniform, SKY_RADIANCE_WGSL};

/// WGSL of the pass: `view.wgsl`, `sky_radiance.wgsl`, then `sky.wgsl`.
pub fn shader_source() -> String {
    format!(
        "{VIEW_WGSL}\n{SKY_RADIANCE_WGSL}\n{}",
        include_str!("sky.wgsl")
    )
}

/// The sky pass.
pub struct SkyPass {
    /// The pipeline per sample count the targets had (one key each).
    pipelines: ScenePipelines,
    uniform: wgpu::Buffer,
    /// Group 0: the view group (camera), shared with the other scene passes.
    frame: FrameBindings,
    /// Group 1: the sky's parameters.
    group: wgpu::BindGroup,
    /// The frame's settings, copied at `prepare` (`FrameData::post.sky`).
    settings: SkySettings,
    /// Samples per pixel of the targets (the key drawn with).
    sample_count: u32,
}

impl SkyPass {
    /// Creates the pass (it draws only for frames whose `post.sky.enabled` is set), reading the
    /// camera from `frame` (the view group the forward pass writes each frame).
    ///
    /// # Errors
    /// [`crate::RenderError::Gpu`] when shader or pipeline creation fails.
    pub fn new(ctx: &GpuContext, frame: &FrameBindings) -> Result<Self> {
        let mut pass = ctx.scoped(
            || "creating the sky pass".to_owned(),
            || Self::create(ctx, frame),
        )?;
        pass.pipelines.warm(ctx, [key(1)])?;
        Ok(pass)
    }

    fn create(ctx: &GpuContext, frame: &FrameBindings) -> Self {
        let device = &ctx.device;
        let module = ctx.create_shader_module("view.wgsl + sky.wgsl", shader_source());
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
            pipeline_layout(device, "sky", &[frame.layout(), &layout]),
            module,
            ("vs_sky", "fs_sky"),
        )
        .depth_read_only(wgpu::CompareFunction::LessEqual);
        Self {
            pipelines,
            uniform,
            frame: frame.clone(),
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
        pass.set_bind_group(0, &self.frame.group(), &[]);
        pass.set_bind_group(1, &self.group, &[]);
        pass.draw(0..3, 0..1);
    }
}
