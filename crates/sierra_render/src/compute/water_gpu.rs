//! GPU plumbing both water kernels share ([`super::water::WaterCompute`], Mei's 4 pipes, and
//! [`super::water8::Water8Compute`], the thesis's 8 connections): scratch buffers, the two
//! ping-pong bind groups, the pipelines of one shader, the uniform upload and the step loop.
//!
//! Both kernels bind, at group 0, the uniforms (0), the terrain (1), the depth read (2) and the
//! depth written (3), then buffers of their own (4 …); `water_common.wgsl` declares 0 and 1.

use crate::compute::water::{invalid, WaterGpuParams, WaterUniforms, WORKGROUP_SIDE};
use crate::context::GpuContext;
use crate::error::Result;
use crate::gpu_util::{
    bind_group, bind_group_layout, compute_pipeline, pipeline_layout, wgsl_module,
};

/// A zero-filled storage buffer of `bytes` bytes (copy in and out), checked against the
/// device's limits.
///
/// # Errors
/// As [`GpuContext::create_buffer`].
pub(crate) fn zeroed_storage(ctx: &GpuContext, label: &str, bytes: u64) -> Result<wgpu::Buffer> {
    ctx.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: bytes,
        usage: wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_SRC
            | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// Checks a uniform rain rate, m/s: finite and >= 0.
///
/// # Errors
/// [`crate::RenderError::InvalidInput`] otherwise.
pub(crate) fn check_rain(rate: f32) -> Result<()> {
    if !(rate >= 0.0 && rate.is_finite()) {
        return Err(invalid(format!("rain {rate} m/s must be finite and >= 0")));
    }
    Ok(())
}

/// Workgroups (x, y) covering the `cols x rows` grid with 16x16 invocations.
pub(crate) fn workgroups(params: &WaterGpuParams) -> (u32, u32) {
    (
        params.cols.div_ceil(WORKGROUP_SIDE),
        params.rows.div_ceil(WORKGROUP_SIDE),
    )
}

/// Writes `u` to `buffer` through `queue` unless it is what `uploaded` says was written last.
pub(crate) fn write_uniforms(
    queue: &wgpu::Queue,
    buffer: &wgpu::Buffer,
    uploaded: &mut Option<WaterUniforms>,
    u: WaterUniforms,
) {
    if *uploaded != Some(u) {
        queue.write_buffer(buffer, 0, bytemuck::bytes_of(&u));
        *uploaded = Some(u);
    }
}

/// The layout of `entries` and one compute pipeline per entry point of `source` (labelled
/// `file`), created in an error scope; `what` names them in labels and errors.
///
/// # Errors
/// [`crate::RenderError::Gpu`] when the device refuses the shader or a pipeline.
pub(crate) fn step_pipelines<const N: usize>(
    ctx: &GpuContext,
    what: &str,
    (file, source): (&str, &'static str),
    entries: &[wgpu::BindGroupLayoutEntry],
    entry_points: [&str; N],
) -> Result<(wgpu::BindGroupLayout, [wgpu::ComputePipeline; N])> {
    ctx.scoped(
        || format!("creating the {what} compute pipelines"),
        || {
            let shader = wgsl_module(ctx, file, source);
            let layout = bind_group_layout(&ctx.device, what, entries);
            let pipeline_layout = pipeline_layout(&ctx.device, what, &[&layout]);
            let pipelines =
                entry_points.map(|entry| compute_pipeline(ctx, &pipeline_layout, &shader, entry));
            (layout, pipelines)
        },
    )
}

/// The two step bind groups of `layout`: group `i` binds `uniforms`, `terrain`, `depth[i]`
/// (read) and `depth[1 - i]` (written), then `rest` in order.
///
/// # Errors
/// [`crate::RenderError::Gpu`] when the device refuses them.
pub(crate) fn step_bind_groups(
    ctx: &GpuContext,
    what: &str,
    layout: &wgpu::BindGroupLayout,
    (uniforms, terrain, depth): (&wgpu::Buffer, &wgpu::Buffer, &[wgpu::Buffer; 2]),
    rest: &[&wgpu::Buffer],
) -> Result<[wgpu::BindGroup; 2]> {
    let group = |i: usize| {
        let mut resources = vec![
            uniforms.as_entire_binding(),
            terrain.as_entire_binding(),
            depth[i].as_entire_binding(),
            depth[1 - i].as_entire_binding(),
        ];
        resources.extend(rest.iter().map(|b| b.as_entire_binding()));
        bind_group(&ctx.device, &format!("{what} step"), layout, &resources)
    };
    ctx.scoped(
        || format!("creating the {what} bind groups"),
        || [group(0), group(1)],
    )
}

/// Records `steps` steps in one compute pass labelled `label` (timed by `timestamps` when
/// given): each binds `bind_groups[*current]`, dispatches `pipelines` in order over `groups`,
/// then swaps `*current` (0 <-> 1).
pub(crate) fn record_ping_pong(
    encoder: &mut wgpu::CommandEncoder,
    (label, timestamps): (&str, Option<wgpu::ComputePassTimestampWrites<'_>>),
    (bind_groups, current): (&[wgpu::BindGroup; 2], &mut usize),
    pipelines: &[&wgpu::ComputePipeline],
    groups: (u32, u32),
    steps: u32,
) {
    let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
        label: Some(label),
        timestamp_writes: timestamps,
    });
    for _ in 0..steps {
        pass.set_bind_group(0, &bind_groups[*current], &[]);
        for pipeline in pipelines {
            pass.set_pipeline(pipeline);
            pass.dispatch_workgroups(groups.0, groups.1, 1);
        }
        *current = 1 - *current;
    }
}
