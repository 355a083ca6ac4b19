//! Sampled 2D textures: RGBA8 images uploaded with a full mip chain, sRGB or linear.
//!
//! Colour textures (base colour, emissive) are `Rgba8UnormSrgb`, so the sampler returns linear
//! values (glTF 2.0 §3.9.2: those textures are sRGB-encoded); data textures (normal,
//! metallic-roughness, occlusion) are `Rgba8Unorm`. Mips are box-filtered on the CPU — in linear
//! space for sRGB images, so dark texels do not darken the average.

use crate::context::GpuContext;
use crate::error::{RenderError, Result};

/// How the bytes of an image encode their values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorSpace {
    /// sRGB-encoded colour (base colour, emissive); decoded to linear when sampled.
    Srgb,
    /// Linear data (normals, metallic-roughness, occlusion).
    Linear,
}

/// A texture and its view, ready to bind.
#[derive(Clone, Debug)]
pub struct Texture2d {
    /// The texture (`TEXTURE_BINDING`, all mips filled).
    pub texture: wgpu::Texture,
    /// View of every mip.
    pub view: wgpu::TextureView,
}

impl Texture2d {
    /// Uploads `width × height` RGBA8 pixels (`[height][width][4]` bytes, top row first) with
    /// `⌊log2(max side)⌋ + 1` mips.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] when `rgba8` has the wrong length or a side is zero,
    /// [`RenderError::LimitExceeded`] above the device's texture size, [`RenderError::Gpu`].
    pub fn from_rgba8(
        ctx: &GpuContext,
        label: &str,
        width: u32,
        height: u32,
        rgba8: &[u8],
        color_space: ColorSpace,
    ) -> Result<Self> {
        let expected = width as usize * height as usize * 4;
        if rgba8.len() != expected {
            return Err(RenderError::InvalidInput(format!(
                "texture `{label}`: {} bytes for {width}x{height} RGBA8 (expected {expected})",
                rgba8.len()
            )));
        }
        let mips = mip_chain(width, height, rgba8, color_space);
        let format = match color_space {
            ColorSpace::Srgb => wgpu::TextureFormat::Rgba8UnormSrgb,
            ColorSpace::Linear => wgpu::TextureFormat::Rgba8Unorm,
        };
        let texture = ctx.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count: mips.len() as u32,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        })?;
        write_mips(ctx, &texture, 0, &mips);
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        Ok(Self { texture, view })
    }

    /// Uploads `layers.len()` square layers of `size × size` RGBA8 pixels (each
    /// `[size][size][4]` bytes, top row first) as one 2D texture array with
    /// `⌊log2 size⌋ + 1` mips per layer; its view is a `D2Array` view of every layer and mip.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] for no layers, a zero size or a layer of the wrong length,
    /// [`RenderError::LimitExceeded`] above the device's limits, [`RenderError::Gpu`].
    pub fn array_from_rgba8(
        ctx: &GpuContext,
        label: &str,
        size: u32,
        layers: &[Vec<u8>],
        color_space: ColorSpace,
    ) -> Result<Self> {
        let expected = size as usize * size as usize * 4;
        if layers.is_empty() || size == 0 {
            return Err(RenderError::InvalidInput(format!(
                "texture array `{label}`: {} layers of {size}x{size} (need at least one, size > 0)",
                layers.len()
            )));
        }
        if let Some((k, l)) = layers.iter().enumerate().find(|(_, l)| l.len() != expected) {
            return Err(RenderError::InvalidInput(format!(
                "texture array `{label}`: layer {k} has {} bytes for {size}x{size} RGBA8 (expected {expected})",
                l.len()
            )));
        }
        let format = match color_space {
            ColorSpace::Srgb => wgpu::TextureFormat::Rgba8UnormSrgb,
            ColorSpace::Linear => wgpu::TextureFormat::Rgba8Unorm,
        };
        let chains: Vec<_> = layers
            .iter()
            .map(|l| mip_chain(size, size, l, color_space))
            .collect();
        let texture = ctx.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d {
                width: size,
                height: size,
                depth_or_array_layers: layers.len() as u32,
            },
            mip_level_count: chains[0].len() as u32,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        })?;
        for (layer, chain) in chains.iter().enumerate() {
            write_mips(ctx, &texture, layer as u32, chain);
        }
        let view = texture.create_view(&wgpu::TextureViewDescriptor {
            dimension: Some(wgpu::TextureViewDimension::D2Array),
            ..Default::default()
        });
        Ok(Self { texture, view })
    }

    /// A 1×1 texture of one RGBA8 value (material defaults: white, flat normal).
    ///
    /// # Errors
    /// As [`Texture2d::from_rgba8`].
    pub fn solid(
        ctx: &GpuContext,
        label: &str,
        rgba8: [u8; 4],
        color_space: ColorSpace,
    ) -> Result<Self> {
        Self::from_rgba8(ctx, label, 1, 1, &rgba8, color_space)
    }
}

