//! Bloom: bright pass, downsample, separable Gaussian blur, additive composite.
//!
//! Exactly the chain of seed 000 ("Bloom", steps 2–5):
//! 1. bright pass into a half-resolution texture, keeping the pixels whose brightest channel is
//!    `>= threshold` (0.8 in the seed) — each half-resolution texel averages its 2×2 source
//!    pixels after the threshold test, so one bright pixel is kept rather than averaged away;
//! 2. 2×2 box downsample into quarter-resolution texture #1;
//! 3. `blur_passes` times: horizontal 9-tap Gaussian #1 → #2, vertical #2 → #1, with the seed's
//!    weights [`GAUSSIAN_WEIGHTS`] on texel centres (edges clamp);
//! 4. texture #1 upsampled bilinearly, scaled by `intensity`, added onto the HDR target with
//!    ONE + ONE blending.
//!
//! All textures are `Rgba16Float` (linear HDR). Call [`BloomPass::resize`] when the HDR target changes.

use super::fullscreen::{draw_fullscreen, ScreenPass, SourceRead};
use super::{Encoder, Pass, PassInputs, PassQueries};
use crate::context::GpuContext;
use crate::error::Result;
use crate::gpu_util::{uniform_buffer, uniform_entry_for, ADDITIVE_BLEND};
use crate::post::BloomSettings;
use crate::targets::{RenderTargets, HDR_FORMAT};

/// Seed 000's Gaussian weights: the centre tap, then the taps 1–4 texels away on either side.
pub const GAUSSIAN_WEIGHTS: [f32; 5] = [0.227027, 0.1945946, 0.1216216, 0.054054, 0.016216];

/// Format of the bloom chain's intermediate textures (that of the HDR target it reads).
pub const BLOOM_FORMAT: wgpu::TextureFormat = HDR_FORMAT;

/// Mirror of `BloomParams` in `bloom.wgsl` (16 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct BloomParams {
    /// Blur step in texels: `[1, 0]` horizontal, `[0, 1]` vertical.
    pub direction: [f32; 2],
    /// Bright-pass threshold.
    pub threshold: f32,
    /// Composite scale.
    pub intensity: f32,
}

struct Target {
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    /// Hands the bytes back to the context's memory accounting when the chain is resized.
    _memory: crate::memory::MemoryRelease,
}

struct Chain {
    half: Target,
    quarter: [Target; 2],
    bright_group: wgpu::BindGroup,
    downsample_group: wgpu::BindGroup,
    blur_h_group: wgpu::BindGroup,
    blur_v_group: wgpu::BindGroup,
    composite_group: wgpu::BindGroup,
}

/// The embedded `bloom.wgsl` (after [`super::fullscreen::FULLSCREEN_WGSL`]).
pub const WGSL: &str = include_str!("bloom.wgsl");

/// The bloom pass: owns its pipelines, its half- and quarter-resolution targets and uniforms.
pub struct BloomPass {
    screen: ScreenPass,
    bright: wgpu::RenderPipeline,
    downsample: wgpu::RenderPipeline,
    blur: wgpu::RenderPipeline,
    composite: wgpu::RenderPipeline,
    params: wgpu::Buffer,
    blur_h: wgpu::Buffer,
    blur_v: wgpu::Buffer,
    chain: Option<Chain>,
    /// The frame's settings, copied at `prepare` (`FrameData::post.bloom`).
    settings: BloomSettings,
}

impl BloomPass {
    /// Creates the pass with the seed's settings; its targets follow at [`Pass::resize`].
    ///
    /// # Errors
    /// [`crate::RenderError::Gpu`] when shader or pipeline creation fails.
    pub fn new(ctx: &GpuContext) -> Result<Self> {
        Self::with_source(ctx, WGSL)
    }

    /// [`BloomPass::new`] compiling `wgsl` (a `bloom.wgsl` read from `--shader-dir`) instead of
    /// the embedded [`WGSL`].
    ///
    /// # Errors
    /// As [`BloomPass::new`]; a shader that does not compile.
    pub fn with_source(ctx: &GpuContext, wgsl: &str) -> Result<Self> {
        ctx.scoped(
            || "creating the bloom pass".to_owned(),
            || Self::create(ctx, wgsl),
        )
    }

    fn create(ctx: &GpuContext, wgsl: &str) -> Self {
        let device = &ctx.device;
        let read = SourceRead::Bilinear;
        let params_entry = uniform_entry_for::<BloomParams>;
        let screen = ScreenPass::new(ctx, "bloom", wgsl, read, params_entry);
        let pipeline = |entry, blend| screen.pipeline(ctx, entry, BLOOM_FORMAT, blend);
        let bright = pipeline("fs_bright", None);
        let downsample = pipeline("fs_downsample", None);
        let blur = pipeline("fs_blur", None);
        let composite = pipeline("fs_composite", Some(ADDITIVE_BLEND));
        let uniform = |label: &str, params: BloomParams| uniform_buffer(device, label, &params);
        let settings = BloomSettings::default();
        let params = uniform("bloom params", Self::params(&settings));
        let blur_h = uniform(
            "bloom blur horizontal",
            BloomParams {
                direction: [1.0, 0.0],
                ..Default::default()
            },
        );
        let blur_v = uniform(
            "bloom blur vertical",
            BloomParams {
                direction: [0.0, 1.0],
                ..Default::default()
            },
        );
        Self {
            screen,
            bright,
            downsample,
            blur,
            composite,
            params,
            blur_h,
            blur_v,
            chain: None,
            settings,
        }
    }

