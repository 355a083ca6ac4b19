//! Improved Perlin noise and fBm on the GPU (`noise.wgsl`), the same functions as
//! `sierra_terrain::noise` in `f32` (thesis, seed 002, §2.1.3 "Ruido de Perlin en la GPU": the
//! permutation lives in GPU memory, one thread per sample).
//!
//! Two entry points: `points_main` evaluates a list of points (one invocation each, 64 per
//! workgroup) and `grid_main` a 2D grid (16×16 workgroups). Results are read back to the CPU.
//!
//! Inputs are plain data ([`FbmGpuParams`], [`NoiseGridParams`], the permutation as
//! `[u32; 512]`): the terrain crate's types are converted by the caller (`sierra_content::terrain`).

use bytemuck::{Pod, Zeroable};

use crate::context::GpuContext;
use crate::error::{RenderError, Result};
use crate::gpu_util::{bind_group, compute_kernels, storage_entry, submit_dispatch, uniform_entry};
use crate::readback::read_buffer;

/// The WGSL source.
pub const NOISE_WGSL: &str = include_str!("noise.wgsl");

const POINTS_WORKGROUP: u32 = 64;
const GRID_WORKGROUP: u32 = 16;

/// Which function to evaluate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoiseFunction {
    /// `perlin3(x, y, 0)`.
    Perlin2,
    /// `perlin3(x, y, z)`.
    Perlin3,
    /// fBm of `perlin2`.
    Fbm2,
    /// fBm of `perlin3`.
    Fbm3,
}

impl NoiseFunction {
    fn id(self) -> u32 {
        match self {
            NoiseFunction::Perlin2 => 0,
            NoiseFunction::Perlin3 => 1,
            NoiseFunction::Fbm2 => 2,
            NoiseFunction::Fbm3 => 3,
        }
    }
}

/// The permutation table: `p[0..256]` a permutation of 0..=255, repeated (`p[i + 256] = p[i]`),
/// as Perlin's reference implementation indexes it.
pub type PermutationTable = [u32; 512];

/// One fBm's parameters, as the shader reads them (Musgrave's fBm, seed 002 §2.1.3).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct FbmGpuParams {
    /// 0 standard, 1 ridged, 2 billow.
    pub kind: u32,
    /// Whole octaves, `floor(octaves)`.
    pub full_octaves: u32,
    /// Weight of the last, partial octave, `octaves − floor(octaves)` in `[0, 1)`.
    pub fraction: f32,
    /// Frequency factor per octave.
    pub lacunarity: f32,
    /// Amplitude factor per octave (H).
    pub gain: f32,
}

/// A 2D sample grid: sample `(col, row)` is at `(x0 + col·dx, y0 + row·dy)` in noise units;
/// results are `[height][width]` row-major.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct NoiseGridParams {
    /// `(x0, y0)`.
    pub origin: [f32; 2],
    /// `(dx, dy)`.
    pub spacing: [f32; 2],
    /// `(width, height)` in samples.
    pub size: [u32; 2],
}

/// Mirror of `NoiseParams` in `noise.wgsl` (uniform, 64 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub struct NoiseParamsGpu {
    /// 0 perlin2, 1 perlin3, 2 fbm2, 3 fbm3.
    pub noise_function: u32,
    /// 0 standard, 1 ridged, 2 billow.
    pub kind: u32,
    /// `floor(octaves)`.
    pub full_octaves: u32,
    /// Number of samples.
    pub count: u32,
    /// `octaves − floor(octaves)`.
    pub fraction: f32,
    /// Frequency factor per octave.
    pub lacunarity: f32,
    /// Amplitude factor per octave (H).
    pub gain: f32,
    /// Padding.
    pub _pad0: f32,
    /// Grid origin (x0, y0).
    pub grid_origin: [f32; 2],
    /// Grid spacing (dx, dy).
    pub grid_spacing: [f32; 2],
    /// Grid width, height.
    pub grid_size: [u32; 2],
    /// Invocations per row of the points dispatch.
    pub points_row: u32,
    /// Padding.
    pub _pad1: u32,
}

impl NoiseParamsGpu {
    fn new(function: NoiseFunction, fbm: Option<&FbmGpuParams>, count: u32) -> Self {
        let mut p = Self {
            noise_function: function.id(),
            count,
            ..Self::default()
        };
        if let Some(f) = fbm {
            p.kind = f.kind;
            p.full_octaves = f.full_octaves;
            p.fraction = f.fraction;
            p.lacunarity = f.lacunarity;
            p.gain = f.gain;
        }
        p
    }
}

/// The noise compute pipelines (create once, reuse).
pub struct NoiseCompute {
    layout: wgpu::BindGroupLayout,
    points: wgpu::ComputePipeline,
    grid: wgpu::ComputePipeline,
}

impl NoiseCompute {
    /// Compiles `noise.wgsl` and builds both pipelines.
    ///
    /// # Errors
    /// [`RenderError::Gpu`] when the shader or a pipeline fails validation.
    pub fn new(ctx: &GpuContext) -> Result<Self> {
        let compute = wgpu::ShaderStages::COMPUTE;
        let entries = [
            storage_entry(0, compute, true),
            uniform_entry(1, compute),
            storage_entry(2, compute, true),
            storage_entry(3, compute, false),
        ];
        let shader = ("noise.wgsl", NOISE_WGSL);
        let (layout, [points, grid]) = ctx.scoped(
            || "creating the noise compute pipelines".to_owned(),
            || compute_kernels(ctx, "noise", shader, &entries, ["points_main", "grid_main"]),
        )?;
        Ok(Self {
            layout,
            points,
            grid,
        })
    }

