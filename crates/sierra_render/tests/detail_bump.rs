//! Procedural bump detail (`SurfaceMaterial::detail`, used by the island terrain): a plane lit by
//! a grazing sun shows relief (pixel variance) with it and is one flat colour without it.
//! The frame is written to the temp directory (`sierra_detail_bump.png`) to look at.

mod support;

use glam::Vec3;
use sierra_render::material::{DetailBump, SurfaceMaterial};
use sierra_render::{primitives, HeadlessRenderer};
use sierra_testkit::relief::assert_bumpy_left_flat_right;
use support::{context, render_bumpy_beside_flat};

const W: u32 = 128;
const H: u32 = 64;

#[test]
fn detail_bump_shows_relief_under_a_grazing_sun() {
    let ctx = context();
    let mut headless = HeadlessRenderer::new(&ctx, W, H).unwrap_or_else(|e| panic!("{e}"));
    let r = &mut headless.renderer;
    let bumpy = r
        .upload_mesh(&ctx, &primitives::grid(4, 8.0), "bumpy ground")
        .unwrap_or_else(|e| panic!("{e}"));
    let flat = r
        .upload_mesh(&ctx, &primitives::grid(4, 8.0), "flat ground")
        .unwrap_or_else(|e| panic!("{e}"));
    r.set_material(
        &ctx,
        bumpy,
        &SurfaceMaterial {
            detail: Some(DetailBump {
                frequency: 1.0,
                amplitude: 0.3,
            }),
            ..SurfaceMaterial::default()
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    // 15 degrees above the horizon: a flat plane gets N.L = sin 15°, bumps much more or less.
    let image = render_bumpy_beside_flat(
        &ctx,
        &mut headless,
        (bumpy, flat),
        4.0,
        10.0,
        W as f32 / H as f32,
        Vec3::new(1.0, -0.268, 0.0),
    );
    let _ = image.save(std::env::temp_dir().join("sierra_detail_bump.png"));
    assert_bumpy_left_flat_right(&image, 50.0, 20.0);
}
