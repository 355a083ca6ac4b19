//! Tonemapping: the linear HDR target → the display target (PNG frame or window surface).
//!
//! Operators ([`crate::Tonemapper`]): `None` (clamp to [0, 1]: render tests compare linear values),
//! ACES (Stephen Hill's fit of the ACES RRT + ODT, BakingLab `ACES.hlsl`) and AgX (Troy Sobotka's
//! AgX base look in Benjamin Wrensch's minimal polynomial form). The result is linear; an `*Srgb`
//! target encodes it on store, any other target gets the sRGB OETF in the shader, so both give
//! the same bytes. With FXAA on (`post.aa`), it writes linear colour and perceptual luma into
//! [`RenderTargets::ldr`] instead, and the FXAA pass ([`super::fxaa`]) writes the final image.

use super::fullscreen::{draw_fullscreen, ScreenPass, SourceRead};
use super::{Encoder, Pass, PassInputs, PassQueries};
use crate::context::GpuContext;
use crate::error::Result;
use crate::gpu_util::{storage_buffer, storage_entry};
use crate::post::{AntiAliasing, TonemapSettings};
use crate::targets::{RenderTargets, LDR_FORMAT};

/// Mirror of `TonemapParams` in `tonemap.wgsl` (16 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct TonemapParams {
    /// 0 none, 1 ACES, 2 AgX.
    pub tonemapper: u32,
    /// Linear exposure scale `2^EV`.
    pub exposure: f32,
    /// 1 when the shader applies the sRGB OETF (non-sRGB target).
    pub encode_srgb: u32,
    /// 1 when writing the FXAA input (linear colour, alpha = perceptual luma).
    pub luma_alpha: u32,
}

/// The embedded `tonemap.wgsl` (after [`super::fullscreen::FULLSCREEN_WGSL`]).
pub const WGSL: &str = include_str!("tonemap.wgsl");

/// The tonemap pass: reads the HDR target texel for texel, writes the final image.
pub struct TonemapPass {
    screen: ScreenPass,
    /// Writes the final image (the output format).
    pipeline: wgpu::RenderPipeline,
    /// Writes the FXAA input ([`LDR_FORMAT`]).
    ldr_pipeline: wgpu::RenderPipeline,
    params: wgpu::Buffer,
    group: Option<wgpu::BindGroup>,
    encode_srgb: bool,
    /// The frame's settings, copied at `prepare` (`FrameData::post.tonemap`).
    settings: TonemapSettings,
    /// Whether this frame writes the FXAA input (`FrameData::post.aa`), set at `prepare`.
    to_ldr: bool,
}

impl TonemapPass {
    /// Creates the pass writing final images of `output_format` (ACES by default).
    ///
    /// # Errors
    /// [`crate::RenderError::Gpu`] when shader or pipeline creation fails.
    pub fn new(ctx: &GpuContext, output_format: wgpu::TextureFormat) -> Result<Self> {
        Self::with_source(ctx, output_format, WGSL)
    }

    /// [`TonemapPass::new`] compiling `wgsl` (a `tonemap.wgsl` read from `--shader-dir`)
    /// instead of the embedded [`WGSL`].
    ///
    /// # Errors
    /// As [`TonemapPass::new`]; a shader that does not compile.
    pub fn with_source(
        ctx: &GpuContext,
        output_format: wgpu::TextureFormat,
        wgsl: &str,
    ) -> Result<Self> {
        let (screen, pipelines) = ctx.scoped(
            || format!("creating the tonemap pass for {output_format:?}"),
            || {
                // Storage, not uniform: the shader switches on the tonemapper (see the forward
                // pass's module docs).
                let params_entry = |binding, stage| storage_entry(binding, stage, true);
                let screen =
                    ScreenPass::new(ctx, "tonemap", wgsl, SourceRead::Texels, params_entry);
                let pipelines = [output_format, LDR_FORMAT]
                    .map(|format| screen.pipeline(ctx, "fs_tonemap", format, None));
                (screen, pipelines)
            },
        )?;
        let [pipeline, ldr_pipeline] = pipelines;
        let encode_srgb = !output_format.is_srgb();
        let settings = TonemapSettings::default();
        let params = Self::params(&settings, encode_srgb, false);
        Ok(Self {
            screen,
            pipeline,
            ldr_pipeline,
            params: storage_buffer(&ctx.device, "tonemap params", &params),
            group: None,
            encode_srgb,
            settings,
            to_ldr: false,
        })
    }

    fn params(settings: &TonemapSettings, encode_srgb: bool, to_ldr: bool) -> TonemapParams {
        TonemapParams {
            tonemapper: settings.tonemapper.code(),
            exposure: settings.exposure_ev.exp2(),
            // The FXAA input holds linear values; the FXAA pass encodes for the output.
            encode_srgb: u32::from(encode_srgb && !to_ldr),
            luma_alpha: u32::from(to_ldr),
        }
    }
}

impl Pass for TonemapPass {
    fn name(&self) -> &'static str {
        "tonemap"
    }

    fn active(&self) -> bool {
        self.group.is_some()
    }

    fn resize(&mut self, ctx: &GpuContext, targets: &RenderTargets) -> Result<()> {
        self.group = Some(
            self.screen
                .bind_group(ctx, &targets.hdr_view, &self.params)?,
        );
        Ok(())
    }

    fn prepare(&mut self, ctx: &GpuContext, inputs: &PassInputs<'_>) -> Result<()> {
        self.settings = inputs.frame.post.tonemap;
        self.to_ldr = inputs.frame.post.aa == AntiAliasing::Fxaa;
        let params = Self::params(&self.settings, self.encode_srgb, self.to_ldr);
        ctx.queue
            .write_buffer(&self.params, 0, bytemuck::bytes_of(&params));
        Ok(())
    }

    fn record(&self, encoder: &mut Encoder, inputs: &PassInputs<'_>, queries: PassQueries<'_>) {
        let Some(group) = &self.group else {
            return;
        };
        let (target, pipeline) = if self.to_ldr {
            (&inputs.targets.ldr_view, &self.ldr_pipeline)
        } else {
            (inputs.output, &self.pipeline)
        };
        draw_fullscreen(
            encoder,
            "tonemap",
            target,
            wgpu::LoadOp::Clear(wgpu::Color::BLACK),
            queries,
            pipeline,
            group,
        );
    }
}

/// CPU reference of the ACES curve in `tonemap.wgsl` (linear in, linear display out, [0, 1]).
pub fn aces_reference(color: [f32; 3]) -> [f32; 3] {
    let input = glam::Mat3::from_cols_array(&[
        0.59719, 0.07600, 0.02840, 0.35458, 0.90834, 0.13383, 0.04823, 0.01566, 0.83777,
    ]);
    let output = glam::Mat3::from_cols_array(&[
        1.60475, -0.10208, -0.00327, -0.53108, 1.10813, -0.07276, -0.07367, -0.00605, 1.07602,
    ]);
    let v = input * glam::Vec3::from(color);
    let a = v * (v + 0.0245786) - 0.000090537;
    let b = v * (0.983729 * v + 0.432951) + 0.238081;
    (output * (a / b))
        .clamp(glam::Vec3::ZERO, glam::Vec3::ONE)
        .to_array()
}