    /// Evaluates `function` at each point (`[x, y, z]`; z ignored by the 2D functions).
    /// `fbm` is required for the fBm functions and ignored otherwise.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] for an empty point list, a missing `fbm`, a fBm kind above 2
    /// or a permutation entry above 255; [`RenderError::LimitExceeded`] when the buffers exceed
    /// device limits; [`RenderError::Gpu`].
    pub fn evaluate_points(
        &self,
        ctx: &GpuContext,
        perm: &PermutationTable,
        function: NoiseFunction,
        fbm: Option<&FbmGpuParams>,
        points: &[[f32; 3]],
    ) -> Result<Vec<f32>> {
        check_fbm(function, fbm)?;
        if points.is_empty() {
            return Err(RenderError::InvalidInput("no points to evaluate".into()));
        }
        let count = u32::try_from(points.len()).map_err(|_| {
            RenderError::InvalidInput(format!("{} points is too many", points.len()))
        })?;
        let groups = count.div_ceil(POINTS_WORKGROUP);
        let max = ctx.device.limits().max_compute_workgroups_per_dimension;
        let (gx, gy) = if groups <= max {
            (groups, 1)
        } else {
            (max, groups.div_ceil(max))
        };
        let mut params = NoiseParamsGpu::new(function, fbm, count);
        params.points_row = gx * POINTS_WORKGROUP;
        let padded: Vec<[f32; 4]> = points.iter().map(|p| [p[0], p[1], p[2], 0.0]).collect();
        self.run(
            ctx,
            perm,
            &params,
            bytemuck::cast_slice(&padded),
            &self.points,
            (gx, gy),
        )
    }

    /// fBm of 2D noise over a grid, `[height][width]` row-major, the GPU twin of
    /// `sierra_terrain::noise::grid::fbm2_grid` (sample coordinates computed the same way).
    ///
    /// # Errors
    /// As [`Self::evaluate_points`], and [`RenderError::InvalidInput`] for an empty grid or one
    /// of more than `u32::MAX` samples.
    pub fn fbm2_grid(
        &self,
        ctx: &GpuContext,
        perm: &PermutationTable,
        fbm: &FbmGpuParams,
        grid: &NoiseGridParams,
    ) -> Result<Vec<f32>> {
        let [width, height] = grid.size;
        let count = width.checked_mul(height).filter(|&c| c > 0);
        let count = count.ok_or_else(|| {
            RenderError::InvalidInput(format!("grid {width}x{height} is empty or too large"))
        })?;
        let mut params = NoiseParamsGpu::new(NoiseFunction::Fbm2, Some(fbm), count);
        params.grid_origin = grid.origin;
        params.grid_spacing = grid.spacing;
        params.grid_size = grid.size;
        let groups = (
            width.div_ceil(GRID_WORKGROUP),
            height.div_ceil(GRID_WORKGROUP),
        );
        // The points buffer is unused by grid_main but must be bound.
        self.run(ctx, perm, &params, &[0u8; 16], &self.grid, groups)
    }

    fn run(
        &self,
        ctx: &GpuContext,
        perm: &PermutationTable,
        params: &NoiseParamsGpu,
        points: &[u8],
        pipeline: &wgpu::ComputePipeline,
        groups: (u32, u32),
    ) -> Result<Vec<f32>> {
        if let Some(i) = perm.iter().position(|&v| v > 255) {
            return Err(RenderError::InvalidInput(format!(
                "noise permutation entry {i} is {}; entries are 0..=255",
                perm[i]
            )));
        }
        if params.kind > 2 {
            return Err(RenderError::InvalidInput(format!(
                "fBm kind {} (0 standard, 1 ridged, 2 billow)",
                params.kind
            )));
        }
        let storage = wgpu::BufferUsages::STORAGE;
        let perm_buf =
            ctx.create_buffer_init("noise permutation", bytemuck::cast_slice(perm), storage)?;
        let params_buf = ctx.create_buffer_init(
            "noise params",
            bytemuck::bytes_of(params),
            wgpu::BufferUsages::UNIFORM,
        )?;
        let points_buf = ctx.create_buffer_init("noise points", points, storage)?;
        let out = ctx.create_buffer(&wgpu::BufferDescriptor {
            label: Some("noise values"),
            size: u64::from(params.count) * 4,
            usage: storage | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        })?;
        // One dispatch's buffers: out of the memory accounting again when they drop here.
        let _transient =
            [&perm_buf, &params_buf, &points_buf, &out].map(|b| ctx.release_buffer_on_drop(b));
        ctx.scoped(
            || "dispatching the noise compute pass".to_owned(),
            || {
                let bind = bind_group(
                    &ctx.device,
                    "noise",
                    &self.layout,
                    &[
                        perm_buf.as_entire_binding(),
                        params_buf.as_entire_binding(),
                        points_buf.as_entire_binding(),
                        out.as_entire_binding(),
                    ],
                );
                submit_dispatch(ctx, "noise", pipeline, &bind, [groups.0, groups.1, 1]);
            },
        )?;
        let bytes = read_buffer(ctx, &out)?;
        Ok(bytemuck::pod_collect_to_vec(&bytes))
    }
}

fn check_fbm(function: NoiseFunction, fbm: Option<&FbmGpuParams>) -> Result<()> {
    if matches!(function, NoiseFunction::Fbm2 | NoiseFunction::Fbm3) && fbm.is_none() {
        return Err(RenderError::InvalidInput(format!(
            "{function:?} needs fBm parameters"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameter_structs_have_the_documented_sizes() {
        assert_eq!(std::mem::size_of::<FbmGpuParams>(), 20);
        assert_eq!(std::mem::size_of::<NoiseGridParams>(), 24);
        assert_eq!(std::mem::size_of::<NoiseParamsGpu>(), 64);
    }
}
