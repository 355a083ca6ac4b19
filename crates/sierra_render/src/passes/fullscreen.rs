//! Shared pieces of the screen-space passes: the full-screen triangle (`fullscreen.wgsl`) and
//! [`ScreenPass`], the shader and group-0 layout of a pass that reads one source texture.

use crate::context::GpuContext;
use crate::error::Result;
use crate::gpu_util::{
    bind_group, bind_group_layout, colour_pass, pipeline_layout, sampler_entry, texture_entry,
    wgsl_module,
};
use crate::pipeline_statistics::PassQueries;

/// WGSL source of `vs_fullscreen` and `FullscreenOut`, to prepend to a pass's own shader.
pub const FULLSCREEN_WGSL: &str = include_str!("fullscreen.wgsl");

/// Compiles a screen-space pass's shader: [`FULLSCREEN_WGSL`] followed by `pass_wgsl`.
pub fn fullscreen_module(ctx: &GpuContext, label: &str, pass_wgsl: &str) -> wgpu::ShaderModule {
    wgsl_module(ctx, label, format!("{FULLSCREEN_WGSL}{pass_wgsl}"))
}

/// A pipeline drawing one full-screen triangle (`draw(0..3, 0..1)`, no vertex buffer) with the
/// fragment entry point `fragment_entry` of `module` into one colour target of `format`.
pub fn fullscreen_pipeline(
    ctx: &GpuContext,
    layout: &wgpu::PipelineLayout,
    module: &wgpu::ShaderModule,
    fragment_entry: &str,
    format: wgpu::TextureFormat,
    blend: Option<wgpu::BlendState>,
) -> wgpu::RenderPipeline {
    ctx.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(fragment_entry),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module,
            entry_point: Some("vs_fullscreen"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        primitive: wgpu::PrimitiveState::default(),
        depth_stencil: None,
        multisample: wgpu::MultisampleState::default(),
        fragment: Some(wgpu::FragmentState {
            module,
            entry_point: Some(fragment_entry),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format,
                blend,
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// Records one render pass drawing the full-screen triangle with `pipeline` (built by
/// [`fullscreen_pipeline`]) and `group` at group 0 into `target`, loaded with `load`.
pub fn draw_fullscreen(
    encoder: &mut wgpu::CommandEncoder,
    label: &str,
    target: &wgpu::TextureView,
    load: wgpu::LoadOp<wgpu::Color>,
    queries: PassQueries<'_>,
    pipeline: &wgpu::RenderPipeline,
    group: &wgpu::BindGroup,
) {
    let mut pass = colour_pass(encoder, label, target, load, queries);
    pass.set_pipeline(pipeline);
    pass.set_bind_group(0, group, &[]);
    pass.draw(0..3, 0..1);
}

/// How a [`ScreenPass`] reads its source texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceRead {
    /// Texel for texel with `textureLoad` (a non-filterable binding, no sampler).
    Texels,
    /// With `textureSampleLevel` through a bilinear, clamp-to-edge sampler at binding 1.
    Bilinear,
}

/// The shader, bind group layout and pipeline layout of a screen-space pass that reads one
/// source texture and one parameter buffer: group 0 binds the source at 0, the bilinear sampler
/// at 1 with [`SourceRead::Bilinear`], then the parameters (fragment stage throughout). Bloom,
/// tonemap and FXAA are built on it; their WGSL declares the same bindings.
pub struct ScreenPass {
    label: &'static str,
    module: wgpu::ShaderModule,
    layout: wgpu::BindGroupLayout,
    pipeline_layout: wgpu::PipelineLayout,
    sampler: Option<wgpu::Sampler>,
}

impl ScreenPass {
    /// Compiles `pass_wgsl` (after [`FULLSCREEN_WGSL`]; `label`.wgsl in labels) and lays out
    /// its bindings; `params_entry(binding, stage)` gives the parameter buffer's entry (e.g.
    /// [`crate::gpu_util::uniform_entry_for`]). Call inside an error scope.
    pub fn new(
        ctx: &GpuContext,
        label: &'static str,
        pass_wgsl: &str,
        read: SourceRead,
        params_entry: impl FnOnce(u32, wgpu::ShaderStages) -> wgpu::BindGroupLayoutEntry,
    ) -> Self {
        let device = &ctx.device;
        let module = fullscreen_module(ctx, &format!("{label}.wgsl"), pass_wgsl);
        let fragment = wgpu::ShaderStages::FRAGMENT;
        let filterable = read == SourceRead::Bilinear;
        let source = texture_entry(0, fragment, wgpu::TextureSampleType::Float { filterable });
        let mut entries = vec![source];
        let sampler = filterable.then(|| {
            entries.push(sampler_entry(
                1,
                fragment,
                wgpu::SamplerBindingType::Filtering,
            ));
            device.create_sampler(&wgpu::SamplerDescriptor {
                label: Some(label),
                mag_filter: wgpu::FilterMode::Linear,
                min_filter: wgpu::FilterMode::Linear,
                ..Default::default()
            })
        });
        entries.push(params_entry(entries.len() as u32, fragment));
        let layout = bind_group_layout(device, label, &entries);
        let pipeline_layout = pipeline_layout(device, label, &[&layout]);
        Self {
            label,
            module,
            layout,
            pipeline_layout,
            sampler,
        }
    }

    /// A [`fullscreen_pipeline`] running `fragment_entry` into `format`, blended with `blend`.
    pub fn pipeline(
        &self,
        ctx: &GpuContext,
        fragment_entry: &str,
        format: wgpu::TextureFormat,
        blend: Option<wgpu::BlendState>,
    ) -> wgpu::RenderPipeline {
        let layout = &self.pipeline_layout;
        fullscreen_pipeline(ctx, layout, &self.module, fragment_entry, format, blend)
    }

    /// The bind group reading `source` with `params` (and the sampler, when there is one),
    /// created in an error scope.
    ///
    /// # Errors
    /// [`crate::RenderError::Gpu`] when the device refuses it.
    pub fn bind_group(
        &self,
        ctx: &GpuContext,
        source: &wgpu::TextureView,
        params: &wgpu::Buffer,
    ) -> Result<wgpu::BindGroup> {
        let mut resources = vec![wgpu::BindingResource::TextureView(source)];
        resources.extend(self.sampler.as_ref().map(wgpu::BindingResource::Sampler));
        resources.push(params.as_entire_binding());
        ctx.scoped(
            || format!("creating the {} bind group", self.label),
            || bind_group(&ctx.device, self.label, &self.layout, &resources),
        )
    }
}
