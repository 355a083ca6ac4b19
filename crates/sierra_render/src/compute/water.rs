//! Water columns on the GPU: the virtual-pipes model of `sierra_terrain::water` as two
//! compute dispatches per step (`water.wgsl`).
//!
//! Inputs are plain data ([`WaterGpuParams`], heights as `&[f32]`); `sierra_content::water`
//! builds them from the terrain crate's `WaterParams`/`WaterSim` (whose validation it runs first).
//!
//! Design (seed 002, Annex E.2): two depth buffers swapped each step; 16x16 workgroups that
//! stage an 18x18 tile (one-cell halo) in workgroup memory. Mei's outflow scaling K of a
//! neighbour depends on cells two away, so a step is two dispatches: `flux_main` stages total
//! heights and writes the new outflow flux (updated in place: a cell's new flux reads only its
//! own old flux), then `depth_main` stages the new flux and writes the next depth buffer and
//! Mei's velocity field. Same formulas, same summation order as the CPU reference, which the
//! test `tests/water_gpu.rs` holds it to (1e-4 after 100 steps).
//!
//! Buffers (all `[rows * cols]` row-major, `index = row * cols + col`, `col` along +X, `row`
//! along +Z): terrain `f32` metres, depth `f32` metres (2, ping-pong), flux `vec4<f32>` m³/s
//! (left, right, top, bottom), velocity `vec2<f32>` m/s (X, Z). The sea pass reads
//! [`WaterCompute::depth_buffer`] and [`WaterCompute::terrain_buffer`] directly.
//!
//! Supported on the GPU: closed/open edges, damping, uniform rain, drops. Point sources and
//! sinks are CPU-only.
//!
//! Speed: on Mesa llvmpipe (the CI's software Vulkan) a step costs about 250-400 ns per cell
//! with either kernel pair (`sierra bench water`; 91 % of the time is in the JIT-compiled
//! shaders, so staging is not the cost there), against about 6.5 ns on one CPU core. On a real
//! GPU each dispatch is one memory-bound pass (about 20 bytes read and 20 written per cell).

use bytemuck::{Pod, Zeroable};
use glam::Vec2;

use crate::compute::water_gpu::{
    read_f32, read_vec4, submit, zeroed_storage, StepKernels, WaterGrid,
};
pub(crate) use crate::compute::water_params::invalid;
pub use crate::compute::water_params::{
    WaterBoundary, WaterGpuParams, WaterUniforms, WORKGROUP_SIDE,
};
use crate::context::GpuContext;
use crate::error::Result;
// Named by the docs (and the tests); since the waits moved to `GpuContext`, not by the code.
#[cfg(any(test, doc))]
use crate::error::RenderError;
use crate::gpu_util::dispatch;

/// WGSL of the 4-pipe kernels: `water_common.wgsl` (uniforms, terrain binding, grid index)
/// followed by `water.wgsl`.
pub const SHADER: &str = concat!(
    include_str!("water_common.wgsl"),
    include_str!("water.wgsl")
);

/// The kernels of [`SHADER`]: flux_main, depth_main, drop_main, flux_direct, depth_direct
/// (the drop kernel writes the current depth).
const KERNELS: StepKernels<5> = StepKernels {
    what: "water",
    source: SHADER,
    depth_in_read_only: false,
    entry_points: [
        "flux_main",
        "depth_main",
        "drop_main",
        "flux_direct",
        "depth_direct",
    ],
};

/// Which pair of kernels a step runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WaterKernels {
    /// The thesis's design: 16x16 workgroups stage an 18x18 tile (heights, then fluxes) in
    /// workgroup memory behind a barrier.
    #[default]
    Staged,
    /// The same arithmetic reading neighbours straight from storage buffers (no workgroup
    /// memory, no barrier). Same results to the last bit; faster where barriers are expensive
    /// (software rasterisers such as llvmpipe run each invocation as a coroutine around them).
    Direct,
}

/// Mirror of `DropUniforms` in `water.wgsl` (16 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct DropUniforms {
    /// Centre, grid metres.
    pub center: [f32; 2],
    /// Radius, metres.
    pub radius: f32,
    /// Height, metres.
    pub amplitude: f32,
}

