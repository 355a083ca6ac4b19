//! Small wgpu helpers shared by the render and compute passes: bind group layout entries,
//! layouts and bind groups with bindings numbered in order, uniform buffers of a `Pod` value,
//! compute pipelines by entry point, and one-dispatch compute passes.
//!
//! They only shorten the descriptors wgpu 30 asks for; each returns exactly the object the
//! long form would (no hidden state, no error scope: wrap calls in [`crate::GpuContext::scoped`]
//! as before). Full-screen triangle passes have their own helpers in
//! [`crate::passes::fullscreen`].

use crate::context::GpuContext;
use crate::pipeline_statistics::{PassQueries, QueriedRenderPass};

/// Compiles WGSL `source` into a shader module labelled `label` (e.g. the file name).
pub fn wgsl_module(
    ctx: &GpuContext,
    label: &str,
    source: impl Into<std::borrow::Cow<'static, str>>,
) -> wgpu::ShaderModule {
    ctx.create_shader_module(label, source)
}

/// A binding of `ty` visible to `visibility` (not an array: `count` is `None`).
fn layout_entry(
    binding: u32,
    visibility: wgpu::ShaderStages,
    ty: wgpu::BindingType,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty,
        count: None,
    }
}

/// A buffer binding of `ty`, with a dynamic offset when `has_dynamic_offset`.
fn buffer_entry(
    binding: u32,
    visibility: wgpu::ShaderStages,
    (ty, has_dynamic_offset): (wgpu::BufferBindingType, bool),
    min_binding_size: Option<wgpu::BufferSize>,
) -> wgpu::BindGroupLayoutEntry {
    let ty = wgpu::BindingType::Buffer {
        ty,
        has_dynamic_offset,
        min_binding_size,
    };
    layout_entry(binding, visibility, ty)
}

/// A uniform buffer binding with a dynamic offset, `min_size` bytes per binding (per-draw data
/// at aligned strides in one buffer).
pub fn dynamic_uniform_entry(
    binding: u32,
    visibility: wgpu::ShaderStages,
    min_size: u64,
) -> wgpu::BindGroupLayoutEntry {
    let ty = (wgpu::BufferBindingType::Uniform, true);
    buffer_entry(binding, visibility, ty, wgpu::BufferSize::new(min_size))
}

/// A uniform buffer binding (no dynamic offset, size checked by the shader only).
pub fn uniform_entry(binding: u32, visibility: wgpu::ShaderStages) -> wgpu::BindGroupLayoutEntry {
    buffer_entry(
        binding,
        visibility,
        (wgpu::BufferBindingType::Uniform, false),
        None,
    )
}

/// A uniform buffer binding holding one `T`: `min_binding_size = size_of::<T>()`, so a Rust
/// mirror that is smaller than the WGSL struct fails at pipeline creation, not in the shader.
pub fn uniform_entry_for<T>(
    binding: u32,
    visibility: wgpu::ShaderStages,
) -> wgpu::BindGroupLayoutEntry {
    let size = wgpu::BufferSize::new(std::mem::size_of::<T>() as u64);
    buffer_entry(
        binding,
        visibility,
        (wgpu::BufferBindingType::Uniform, false),
        size,
    )
}

/// A storage buffer binding (read-only when `read_only`), any size.
pub fn storage_entry(
    binding: u32,
    visibility: wgpu::ShaderStages,
    read_only: bool,
) -> wgpu::BindGroupLayoutEntry {
    let ty = wgpu::BufferBindingType::Storage { read_only };
    buffer_entry(binding, visibility, (ty, false), None)
}

/// A single-sampled 2D texture binding of `sample_type`
/// (e.g. `TextureSampleType::Float { filterable: true }`, `TextureSampleType::Depth`).
pub fn texture_entry(
    binding: u32,
    visibility: wgpu::ShaderStages,
    sample_type: wgpu::TextureSampleType,
) -> wgpu::BindGroupLayoutEntry {
    let ty = wgpu::BindingType::Texture {
        sample_type,
        view_dimension: wgpu::TextureViewDimension::D2,
        multisampled: false,
    };
    layout_entry(binding, visibility, ty)
}

/// A sampler binding of `ty` (`Filtering`, `NonFiltering` or `Comparison`).
pub fn sampler_entry(
    binding: u32,
    visibility: wgpu::ShaderStages,
    ty: wgpu::SamplerBindingType,
) -> wgpu::BindGroupLayoutEntry {
    layout_entry(binding, visibility, wgpu::BindingType::Sampler(ty))
}

/// A bind group layout of `entries`.
pub fn bind_group_layout(
    device: &wgpu::Device,
    label: &str,
    entries: &[wgpu::BindGroupLayoutEntry],
) -> wgpu::BindGroupLayout {
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(label),
        entries,
    })
}

