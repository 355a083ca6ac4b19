//! The seed-000 look in one frame: three normal-mapped platforms under coloured point lights, an
//! emissive orb with bloom, sky, sun shadows, ACES. Written to the temp directory
//! (`sierra_platforms.png`) to look at; checks that normal maps and bloom change the image.

mod support;

use glam::{Mat4, Quat, Vec3, Vec4};
use sierra_render::material::{ShadingModel, SurfaceMaterial};
use sierra_render::normal_maps::{normal_map, NormalPattern};
use sierra_render::texture::{ColorSpace, Texture2d};
use sierra_render::{
    primitives, BloomSettings, Camera, DrawItem, FrameData, HeadlessRenderer, Material, PointLight,
    PostSettings, SkySettings, Sun, TonemapSettings, Tonemapper,
};
use support::context;

const W: u32 = 192;
const H: u32 = 128;

fn render(normal_maps: bool, bloom: bool) -> image::RgbaImage {
    let ctx = context();
    let mut headless = HeadlessRenderer::new(&ctx, W, H).unwrap_or_else(|e| panic!("{e}"));
    let r = &mut headless.renderer;
    let ground = r
        .upload_mesh(&ctx, &primitives::plane(30.0), "ground")
        .unwrap_or_else(|e| panic!("{e}"));
    let orb = r
        .upload_mesh(&ctx, &primitives::uv_sphere(0.3, 16, 8), "orb")
        .unwrap_or_else(|e| panic!("{e}"));
    let mut platforms = Vec::new();
    for pattern in [
        NormalPattern::Bumps,
        NormalPattern::Bricks,
        NormalPattern::Ripples,
    ] {
        let mesh = r
            .upload_mesh(&ctx, &primitives::cube(1.0), "platform")
            .unwrap_or_else(|e| panic!("{e}"));
        if normal_maps {
            let pixels = normal_map(pattern, 128, 0.04);
            let normal = Texture2d::from_rgba8(
                &ctx,
                "platform normals",
                128,
                128,
                &pixels,
                ColorSpace::Linear,
            )
            .unwrap_or_else(|e| panic!("{e}"));
            let surface = SurfaceMaterial {
                model: ShadingModel::Phong,
                normal: Some(normal),
                normal_scale: 1.0,
                ..SurfaceMaterial::default()
            };
            r.set_material(&ctx, mesh, &surface)
                .unwrap_or_else(|e| panic!("{e}"));
        }
        platforms.push(mesh);
    }
    let colours = [
        Vec3::new(1.0, 0.3, 0.2),
        Vec3::new(0.3, 1.0, 0.4),
        Vec3::new(0.3, 0.5, 1.0),
    ];
    let mut draws = vec![DrawItem {
        mesh: ground,
        model: Mat4::from_translation(Vec3::new(0.0, -1.0, 0.0)),
        material: Material {
            base_color: Vec4::new(0.3, 0.32, 0.3, 1.0),
            ..Material::default()
        },
        surface: None,
    }];
    let mut lights = Vec::new();
    for (i, (&mesh, &colour)) in platforms.iter().zip(&colours).enumerate() {
        let x = (i as f32 - 1.0) * 4.0;
        draws.push(DrawItem {
            mesh,
            model: Mat4::from_scale_rotation_translation(
                Vec3::new(2.5, 0.3, 2.5),
                Quat::from_rotation_y(0.4 * i as f32),
                Vec3::new(x, 0.0, 0.0),
            ),
            material: Material {
                base_color: Vec4::new(0.8, 0.8, 0.8, 1.0),
                specular_color: Vec3::splat(0.4),
                specular_power: 48.0,
                emissive: Vec3::ZERO,
            },
            surface: None,
        });
        lights.push(PointLight {
            position: Vec3::new(x - 0.8, 1.2, 0.8),
            color: colour,
            intensity: 2.0,
            inner_radius: 1.0,
            outer_radius: 4.0,
        });
    }
    draws.push(DrawItem {
        mesh: orb,
        model: Mat4::from_translation(Vec3::new(0.0, 2.0, 0.0)),
        material: Material {
            base_color: Vec4::new(1.0, 0.85, 0.3, 1.0),
            emissive: Vec3::new(6.0, 4.5, 1.0),
            ..Material::default()
        },
        surface: None,
    });
    let frame = FrameData {
        sun: Sun {
            direction: Vec3::new(-0.5, -1.0, -0.35),
            color: Vec3::new(1.0, 0.97, 0.9),
            intensity: 0.6,
            ambient: Vec3::new(0.08, 0.08, 0.1),
        },
        point_lights: lights,
        draws,
        clear_color: Vec4::new(0.04, 0.05, 0.09, 1.0),
        post: PostSettings {
            sky: SkySettings {
                enabled: true,
                ..SkySettings::default()
            },
            bloom: BloomSettings {
                enabled: bloom,
                ..BloomSettings::default()
            },
            tonemap: TonemapSettings {
                tonemapper: Tonemapper::Aces,
                ..TonemapSettings::default()
            },
            wireframe: false,
            debug_view: Default::default(),
            aa: Default::default(),
            environment: Default::default(),
            shadow: Default::default(),
        },
        ..FrameData::new(Camera::look_at(
            Vec3::new(0.0, 5.0, 9.0),
            Vec3::new(0.0, 0.3, 0.0),
            Vec3::Y,
            50f32.to_radians(),
            W as f32 / H as f32,
            0.1,
            100.0,
        ))
    };
    let (image, _) = headless
        .render(&ctx, &frame)
        .unwrap_or_else(|e| panic!("{e}"));
    image
}

fn luminance(p: [u8; 4]) -> f32 {
    0.2126 * f32::from(p[0]) + 0.7152 * f32::from(p[1]) + 0.0722 * f32::from(p[2])
}

#[test]
fn normal_maps_and_bloom_show_in_the_platforms_frame() {
    let full = render(true, true);
    full.save(std::env::temp_dir().join("sierra_platforms.png"))
        .ok();
    let flat = render(false, true);
    let no_bloom = render(true, false);
    // Normal maps: the platforms' top faces are no longer smooth gradients — the images differ
    // over many pixels (~400 on a CPU adapter, whose trilinear-only sampling blurs the grazing
    // tops' bumps: `GpuContext::material_anisotropy`; none without normal maps).
    let changed = full
        .pixels()
        .zip(flat.pixels())
        .filter(|(a, b)| luminance(a.0).abs_diff_f(luminance(b.0)) > 4.0)
        .count();
    assert!(changed > 300, "normal maps changed only {changed} pixels");
    // Bloom: light spreads around the orb (projected near the image centre, upper half); beside
    // it, with bloom, pixels are brighter than without.
    let (cx, cy) = (W / 2, 30);
    let halo: f32 = (8..16)
        .map(|d| {
            luminance(full.get_pixel(cx + d, cy).0) - luminance(no_bloom.get_pixel(cx + d, cy).0)
        })
        .sum();
    assert!(halo > 8.0, "no bloom halo beside the orb: {halo}");
}

trait AbsDiff {
    fn abs_diff_f(self, other: f32) -> f32;
}

impl AbsDiff for f32 {
    fn abs_diff_f(self, other: f32) -> f32 {
        (self - other).abs()
    }
}