/// Writes `mips` (`[(width, height, RGBA8 bytes)]`, level 0 first, as [`mip_chain`] makes
/// them) into array layer `layer` of `texture`, one mip level each.
fn write_mips(ctx: &GpuContext, texture: &wgpu::Texture, layer: u32, mips: &[(u32, u32, Vec<u8>)]) {
    for (level, (w, h, data)) in mips.iter().enumerate() {
        ctx.queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture,
                mip_level: level as u32,
                origin: wgpu::Origin3d {
                    x: 0,
                    y: 0,
                    z: layer,
                },
                aspect: wgpu::TextureAspect::All,
            },
            data,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(w * 4),
                rows_per_image: Some(*h),
            },
            wgpu::Extent3d {
                width: *w,
                height: *h,
                depth_or_array_layers: 1,
            },
        );
    }
}

/// Mip levels `(width, height, rgba8)` from level 0 down to 1×1, each texel the average of its
/// (up to) 2×2 parents; sRGB colour channels are averaged as linear values, alpha always linear.
pub fn mip_chain(
    width: u32,
    height: u32,
    rgba8: &[u8],
    color_space: ColorSpace,
) -> Vec<(u32, u32, Vec<u8>)> {
    let mut levels = vec![(width, height, rgba8.to_vec())];
    let to_linear: Vec<f32> = (0..=255u8)
        .map(|b| match color_space {
            ColorSpace::Srgb => srgb_to_linear(f32::from(b) / 255.0),
            ColorSpace::Linear => f32::from(b) / 255.0,
        })
        .collect();
    let encode = |v: f32| -> u8 {
        let e = match color_space {
            ColorSpace::Srgb => linear_to_srgb(v),
            ColorSpace::Linear => v,
        };
        (e.clamp(0.0, 1.0) * 255.0).round() as u8
    };
    while let Some((w, h, data)) = levels.last().filter(|(w, h, _)| *w > 1 || *h > 1) {
        let (nw, nh) = ((w / 2).max(1), (h / 2).max(1));
        let mut next = vec![0u8; (nw * nh * 4) as usize];
        for y in 0..nh {
            for x in 0..nw {
                let mut sum = [0.0f32; 4];
                let xs = [(2 * x).min(w - 1), (2 * x + 1).min(w - 1)];
                let ys = [(2 * y).min(h - 1), (2 * y + 1).min(h - 1)];
                for sy in ys {
                    for sx in xs {
                        let i = ((sy * w + sx) * 4) as usize;
                        for c in 0..3 {
                            sum[c] += to_linear[data[i + c] as usize];
                        }
                        sum[3] += f32::from(data[i + 3]) / 255.0;
                    }
                }
                let o = ((y * nw + x) * 4) as usize;
                for c in 0..3 {
                    next[o + c] = encode(sum[c] / 4.0);
                }
                next[o + 3] = (sum[3] / 4.0 * 255.0).round() as u8;
            }
        }
        levels.push((nw, nh, next));
    }
    levels
}

/// IEC 61966-2-1 sRGB decoding of one channel in [0, 1].
pub fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// IEC 61966-2-1 sRGB encoding of one channel in [0, 1].
pub fn linear_to_srgb(c: f32) -> f32 {
    if c <= 0.0031308 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mip_chain_halves_down_to_one_texel() {
        let data = vec![255u8; 8 * 3 * 4];
        let mips = mip_chain(8, 3, &data, ColorSpace::Linear);
        let sizes: Vec<_> = mips.iter().map(|(w, h, d)| (*w, *h, d.len())).collect();
        assert_eq!(sizes, vec![(8, 3, 96), (4, 1, 16), (2, 1, 8), (1, 1, 4)]);
    }

    #[test]
    fn srgb_mips_average_in_linear_space() {
        // Black and white texels: the linear mean 0.5 encodes to sRGB 188, not 128.
        let data = [0, 0, 0, 255, 255, 255, 255, 255];
        let mips = mip_chain(2, 1, &data, ColorSpace::Srgb);
        assert_eq!(mips[1].2, vec![188, 188, 188, 255]);
        let linear = mip_chain(2, 1, &data, ColorSpace::Linear);
        assert_eq!(linear[1].2, vec![128, 128, 128, 255]);
    }
}
