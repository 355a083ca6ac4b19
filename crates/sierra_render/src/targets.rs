//! Render targets shared by the passes, and an off-screen output image.

use crate::context::GpuContext;
use crate::error::Result;
use crate::gpu_util::{colour_attachment, depth_attachment, render_pass};
use crate::pipeline_statistics::{PassQueries, QueriedRenderPass};

/// Format of the HDR scene target: linear RGB, values above 1 kept for bloom/tonemapping.
pub const HDR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;
/// Format of the tonemapped image before FXAA: 16-bit float keeps linear display values free of
/// banding in the darks, and it is filterable (FXAA samples between texels).
pub const LDR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;
/// Format of the depth buffer (0 = near plane, 1 = far plane, compare `Less`).
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
/// Format of the off-screen output image (8-bit sRGB, as PNGs store).
pub const OUTPUT_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// The intermediate targets of one frame, all `width` × `height` pixels.
///
/// Passes that need more (shadow maps, bloom chains) own their own textures;
/// targets that several passes share live here.
///
/// With multisampling (`sample_count` > 1) the scene passes (forward, crowd, sky, sea) draw into
/// `msaa_hdr_view` and `depth` (both `sample_count` samples per pixel, pipelines built with the
/// same count) through [`RenderTargets::scene_color_attachment`], keeping the samples from one
/// pass to the next; [`RenderTargets::resolve_msaa`] resolves them into the single-sample `hdr`
/// once per frame, after the last scene pass ([`crate::passes::resolve`]); the post passes
/// (bloom, tonemap) only see `hdr`.
#[derive(Debug)]
pub struct RenderTargets {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// HDR scene colour ([`HDR_FORMAT`]; render attachment + texture binding).
    pub hdr: wgpu::Texture,
    /// View of `hdr`.
    pub hdr_view: wgpu::TextureView,
    /// Scene depth ([`DEPTH_FORMAT`]; render attachment + texture binding).
    pub depth: wgpu::Texture,
    /// View of `depth`.
    pub depth_view: wgpu::TextureView,
    /// Samples per pixel of the scene passes' attachments (1, or 4 for 4× MSAA).
    pub sample_count: u32,
    /// Multisampled HDR colour ([`HDR_FORMAT`], `sample_count` samples) when `sample_count` > 1.
    pub msaa_hdr_view: Option<wgpu::TextureView>,
    /// The tonemapped image before post-process anti-aliasing ([`LDR_FORMAT`]: rgb linear
    /// display-referred in [0, 1], a = perceptual luma of the sRGB-encoded colour); written by
    /// the tonemap pass and read by the FXAA pass when the frame's `post.aa` is FXAA.
    pub ldr: wgpu::Texture,
    /// View of `ldr`.
    pub ldr_view: wgpu::TextureView,
}

impl RenderTargets {
    /// Creates single-sample targets (sizes checked against the device limits).
    ///
    /// # Errors
    /// [`crate::RenderError::InvalidInput`] for a zero side, [`crate::RenderError::LimitExceeded`], [`crate::RenderError::Gpu`].
    pub fn new(ctx: &GpuContext, width: u32, height: u32) -> Result<Self> {
        Self::with_samples(ctx, width, height, 1)
    }

    /// Creates the targets with `sample_count` samples per pixel for the scene passes.
    ///
    /// # Errors
    /// As [`RenderTargets::new`]; [`crate::RenderError::Unsupported`] when the adapter cannot
    /// multisample [`HDR_FORMAT`] or [`DEPTH_FORMAT`] at `sample_count` (see
    /// [`supports_sample_count`]).
    pub fn with_samples(
        ctx: &GpuContext,
        width: u32,
        height: u32,
        sample_count: u32,
    ) -> Result<Self> {
        if !supports_sample_count(ctx, sample_count) {
            return Err(crate::RenderError::Unsupported(format!(
                "{sample_count} samples per pixel for {HDR_FORMAT:?} colour and {DEPTH_FORMAT:?} depth"
            )));
        }
        let target = |label, format, usage, sample_count| {
            ctx.create_texture(&wgpu::TextureDescriptor {
                sample_count,
                ..texture_desc(label, width, height, format, usage)
            })
        };
        let attachment = wgpu::TextureUsages::RENDER_ATTACHMENT;
        let usage = attachment | wgpu::TextureUsages::TEXTURE_BINDING;
        // Copied from too: tests measure the HDR image before bloom and tonemapping.
        let hdr_usage = usage | wgpu::TextureUsages::COPY_SRC;
        let hdr = target("hdr target", HDR_FORMAT, hdr_usage, 1)?;
        // Multisampled attachments are only drawn into and resolved, never sampled.
        let (depth_usage, msaa_hdr_view) = if sample_count > 1 {
            let label = "hdr target (multisampled)";
            let msaa = target(label, HDR_FORMAT, attachment, sample_count)?;
            let view = msaa.create_view(&wgpu::TextureViewDescriptor::default());
            (attachment, Some(view))
        } else {
            (usage, None)
        };
        let depth = target("depth target", DEPTH_FORMAT, depth_usage, sample_count)?;
        let ldr = target("ldr target", LDR_FORMAT, usage, 1)?;
        Ok(Self {
            width,
            height,
            ldr_view: ldr.create_view(&wgpu::TextureViewDescriptor::default()),
            ldr,
            hdr_view: hdr.create_view(&wgpu::TextureViewDescriptor::default()),
            hdr,
            depth_view: depth.create_view(&wgpu::TextureViewDescriptor::default()),
            depth,
            sample_count,
            msaa_hdr_view,
        })
    }

