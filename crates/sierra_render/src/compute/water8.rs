//! The thesis's 8-connection water columns on the GPU (`water8.wgsl`): the model of
//! `sierra_terrain::water::columns8` (its CPU reference, same passes, same summation order;
//! held to 1e-4 after 100 steps by `sierra_content`'s test `tests/water8_gpu.rs`).
//!
//! Three dispatches per step, 16x16 workgroups reading neighbours straight from storage:
//! unlimited flows, each column's limiter, then limited flows and new depths. Buffers (all
//! `[rows * cols]` row-major): terrain `f32` metres, depth `f32` metres (2, ping-pong), flow
//! `vec4<f32>` m³/s (E, SE, S, SW; positive away from the column), the unlimited flows and the
//! limiters as scratch. Closed edges only; uniform rain.
//!
//! The parameters and uniforms are Mei's kernel's ([`WaterGpuParams`], [`WaterUniforms`](crate::compute::water_params::WaterUniforms)):
//! the two models share their physical constants.

use crate::compute::water::{check_state, wait_idle};
use crate::compute::water_gpu::{read_vec4, submit, zeroed_storage, StepKernels, WaterGrid};
use crate::compute::water_params::{invalid, WaterBoundary, WaterGpuParams};
use crate::context::GpuContext;
use crate::error::Result;

/// WGSL of the 8-connection kernels: `water_common.wgsl` (the uniforms, terrain binding and
/// grid index of Mei's kernel) followed by `water8.wgsl`.
pub const SHADER: &str = concat!(
    include_str!("water_common.wgsl"),
    include_str!("water8.wgsl")
);

/// The kernels of [`SHADER`], one per pass of a step.
const KERNELS: StepKernels<3> = StepKernels {
    what: "water8",
    source: SHADER,
    depth_in_read_only: true,
    entry_points: ["flow8_main", "limit8_main", "depth8_main"],
};

/// Largest step the 8-pipe flow update allows, seconds: `sqrt(l · cell² / (3 A g))`
/// (derived in `sierra_terrain::water::columns8`), and the CFL bound
/// `cell / sqrt(g · max_depth)`, whichever is smaller.
pub fn max_stable_dt8(p: &WaterGpuParams, max_depth: f32) -> f32 {
    let pipe = (p.pipe_length * p.cell_size * p.cell_size / (3.0 * p.pipe_area * p.gravity)).sqrt();
    let cfl = if max_depth > 0.0 {
        p.cell_size / (p.gravity * max_depth).sqrt()
    } else {
        f32::INFINITY
    };
    pipe.min(cfl)
}

/// The GPU 8-connection water columns: buffers, pipelines and the ping-pong state.
pub struct Water8Compute {
    /// Parameters, terrain, depths, uniforms, step bind groups and their bookkeeping.
    grid: WaterGrid,
    flow: wgpu::Buffer,
    /// flow8_main, limit8_main, depth8_main.
    pipelines: [wgpu::ComputePipeline; 3],
}

impl Water8Compute {
    /// Uploads a state: `terrain` and `depth` in metres, `[rows * cols]` row-major; zero flow.
    ///
    /// # Errors
    /// [`crate::RenderError::InvalidInput`] for what [`WaterGpuParams::validate`] refuses, open edges,
    /// arrays that are not `[rows * cols]` long, non-finite heights or negative depths;
    /// [`crate::RenderError::LimitExceeded`] above the device's storage limits; [`crate::RenderError::Gpu`].
    pub fn new(
        ctx: &GpuContext,
        params: WaterGpuParams,
        terrain: &[f32],
        depth: &[f32],
    ) -> Result<Self> {
        check_state(&params, terrain, depth)?;
        if params.boundary != WaterBoundary::Closed {
            return Err(invalid("the 8-connection columns have closed edges only"));
        }
        let n = params.cell_count() as u64;
        let flow = zeroed_storage(ctx, "water8 flow", n * 16)?;
        let raw = zeroed_storage(ctx, "water8 unlimited flow", n * 16)?;
        let limit = zeroed_storage(ctx, "water8 limiter", n * 4)?;
        let rest = [&flow, &raw, &limit];
        let (grid, pipelines) = WaterGrid::new(ctx, &KERNELS, params, (terrain, depth), &rest)?;
        Ok(Self {
            grid,
            flow,
            pipelines,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &WaterGpuParams {
        &self.grid.params
    }

    /// Steps taken.
    pub fn steps(&self) -> u64 {
        self.grid.steps
    }

    /// Uniform rain, m/s (>= 0).
    ///
    /// # Errors
    /// [`crate::RenderError::InvalidInput`] for a negative or non-finite rate.
    pub fn set_rain(&mut self, rate: f32) -> Result<()> {
        self.grid.set_rain(rate)
    }

    /// Largest accepted step, seconds: [`max_stable_dt8`] at an upper estimate of the max depth
    /// (the initial max plus the rain so far).
    pub fn max_stable_dt(&self) -> f32 {
        max_stable_dt8(&self.grid.params, self.grid.depth_bound)
    }

    /// Records `steps` steps of `dt` seconds into `encoder` (three dispatches each), writing the
    /// uniforms through `queue` first.
    ///
    /// # Errors
    /// [`crate::RenderError::InvalidInput`] for a step that is not positive or above
    /// [`Self::max_stable_dt`].
    pub fn record_steps(
        &mut self,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        dt: f32,
        steps: u32,
    ) -> Result<()> {
        let max = self.max_stable_dt();
        if !(dt > 0.0 && dt <= max) {
            return Err(invalid(format!(
                "time step {dt} s must be > 0 and at most the stability limit {max} s"
            )));
        }
        let [flow, limit, depth] = &self.pipelines;
        self.grid.record(
            (queue, encoder),
            (dt, steps),
            ("water8 steps", None),
            &[flow, limit, depth],
        );
        Ok(())
    }

    /// Runs `steps` steps of `dt` seconds in one submission.
    ///
    /// # Errors
    /// As [`Self::record_steps`], and [`crate::RenderError::Gpu`].
    pub fn step(&mut self, ctx: &GpuContext, dt: f32, steps: u32) -> Result<()> {
        submit(
            ctx,
            ("water8", "stepping the 8-connection water columns"),
            |encoder| self.record_steps(&ctx.queue, encoder, dt, steps),
        )
    }

    /// Blocks until the GPU has finished every submitted step (for timing).
    ///
    /// # Errors
    /// [`crate::RenderError::Gpu`] when the device is lost.
    pub fn wait(&self, ctx: &GpuContext) -> Result<()> {
        wait_idle(ctx, "waiting for the water8 steps")
    }

    /// The current depth buffer (`[rows * cols]` f32 metres); changes after every step.
    pub fn depth_buffer(&self) -> &wgpu::Buffer {
        self.grid.depth_buffer()
    }

    /// Terrain heights (`[rows * cols]` f32 metres).
    pub fn terrain_buffer(&self) -> &wgpu::Buffer {
        &self.grid.terrain
    }

    /// Reads the current depth back, metres.
    ///
    /// # Errors
    /// As [`crate::readback::read_buffer`].
    pub fn read_depth(&self, ctx: &GpuContext) -> Result<Vec<f32>> {
        self.grid.read_depth(ctx)
    }

    /// Reads the last step's limited flows back: `[rows * cols]` of (E, SE, S, SW), m³/s.
    ///
    /// # Errors
    /// As [`crate::readback::read_buffer`].
    pub fn read_flow(&self, ctx: &GpuContext) -> Result<Vec<[f32; 4]>> {
        read_vec4(ctx, &self.flow)
    }
}
