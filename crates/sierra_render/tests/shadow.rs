//! Sun shadows: a cube on a plane casts a shadow on the side away from the sun, attached at the
//! contact (no peter-panning), with a soft (PCF) edge, and the lit faces show no acne.

mod support;

use glam::{Mat4, Vec3, Vec4};
use sierra_render::passes::shadow::fit_sun_view_proj;
use sierra_render::{primitives, Camera, DrawItem, HeadlessRenderer, Material, Sun};
use support::context;

const SIZE: u32 = 128;

struct Scene {
    image: image::RgbaImage,
    camera: Camera,
}

impl Scene {
    /// Red channel (8-bit sRGB) of the pixel showing world point `p`.
    fn at(&self, p: Vec3) -> u8 {
        let clip = self.camera.view_proj() * p.extend(1.0);
        let ndc = clip.truncate() / clip.w;
        let x = ((ndc.x * 0.5 + 0.5) * SIZE as f32) as u32;
        let y = ((0.5 - ndc.y * 0.5) * SIZE as f32) as u32;
        self.image.get_pixel(x.min(SIZE - 1), y.min(SIZE - 1)).0[0]
    }
}

/// Light travels along +x and down: the shadow falls on the +x side of a 2 m cube at the origin.
fn sun_direction() -> Vec3 {
    Vec3::new(1.0, -1.5, 0.0).normalize()
}

fn render(shadows: bool) -> Scene {
    let ctx = context();
    let mut headless = HeadlessRenderer::new(&ctx, SIZE, SIZE).unwrap_or_else(|e| panic!("{e}"));
    let renderer = &mut headless.renderer;
    let plane = renderer
        .upload_mesh(&ctx, &primitives::plane(30.0), "plane")
        .unwrap_or_else(|e| panic!("{e}"));
    let cube = renderer
        .upload_mesh(&ctx, &primitives::cube(2.0), "cube")
        .unwrap_or_else(|e| panic!("{e}"));
    let material = Material {
        base_color: Vec4::new(0.5, 0.5, 0.5, 1.0),
        specular_color: Vec3::ZERO,
        specular_power: 1.0,
        emissive: Vec3::ZERO,
    };
    let camera = Camera::look_at(
        Vec3::new(-2.0, 9.0, 7.0),
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::Y,
        50f32.to_radians(),
        1.0,
        0.1,
        100.0,
    );
    let mut frame = sierra_render::FrameData {
        sun: Sun {
            direction: sun_direction(),
            color: Vec3::ONE,
            intensity: 1.0,
            ambient: Vec3::splat(0.1),
        },
        draws: vec![
            DrawItem {
                mesh: plane,
                model: Mat4::IDENTITY,
                material,
                surface: None,
            },
            DrawItem {
                mesh: cube,
                model: Mat4::from_translation(Vec3::new(0.0, 1.0, 0.0)),
                material,
                surface: None,
            },
        ],
        clear_color: Vec4::new(0.0, 0.0, 0.0, 1.0),
        ..sierra_render::FrameData::new(camera)
    };
    frame.post.shadow.enabled = shadows;
    let (image, _) = headless
        .render(&ctx, &frame)
        .unwrap_or_else(|e| panic!("{e}"));
    Scene { image, camera }
}

/// Linear [0, 1] → 8-bit sRGB (the test kit's independent encoder).
fn srgb_byte(linear: f32) -> u8 {
    sierra_testkit::srgb::srgb_byte(f64::from(linear))
}

#[test]
fn cube_casts_a_soft_attached_shadow_away_from_the_sun_without_acne() {
    let scene = render(true);
    scene
        .image
        .save(std::env::temp_dir().join("sierra_shadow_test.png"))
        .ok();
    let n_dot_l = -sun_direction().y;
    let lit = srgb_byte(0.05 + 0.5 * n_dot_l);
    let dark = srgb_byte(0.05);

    // Away from the sun (+x), within the shadow's length of 2 m / 1.5 = 1.33 m: ambient only.
    for x in [1.05, 1.3, 1.7, 2.1] {
        let v = scene.at(Vec3::new(x, 0.0, 0.0));
        assert!(v.abs_diff(dark) <= 2, "shadow at x = {x}: {v} vs {dark}");
    }
    // Towards the sun, beside the cube and past the shadow's end: fully lit.
    for p in [
        Vec3::new(-2.0, 0.0, 0.0),
        Vec3::new(1.5, 0.0, 2.5),
        Vec3::new(3.2, 0.0, 0.0),
    ] {
        let v = scene.at(p);
        assert!(v.abs_diff(lit) <= 2, "lit ground at {p}: {v} vs {lit}");
    }

    // Soft edge: across the shadow's side edge (z = 1) the value ramps through intermediates.
    let ramp: Vec<u8> = (0..=40)
        .map(|i| scene.at(Vec3::new(1.6, 0.0, 0.6 + i as f32 * 0.02)))
        .collect();
    let intermediate = ramp
        .iter()
        .filter(|&&v| v > dark + 4 && v < lit - 4)
        .count();
    assert!(intermediate >= 2, "no soft edge: {ramp:?}");
    assert!(
        ramp.windows(2).all(|w| w[1] + 1 >= w[0]),
        "edge not monotonic: {ramp:?}"
    );

    // No acne: the lit top face is uniform (pixel variance) and equals the analytic value.
    let mut top = Vec::new();
    for i in 0..7 {
        for j in 0..7 {
            let p = Vec3::new(-0.75 + i as f32 * 0.25, 2.0, -0.75 + j as f32 * 0.25);
            top.push(f32::from(scene.at(p)));
        }
    }
    let mean = top.iter().sum::<f32>() / top.len() as f32;
    let variance = top.iter().map(|v| (v - mean).powi(2)).sum::<f32>() / top.len() as f32;
    assert!(
        variance < 0.5,
        "speckle on the top face: variance {variance}, {top:?}"
    );
    assert!(
        (mean - f32::from(lit)).abs() <= 2.0,
        "top face {mean} vs {lit}"
    );
}

