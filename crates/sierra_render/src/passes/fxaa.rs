//! FXAA: post-process anti-aliasing of the tonemapped image (FXAA 3.11 quality, Lottes 2011;
//! the algorithm is described step by step in `fxaa.wgsl`).
//!
//! Runs when the frame's `post.aa` is [`AntiAliasing::Fxaa`]: the tonemap pass then writes
//! linear display colour and perceptual luma into [`RenderTargets::ldr`], and this pass filters
//! it into the final image (sRGB-encoded by the target or by the shader, like the tonemap pass).
//! Edges are found on perceptual luma and blended in linear light, so a half-covered edge pixel
//! gets half the light, as a supersampled image would.
//!
//! Cost: one full-screen pass of 9 taps per pixel, plus up to 24 along edges; no extra memory
//! beyond the `ldr` target. It works with or without MSAA (which the scene passes resolve first).

use super::fullscreen::{draw_fullscreen, ScreenPass, SourceRead};
use super::{Encoder, Pass, PassInputs, PassQueries};
use crate::context::GpuContext;
use crate::error::Result;
use crate::gpu_util::{storage_buffer, storage_entry};
use crate::post::AntiAliasing;
use crate::targets::RenderTargets;

/// Mirror of `FxaaParams` in `fxaa.wgsl` (16 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct FxaaParams {
    /// `1 / (width, height)` of the targets, pixels⁻¹.
    pub texel: [f32; 2],
    /// 1 when the shader applies the sRGB OETF (non-sRGB output).
    pub encode_srgb: u32,
    /// Padding to 16 bytes.
    pub pad: u32,
}

/// The embedded `fxaa.wgsl` (after [`super::fullscreen::FULLSCREEN_WGSL`]).
pub const WGSL: &str = include_str!("fxaa.wgsl");

/// The FXAA pass: `ldr` target → final image.
pub struct FxaaPass {
    screen: ScreenPass,
    pipeline: wgpu::RenderPipeline,
    params: wgpu::Buffer,
    group: Option<wgpu::BindGroup>,
    encode_srgb: bool,
    /// Whether this frame runs it (`FrameData::post.aa`), set at `prepare`.
    enabled: bool,
}

impl FxaaPass {
    /// Creates the pass writing final images of `output_format`.
    ///
    /// # Errors
    /// [`crate::RenderError::Gpu`] when shader or pipeline creation fails.
    pub fn new(ctx: &GpuContext, output_format: wgpu::TextureFormat) -> Result<Self> {
        Self::with_source(ctx, output_format, WGSL)
    }

    /// [`FxaaPass::new`] compiling `wgsl` (an `fxaa.wgsl` read from `--shader-dir`) instead of
    /// the embedded [`WGSL`].
    ///
    /// # Errors
    /// As [`FxaaPass::new`]; a shader that does not compile.
    pub fn with_source(
        ctx: &GpuContext,
        output_format: wgpu::TextureFormat,
        wgsl: &str,
    ) -> Result<Self> {
        // Storage, not uniform: the shader branches on `encode_srgb` (see the forward pass's
        // module docs).
        let params_entry = |binding, stage| storage_entry(binding, stage, true);
        let (screen, pipeline) = ctx.scoped(
            || format!("creating the FXAA pass for {output_format:?}"),
            || {
                let screen = ScreenPass::new(ctx, "fxaa", wgsl, SourceRead::Bilinear, params_entry);
                let pipeline = screen.pipeline(ctx, "fs_fxaa", output_format, None);
                (screen, pipeline)
            },
        )?;
        Ok(Self {
            screen,
            pipeline,
            params: storage_buffer(&ctx.device, "fxaa params", &FxaaParams::default()),
            group: None,
            encode_srgb: !output_format.is_srgb(),
            enabled: false,
        })
    }
}

impl Pass for FxaaPass {
    fn name(&self) -> &'static str {
        "fxaa"
    }

    fn active(&self) -> bool {
        self.enabled && self.group.is_some()
    }

    fn resize(&mut self, ctx: &GpuContext, targets: &RenderTargets) -> Result<()> {
        let params = FxaaParams {
            texel: [1.0 / targets.width as f32, 1.0 / targets.height as f32],
            encode_srgb: u32::from(self.encode_srgb),
            pad: 0,
        };
        ctx.queue
            .write_buffer(&self.params, 0, bytemuck::bytes_of(&params));
        self.group = Some(
            self.screen
                .bind_group(ctx, &targets.ldr_view, &self.params)?,
        );
        Ok(())
    }

    fn prepare(&mut self, _ctx: &GpuContext, inputs: &PassInputs<'_>) -> Result<()> {
        self.enabled = inputs.frame.post.aa == AntiAliasing::Fxaa;
        Ok(())
    }

    fn record(&self, encoder: &mut Encoder, inputs: &PassInputs<'_>, queries: PassQueries<'_>) {
        let Some(group) = self.group.as_ref().filter(|_| self.enabled) else {
            return;
        };
        draw_fullscreen(
            encoder,
            "fxaa",
            inputs.output,
            wgpu::LoadOp::Clear(wgpu::Color::BLACK),
            queries,
            &self.pipeline,
            group,
        );
    }
}