    /// Records the chain (when enabled) onto `hdr`, the view given at the last resize.
    fn record_chain(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        hdr: &wgpu::TextureView,
        queries: PassQueries<'_>,
    ) {
        let Some(chain) = self.chain.as_ref().filter(|_| self.settings.enabled) else {
            return;
        };
        let clear = wgpu::LoadOp::Clear(wgpu::Color::BLACK);
        let last = 2 + 2 * self.settings.blur_passes;
        let mut index = 0;
        let mut run = |pipeline: &wgpu::RenderPipeline,
                       group: &wgpu::BindGroup,
                       target: &wgpu::TextureView,
                       load: wgpu::LoadOp<wgpu::Color>| {
            // The whole chain is timed as one pass (start of the first, end of the last) and
            // counted as one (its passes' statistics summed).
            let queries = queries.split(index == 0, index == last);
            draw_fullscreen(encoder, "bloom", target, load, queries, pipeline, group);
            index += 1;
        };
        run(&self.bright, &chain.bright_group, &chain.half.view, clear);
        run(
            &self.downsample,
            &chain.downsample_group,
            &chain.quarter[0].view,
            clear,
        );
        for _ in 0..self.settings.blur_passes {
            run(
                &self.blur,
                &chain.blur_h_group,
                &chain.quarter[1].view,
                clear,
            );
            run(
                &self.blur,
                &chain.blur_v_group,
                &chain.quarter[0].view,
                clear,
            );
        }
        run(
            &self.composite,
            &chain.composite_group,
            hdr,
            wgpu::LoadOp::Load,
        );
    }

    /// The half-resolution bright-pass texture (for tests and debug views).
    pub fn bright_texture(&self) -> Option<&wgpu::Texture> {
        self.chain.as_ref().map(|chain| &chain.half.texture)
    }

    /// Quarter-resolution texture #1, holding the blurred highlights after `record`.
    pub fn blurred_texture(&self) -> Option<&wgpu::Texture> {
        self.chain.as_ref().map(|chain| &chain.quarter[0].texture)
    }

    fn params(settings: &BloomSettings) -> BloomParams {
        BloomParams {
            direction: [0.0, 0.0],
            threshold: settings.threshold,
            intensity: settings.intensity,
        }
    }
}

impl Pass for BloomPass {
    fn name(&self) -> &'static str {
        "bloom"
    }

    fn active(&self) -> bool {
        self.settings.enabled && self.chain.is_some()
    }

    fn resize(&mut self, ctx: &GpuContext, targets: &RenderTargets) -> Result<()> {
        let chain = ctx.scoped(
            || {
                format!(
                    "creating the bloom targets for {}x{}",
                    targets.width, targets.height
                )
            },
            || {
                Chain::new(
                    ctx,
                    &self.screen,
                    &targets.hdr_view,
                    [targets.width, targets.height],
                    [&self.params, &self.blur_h, &self.blur_v],
                )
            },
        )??;
        self.chain = Some(chain);
        Ok(())
    }

    fn prepare(&mut self, ctx: &GpuContext, inputs: &PassInputs<'_>) -> Result<()> {
        self.settings = inputs.frame.post.bloom;
        let params = Self::params(&self.settings);
        ctx.queue
            .write_buffer(&self.params, 0, bytemuck::bytes_of(&params));
        Ok(())
    }

    fn record(&self, encoder: &mut Encoder, inputs: &PassInputs<'_>, queries: PassQueries<'_>) {
        self.record_chain(encoder, &inputs.targets.hdr_view, queries);
    }
}

impl Chain {
    /// The targets of an HDR image of `size` and their bind groups: `hdr` and the targets
    /// read through `screen` with the composite's `params` or a blur direction's.
    fn new(
        ctx: &GpuContext,
        screen: &ScreenPass,
        hdr: &wgpu::TextureView,
        size: [u32; 2],
        [params, blur_h, blur_v]: [&wgpu::Buffer; 3],
    ) -> Result<Self> {
        let half_size = [size[0].div_ceil(2).max(1), size[1].div_ceil(2).max(1)];
        let quarter_size = [
            half_size[0].div_ceil(2).max(1),
            half_size[1].div_ceil(2).max(1),
        ];
        let half = Target::new(ctx, "bloom half", half_size)?;
        let quarter = [
            Target::new(ctx, "bloom quarter 1", quarter_size)?,
            Target::new(ctx, "bloom quarter 2", quarter_size)?,
        ];
        let group = |view, uniform| screen.bind_group(ctx, view, uniform);
        Ok(Self {
            bright_group: group(hdr, params)?,
            downsample_group: group(&half.view, params)?,
            blur_h_group: group(&quarter[0].view, blur_h)?,
            blur_v_group: group(&quarter[1].view, blur_v)?,
            composite_group: group(&quarter[0].view, params)?,
            half,
            quarter,
        })
    }
}

impl Target {
    fn new(ctx: &GpuContext, label: &str, size: [u32; 2]) -> Result<Self> {
        let texture = ctx.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d {
                width: size[0],
                height: size[1],
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: BLOOM_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::TEXTURE_BINDING
                | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        })?;
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        let memory = ctx.release_on_drop(&texture);
        Ok(Self {
            texture,
            view,
            _memory: memory,
        })
    }
}
