//! Point lights (seed 000): full inside the inner radius, 0 beyond the outer radius, smoothstep
//! between — sampled along a line and compared with the formula; 8 coloured lights each light
//! their own region. Tonemapping is off, so the output is the linear value sRGB-encoded.

mod support;

use glam::{Mat4, Vec3, Vec4};
use sierra_render::{primitives, Camera, DrawItem, FrameData, Material, PointLight, Sun};
use support::context;

const SIZE: u32 = 128;
/// Camera height above the plane (metres); a 90° view sees ±10 m.
const HEIGHT: f32 = 10.0;

/// An sRGB-encoded byte as linear light (the test kit's independent decoder).
fn srgb_to_linear(c: u8) -> f32 {
    sierra_testkit::srgb::srgb_to_linear(c) as f32
}

fn smoothstep(e0: f32, e1: f32, x: f32) -> f32 {
    let t = ((x - e0) / (e1 - e0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

struct View {
    image: image::RgbaImage,
    camera: Camera,
}

impl View {
    /// The pixel showing ground point `p`, and the ground point its centre actually shows.
    fn sample(&self, p: Vec3) -> ([u8; 4], Vec3) {
        let clip = self.camera.view_proj() * p.extend(1.0);
        let ndc = clip.truncate() / clip.w;
        let x = (((ndc.x * 0.5 + 0.5) * SIZE as f32) as u32).min(SIZE - 1);
        let y = (((0.5 - ndc.y * 0.5) * SIZE as f32) as u32).min(SIZE - 1);
        let centre = glam::Vec2::new(
            (x as f32 + 0.5) / SIZE as f32 * 2.0 - 1.0,
            1.0 - (y as f32 + 0.5) / SIZE as f32 * 2.0,
        );
        let inv = self.camera.view_proj().inverse();
        let near = inv.project_point3(centre.extend(0.0));
        let far = inv.project_point3(centre.extend(1.0));
        let ground = near + (far - near) * (near.y / (near.y - far.y));
        (self.image.get_pixel(x, y).0, ground)
    }

    fn pixel(&self, p: Vec3) -> [u8; 4] {
        self.sample(p).0
    }
}

/// The forward pass's formula for a white diffuse plane (normal +Y) under one point light.
fn lit(light: &PointLight, p: Vec3) -> Vec3 {
    let d = p.distance(light.position);
    let n_dot_l = ((light.position.y - p.y) / d).max(0.0);
    light.color
        * light.intensity
        * n_dot_l
        * (1.0 - smoothstep(light.inner_radius, light.outer_radius, d))
}

/// A white diffuse plane at y = 0 seen from straight above, lit only by `lights`.
fn render(lights: Vec<PointLight>) -> View {
    let ctx = context();
    let (mut headless, plane) =
        support::renderer_with_mesh(&ctx, (SIZE, SIZE), &primitives::plane(40.0), "plane");
    let camera = support::square_camera(
        Vec3::new(0.0, HEIGHT, 0.0),
        Vec3::NEG_Z,
        90f32.to_radians(),
        100.0,
    );
    let frame = FrameData {
        camera,
        sun: Sun {
            intensity: 0.0,
            ambient: Vec3::ZERO,
            ..Sun::default()
        },
        point_lights: lights,
        draws: vec![DrawItem {
            mesh: plane,
            model: Mat4::IDENTITY,
            material: Material {
                base_color: Vec4::ONE,
                specular_color: Vec3::ZERO,
                specular_power: 1.0,
                emissive: Vec3::ZERO,
            },
            surface: None,
        }],
        clear_color: Vec4::new(0.0, 0.0, 0.0, 1.0),
        ..FrameData::new(camera)
    };
    let (image, _) = headless
        .render(&ctx, &frame)
        .unwrap_or_else(|e| panic!("{e}"));
    View { image, camera }
}

#[test]
fn falloff_between_inner_and_outer_radius_follows_smoothstep() {
    let light = PointLight {
        position: Vec3::new(0.0, 0.5, 0.0),
        color: Vec3::ONE,
        intensity: 1.0,
        inner_radius: 2.0,
        outer_radius: 7.0,
    };
    let view = render(vec![light]);
    view.image
        .save(std::env::temp_dir().join("sierra_point_light_falloff.png"))
        .ok();
    // Along +x from under the light, compared with the formula at each pixel's centre; one
    // 8-bit sRGB step is at most ~0.009 in linear, the HDR target's binary16 adds less.
    let mut checked = 0;
    for i in 0..=36 {
        let (pixel, ground) = view.sample(Vec3::new(i as f32 * 0.25, 0.0, 0.0));
        let expected = lit(&light, ground).x;
        let got = srgb_to_linear(pixel[0]);
        let d = ground.distance(light.position);
        assert!(
            (got - expected).abs() <= 0.01,
            "x = {:.2} m (d = {d:.2}): {got:.4} vs formula {expected:.4}",
            ground.x
        );
        if d > 2.0 && d < 7.0 {
            checked += 1;
        }
    }
    assert!(checked >= 15, "too few samples in the falloff band");
    // Beyond the outer radius: exactly black.
    assert_eq!(view.pixel(Vec3::new(8.0, 0.0, 0.0))[..3], [0, 0, 0]);
    assert_eq!(view.pixel(Vec3::new(-7.5, 0.0, 6.0))[..3], [0, 0, 0]);
}

#[test]
fn eight_coloured_lights_each_light_their_own_region() {
    let colours = [
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(0.0, 1.0, 0.0),
        Vec3::new(0.0, 0.0, 1.0),
        Vec3::new(1.0, 1.0, 0.0),
        Vec3::new(1.0, 0.0, 1.0),
        Vec3::new(0.0, 1.0, 1.0),
        Vec3::new(1.0, 0.5, 0.0),
        Vec3::new(0.5, 0.0, 1.0),
    ];
    let positions: Vec<Vec3> = (0..8)
        .map(|i| {
            let angle = i as f32 / 8.0 * std::f32::consts::TAU;
            Vec3::new(6.5 * angle.cos(), 0.3, 6.5 * angle.sin())
        })
        .collect();
    let lights: Vec<PointLight> = colours
        .iter()
        .zip(&positions)
        .map(|(&color, &position)| PointLight {
            position,
            color,
            intensity: 1.0,
            inner_radius: 1.0,
            outer_radius: 2.4,
        })
        .collect();
    let view = render(lights.clone());
    view.image
        .save(std::env::temp_dir().join("sierra_eight_lights.png"))
        .ok();
    for light in &lights {
        // Under each light its own colour (distance 0.3 < inner radius), no other light's.
        let (pixel, ground) = view.sample(Vec3::new(light.position.x, 0.0, light.position.z));
        let expected = lit(light, ground);
        for c in 0..3 {
            let got = srgb_to_linear(pixel[c]);
            assert!(
                (got - expected[c]).abs() <= 0.01,
                "light {} at {}: pixel {pixel:?}, expected {expected}",
                light.color,
                light.position
            );
        }
    }
    // The centre is outside every light's outer radius (6.5 - 2.4 = 4.1 m away): black.
    assert_eq!(view.pixel(Vec3::ZERO)[..3], [0, 0, 0]);
}
