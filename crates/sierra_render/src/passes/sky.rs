//! Procedural sky behind everything: horizon → zenith gradient, ground colour below the horizon,
//! and a sun disc placed on the frame's sun direction (the same direction that lights the scene,
//! seed 002's sun + sky). See `sky.wgsl` for the model.
//!
//! Runs after the forward pass into the HDR target, depth-tested `LessEqual` at depth 1.0 against
//! the scene depth without writing it, so only pixels no geometry covered get sky.

use glam::{Mat4, Vec3, Vec4};
use wgpu::util::DeviceExt;

use super::{Encoder, Pass, PassInputs, PassQueries};
use crate::context::GpuContext;
use crate::error::Result;
use crate::frame::{FrameData, Sun};
use crate::pipeline_cache::{
    scene_pipeline, PipelineCache, PipelineKey, SceneShader, VertexLayout,
};
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
    pipelines: PipelineCache,
    uniform: wgpu::Buffer,
    group: wgpu::BindGroup,
    /// The frame's settings, copied at `prepare` (`FrameData::post.sky`).
    settings: SkySettings,
    pipeline_layout: wgpu::PipelineLayout,
    module: wgpu::ShaderModule,
    /// Samples per pixel `pipeline` was built for.
    sample_count: u32,
}

impl SkyPass {
    /// Creates the pass (it draws only for frames whose `post.sky.enabled` is set).
    ///
    /// # Errors
    /// [`crate::RenderError::Gpu`] when shader or pipeline creation fails.
    pub fn new(ctx: &GpuContext) -> Result<Self> {
        ctx.scoped(|| "creating the sky pass".to_owned(), || Self::create(ctx))
    }

    fn create(ctx: &GpuContext) -> Self {
        let device = &ctx.device;
        let module = ctx.create_shader_module("sky.wgsl", include_str!("sky.wgsl"));
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("sky"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: wgpu::BufferSize::new(size_of::<SkyUniform>() as u64),
                },
                count: None,
            }],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("sky"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = sky_pipeline(ctx, &pipeline_layout, &module, key(1));
        let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("sky uniform"),
            contents: bytemuck::bytes_of(&bytemuck::Zeroable::zeroed() as &SkyUniform),
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        });
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("sky"),
            layout: &layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: uniform.as_entire_binding(),
            }],
        });
        Self {
            pipelines: PipelineCache::with(key(1), pipeline),
            uniform,
            group,
            settings: SkySettings::default(),
            pipeline_layout,
            module,
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

/// The sky pipeline of `key` ([`RenderTargets::sample_count`]).
fn sky_pipeline(
    ctx: &GpuContext,
    layout: &wgpu::PipelineLayout,
    module: &wgpu::ShaderModule,
    key: PipelineKey,
) -> wgpu::RenderPipeline {
    // Behind everything: drawn where the depth is still the far plane, never written.
    scene_pipeline(
        ctx,
        &SceneShader::new("sky", layout, module, ("vs_sky", "fs_sky"))
            .depth_read_only(wgpu::CompareFunction::LessEqual),
        key,
    )
}

impl Pass for SkyPass {
    fn name(&self) -> &'static str {
        "sky"
    }

    fn active(&self) -> bool {
        self.settings.enabled
    }

    fn resize(&mut self, ctx: &GpuContext, targets: &RenderTargets) -> Result<()> {
        let (layout, module) = (&self.pipeline_layout, &self.module);
        self.pipelines
            .warm(ctx, "sky", [key(targets.sample_count)], |k| {
                sky_pipeline(ctx, layout, module, k)
            })?;
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
        let mut pass = inputs.targets.begin_scene_pass(
            encoder,
            "sky",
            wgpu::LoadOp::Load,
            wgpu::LoadOp::Load,
            queries,
        );
        let Some(pipeline) = self.pipelines.get(&key(self.sample_count)) else {
            return;
        };
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, &self.group, &[]);
        pass.draw(0..3, 0..1);
    }
}
