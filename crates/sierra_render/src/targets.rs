//! Render targets shared by the passes, and an off-screen output image.

use crate::context::GpuContext;
use crate::error::Result;

/// Format of the HDR scene target: linear RGB, values above 1 kept for bloom/tonemapping.
pub const HDR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;
/// Format of the depth buffer (0 = near plane, 1 = far plane, compare `Less`).
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
/// Format of the off-screen output image (8-bit sRGB, as PNGs store).
pub const OUTPUT_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// The intermediate targets of one frame, all `width` × `height` pixels.
///
/// Passes that need more (shadow maps, bloom chains) own their own textures;
/// targets that several passes share live here.
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
}

impl RenderTargets {
    /// Creates the targets (sizes checked against the device limits).
    ///
    /// # Errors
    /// [`crate::RenderError::InvalidInput`] for a zero side, [`crate::RenderError::LimitExceeded`], [`crate::RenderError::Gpu`].
    pub fn new(ctx: &GpuContext, width: u32, height: u32) -> Result<Self> {
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
        let hdr = ctx.create_texture(&texture_desc(
            "hdr target",
            width,
            height,
            HDR_FORMAT,
            usage,
        ))?;
        let depth = ctx.create_texture(&texture_desc(
            "depth target",
            width,
            height,
            DEPTH_FORMAT,
            usage,
        ))?;
        Ok(Self {
            width,
            height,
            hdr_view: hdr.create_view(&wgpu::TextureViewDescriptor::default()),
            hdr,
            depth_view: depth.create_view(&wgpu::TextureViewDescriptor::default()),
            depth,
        })
    }
}

/// An off-screen final image ([`OUTPUT_FORMAT`], `COPY_SRC` for read-back).
#[derive(Debug)]
pub struct OffscreenTarget {
    /// The texture.
    pub texture: wgpu::Texture,
    /// Its view, passed to [`crate::Renderer::render`].
    pub view: wgpu::TextureView,
}

impl OffscreenTarget {
    /// Creates a `width` × `height` output image.
    ///
    /// # Errors
    /// As [`RenderTargets::new`].
    pub fn new(ctx: &GpuContext, width: u32, height: u32) -> Result<Self> {
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
        let texture = ctx.create_texture(&texture_desc(
            "output image",
            width,
            height,
            OUTPUT_FORMAT,
            usage,
        ))?;
        Ok(Self {
            view: texture.create_view(&wgpu::TextureViewDescriptor::default()),
            texture,
        })
    }
}

fn texture_desc(
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
