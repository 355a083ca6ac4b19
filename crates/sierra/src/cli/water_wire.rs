//! `sierra water --wireframe`: the water surface drawn as the thesis draws it (seed 002,
//! Annex E.3 and figure 50): the grid's triangles in wireframe, back faces culled, seen from the
//! thesis's camera (eye `(-10, 30, 3)`, looking at `(30, 2, 30)`, 45° vertical field of view,
//! 800x600, left-handed, Y up, column along +X, row along +Z, one unit per cell).
//!
//! Rasterised on the CPU (lines into an RGB image), so it runs without a GPU. Heights are drawn
//! as the thesis stores them: the surface minus the rest level, `level`.

use std::path::Path;

use anyhow::Result;
use glam::camera::rh::{proj::directx, view};
use glam::{Mat4, Vec2, Vec3, Vec4Swizzles};

/// Image size, pixels (the thesis's window).
pub const SIZE: (u32, u32) = (800, 600);
/// Line colour (the thesis's pixel shader: `float4(0, 0, 1, 1)`).
const BLUE: image::Rgb<u8> = image::Rgb([0, 0, 255]);

/// The thesis's view-projection (far plane 400 rather than its 100, so the whole 256² grid
/// shows), taking the thesis's left-handed world points. A left-handed camera sees the same
/// image as a right-handed one in the world mirrored along Z, which is what this builds.
fn view_projection() -> Mat4 {
    let mirror = Mat4::from_scale(Vec3::new(1.0, 1.0, -1.0));
    let view = view::look_at_mat4(
        Vec3::new(-10.0, 30.0, -3.0),
        Vec3::new(30.0, 2.0, -30.0),
        Vec3::Y,
    );
    let aspect = SIZE.0 as f32 / SIZE.1 as f32;
    directx::perspective(std::f32::consts::FRAC_PI_4, aspect, 0.01, 400.0) * view * mirror
}

/// Pixel position of a world point, or `None` behind the camera or past the far plane.
fn project(vp: &Mat4, p: Vec3) -> Option<Vec2> {
    let c = *vp * p.extend(1.0);
    if c.w <= 0.01 || c.z > c.w {
        return None;
    }
    let ndc = c.xy() / c.w;
    Some(Vec2::new(
        (ndc.x * 0.5 + 0.5) * SIZE.0 as f32,
        (0.5 - ndc.y * 0.5) * SIZE.1 as f32,
    ))
}

/// Twice the signed area of a screen triangle.
fn signed_area(a: Vec2, b: Vec2, c: Vec2) -> f32 {
    (b - a).perp_dot(c - a)
}

fn draw_line(img: &mut image::RgbImage, a: Vec2, b: Vec2) {
    let steps = (b - a).abs().max_element().ceil().min(4096.0) as u32;
    for s in 0..=steps {
        let p = a.lerp(b, s as f32 / steps.max(1) as f32);
        if p.x >= 0.0 && p.y >= 0.0 && (p.x as u32) < SIZE.0 && (p.y as u32) < SIZE.1 {
            img.put_pixel(p.x as u32, p.y as u32, BLUE);
        }
    }
}

/// Draws the `cols x rows` surface `height - level` (row-major) as the thesis's wireframe.
/// Triangles as the thesis's index buffer: `(i, i + cols, i + 1)` and
/// `(i + 1, i + cols, i + cols + 1)`; a triangle is culled when it faces away, i.e. its screen
/// winding differs from the same triangle lying flat (the camera is above the water).
pub fn render(cols: usize, rows: usize, height: &[f32], level: f32) -> image::RgbImage {
    let vp = view_projection();
    let mut img = image::RgbImage::from_pixel(SIZE.0, SIZE.1, image::Rgb([255, 255, 255]));
    let at = |x: usize, y: usize, h: f32| project(&vp, Vec3::new(x as f32, h, y as f32));
    for y in 0..rows.saturating_sub(1) {
        for x in 0..cols.saturating_sub(1) {
            let corner = |dx: usize, dy: usize| (x + dx, y + dy);
            for tri in [
                [corner(0, 0), corner(0, 1), corner(1, 0)],
                [corner(1, 0), corner(0, 1), corner(1, 1)],
            ] {
                let lifted = tri.map(|(cx, cy)| at(cx, cy, height[cy * cols + cx] - level));
                let flat = tri.map(|(cx, cy)| at(cx, cy, 0.0));
                let (Some(p), Some(f)) = (collect3(lifted), collect3(flat)) else {
                    continue;
                };
                let front = signed_area(p[0], p[1], p[2]) * signed_area(f[0], f[1], f[2]) > 0.0;
                if front {
                    draw_line(&mut img, p[0], p[1]);
                    draw_line(&mut img, p[1], p[2]);
                    draw_line(&mut img, p[2], p[0]);
                }
            }
        }
    }
    img
}

fn collect3(p: [Option<Vec2>; 3]) -> Option<[Vec2; 3]> {
    Some([p[0]?, p[1]?, p[2]?])
}

/// [`render`] written to `path` as PNG.
///
/// # Errors
/// An unwritable file.
pub fn write(path: &Path, cols: usize, rows: usize, height: &[f32], level: f32) -> Result<()> {
    crate::output::write_image(&render(cols, rows, height, level), path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A flat pool fills the lower part of the view with lines and leaves the sky white; a
    /// tall bump in front of the camera draws lines above the flat horizon.
    #[test]
    fn the_wireframe_shows_the_surface_from_the_thesis_camera() {
        let n = 64;
        let flat = render(n, n, &vec![10.0; n * n], 10.0);
        let blue = |img: &image::RgbImage, y0: u32, y1: u32| {
            (y0..y1)
                .flat_map(|y| (0..SIZE.0).map(move |x| (x, y)))
                .filter(|&(x, y)| img.get_pixel(x, y) == &BLUE)
                .count()
        };
        assert!(blue(&flat, 400, 600) > 10_000, "the pool is drawn");
        let sky = blue(&flat, 0, 60);
        let mut bump = vec![10.0; n * n];
        for y in 20..40 {
            for x in 20..40 {
                bump[y * n + x] = 40.0;
            }
        }
        let raised = render(n, n, &bump, 10.0);
        assert!(
            blue(&raised, 0, 60) > sky,
            "a 30 m block rises into the sky"
        );
    }
}