#[test]
fn without_shadows_the_ground_behind_the_cube_is_lit() {
    let scene = render(false);
    let n_dot_l = -sun_direction().y;
    let lit = srgb_byte(0.05 + 0.5 * n_dot_l);
    assert!(scene.at(Vec3::new(1.7, 0.0, 0.0)).abs_diff(lit) <= 2);
}

#[test]
fn sun_frustum_contains_the_view_up_to_the_shadow_distance() {
    let camera = Camera::look_at(
        Vec3::new(3.0, 4.0, 10.0),
        Vec3::ZERO,
        Vec3::Y,
        1.0,
        1.5,
        0.1,
        500.0,
    );
    let m = fit_sun_view_proj(&camera, -sun_direction(), 30.0, 20.0, 1024).view_proj;
    let inside = |p: Vec3| {
        let c = m.project_point3(p);
        c.x.abs() <= 1.0 && c.y.abs() <= 1.0 && (0.0..=1.0).contains(&c.z)
    };
    // Points the camera sees within 30 m are inside; a caster 15 m towards the sun too.
    let forward = (Vec3::ZERO - camera.position).normalize();
    for d in [0.5, 5.0, 15.0, 29.0] {
        assert!(inside(camera.position + forward * d), "view point at {d} m");
    }
    assert!(inside(Vec3::ZERO - sun_direction() * 15.0));
    // Depth grows away from the sun.
    let near = m.project_point3(Vec3::ZERO - sun_direction());
    let far = m.project_point3(Vec3::ZERO + sun_direction());
    assert!(near.z < far.z);
}

#[test]
fn the_suns_box_is_tighter_than_the_views_bounding_sphere_and_snapped_to_texels() {
    let look = |shift: Vec3| {
        Camera::look_at(
            Vec3::new(3.0, 4.0, 10.0) + shift,
            shift,
            Vec3::Y,
            1.0,
            1.5,
            0.1,
            500.0,
        )
    };
    let (camera, distance, resolution) = (look(Vec3::ZERO), 30.0, 1024.0);
    let fit = fit_sun_view_proj(&camera, -sun_direction(), distance, 20.0, 1024);
    // The slice's corners, recomputed from the camera's angles, and their bounding sphere
    // about the centroid (the fit this replaced).
    let forward = (Vec3::ZERO - camera.position).normalize();
    let right = forward.cross(Vec3::Y).normalize();
    let up = right.cross(forward);
    let (tan_y, near) = ((1.0f32 / 2.0).tan(), 0.1);
    let mut corners = Vec::new();
    for (sx, sy) in [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)] {
        let ray = forward + right * (sx * tan_y * 1.5) + up * (sy * tan_y);
        corners.push(camera.position + ray * near);
        corners.push(camera.position + ray.normalize() * distance);
    }
    let centroid = corners.iter().sum::<Vec3>() / 8.0;
    let radius = corners
        .iter()
        .map(|c| c.distance(centroid))
        .fold(0.0, f32::max);
    for c in &corners {
        let p = fit.view_proj.project_point3(*c);
        assert!(p.x.abs() <= 1.0 && p.y.abs() <= 1.0, "{c} → {p}");
    }
    let area = fit.texel.x * fit.texel.y * resolution * resolution;
    let sphere_square = (2.0 * radius).powi(2);
    assert!(
        area < 0.7 * sphere_square,
        "box {area} m² vs the sphere's square {sphere_square} m²"
    );

    // Moving the camera 1 cm keeps the box's size and moves its texel grid by whole texels:
    // a world point lands at the same place within its texel.
    let shift = Vec3::new(0.01, 0.0, 0.0);
    let moved = fit_sun_view_proj(&look(shift), -sun_direction(), distance, 20.0, 1024);
    assert_eq!(moved.texel, fit.texel);
    let texels = |m: Mat4, p: Vec3| m.project_point3(p).truncate() * (resolution * 0.5);
    let point = Vec3::new(1.3, 0.2, -2.7);
    let grid_shift = texels(moved.view_proj, point) - texels(fit.view_proj, point);
    assert!(
        (grid_shift - grid_shift.round()).abs().max_element() < 1e-2,
        "{grid_shift}"
    );
    // Control: the camera's own move is a fraction of a texel, so unsnapped boxes would differ.
    let raw = texels(fit.view_proj, point + shift) - texels(fit.view_proj, point);
    assert!(
        (raw - raw.round()).abs().max_element() > 0.1,
        "{raw}: the move is whole texels, the check proves nothing"
    );
}
