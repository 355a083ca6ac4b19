//! Output pass: the HDR scene target → the final image, with the selected
//! [`Tonemap`] (`none` = identity + clamp, the default) and sRGB encoding.

use bytemuck::{Pod, Zeroable};

use super::{Pass, PassInputs};
use crate::context::GpuContext;
use crate::error::Result;
use crate::targets::RenderTargets;

/// WGSL source of the pass.
pub const SHADER: &str = include_str!("output.wgsl");

/// How HDR colour becomes displayable colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tonemap {
    /// Identity: linear colour clamped to [0, 1] (render tests compare linear values).
    #[default]
    None,
}

impl Tonemap {
    /// The `tonemap` value in `OutputUniform`.
    pub fn shader_id(self) -> u32 {
        match self {
            Tonemap::None => 0,
        }
    }
}

/// `OutputUniform` in `output.wgsl` (group 0, binding 1), 16 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct OutputUniform {
    /// [`Tonemap::shader_id`].
    pub tonemap: u32,
    /// 1 when the target format is not `*Srgb` and the shader must encode.
    pub encode_srgb: u32,
    /// Multiplies HDR colour before tonemapping (1 = unchanged).
    pub exposure: f32,
    /// Padding.
    pub _pad0: f32,
}

/// The output pass (see the module docs).
pub struct OutputPass {
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
    uniform_buffer: wgpu::Buffer,
    bind_group: Option<wgpu::BindGroup>,
    target_format: wgpu::TextureFormat,
    /// Tonemapping operator; [`Tonemap::None`] by default.
    pub tonemap: Tonemap,
    /// Exposure multiplier; 1 by default.
    pub exposure: f32,
}

impl OutputPass {
    /// Creates the pass for a final image of `target_format`.
    ///
    /// # Errors
    /// [`crate::RenderError::Gpu`] when shader or pipeline creation fails.
    pub fn new(ctx: &GpuContext, target_format: wgpu::TextureFormat) -> Result<Self> {
        let device = &ctx.device;
        let (layout, pipeline) = ctx.scoped(
            || format!("creating the output pipeline for {target_format:?}"),
            || {
                let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                    label: Some("output"),
                    entries: &[
                        wgpu::BindGroupLayoutEntry {
                            binding: 0,
                            visibility: wgpu::ShaderStages::FRAGMENT,
                            ty: wgpu::BindingType::Texture {
                                sample_type: wgpu::TextureSampleType::Float { filterable: false },
                                view_dimension: wgpu::TextureViewDimension::D2,
                                multisampled: false,
                            },
                            count: None,
                        },
                        wgpu::BindGroupLayoutEntry {
                            binding: 1,
                            visibility: wgpu::ShaderStages::FRAGMENT,
                            ty: wgpu::BindingType::Buffer {
                                ty: wgpu::BufferBindingType::Uniform,
                                has_dynamic_offset: false,
                                min_binding_size: None,
                            },
                            count: None,
                        },
                    ],
                });
                let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
                    label: Some("output.wgsl"),
                    source: wgpu::ShaderSource::Wgsl(SHADER.into()),
                });
                let pipeline_layout =
                    device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                        label: Some("output"),
                        bind_group_layouts: &[Some(&layout)],
                        immediate_size: 0,
                    });
                let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                    label: Some("output"),
                    layout: Some(&pipeline_layout),
                    vertex: wgpu::VertexState {
                        module: &module,
                        entry_point: Some("vs_main"),
                        compilation_options: Default::default(),
                        buffers: &[],
                    },
                    primitive: Default::default(),
                    depth_stencil: None,
                    multisample: Default::default(),
                    fragment: Some(wgpu::FragmentState {
                        module: &module,
                        entry_point: Some("fs_main"),
                        compilation_options: Default::default(),
                        targets: &[Some(wgpu::ColorTargetState {
                            format: target_format,
                            blend: None,
                            write_mask: wgpu::ColorWrites::ALL,
                        })],
                    }),
                    multiview_mask: None,
                    cache: None,
                });
                (layout, pipeline)
            },
        )?;
        let uniform_buffer = ctx.create_buffer(&wgpu::BufferDescriptor {
            label: Some("output params"),
            size: size_of::<OutputUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })?;
        Ok(Self {
            pipeline,
            layout,
            uniform_buffer,
            bind_group: None,
            target_format,
            tonemap: Tonemap::None,
            exposure: 1.0,
        })
    }
}

impl Pass for OutputPass {
    fn name(&self) -> &'static str {
        "output"
    }

    fn resize(&mut self, ctx: &GpuContext, targets: &RenderTargets) -> Result<()> {
        let bind_group = ctx.scoped(
            || "creating the output bind group".to_owned(),
            || {
                ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("output"),
                    layout: &self.layout,
                    entries: &[
                        wgpu::BindGroupEntry {
                            binding: 0,
                            resource: wgpu::BindingResource::TextureView(&targets.hdr_view),
                        },
                        wgpu::BindGroupEntry {
                            binding: 1,
                            resource: self.uniform_buffer.as_entire_binding(),
                        },
                    ],
                })
            },
        )?;
        self.bind_group = Some(bind_group);
        Ok(())
    }

    fn prepare(&mut self, ctx: &GpuContext, _inputs: &PassInputs<'_>) -> Result<()> {
        let params = OutputUniform {
            tonemap: self.tonemap.shader_id(),
            encode_srgb: u32::from(!self.target_format.is_srgb()),
            exposure: self.exposure,
            _pad0: 0.0,
        };
        ctx.queue
            .write_buffer(&self.uniform_buffer, 0, bytemuck::bytes_of(&params));
        Ok(())
    }

    fn record(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        inputs: &PassInputs<'_>,
        timestamps: Option<wgpu::RenderPassTimestampWrites<'_>>,
    ) {
        let Some(bind_group) = &self.bind_group else {
            return;
        };
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("output"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: inputs.output,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: timestamps,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, bind_group, &[]);
        pass.draw(0..3, 0..1);
    }
}
