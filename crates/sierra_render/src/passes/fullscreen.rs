//! Shared pieces of the screen-space passes: the full-screen triangle (`fullscreen.wgsl`).

use crate::context::GpuContext;
use crate::gpu_util::{colour_pass, wgsl_module};
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
