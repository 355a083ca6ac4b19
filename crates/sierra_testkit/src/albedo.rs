//! Independent expectations for unlit-albedo renders (`DebugView::UnlitAlbedo`): which texels of
//! a base-colour texture a mesh shows the camera, computed on the CPU with no renderer code.
//!
//! [`front_texel_mean`] projects the posed triangles, keeps the front-facing ones
//! (counter-clockwise on screen, glTF's front face), finds which of them each pixel shows with a
//! CPU depth buffer, rasterises each in UV space over the texture (texel centres inside the
//! triangle; a triangle too small to cover a centre takes the texel under its centroid) and
//! averages the triangles' texel means weighted by the pixels they keep. [`silhouette_mean`] averages
//! the rendered pixels that differ from the clear colour. Both are sRGB 8-bit means per channel
//! (0-255), as the image files hold them.

use crate::srgb::{linear_to_srgb, srgb_to_linear};

/// An RGBA8 image, rows top to bottom (glTF UV `(0, 0)` is the top-left corner of texel
/// `(0, 0)`, §3.8.4).
#[derive(Clone, Copy, Debug)]
pub struct Rgba8<'a> {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `[height][width][4]` bytes.
    pub pixels: &'a [u8],
}

/// Mean sRGB colour `[r, g, b]` (0-255) of the texels of `texture` covered by the front-facing
/// triangles `indices` (triples) of a mesh whose vertices have clip-space positions `clip`
/// (`view_proj · world position`) and texture coordinates `uvs` (wrapped, as `Repeat`), as a
/// `width × height` image would show them.
///
/// The front-facing triangles are rasterised on the CPU into a `width × height` depth buffer
/// (pixel centres, nearest depth wins), so each visible triangle is weighted by the pixels it
/// keeps; each contributes the mean of the texels it covers in UV space (averaged in linear
/// space as the GPU filters sRGB textures, then encoded; `texture` is sRGB). Triangles with a
/// vertex behind the eye are left out. `None` when no pixel is covered.
pub fn front_texel_mean(
    texture: Rgba8<'_>,
    clip: &[[f32; 4]],
    uvs: &[[f32; 2]],
    indices: &[u32],
    (width, height): (u32, u32),
) -> Option<[f32; 3]> {
    let (w, h) = (texture.width as usize, texture.height as usize);
    let visible = visible_pixels(clip, indices, width, height);
    let mut sum = [0f64; 3];
    let mut total = 0f64;
    let mut texels = Vec::new();
    for (t, &pixels) in visible.iter().enumerate().filter(|(_, &p)| p > 0) {
        let tri = &indices[3 * t..3 * t + 3];
        if tri.iter().any(|&i| i as usize >= uvs.len()) {
            continue;
        }
        let texel = [0, 1, 2].map(|k| {
            let uv = uvs[tri[k] as usize];
            [uv[0] * w as f32, uv[1] * h as f32]
        });
        texels.clear();
        triangle_texels(w, h, texel, &mut texels);
        // The GPU filters (and mip-maps) sRGB textures in linear space: average the
        // triangle's texels there, then encode, as a pixel showing them would.
        let mut mean = [0f64; 3];
        for &i in &texels {
            for (k, m) in mean.iter_mut().enumerate() {
                *m += srgb_to_linear(texture.pixels[i * 4 + k]);
            }
        }
        let weight = f64::from(pixels);
        for (s, m) in sum.iter_mut().zip(mean) {
            *s += weight * linear_to_srgb(m / texels.len() as f64);
        }
        total += weight;
    }
    (total > 0.0).then(|| sum.map(|s| (s / total) as f32))
}

