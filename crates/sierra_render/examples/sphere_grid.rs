//! Renders the image-based-lighting sphere grid: metallic 1 (top row, silver) and 0 (bottom row,
//! red) at roughness 0, 0.25, 0.5, 0.75, 1 (left to right), under the procedural sky and its sun,
//! ACES-tonemapped, into `OUT.png` (default `out/sphere_grid.png`):
//! `cargo run --release -p sierra_render --example sphere_grid -- out/sphere_grid.png`.
//! `crates/sierra_render/tests/ibl.rs` measures the same spheres in the HDR target.

use glam::{Mat4, Vec3};
use sierra_render::material::{ShadingModel, SurfaceMaterial};
use sierra_render::{
    primitives, Camera, DrawItem, FrameData, GpuContext, HeadlessRenderer, Material, PostSettings,
    SkySettings, Sun, TonemapSettings,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "out/sphere_grid.png".to_owned());
    let (width, height) = (640, 280);
    let ctx = GpuContext::headless()?;
    let mut headless = HeadlessRenderer::new(&ctx, width, height)?;
    let renderer = &mut headless.renderer;
    let sphere = renderer.upload_mesh(&ctx, &primitives::uv_sphere(0.45, 64, 32), "sphere")?;
    let camera = Camera::look_at(
        Vec3::new(0.0, 0.6, 7.0),
        Vec3::ZERO,
        Vec3::Y,
        0.42,
        width as f32 / height as f32,
        0.1,
        50.0,
    );
    let mut frame = FrameData::new(camera);
    frame.sun = Sun {
        direction: Vec3::new(-0.5, -0.55, -0.65),
        color: Vec3::new(1.0, 0.97, 0.9),
        intensity: 1.0,
        ambient: Vec3::new(0.12, 0.12, 0.15),
    };
    frame.post = PostSettings {
        sky: SkySettings {
            enabled: true,
            ..SkySettings::default()
        },
        tonemap: TonemapSettings::default(),
        ..PostSettings::default()
    };
    frame.post.environment.source = sierra_render::EnvironmentSource::Sky;
    for (row, (metallic, albedo)) in [
        (1.0, Vec3::new(0.95, 0.93, 0.88)),
        (0.0, Vec3::new(0.7, 0.08, 0.06)),
    ]
    .into_iter()
    .enumerate()
    {
        for column in 0..5 {
            let roughness = column as f32 / 4.0;
            let surface = renderer.add_material(
                &ctx,
                &SurfaceMaterial {
                    model: ShadingModel::MetallicRoughness {
                        metallic,
                        roughness,
                    },
                    ..SurfaceMaterial::default()
                },
            )?;
            let at = Vec3::new(column as f32 * 1.05 - 2.1, 0.55 - row as f32 * 1.1, 0.0);
            frame.draws.push(DrawItem {
                surface: Some(surface),
                ..DrawItem::new(
                    sphere,
                    Mat4::from_translation(at),
                    Material {
                        base_color: albedo.extend(1.0),
                        ..Material::default()
                    },
                )
            });
        }
    }
    let (image, _) = headless.render(&ctx, &frame)?;
    if let Some(parent) = std::path::Path::new(&out).parent() {
        std::fs::create_dir_all(parent)?;
    }
    image.save(&out)?;
    println!("wrote {out}");
    Ok(())
}
