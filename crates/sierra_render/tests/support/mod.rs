//! Helpers shared by the post-processing tests: HDR targets the test can write and read,
//! binary16 conversion, an empty frame.
#![allow(dead_code)]

use glam::{Mat4, Vec3, Vec4};
use sierra_render::targets::{RenderTargets, DEPTH_FORMAT, HDR_FORMAT, LDR_FORMAT};
use sierra_render::{
    primitives, readback, Camera, DrawItem, FrameData, GpuContext, HeadlessRenderer, Material,
    MeshData, MeshHandle, Sun,
};

pub fn context() -> GpuContext {
    GpuContext::headless().unwrap_or_else(|e| panic!("{e}"))
}

/// A headless renderer of `width`×`height` pixels with `mesh` uploaded under `label`; the
/// renderer and the mesh's handle.
pub fn renderer_with_mesh(
    ctx: &GpuContext,
    (width, height): (u32, u32),
    mesh: &MeshData,
    label: &str,
) -> (HeadlessRenderer, MeshHandle) {
    let mut headless = HeadlessRenderer::new(ctx, width, height).unwrap_or_else(|e| panic!("{e}"));
    let handle = headless
        .renderer
        .upload_mesh(ctx, mesh, label)
        .unwrap_or_else(|e| panic!("{e}"));
    (headless, handle)
}

/// A square (1:1) camera at `eye` looking at the origin with `up`, a vertical field of view of
/// `fov_y` radians, the near plane at 0.1 m and the far plane at `far` m.
pub fn square_camera(eye: Vec3, up: Vec3, fov_y: f32, far: f32) -> Camera {
    Camera::look_at(eye, Vec3::ZERO, up, fov_y, 1.0, 0.1, far)
}

/// The axis-aligned box (min, max corners) of `points`; (`Vec3::MAX`, `Vec3::MIN`) for none.
pub fn bounding_box(points: impl IntoIterator<Item = Vec3>) -> (Vec3, Vec3) {
    points
        .into_iter()
        .fold((Vec3::MAX, Vec3::MIN), |(a, b), p| (a.min(p), b.max(p)))
}

/// A square camera framing the box `lo`..`hi`: at `distance` box radii (half diagonals) from
/// its centre along `direction` (normalised here), looking at the centre with +Y up through
/// a vertical field of view of `fov_y` radians, its near and far planes at 0.05 and 10 radii.
pub fn framing_camera(
    (lo, hi): (Vec3, Vec3),
    direction: Vec3,
    distance: f32,
    fov_y: f32,
) -> Camera {
    let centre = (lo + hi) * 0.5;
    let radius = (hi - lo).length() * 0.5;
    Camera::look_at(
        centre + direction.normalize() * radius * distance,
        centre,
        Vec3::Y,
        fov_y,
        1.0,
        radius * 0.05,
        radius * 10.0,
    )
}

/// A frame with no draws and the given camera.
pub fn frame(camera: Camera) -> FrameData {
    FrameData {
        clear_color: Vec4::ZERO,
        ..FrameData::new(camera)
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
    let mut frame = frame(square_camera(Vec3::new(0.0, 0.0, 3.0), Vec3::Y, 0.9, 10.0));
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

/// The relief scene of the bump tests: `bumpy` at x = −`offset` and `flat` at x = +`offset`
/// (white, no specular), seen from `eye_height` m straight above (image right is +X) through a
/// 0.8 rad view of `aspect` (width / height), under a white sun of intensity 2 shining along
/// `sun_direction` with no ambient light. Renders it and returns the image.
pub fn render_bumpy_beside_flat(
    ctx: &GpuContext,
    headless: &mut HeadlessRenderer,
    (bumpy, flat): (MeshHandle, MeshHandle),
    offset: f32,
    eye_height: f32,
    aspect: f32,
    sun_direction: Vec3,
) -> image::RgbaImage {
    let mut frame = frame(Camera::look_at(
        Vec3::new(0.0, eye_height, 0.001),
        Vec3::ZERO,
        Vec3::Y,
        0.8,
        aspect,
        0.1,
        30.0,
    ));
    frame.sun = Sun {
        direction: sun_direction,
        color: Vec3::ONE,
        intensity: 2.0,
        ambient: Vec3::ZERO,
    };
    let material = Material {
        base_color: Vec4::ONE,
        specular_color: Vec3::ZERO,
        ..Material::default()
    };
    for (mesh, x) in [(bumpy, -offset), (flat, offset)] {
        frame.draws.push(DrawItem {
            mesh,
            model: Mat4::from_translation(Vec3::new(x, 0.0, 0.0)),
            material,
            surface: None,
        });
    }
    headless
        .render(ctx, &frame)
        .unwrap_or_else(|e| panic!("{e}"))
        .0
}