/// The GPU water simulation: buffers, pipelines and the ping-pong state.
pub struct WaterCompute {
    /// Parameters, terrain, depths, uniforms, step bind groups and their bookkeeping.
    grid: WaterGrid,
    flux: wgpu::Buffer,
    velocity: wgpu::Buffer,
    drop_uniforms: wgpu::Buffer,
    /// flux_main, depth_main, drop_main, flux_direct, depth_direct.
    pipelines: [wgpu::ComputePipeline; 5],
    kernels: WaterKernels,
}

impl WaterCompute {
    /// Uploads a state: `terrain` and `depth` in metres, `[rows * cols]` row-major; zero flux.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] for parameters [`WaterGpuParams::validate`] refuses, a
    /// height array that is not `[rows * cols]` long, a non-finite height or a negative depth;
    /// [`RenderError::LimitExceeded`] when a buffer is above the device's storage binding
    /// limit, [`RenderError::Gpu`].
    pub fn new(
        ctx: &GpuContext,
        params: WaterGpuParams,
        terrain: &[f32],
        depth: &[f32],
    ) -> Result<Self> {
        check_state(&params, terrain, depth)?;
        let n = params.cell_count() as u64;
        let flux = zeroed_storage(ctx, "water flux", n * 16)?;
        let velocity = zeroed_storage(ctx, "water velocity", n * 8)?;
        let drop_uniforms = ctx.create_buffer_init(
            "water drop uniforms",
            bytemuck::bytes_of(&DropUniforms::default()),
            wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        )?;
        let rest = [&flux, &velocity, &drop_uniforms];
        let (grid, pipelines) = WaterGrid::new(ctx, &KERNELS, params, (terrain, depth), &rest)?;
        Ok(Self {
            grid,
            flux,
            velocity,
            drop_uniforms,
            pipelines,
            kernels: WaterKernels::Staged,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &WaterGpuParams {
        &self.grid.params
    }

    /// Chooses the kernels of the next steps (default [`WaterKernels::Staged`]).
    pub fn set_kernels(&mut self, kernels: WaterKernels) {
        self.kernels = kernels;
    }

    /// The kernels steps run.
    pub fn kernels(&self) -> WaterKernels {
        self.kernels
    }

    /// Steps taken.
    pub fn steps(&self) -> u64 {
        self.grid.steps
    }

    /// Uniform rain, m/s (>= 0).
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] for a negative or non-finite rate.
    pub fn set_rain(&mut self, rate: f32) -> Result<()> {
        self.grid.set_rain(rate)
    }

    /// Largest accepted step, seconds: [`WaterGpuParams::max_stable_dt`] at an upper estimate of
    /// the max depth (the GPU does no reduction: the initial max plus every drop and the rain).
    pub fn max_stable_dt(&self) -> f32 {
        self.grid.params.max_stable_dt(self.grid.depth_bound)
    }

    fn check_dt(&self, dt: f32) -> Result<()> {
        if !(dt > 0.0 && dt.is_finite()) {
            return Err(invalid(format!("time step {dt} s must be finite and > 0")));
        }
        let max = self.max_stable_dt();
        if dt > max {
            return Err(invalid(format!(
                "time step {dt} s is above the stability limit {max} s (pipe-model and CFL bounds)"
            )));
        }
        Ok(())
    }

    /// Records `steps` steps of `dt` seconds into `encoder` (two dispatches each), writing the
    /// uniforms through `queue` first. Use this to run the simulation in the frame's encoder.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] for a step above [`Self::max_stable_dt`] or not positive.
    pub fn record_steps(
        &mut self,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        dt: f32,
        steps: u32,
    ) -> Result<()> {
        self.record_steps_timed(queue, encoder, dt, steps, None)
    }

    /// [`Self::record_steps`], the steps' compute pass timed by `timestamps` when given.
    ///
    /// # Errors
    /// As [`Self::record_steps`].
    pub fn record_steps_timed(
        &mut self,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        dt: f32,
        steps: u32,
        timestamps: Option<wgpu::ComputePassTimestampWrites<'_>>,
    ) -> Result<()> {
        self.check_dt(dt)?;
        let (flux_pipeline, depth_pipeline) = match self.kernels {
            WaterKernels::Staged => (&self.pipelines[0], &self.pipelines[1]),
            WaterKernels::Direct => (&self.pipelines[3], &self.pipelines[4]),
        };
        self.grid.record(
            (queue, encoder),
            (dt, steps),
            ("water steps", timestamps),
            &[flux_pipeline, depth_pipeline],
        );
        Ok(())
    }

    /// Runs `steps` steps of `dt` seconds in one submission.
    ///
    /// # Errors
    /// As [`Self::record_steps`], and [`RenderError::Gpu`].
    pub fn step(&mut self, ctx: &GpuContext, dt: f32, steps: u32) -> Result<()> {
        submit(ctx, ("water", "stepping the water simulation"), |encoder| {
            self.record_steps(&ctx.queue, encoder, dt, steps)
        })
    }

    /// Blocks until the GPU has finished every submitted step (for timing).
    ///
    /// # Errors
    /// [`RenderError::DeviceLost`] when the device is lost.
    pub fn wait(&self, ctx: &GpuContext) -> Result<()> {
        wait_idle(ctx, "waiting for the water steps")
    }

    /// Adds a raised-cosine drop (as `sierra_terrain::water::WaterSim::add_drop`) to the current depth.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] for a non-finite centre, non-positive radius or negative
    /// amplitude; [`RenderError::Gpu`].
    pub fn add_drop(
        &mut self,
        ctx: &GpuContext,
        center: Vec2,
        radius: f32,
        amplitude: f32,
    ) -> Result<()> {
        submit(ctx, ("water drop", "adding a water drop"), |encoder| {
            self.record_drop(&ctx.queue, encoder, (center, radius, amplitude), None)
        })
    }

    /// Records the drop `(centre, radius, amplitude)` of [`Self::add_drop`] into `encoder`,
    /// its compute pass timed by `timestamps` when given. The drop's parameters are written
    /// through `queue` (applied at the next submit), so submit `encoder` before recording
    /// another drop.
    ///
    /// # Errors
    /// As [`Self::add_drop`].
    pub fn record_drop(
        &mut self,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        (center, radius, amplitude): (Vec2, f32, f32),
        timestamps: Option<wgpu::ComputePassTimestampWrites<'_>>,
    ) -> Result<()> {
        let valid = center.is_finite()
            && (radius > 0.0 && radius.is_finite())
            && (amplitude >= 0.0 && amplitude.is_finite());
        if !valid {
            return Err(invalid(format!(
                "drop at {center} radius {radius} amplitude {amplitude}: need a finite centre, \
                 radius > 0 and amplitude >= 0"
            )));
        }
        let d = DropUniforms {
            center: center.to_array(),
            radius,
            amplitude,
        };
        queue.write_buffer(&self.drop_uniforms, 0, bytemuck::bytes_of(&d));
        let groups = self.grid.workgroups();
        dispatch(
            encoder,
            "water drop",
            &self.pipelines[2],
            self.grid.current_bind_group(),
            [groups.0, groups.1, 1],
            timestamps,
        );
        self.grid.depth_bound += amplitude;
        Ok(())
    }

    /// The current depth buffer (`[rows * cols]` f32 metres). It changes after every step:
    /// fetch it (or [`Self::current_index`]) each frame.
    pub fn depth_buffer(&self) -> &wgpu::Buffer {
        self.grid.depth_buffer()
    }

    /// Both depth buffers; the current one is `depth_buffers()[current_index()]`
    /// (for passes that build one bind group per buffer once).
    pub fn depth_buffers(&self) -> &[wgpu::Buffer; 2] {
        &self.grid.depth
    }

    /// Which depth buffer is current (0 or 1).
    pub fn current_index(&self) -> usize {
        self.grid.current
    }

    /// Terrain heights (`[rows * cols]` f32 metres).
    pub fn terrain_buffer(&self) -> &wgpu::Buffer {
        &self.grid.terrain
    }

    /// Velocity of the last step (`[rows * cols]` `vec2<f32>` m/s, X and Z).
    pub fn velocity_buffer(&self) -> &wgpu::Buffer {
        &self.velocity
    }

    /// Replaces the current depth and the velocity with a state simulated on the CPU (a queue
    /// write; the sea pass draws it from the next submission). The flux is left as it was, so
    /// GPU steps after it do not continue the CPU run exactly.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] when either array is not `[rows * cols]` long.
    pub fn write_state(
        &mut self,
        queue: &wgpu::Queue,
        state: &crate::frame::SeaState,
    ) -> Result<()> {
        let n = self.grid.params.cell_count();
        if state.depth.len() != n || state.velocity.len() != n {
            return Err(invalid(format!(
                "a CPU state of {} depths and {} velocities for a {}x{} grid ({n} cells)",
                state.depth.len(),
                state.velocity.len(),
                self.grid.params.cols,
                self.grid.params.rows
            )));
        }
        queue.write_buffer(self.depth_buffer(), 0, bytemuck::cast_slice(&state.depth));
        queue.write_buffer(&self.velocity, 0, bytemuck::cast_slice(&state.velocity));
        let max = state.depth.iter().copied().fold(0.0, f32::max);
        self.grid.depth_bound = self.grid.depth_bound.max(max);
        Ok(())
    }

    /// Reads the current depth back, metres.
    ///
    /// # Errors
    /// As [`crate::readback::read_buffer`].
    pub fn read_depth(&self, ctx: &GpuContext) -> Result<Vec<f32>> {
        self.grid.read_depth(ctx)
    }

    /// Reads the outflow flux back: `[rows * cols]` of (left, right, top, bottom), m³/s.
    ///
    /// # Errors
    /// As [`crate::readback::read_buffer`].
    pub fn read_flux(&self, ctx: &GpuContext) -> Result<Vec<[f32; 4]>> {
        read_vec4(ctx, &self.flux)
    }

    /// Reads the velocity field back, m/s.
    ///
    /// # Errors
    /// As [`crate::readback::read_buffer`].
    pub fn read_velocity(&self, ctx: &GpuContext) -> Result<Vec<Vec2>> {
        let v = read_f32(ctx, &self.velocity)?;
        Ok(v.chunks_exact(2).map(|c| Vec2::new(c[0], c[1])).collect())
    }
}

/// Blocks until the GPU has finished everything submitted; `context` names the wait in errors.
pub(crate) fn wait_idle(ctx: &GpuContext, context: &str) -> Result<()> {
    ctx.wait_idle(context)
}

/// Sizes and values of an uploaded state (the GPU kernels assume them).
pub(crate) fn check_state(params: &WaterGpuParams, terrain: &[f32], depth: &[f32]) -> Result<()> {
    params.validate()?;
    let n = params.cell_count();
    if terrain.len() != n || depth.len() != n {
        return Err(invalid(format!(
            "{} terrain and {} depth values for a {}x{} grid ({n} cells)",
            terrain.len(),
            depth.len(),
            params.cols,
            params.rows
        )));
    }
    if let Some(i) = terrain.iter().position(|h| !h.is_finite()) {
        return Err(invalid(format!(
            "terrain height {} at cell {i}",
            terrain[i]
        )));
    }
    if let Some(i) = depth.iter().position(|d| !(*d >= 0.0 && d.is_finite())) {
        return Err(invalid(format!(
            "depth {} at cell {i} must be finite and >= 0",
            depth[i]
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uploaded_states_are_checked_before_the_gpu_sees_them() {
        let p = WaterGpuParams {
            cols: 4,
            rows: 3,
            cell_size: 1.0,
            gravity: 9.81,
            pipe_area: 1.0,
            pipe_length: 1.0,
            damping: 0.0,
            boundary: WaterBoundary::Closed,
        };
        assert!(check_state(&p, &[0.0; 12], &[1.0; 12]).is_ok());
        let message = |r: Result<()>| match r {
            Err(RenderError::InvalidInput(m)) => m,
            other => panic!("{other:?}"),
        };
        assert!(message(check_state(&p, &[0.0; 11], &[1.0; 12])).contains("4x3"));
        let mut depth = [1.0; 12];
        depth[5] = -0.1;
        assert!(message(check_state(&p, &[0.0; 12], &depth)).contains("cell 5"));
        depth[5] = f32::NAN;
        assert!(message(check_state(&p, &[0.0; 12], &depth)).contains("NaN"));
        let mut terrain = [0.0; 12];
        terrain[2] = f32::INFINITY;
        assert!(message(check_state(&p, &terrain, &[1.0; 12])).contains("cell 2"));
        let empty = WaterGpuParams { cols: 0, ..p };
        assert!(message(check_state(&empty, &[], &[])).contains("0x3"));
        let bad = WaterGpuParams { gravity: 0.0, ..p };
        assert!(message(check_state(&bad, &[0.0; 12], &[1.0; 12])).contains("gravity"));
        // The CPU model's stability limit at cell = 1, A = 1, l = 1, g = 9.81:
        // pipe 0.5 / sqrt(g), CFL 1 / sqrt(g · 4) = the same at depth 4.
        let pipe = 0.5 / 9.81f32.sqrt();
        assert!((p.max_stable_dt(0.0) - pipe).abs() < 1e-7);
        assert!((p.max_stable_dt(16.0) - 1.0 / (9.81f32 * 16.0).sqrt()).abs() < 1e-7);
    }
}
