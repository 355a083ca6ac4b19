//! Helpers shared by the post-processing tests: HDR targets the test can write and read,
//! binary16 conversion, an empty frame.
#![allow(dead_code)]

use glam::{Mat4, Vec3, Vec4};
use sierra_render::targets::{RenderTargets, DEPTH_FORMAT, HDR_FORMAT, LDR_FORMAT};
use sierra_render::{
    primitives, readback, Camera, DrawItem, FrameData, GpuContext, HeadlessRenderer, Material, Sun,
};

pub fn context() -> GpuContext {
    GpuContext::headless().unwrap_or_else(|e| panic!("{e}"))
}

/// A frame with no draws and the given camera.
pub fn frame(camera: Camera) -> FrameData {
    FrameData {
        camera,
        sun: Sun::default(),
        point_lights: Vec::new(),
        draws: Vec::new(),
        clear_color: Vec4::ZERO,
        skinned: Default::default(),
        crowds: Default::default(),
        sea: Default::default(),
        post: Default::default(),
    }
}

/// A frame of one unit cube drawn white (emissive 1, black albedo, no sun or ambient) at
/// `model` on black, seen from 3 m along +Z through a square 0.9 rad view: every pixel is the
/// cube's coverage of it, the scene the anti-aliasing tests measure edges on.
pub fn white_cube_frame(
    ctx: &GpuContext,
    headless: &mut HeadlessRenderer,
    model: Mat4,
) -> FrameData {
    let cube = headless
        .renderer
        .upload_mesh(ctx, &primitives::cube(1.0), "cube")
        .unwrap_or_else(|e| panic!("{e}"));
    let mut frame = frame(Camera::look_at(
        Vec3::new(0.0, 0.0, 3.0),
        Vec3::ZERO,
        Vec3::Y,
        0.9,
        1.0,
        0.1,
        10.0,
    ));
    frame.sun = Sun {
        direction: Vec3::ZERO,
        ambient: Vec3::ZERO,
        ..Sun::default()
    };
    frame.draws.push(DrawItem {
        mesh: cube,
        model,
        material: Material {
            base_color: Vec4::new(0.0, 0.0, 0.0, 1.0),
            specular_color: Vec3::ZERO,
            emissive: Vec3::ONE,
            ..Material::default()
        },
        surface: None,
    });
    frame
}

/// IEEE 754 binary16 → f32 (normal, subnormal and zero values; no NaN inputs in these tests).
pub fn f16_to_f32(bits: u16) -> f32 {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exponent = i32::from((bits >> 10) & 0x1f);
    let mantissa = f32::from(bits & 0x3ff);
    match exponent {
        0 => sign * mantissa * 2f32.powi(-24),
        31 => sign * f32::INFINITY,
        e => sign * (1.0 + mantissa / 1024.0) * 2f32.powi(e - 15),
    }
}

/// f32 → binary16 for the normal-range test values used here (truncating the mantissa).
pub fn f32_to_f16(value: f32) -> u16 {
    if value == 0.0 {
        return 0;
    }
    let bits = value.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exponent = ((bits >> 23) & 0xff) as i32 - 127 + 15;
    assert!(
        (1..31).contains(&exponent),
        "{value} is outside binary16's normal range"
    );
    sign | ((exponent as u16) << 10) | ((bits >> 13) & 0x3ff) as u16
}

/// Targets whose HDR texture can also be written and read by the test.
pub fn targets(ctx: &GpuContext, size: u32) -> RenderTargets {
    let texture = |label, format, usage| {
        ctx.device.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d {
                width: size,
                height: size,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage,
            view_formats: &[],
        })
    };
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT
        | wgpu::TextureUsages::TEXTURE_BINDING
        | wgpu::TextureUsages::COPY_DST
        | wgpu::TextureUsages::COPY_SRC;
    let hdr = texture("test hdr", HDR_FORMAT, usage);
    let depth = texture(
        "test depth",
        DEPTH_FORMAT,
        wgpu::TextureUsages::RENDER_ATTACHMENT,
    );
    let ldr = texture("test ldr", LDR_FORMAT, usage);
    RenderTargets {
        width: size,
        height: size,
        ldr_view: ldr.create_view(&Default::default()),
        ldr,
        hdr_view: hdr.create_view(&Default::default()),
        hdr,
        depth_view: depth.create_view(&Default::default()),
        depth,
        sample_count: 1,
        msaa_hdr_view: None,
    }
}

pub fn write_hdr(ctx: &GpuContext, targets: &RenderTargets, pixels: &[(u32, u32, Vec3)]) {
    let size = targets.width;
    let mut data = vec![0u16; (size * size * 4) as usize];
    for &(x, y, color) in pixels {
        let i = ((y * size + x) * 4) as usize;
        for c in 0..3 {
            data[i + c] = f32_to_f16(color[c]);
        }
    }
    ctx.queue.write_texture(
        targets.hdr.as_image_copy(),
        bytemuck::cast_slice(&data),
        wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(size * 8),
            rows_per_image: Some(size),
        },
        wgpu::Extent3d {
            width: size,
            height: size,
            depth_or_array_layers: 1,
        },
    );
}

/// Reads an `Rgba16Float` texture as `[height][width]` RGB values, row-major.
pub fn read_rgb(ctx: &GpuContext, texture: &wgpu::Texture) -> Vec<Vec3> {
    let bytes = readback::read_texture(ctx, texture).unwrap_or_else(|e| panic!("{e}"));
    bytes
        .chunks_exact(8)
        .map(|texel| {
            let channel =
                |c: usize| f16_to_f32(u16::from_le_bytes([texel[2 * c], texel[2 * c + 1]]));
            Vec3::new(channel(0), channel(1), channel(2))
        })
        .collect()
}

/// Mean and variance of the red channel over columns `x0..x1`, leaving an 8-pixel margin at
/// the top and bottom of `image` (8-bit values).
pub fn red_stats(image: &image::RgbaImage, x0: u32, x1: u32) -> (f64, f64) {
    let h = image.height();
    let values: Vec<f64> = (8..h.saturating_sub(8))
        .flat_map(|y| (x0..x1).map(move |x| (x, y)))
        .map(|(x, y)| f64::from(image.get_pixel(x, y).0[0]))
        .collect();
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / values.len() as f64;
    (mean, variance)
}
