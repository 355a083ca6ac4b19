//! Procedural bump detail (`SurfaceMaterial::detail`, used by the island terrain): a plane lit by
//! a grazing sun shows relief (pixel variance) with it and is one flat colour without it.
//! The frame is written to the temp directory (`sierra_detail_bump.png`) to look at.

mod support;

use glam::{Mat4, Vec3, Vec4};
use sierra_render::material::{DetailBump, SurfaceMaterial};
use sierra_render::{primitives, Camera, DrawItem, HeadlessRenderer, Material, Sun};
use support::{context, frame, red_stats};

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
    let mut frame = frame(Camera::look_at(
        Vec3::new(0.0, 10.0, 0.001),
        Vec3::ZERO,
        Vec3::Y,
        0.8,
        W as f32 / H as f32,
        0.1,
        30.0,
    ));
    // 15 degrees above the horizon: a flat plane gets N.L = sin 15°, bumps much more or less.
    frame.sun = Sun {
        direction: Vec3::new(1.0, -0.268, 0.0),
        color: Vec3::ONE,
        intensity: 2.0,
        ambient: Vec3::ZERO,
    };
    let material = Material {
        base_color: Vec4::ONE,
        specular_color: Vec3::ZERO,
        ..Material::default()
    };
    for (mesh, x) in [(bumpy, -4.0), (flat, 4.0)] {
        frame.draws.push(DrawItem {
            mesh,
            model: Mat4::from_translation(Vec3::new(x, 0.0, 0.0)),
            material,
            surface: None,
        });
    }
    let (image, _) = headless
        .render(&ctx, &frame)
        .unwrap_or_else(|e| panic!("{e}"));
    let _ = image.save(std::env::temp_dir().join("sierra_detail_bump.png"));
    let (bumpy_mean, bumpy_var) = red_stats(&image, 8, W / 2 - 8);
    let (flat_mean, flat_var) = red_stats(&image, W / 2 + 8, W - 8);
    assert!(
        flat_mean > 40.0 && bumpy_mean > 20.0,
        "lit: {bumpy_mean}, {flat_mean}"
    );
    assert!(
        flat_var < 4.0,
        "flat plane is one colour: variance {flat_var}"
    );
    assert!(
        bumpy_var > 50.0 && bumpy_var > 20.0 * flat_var.max(1.0),
        "relief shows: variance {bumpy_var} vs flat {flat_var}"
    );
}