/// A pipeline layout whose group `i` is `groups[i]`, without immediates.
pub fn pipeline_layout(
    device: &wgpu::Device,
    label: &str,
    groups: &[&wgpu::BindGroupLayout],
) -> wgpu::PipelineLayout {
    let groups: Vec<Option<&wgpu::BindGroupLayout>> = groups.iter().copied().map(Some).collect();
    device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(label),
        bind_group_layouts: &groups,
        immediate_size: 0,
    })
}

/// A bind group of `layout` whose binding `i` is `resources[i]` (layouts numbered 0, 1, 2 …
/// in order, as all of Sierra's are). Use [`wgpu::Buffer::as_entire_binding`],
/// [`wgpu::BindingResource::TextureView`] or [`wgpu::BindingResource::Sampler`].
pub fn bind_group(
    device: &wgpu::Device,
    label: &str,
    layout: &wgpu::BindGroupLayout,
    resources: &[wgpu::BindingResource<'_>],
) -> wgpu::BindGroup {
    let entries: Vec<wgpu::BindGroupEntry<'_>> = (0u32..)
        .zip(resources)
        .map(|(binding, resource)| wgpu::BindGroupEntry {
            binding,
            resource: resource.clone(),
        })
        .collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout,
        entries: &entries,
    })
}

/// A bind group of `layout` binding the first `binding_size` bytes of `buffer` at binding 0,
/// for a [`dynamic_uniform_entry`]: each draw picks its slot with a dynamic offset.
pub fn dynamic_uniform_group(
    device: &wgpu::Device,
    label: &str,
    layout: &wgpu::BindGroupLayout,
    buffer: &wgpu::Buffer,
    binding_size: u64,
) -> wgpu::BindGroup {
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout,
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer,
                offset: 0,
                size: wgpu::BufferSize::new(binding_size),
            }),
        }],
    })
}

/// A uniform buffer initialised with `value` (`UNIFORM | COPY_DST`, so later frames update it
/// with `queue.write_buffer`). For buffers whose size comes from user data, use
/// [`crate::GpuContext::create_buffer_init`], which checks the device limits first.
pub fn uniform_buffer<T: bytemuck::Pod>(
    device: &wgpu::Device,
    label: &str,
    value: &T,
) -> wgpu::Buffer {
    buffer_holding(device, label, value, wgpu::BufferUsages::UNIFORM)
}

/// A read-only-storage buffer holding `value` (`STORAGE | COPY_DST`), for per-frame or
/// per-draw parameters that a shader branches or loops on (light counts, material flags, the
/// tonemapper): see [`crate::passes::forward`]'s module docs for why those are not uniforms.
pub fn storage_buffer<T: bytemuck::Pod>(
    device: &wgpu::Device,
    label: &str,
    value: &T,
) -> wgpu::Buffer {
    buffer_holding(device, label, value, wgpu::BufferUsages::STORAGE)
}

/// A buffer initialised with `value`, with `usage | COPY_DST`.
fn buffer_holding<T: bytemuck::Pod>(
    device: &wgpu::Device,
    label: &str,
    value: &T,
    usage: wgpu::BufferUsages,
) -> wgpu::Buffer {
    let (buffer, _lost) = crate::buffer_init::create_buffer_init(
        device,
        &wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents: bytemuck::bytes_of(value),
            usage: usage | wgpu::BufferUsages::COPY_DST,
        },
    );
    buffer
}

/// One compute pipeline per entry point of `module`, each labelled with its entry point and
/// laid out by `layout`, or by the layout wgpu derives from the entry point's bindings when
/// `None`.
pub fn compute_pipelines<const N: usize>(
    ctx: &GpuContext,
    layout: Option<&wgpu::PipelineLayout>,
    module: &wgpu::ShaderModule,
    entry_points: [&str; N],
) -> [wgpu::ComputePipeline; N] {
    entry_points.map(|entry_point| {
        ctx.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(entry_point),
            layout,
            module,
            entry_point: Some(entry_point),
            compilation_options: Default::default(),
            cache: None,
        })
    })
}

/// The kernels of one compute shader sharing one bind group (group 0): compiles `source`
/// (labelled `file`), lays out `entries` (labelled `label`) and makes one pipeline per entry
/// point, as [`compute_pipelines`]. Call inside an error scope.
pub fn compute_kernels<const N: usize>(
    ctx: &GpuContext,
    label: &str,
    (file, source): (&str, &'static str),
    entries: &[wgpu::BindGroupLayoutEntry],
    entry_points: [&str; N],
) -> (wgpu::BindGroupLayout, [wgpu::ComputePipeline; N]) {
    let module = wgsl_module(ctx, file, source);
    let layout = bind_group_layout(&ctx.device, label, entries);
    let pipeline_layout = pipeline_layout(&ctx.device, label, &[&layout]);
    let pipelines = compute_pipelines(ctx, Some(&pipeline_layout), &module, entry_points);
    (layout, pipelines)
}

/// Records one compute pass that binds `group` at group 0 and dispatches `pipeline` over
/// `workgroups` (x, y, z), timed by `timestamps` when given.
pub fn dispatch(
    encoder: &mut wgpu::CommandEncoder,
    label: &str,
    pipeline: &wgpu::ComputePipeline,
    group: &wgpu::BindGroup,
    workgroups: [u32; 3],
    timestamps: Option<wgpu::ComputePassTimestampWrites<'_>>,
) {
    let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
        label: Some(label),
        timestamp_writes: timestamps,
    });
    pass.set_pipeline(pipeline);
    pass.set_bind_group(0, group, &[]);
    pass.dispatch_workgroups(workgroups[0], workgroups[1], workgroups[2]);
}

