//! The terrain's detail normal map (`sierra_terrain::detail`, bound by the island's material)
//! through the forward pass's tangent-space normal mapping: ground with the terrain's texture
//! coordinates `(x, z) / UV_TILE` and height-field tangents shows relief under a grazing sun,
//! the same ground without the map is one flat colour. The frame is written to the temp
//! directory (`sierra_terrain_detail_normal_map.png`) to look at.

// The renderer tests' helpers (GPU context, frames, HDR targets), shared rather than copied.
#[path = "../../sierra_render/tests/support/mod.rs"]
mod support;

use glam::Vec3;
use sierra_render::material::SurfaceMaterial;
use sierra_render::texture::{ColorSpace, Texture2d};
use sierra_render::{primitives, HeadlessRenderer, MeshData};
use sierra_terrain::chunks::height_field_tangent;
use sierra_terrain::detail::{DetailMap, UV_TILE};
use sierra_testkit::relief::assert_bumpy_left_flat_right;
use support::{context, render_bumpy_beside_flat};

const W: u32 = 256;
const H: u32 = 128;

/// Mean and variance of the red channel over columns `x0..x1` (rows with a margin).
/// Pearson correlation of two equally long series.
fn correlation(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len() as f64;
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let (mut ab, mut aa, mut bb) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        ab += (x - ma) * (y - mb);
        aa += (x - ma).powi(2);
        bb += (y - mb).powi(2);
    }
    ab / (aa * bb).sqrt().max(1e-12)
}

/// A flat patch of ground `UV_TILE` metres wide with the terrain chunks' texture coordinates
/// and tangents (`sierra_terrain::chunks::grid_mesh`), centred at `x`.
fn ground(x: f32) -> MeshData {
    let mut mesh = primitives::grid(8, UV_TILE);
    mesh.uvs = mesh
        .positions
        .iter()
        .map(|p| [(p[0] + x) / UV_TILE, p[2] / UV_TILE])
        .collect();
    mesh.tangents = mesh
        .normals
        .iter()
        .map(|n| height_field_tangent(Vec3::from_array(*n)).to_array())
        .collect();
    mesh
}

#[test]
fn detail_normal_map_shows_relief_on_terrain_ground_under_a_grazing_sun() {
    let ctx = context();
    let mut headless = HeadlessRenderer::new(&ctx, W, H).unwrap_or_else(|e| panic!("{e}"));
    let r = &mut headless.renderer;
    let bumpy = r
        .upload_mesh(&ctx, &ground(-8.0), "bumpy ground")
        .unwrap_or_else(|e| panic!("{e}"));
    let flat = r
        .upload_mesh(&ctx, &ground(8.0), "flat ground")
        .unwrap_or_else(|e| panic!("{e}"));
    // The island's map: 50 cm to 12 cm bumps, 6 cm deep (`sierra::world::landscape`).
    let detail = DetailMap {
        period: 32,
        octaves: 3,
        depth: 0.06,
        ..DetailMap::default()
    };
    let pixels = detail.normal_map().unwrap_or_else(|e| panic!("{e}"));
    let normal = Texture2d::from_rgba8(
        &ctx,
        "detail",
        detail.size,
        detail.size,
        &pixels,
        ColorSpace::Linear,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    r.set_material(
        &ctx,
        bumpy,
        &SurfaceMaterial {
            normal: Some(normal),
            normal_scale: 1.0,
            ..SurfaceMaterial::default()
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    // 15 degrees above the horizon, diagonal (so both the tangent and the bitangent matter):
    // flat ground gets N.L = sin 15°, bumps more or less.
    let sun_direction = Vec3::new(0.707, -0.268, 0.707);
    let image = render_bumpy_beside_flat(
        &ctx,
        &mut headless,
        (bumpy, flat),
        8.0,
        8.0,
        W as f32 / H as f32,
        sun_direction,
    );
    let _ = image.save(std::env::temp_dir().join("sierra_terrain_detail_normal_map.png"));
    let (bumpy_mean, flat_mean) = assert_bumpy_left_flat_right(&image, 20.0, 10.0);
    // The pattern is the map's own, lit from the right side: per pixel, the brightness follows
    // N·L of the texel under it with the world normal T·m.x + B·m.y + N·m.z = (m.x, m.z, −m.y)
    // (T = +X, B = cross(N, T) = −Z, up the texture); with the bitangent flipped (wrong
    // handedness) it would not.
    let to_light = -sun_direction.normalize();
    let n = detail.size as usize;
    let half_h = 8.0 * 0.4f32.tan();
    let half_w = half_h * W as f32 / H as f32;
    let (mut predicted, mut flipped, mut seen) = (Vec::new(), Vec::new(), Vec::new());
    for py in 8..H - 8 {
        for px in 8..W / 2 - 8 {
            // Image right is +X, image up is −Z (camera above, looking down).
            let x = ((px as f32 + 0.5) / (W as f32 / 2.0) - 1.0) * half_w;
            let z = ((py as f32 + 0.5) / (H as f32 / 2.0) - 1.0) * half_h;
            let (u, v) = ((x / UV_TILE).rem_euclid(1.0), (z / UV_TILE).rem_euclid(1.0));
            let k = (((v * n as f32) as usize).min(n - 1) * n
                + ((u * n as f32) as usize).min(n - 1))
                * 4;
            let m = Vec3::new(
                f32::from(pixels[k]),
                f32::from(pixels[k + 1]),
                f32::from(pixels[k + 2]),
            ) / 127.5
                - Vec3::ONE;
            predicted.push(f64::from(
                Vec3::new(m.x, m.z, -m.y).normalize().dot(to_light),
            ));
            flipped.push(f64::from(
                Vec3::new(m.x, m.z, m.y).normalize().dot(to_light),
            ));
            seen.push(f64::from(image.get_pixel(px, py).0[0]));
        }
    }
    let (right, wrong) = (correlation(&predicted, &seen), correlation(&flipped, &seen));
    assert!(
        right > 0.5 && right > wrong + 0.3,
        "brightness vs predicted N.L: correlation {right} (flipped bitangent: {wrong})"
    );
    // Bumps only tilt the normal: on average the ground is about as bright as flat ground.
    assert!(
        (bumpy_mean - flat_mean).abs() < 0.25 * flat_mean,
        "mean {bumpy_mean} vs flat {flat_mean}"
    );
}