    /// Guards that hand these targets' bytes back to [`GpuContext::gpu_memory`] when dropped
    /// (keep them beside the targets; a resize replaces both).
    pub fn memory_releases(&self, ctx: &GpuContext) -> Vec<crate::memory::MemoryRelease> {
        let mut releases: Vec<_> = [&self.hdr, &self.depth, &self.ldr]
            .map(|t| ctx.release_on_drop(t))
            .into();
        if self.msaa_hdr_view.is_some() {
            let msaa =
                crate::memory::texture_bytes(self.hdr.size(), HDR_FORMAT, 1, self.sample_count);
            releases.push(ctx.release_bytes_on_drop(crate::MemoryClass::RenderTargets, msaa));
        }
        releases
    }

    /// Begins a scene pass (forward, crowd, sky, sea) labelled `label`: colour into
    /// [`RenderTargets::scene_color_attachment`] loaded with `colour`, depth loaded with `depth`,
    /// both stored; `queries` time and count it.
    pub fn begin_scene_pass<'e>(
        &self,
        encoder: &'e mut wgpu::CommandEncoder,
        label: &str,
        colour: wgpu::LoadOp<wgpu::Color>,
        depth: wgpu::LoadOp<f32>,
        queries: PassQueries<'_>,
    ) -> QueriedRenderPass<'e> {
        let colour = self.scene_color_attachment(colour);
        let depth = depth_attachment(&self.depth_view, depth);
        render_pass(encoder, label, Some(colour), Some(depth), queries)
    }

    /// Resolves the multisampled HDR target into `hdr` (an empty render pass whose only work is
    /// the resolve); records nothing without multisampling. Returns whether it recorded.
    pub fn resolve_msaa(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        queries: PassQueries<'_>,
    ) -> bool {
        let Some(msaa) = &self.msaa_hdr_view else {
            return false;
        };
        let attachment = colour_attachment(msaa, Some(&self.hdr_view), wgpu::LoadOp::Load);
        render_pass(encoder, "msaa resolve", Some(attachment), None, queries);
        true
    }

    /// The colour attachment a scene pass (forward, crowd, sky, sea) draws into: the
    /// multisampled HDR target when multisampling (resolved once, by
    /// [`RenderTargets::resolve_msaa`]), else `hdr` itself. The samples are stored so the next
    /// scene pass can `Load` them.
    pub fn scene_color_attachment(
        &self,
        load: wgpu::LoadOp<wgpu::Color>,
    ) -> wgpu::RenderPassColorAttachment<'_> {
        let view = self.msaa_hdr_view.as_ref().unwrap_or(&self.hdr_view);
        colour_attachment(view, None, load)
    }
}

/// Whether the adapter can render [`HDR_FORMAT`] colour and [`DEPTH_FORMAT`] depth with
/// `sample_count` samples per pixel (1 always; 4 on every WebGPU-conformant adapter).
pub fn supports_sample_count(ctx: &GpuContext, sample_count: u32) -> bool {
    sample_count == 1
        || [HDR_FORMAT, DEPTH_FORMAT].iter().all(|&format| {
            ctx.adapter
                .get_texture_format_features(format)
                .flags
                .sample_count_supported(sample_count)
        })
}

/// An off-screen final image ([`OUTPUT_FORMAT`], `COPY_SRC` for read-back).
#[derive(Debug)]
pub struct OffscreenTarget {
    /// The texture.
    pub texture: wgpu::Texture,
    /// Its view, passed to [`crate::Renderer::render`].
    pub view: wgpu::TextureView,
    /// Hands the image's bytes back to [`GpuContext::gpu_memory`] when dropped.
    _memory: crate::memory::MemoryRelease,
}

impl OffscreenTarget {
    /// Creates a `width` × `height` output image.
    ///
    /// # Errors
    /// As [`RenderTargets::new`].
    pub fn new(ctx: &GpuContext, width: u32, height: u32) -> Result<Self> {
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
        let desc = texture_desc("output image", width, height, OUTPUT_FORMAT, usage);
        let texture = ctx.create_texture(&desc)?;
        Ok(Self {
            view: texture.create_view(&wgpu::TextureViewDescriptor::default()),
            _memory: ctx.release_on_drop(&texture),
            texture,
        })
    }
}

/// The descriptor of a single-sample, single-mip 2D texture of `width` × `height` pixels.
pub fn texture_desc(
    label: &str,
    width: u32,
    height: u32,
    format: wgpu::TextureFormat,
    usage: wgpu::TextureUsages,
) -> wgpu::TextureDescriptor<'_> {
    wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage,
        view_formats: &[],
    }
}