/// `[triangle]` pixels of a `width × height` image where front-facing triangle `t` is the
/// nearest (depth-buffered rasterisation at pixel centres, y down in the image).
fn visible_pixels(clip: &[[f32; 4]], indices: &[u32], width: u32, height: u32) -> Vec<u32> {
    let (wf, hf) = (width as f32, height as f32);
    let mut depth = vec![f32::INFINITY; (width * height) as usize];
    let mut owner = vec![u32::MAX; depth.len()];
    for (t, tri) in indices.chunks_exact(3).enumerate() {
        if tri.iter().any(|&i| i as usize >= clip.len()) {
            continue;
        }
        let c = [0, 1, 2].map(|k| clip[tri[k] as usize]);
        if c.iter().any(|p| p[3] <= 1e-6) {
            continue;
        }
        // Screen space: x right, y up (so counter-clockwise stays positive), z in NDC.
        let s = c.map(|p| {
            [
                (p[0] / p[3] * 0.5 + 0.5) * wf,
                (p[1] / p[3] * 0.5 + 0.5) * hf,
                p[2] / p[3],
            ]
        });
        let xy = s.map(|p| [p[0], p[1]]);
        let area = cross(xy[0], xy[1], xy[2]);
        if area <= 0.0 {
            continue;
        }
        let (x0, x1) = pixel_span(xy.map(|p| p[0]), wf);
        let (y0, y1) = pixel_span(xy.map(|p| p[1]), hf);
        for y in y0..=y1 {
            for x in x0..=x1 {
                let p = [x as f32 + 0.5, y as f32 + 0.5];
                let b = [
                    cross(xy[1], xy[2], p) / area,
                    cross(xy[2], xy[0], p) / area,
                    cross(xy[0], xy[1], p) / area,
                ];
                if b.iter().any(|&b| b < 0.0) {
                    continue;
                }
                let z = b[0] * s[0][2] + b[1] * s[1][2] + b[2] * s[2][2];
                let i = ((height - 1 - y) * width + x) as usize;
                if (0.0..=1.0).contains(&z) && z < depth[i] {
                    depth[i] = z;
                    owner[i] = t as u32;
                }
            }
        }
    }
    let mut pixels = vec![0u32; indices.len() / 3];
    for &o in owner.iter().filter(|&&o| o != u32::MAX) {
        pixels[o as usize] += 1;
    }
    pixels
}

/// The first and last pixel (in 0..`size`) that coordinates `c` (pixel units) reach along one
/// axis: the bounding span of a triangle, clamped to the image.
fn pixel_span(c: [f32; 3], size: f32) -> (u32, u32) {
    let lo = c.iter().copied().fold(f32::INFINITY, f32::min).max(0.0);
    let hi = c
        .iter()
        .copied()
        .fold(f32::NEG_INFINITY, f32::max)
        .min(size - 1.0);
    (lo as u32, hi as u32)
}

/// Twice the signed area of triangle `abc` (positive counter-clockwise, y up).
fn cross(a: [f32; 2], b: [f32; 2], c: [f32; 2]) -> f32 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

/// Appends the indices of the texels whose centres lie in triangle `t` (texel units), wrapping
/// around the texture; the texel under the centroid when none does.
fn triangle_texels(w: usize, h: usize, t: [[f32; 2]; 3], out: &mut Vec<usize>) {
    let mut mark = |x: i64, y: i64| {
        let (x, y) = (
            x.rem_euclid(w as i64) as usize,
            y.rem_euclid(h as i64) as usize,
        );
        out.push(y * w + x);
    };
    let area = cross(t[0], t[1], t[2]);
    let lo = [0, 1].map(|k| t.iter().map(|p| p[k]).fold(f32::INFINITY, f32::min));
    let hi = [0, 1].map(|k| t.iter().map(|p| p[k]).fold(f32::NEG_INFINITY, f32::max));
    let mut any = false;
    if area.abs() > 1e-12 && (hi[0] - lo[0]) * (hi[1] - lo[1]) < 1e8 {
        for y in (lo[1] - 0.5).floor() as i64..=(hi[1] - 0.5).ceil() as i64 {
            for x in (lo[0] - 0.5).floor() as i64..=(hi[0] - 0.5).ceil() as i64 {
                let p = [x as f32 + 0.5, y as f32 + 0.5];
                let e = [
                    cross(t[1], t[2], p),
                    cross(t[2], t[0], p),
                    cross(t[0], t[1], p),
                ];
                let inside = e.iter().all(|&e| e * area.signum() >= 0.0);
                if inside {
                    mark(x, y);
                    any = true;
                }
            }
        }
    }
    if !any {
        let centroid = [0, 1].map(|k| (t[0][k] + t[1][k] + t[2][k]) / 3.0);
        mark(centroid[0].floor() as i64, centroid[1].floor() as i64);
    }
}

