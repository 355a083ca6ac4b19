//! GPU plumbing both water kernels share ([`super::water::WaterCompute`], Mei's 4 pipes, and
//! [`super::water8::Water8Compute`], the thesis's 8 connections): scratch buffers, the two
//! ping-pong bind groups, [`StepKernels`] (a model's shader, laid out and compiled here), and
//! [`WaterGrid`], the state both step (uniform upload, step loop, CFL bookkeeping).
//!
//! Both kernels bind, at group 0, the uniforms (0), the terrain (1), the depth read (2) and the
//! depth written (3), then buffers of their own (4 …); `water_common.wgsl` declares 0 and 1.

use crate::compute::water_params::{invalid, WaterGpuParams, WaterUniforms, WORKGROUP_SIDE};
use crate::context::GpuContext;
use crate::error::Result;
use crate::gpu_util::{bind_group, compute_kernels, storage_entry, uniform_entry};
use crate::readback;

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

/// Reads `buffer` back as `vec4<f32>`s.
///
/// # Errors
/// As [`crate::readback::read_buffer`].
pub(crate) fn read_vec4(ctx: &GpuContext, buffer: &wgpu::Buffer) -> Result<Vec<[f32; 4]>> {
    let v = read_f32(ctx, buffer)?;
    Ok(v.chunks_exact(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect())
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

/// A water model's compute shader: its kernels share the step layout (compute stage:
/// uniforms 0, terrain 1 read-only, depth read 2, depth written 3, then the model's own
/// buffers from binding 4).
pub(crate) struct StepKernels<const N: usize> {
    /// Names the shader (`{what}.wgsl`), its pipelines and buffers in labels and errors.
    pub(crate) what: &'static str,
    /// The WGSL source.
    pub(crate) source: &'static str,
    /// Whether the kernels only read binding 2 (the current depth).
    pub(crate) depth_in_read_only: bool,
    /// One pipeline per entry point, in this order.
    pub(crate) entry_points: [&'static str; N],
}

impl<const N: usize> StepKernels<N> {
    /// The step layout, with `rest` at bindings 4 … (uniform buffers as uniforms, others as
    /// read-write storage), and one pipeline per entry point, created in an error scope.
    ///
    /// # Errors
    /// [`crate::RenderError::Gpu`] when the device refuses the shader or a pipeline.
    fn create(
        &self,
        ctx: &GpuContext,
        rest: &[&wgpu::Buffer],
    ) -> Result<(wgpu::BindGroupLayout, [wgpu::ComputePipeline; N])> {
        let compute = wgpu::ShaderStages::COMPUTE;
        let mut entries = vec![
            uniform_entry(0, compute),
            storage_entry(1, compute, true),
            storage_entry(2, compute, self.depth_in_read_only),
            storage_entry(3, compute, false),
        ];
        entries.extend((4..).zip(rest).map(|(binding, buffer)| {
            if buffer.usage().contains(wgpu::BufferUsages::UNIFORM) {
                uniform_entry(binding, compute)
            } else {
                storage_entry(binding, compute, false)
            }
        }));
        let what = self.what;
        let file = format!("{what}.wgsl");
        ctx.scoped(
            || format!("creating the {what} compute pipelines"),
            || compute_kernels(ctx, what, (&file, self.source), &entries, self.entry_points),
        )
    }
}

/// The two step bind groups of `layout`: group `i` binds `uniforms`, `terrain`, `depth[i]`
/// (read) and `depth[1 - i]` (written), then `rest` in order.
///
/// # Errors
/// [`crate::RenderError::Gpu`] when the device refuses them.
fn step_bind_groups(
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
fn record_ping_pong(
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

/// Records into a fresh command encoder labelled `label` with `record`, submits it and reports
/// the device's uncaptured errors as `context`.
///
/// # Errors
/// What `record` returns, and [`crate::RenderError::Gpu`].
pub(crate) fn submit(
    ctx: &GpuContext,
    (label, context): (&str, &str),
    record: impl FnOnce(&mut wgpu::CommandEncoder) -> Result<()>,
) -> Result<()> {
    let mut encoder = ctx
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(label) });
    record(&mut encoder)?;
    ctx.queue.submit([encoder.finish()]);
    ctx.take_uncaptured_errors(context)
}

/// What both water kernels step: the parameters, the terrain, the two ping-pong depth buffers,
/// the uniforms, the two step bind groups, the rain, the step count and an upper bound of the
/// max depth (for the stability limit; the GPU does no reduction).
pub(crate) struct WaterGrid {
    pub(crate) params: WaterGpuParams,
    pub(crate) terrain: wgpu::Buffer,
    pub(crate) depth: [wgpu::Buffer; 2],
    uniforms: wgpu::Buffer,
    /// `bind_groups[i]` reads depth `i` and writes depth `1 - i`.
    bind_groups: [wgpu::BindGroup; 2],
    /// Which depth buffer is current (0 or 1).
    pub(crate) current: usize,
    uploaded: Option<WaterUniforms>,
    /// Uniform rain, m/s.
    pub(crate) rain: f32,
    /// Upper estimate of the max depth, metres (initial max plus drops and rain).
    pub(crate) depth_bound: f32,
    pub(crate) steps: u64,
}

impl WaterGrid {
    /// Uploads `terrain` and `depth` (metres, `[rows * cols]`, checked by the caller) and the
    /// uniforms, creates `kernels`' pipelines and binds the state with `rest` (the model's own
    /// buffers, bindings 4 …); returns the grid and the pipelines.
    ///
    /// # Errors
    /// [`crate::RenderError::LimitExceeded`] above the device's limits, [`crate::RenderError::Gpu`].
    pub(crate) fn new<const N: usize>(
        ctx: &GpuContext,
        kernels: &StepKernels<N>,
        params: WaterGpuParams,
        (terrain, depth): (&[f32], &[f32]),
        rest: &[&wgpu::Buffer],
    ) -> Result<(Self, [wgpu::ComputePipeline; N])> {
        let (layout, pipelines) = kernels.create(ctx, rest)?;
        let what = kernels.what;
        let (terrain_buf, depth_bufs) = state_buffers(ctx, what, terrain, depth)?;
        let uniforms = ctx.create_buffer_init(
            &format!("{what} uniforms"),
            bytemuck::bytes_of(&WaterUniforms::new(&params, 0.0, 0.0)),
            wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        )?;
        let bind_groups = step_bind_groups(
            ctx,
            what,
            &layout,
            (&uniforms, &terrain_buf, &depth_bufs),
            rest,
        )?;
        let grid = Self {
            params,
            terrain: terrain_buf,
            depth: depth_bufs,
            uniforms,
            bind_groups,
            current: 0,
            uploaded: None,
            rain: 0.0,
            depth_bound: depth.iter().copied().fold(0.0, f32::max),
            steps: 0,
        };
        Ok((grid, pipelines))
    }

    /// Sets the uniform rain, m/s.
    ///
    /// # Errors
    /// As [`check_rain`].
    pub(crate) fn set_rain(&mut self, rate: f32) -> Result<()> {
        check_rain(rate)?;
        self.rain = rate;
        Ok(())
    }

    /// Workgroups (x, y) covering the grid.
    pub(crate) fn workgroups(&self) -> (u32, u32) {
        workgroups(&self.params)
    }

    /// The bind group that reads the current depth.
    pub(crate) fn current_bind_group(&self) -> &wgpu::BindGroup {
        &self.bind_groups[self.current]
    }

    /// Records `steps` steps of `dt` seconds (already checked) in one compute pass labelled
    /// `label`, timed by `timestamps` when given: the uniforms are written through `queue`
    /// when they changed, then each step dispatches `pipelines` in order and swaps the depths.
    pub(crate) fn record(
        &mut self,
        (queue, encoder): (&wgpu::Queue, &mut wgpu::CommandEncoder),
        (dt, steps): (f32, u32),
        (label, timestamps): (&str, Option<wgpu::ComputePassTimestampWrites<'_>>),
        pipelines: &[&wgpu::ComputePipeline],
    ) {
        let u = WaterUniforms::new(&self.params, dt, self.rain);
        if self.uploaded != Some(u) {
            queue.write_buffer(&self.uniforms, 0, bytemuck::bytes_of(&u));
            self.uploaded = Some(u);
        }
        let groups = self.workgroups();
        record_ping_pong(
            encoder,
            (label, timestamps),
            (&self.bind_groups, &mut self.current),
            pipelines,
            groups,
            steps,
        );
        self.steps += u64::from(steps);
        self.depth_bound += self.rain * dt * steps as f32;
    }

    /// The current depth buffer (`[rows * cols]` f32 metres).
    pub(crate) fn depth_buffer(&self) -> &wgpu::Buffer {
        &self.depth[self.current]
    }

    /// Reads the current depth back, metres.
    ///
    /// # Errors
    /// As [`crate::readback::read_buffer`].
    pub(crate) fn read_depth(&self, ctx: &GpuContext) -> Result<Vec<f32>> {
        read_f32(ctx, self.depth_buffer())
    }
}

/// The terrain buffer and the two ping-pong depth buffers of a state (storage, copy in and
/// out), labelled `{what} terrain`, `{what} depth 0` and `{what} depth 1`.
pub(crate) fn state_buffers(
    ctx: &GpuContext,
    what: &str,
    terrain: &[f32],
    depth: &[f32],
) -> Result<(wgpu::Buffer, [wgpu::Buffer; 2])> {
    let storage =
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
    let buffer = |label: String, values: &[f32]| {
        ctx.create_buffer_init(&label, bytemuck::cast_slice(values), storage)
    };
    Ok((
        buffer(format!("{what} terrain"), terrain)?,
        [
            buffer(format!("{what} depth 0"), depth)?,
            buffer(format!("{what} depth 1"), depth)?,
        ],
    ))
}

/// Reads `buffer` back as `f32`s (little-endian).
///
/// # Errors
/// As [`crate::readback::read_buffer`].
pub(crate) fn read_f32(ctx: &GpuContext, buffer: &wgpu::Buffer) -> Result<Vec<f32>> {
    let bytes = readback::read_buffer(ctx, buffer)?;
    Ok(bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect())
}