/// Records one untimed [`dispatch`] into a fresh command encoder labelled `label` and submits
/// it (a one-off kernel: a bake, a noise evaluation).
pub fn submit_dispatch(
    ctx: &GpuContext,
    label: &str,
    pipeline: &wgpu::ComputePipeline,
    group: &wgpu::BindGroup,
    workgroups: [u32; 3],
) {
    let mut encoder = ctx
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(label) });
    dispatch(&mut encoder, label, pipeline, group, workgroups, None);
    ctx.queue.submit([encoder.finish()]);
}

/// Begins a render pass labelled `label` into `colour` (when given) and `depth` (when given),
/// timed and counted by `queries`: the one render pass descriptor of the colour, depth-only
/// and scene passes.
pub fn render_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    label: &str,
    colour: Option<wgpu::RenderPassColorAttachment<'_>>,
    depth: Option<wgpu::RenderPassDepthStencilAttachment<'_>>,
    queries: PassQueries<'_>,
) -> QueriedRenderPass<'e> {
    // No colour: no attachment slot at all (a depth-only pass), not an empty one.
    let colour_attachments: &[Option<wgpu::RenderPassColorAttachment<'_>>] = match colour {
        Some(_) => std::slice::from_ref(&colour),
        None => &[],
    };
    queries.begin_render_pass(
        encoder,
        wgpu::RenderPassDescriptor {
            label: Some(label),
            color_attachments: colour_attachments,
            depth_stencil_attachment: depth,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        },
    )
}

/// Begins a render pass writing one colour attachment (`target`, loaded with `load`, stored),
/// without depth.
pub fn colour_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    label: &str,
    target: &wgpu::TextureView,
    load: wgpu::LoadOp<wgpu::Color>,
    queries: PassQueries<'_>,
) -> QueriedRenderPass<'e> {
    let attachment = colour_attachment(target, None, load);
    render_pass(encoder, label, Some(attachment), None, queries)
}

/// A colour attachment of `view` (single-layer), loaded with `load` and stored, resolved into
/// `resolve_target` when given.
pub fn colour_attachment<'a>(
    view: &'a wgpu::TextureView,
    resolve_target: Option<&'a wgpu::TextureView>,
    load: wgpu::LoadOp<wgpu::Color>,
) -> wgpu::RenderPassColorAttachment<'a> {
    wgpu::RenderPassColorAttachment {
        view,
        depth_slice: None,
        resolve_target,
        ops: wgpu::Operations {
            load,
            store: wgpu::StoreOp::Store,
        },
    }
}

/// A depth attachment of `view`, loaded with `load` and stored, without stencil.
pub fn depth_attachment(
    view: &wgpu::TextureView,
    load: wgpu::LoadOp<f32>,
) -> wgpu::RenderPassDepthStencilAttachment<'_> {
    wgpu::RenderPassDepthStencilAttachment {
        view,
        depth_ops: Some(wgpu::Operations {
            load,
            store: wgpu::StoreOp::Store,
        }),
        stencil_ops: None,
    }
}

/// Begins a depth-only render pass labelled `label` into `depth` (loaded with `load`, stored),
/// timed and counted by `queries` (shadow maps).
pub fn depth_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    label: &str,
    depth: &wgpu::TextureView,
    load: wgpu::LoadOp<f32>,
    queries: PassQueries<'_>,
) -> QueriedRenderPass<'e> {
    render_pass(
        encoder,
        label,
        None,
        Some(depth_attachment(depth, load)),
        queries,
    )
}

/// Blending that adds the fragment's colour onto the target's (`ONE + ONE`) and keeps the
/// target's alpha.
pub const ADDITIVE_BLEND: wgpu::BlendState = wgpu::BlendState {
    color: wgpu::BlendComponent {
        src_factor: wgpu::BlendFactor::One,
        dst_factor: wgpu::BlendFactor::One,
        operation: wgpu::BlendOperation::Add,
    },
    alpha: wgpu::BlendComponent {
        src_factor: wgpu::BlendFactor::Zero,
        dst_factor: wgpu::BlendFactor::One,
        operation: wgpu::BlendOperation::Add,
    },
};