/// Mean sRGB colour `[r, g, b]` (0-255) of the pixels of `image` whose RGB differs from
/// `clear` by more than 2 in some channel, and their count; `None` when there are none.
pub fn silhouette_mean(image: Rgba8<'_>, clear: [u8; 3]) -> Option<([f32; 3], usize)> {
    let mut sum = [0f64; 3];
    let mut count = 0usize;
    for p in image.pixels.chunks_exact(4) {
        if (0..3).all(|k| p[k].abs_diff(clear[k]) <= 2) {
            continue;
        }
        for (k, s) in sum.iter_mut().enumerate() {
            *s += f64::from(p[k]);
        }
        count += 1;
    }
    (count > 0).then(|| (sum.map(|s| (s / count as f64) as f32), count))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_front_facing_quad_covers_its_uv_rectangle_and_a_back_facing_one_nothing() {
        // 4×2 texture: left half red, right half blue.
        let mut pixels = Vec::new();
        for _y in 0..2 {
            for x in 0..4 {
                pixels.extend_from_slice(if x < 2 {
                    &[255, 0, 0, 255]
                } else {
                    &[0, 0, 255, 255]
                });
            }
        }
        let texture = Rgba8 {
            width: 4,
            height: 2,
            pixels: &pixels,
        };
        // A screen-filling quad (CCW) mapped to the left half of the texture.
        let clip = [
            [-1., -1., 0.5, 1.],
            [1., -1., 0.5, 1.],
            [1., 1., 0.5, 1.],
            [-1., 1., 0.5, 1.],
        ];
        let uvs = [[0., 1.], [0.5, 1.], [0.5, 0.], [0., 0.]];
        let quad = [0, 1, 2, 0, 2, 3];
        let front = front_texel_mean(texture, &clip, &uvs, &quad, (8, 8)).unwrap();
        assert_eq!(front, [255.0, 0.0, 0.0]);
        let back = [0, 2, 1, 0, 3, 2];
        assert_eq!(front_texel_mean(texture, &clip, &uvs, &back, (8, 8)), None);
        // The whole texture: each triangle covers 3 texels of one colour and 1 of the other
        // (averaged in linear space, then encoded), 24 pixels each (8 × 6: no pixel centre
        // on the diagonal).
        let all = [[0., 1.], [1., 1.], [1., 0.], [0., 0.]];
        let mean = front_texel_mean(texture, &clip, &all, &quad, (8, 6)).unwrap();
        let both = ((linear_to_srgb(0.25) + linear_to_srgb(0.75)) / 2.0) as f32;
        assert_eq!(mean, [both, 0.0, both]);
        assert!(
            both > 127.5,
            "{both}: brighter than the mean of the encoded values"
        );
        // A nearer quad mapped to the blue half hides the red one entirely.
        let mut clip2 = clip.to_vec();
        clip2.extend(clip.map(|p| [p[0], p[1], 0.25, p[3]]));
        let mut uvs2 = uvs.to_vec();
        uvs2.extend([[0.5, 1.], [1., 1.], [1., 0.], [0.5, 0.]]);
        let both = [0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7];
        let mean = front_texel_mean(texture, &clip2, &uvs2, &both, (8, 6)).unwrap();
        assert_eq!(mean, [0.0, 0.0, 255.0]);
    }

    #[test]
    fn the_silhouette_leaves_out_the_clear_colour() {
        let pixels = [10, 20, 30, 255, 100, 0, 0, 255, 12, 19, 31, 255];
        let image = Rgba8 {
            width: 3,
            height: 1,
            pixels: &pixels,
        };
        assert_eq!(
            silhouette_mean(image, [10, 20, 30]),
            Some(([100.0, 0.0, 0.0], 1))
        );
        assert_eq!(silhouette_mean(image, [100, 0, 0]).unwrap().1, 2);
    }
}
