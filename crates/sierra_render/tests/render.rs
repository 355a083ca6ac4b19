//! Headless render tests (run on Mesa lavapipe without a GPU): the forward pass
//! against the analytic Blinn-Phong value, depth, read-back of odd widths, determinism.

mod support;

use glam::{Mat4, Vec3, Vec4};
use sierra_render::{
    primitives, readback, Camera, DrawItem, FrameData, GpuContext, HeadlessRenderer, Material,
    MeshHandle, PointLight, Sun,
};
use support::context;

/// Linear [0, 1] → 8-bit sRGB (the test kit's independent encoder).
fn srgb_byte(linear: f32) -> u8 {
    sierra_testkit::srgb::srgb_byte(f64::from(linear))
}

fn srgb_bytes(linear: Vec3) -> [u8; 3] {
    [
        srgb_byte(linear.x),
        srgb_byte(linear.y),
        srgb_byte(linear.z),
    ]
}

fn assert_pixel_near(
    image: &image::RgbaImage,
    x: u32,
    y: u32,
    expected: [u8; 3],
    tolerance: u8,
    what: &str,
) {
    let p = image.get_pixel(x, y).0;
    for c in 0..3 {
        assert!(
            p[c].abs_diff(expected[c]) <= tolerance,
            "{what}: pixel ({x},{y}) = {p:?}, expected {expected:?} ± {tolerance}"
        );
    }
}

const CLEAR: Vec4 = Vec4::new(0.2, 0.3, 0.4, 1.0);

fn camera(eye: Vec3, width: u32, height: u32) -> Camera {
    Camera::look_at(
        eye,
        Vec3::ZERO,
        Vec3::Y,
        45f32.to_radians(),
        width as f32 / height as f32,
        0.1,
        100.0,
    )
}

fn frame(camera: Camera, sun: Sun, draws: Vec<DrawItem>) -> FrameData {
    FrameData {
        sun,
        draws,
        clear_color: CLEAR,
        ..FrameData::new(camera)
    }
}

#[test]
fn lit_cube_centre_matches_analytic_blinn_phong_and_corners_are_clear() {
    let ctx = context();
    let (w, h) = (64, 64);
    let (mut headless, cube) =
        support::renderer_with_mesh(&ctx, (w, h), &primitives::cube(1.0), "cube");
    let to_sun = Vec3::new(0.3, 0.4, 1.0).normalize();
    let sun = Sun {
        direction: -to_sun,
        color: Vec3::new(1.0, 0.9, 0.8),
        intensity: 1.0,
        ambient: Vec3::splat(0.1),
    };
    let material = Material {
        base_color: Vec4::new(0.8, 0.5, 0.3, 1.0),
        specular_color: Vec3::splat(0.2),
        specular_power: 16.0,
        emissive: Vec3::ZERO,
    };
    let eye = Vec3::new(0.0, 0.0, 3.0);
    let cam = camera(eye, w, h);
    let draws = vec![DrawItem {
        mesh: cube,
        model: Mat4::IDENTITY,
        material,
        surface: None,
    }];
    let (image, stats) = headless.render(&ctx, &frame(cam, sun, draws)).unwrap();
    assert_eq!((stats.triangles, stats.draw_calls), (12, 1));
    // The read-back finished the frame, so its own timings came with it.
    assert_eq!(
        stats.newest_gpu().map(|t| t.frame),
        ctx.has_timestamps().then_some(stats.frame)
    );

    // The centre pixel's ray hits the +Z face (z = 0.5); find the point to get the exact view vector.
    let (px, py) = (w / 2, h / 2);
    let ndc = Vec3::new(
        (px as f32 + 0.5) / w as f32 * 2.0 - 1.0,
        1.0 - (py as f32 + 0.5) / h as f32 * 2.0,
        1.0,
    );
    let far = cam.view_proj().inverse().project_point3(ndc);
    let dir = (far - eye).normalize();
    let hit = eye + dir * ((0.5 - eye.z) / dir.z);
    assert!(hit.x.abs() < 0.5 && hit.y.abs() < 0.5);
    let (n, v) = (Vec3::Z, (eye - hit).normalize());
    let albedo = material.base_color.truncate();
    let light = sun.color * sun.intensity;
    let half = (to_sun + v).normalize();
    let expected = sun.ambient * albedo
        + light * albedo * n.dot(to_sun).max(0.0)
        + light * material.specular_color * n.dot(half).max(0.0).powf(material.specular_power);
    assert!(
        expected.max_element() < 1.0,
        "keep the test below the clamp"
    );
    assert_pixel_near(&image, px, py, srgb_bytes(expected), 2, "lit face");

    let clear = srgb_bytes(CLEAR.truncate());
    for (x, y) in [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)] {
        assert_pixel_near(&image, x, y, clear, 1, "corner");
    }
}

#[test]
fn near_object_occludes_far_object_in_either_draw_order() {
    let ctx = context();
    let (w, h) = (32, 32);
    let (mut headless, cube) =
        support::renderer_with_mesh(&ctx, (w, h), &primitives::cube(1.0), "cube");
    let unlit = |rgb: Vec3| Material {
        base_color: Vec4::new(0.0, 0.0, 0.0, 1.0),
        specular_color: Vec3::ZERO,
        specular_power: 1.0,
        emissive: rgb,
    };
    let near = DrawItem {
        mesh: cube,
        model: Mat4::from_translation(Vec3::new(0.0, 0.0, 1.0)),
        material: unlit(Vec3::new(1.0, 0.0, 0.0)),
        surface: None,
    };
    let far = DrawItem {
        mesh: cube,
        model: Mat4::from_translation(Vec3::new(0.0, 0.0, -2.0))
            * Mat4::from_scale(Vec3::splat(3.0)),
        material: unlit(Vec3::new(0.0, 1.0, 0.0)),
        surface: None,
    };
    let cam = camera(Vec3::new(0.0, 0.0, 5.0), w, h);
    for (order, draws) in [
        ("near first", vec![near, far]),
        ("far first", vec![far, near]),
    ] {
        let (image, _) = headless
            .render(&ctx, &frame(cam, Sun::default(), draws))
            .unwrap();
        assert_pixel_near(&image, w / 2, h / 2, [255, 0, 0], 0, order);
        // Beside the near cube the far (larger) cube shows.
        assert_pixel_near(&image, w / 2, 8, [0, 255, 0], 0, order);
    }
}

#[test]
fn texture_of_width_37_reads_back_without_row_skew() {
    let ctx = context();
    let (w, h) = (37u32, 23u32);
    let texture = ctx
        .create_texture(&wgpu::TextureDescriptor {
            label: Some("pattern"),
            size: wgpu::Extent3d {
                width: w,
                height: h,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba8Unorm,
            usage: wgpu::TextureUsages::COPY_DST | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        })
        .unwrap();
    // Every texel different: (x, y, x ^ y, 255).
    let pattern: Vec<u8> = (0..h)
        .flat_map(|y| (0..w).flat_map(move |x| [x as u8, y as u8, (x ^ y) as u8, 255]))
        .collect();
    ctx.queue.write_texture(
        texture.as_image_copy(),
        &pattern,
        wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(4 * w),
            rows_per_image: Some(h),
        },
        texture.size(),
    );
    let image = readback::read_texture_rgba(&ctx, &texture).unwrap();
    assert_eq!(image.dimensions(), (w, h));
    assert_eq!(image.as_raw(), &pattern);
}

#[test]
fn rendered_37x23_image_has_straight_vertical_edges() {
    let ctx = context();
    let (w, h) = (37, 23);
    let (mut headless, cube) =
        support::renderer_with_mesh(&ctx, (w, h), &primitives::cube(1.0), "cube");
    // A tall white box whose left edge is vertical on screen: with skewed rows the edge would slant.
    let draw = DrawItem {
        mesh: cube,
        model: Mat4::from_translation(Vec3::new(0.6, 0.0, 0.0))
            * Mat4::from_scale(Vec3::new(1.0, 10.0, 0.1)),
        material: Material {
            base_color: Vec4::W,
            emissive: Vec3::ONE,
            ..Default::default()
        },
        surface: None,
    };
    let cam = camera(Vec3::new(0.0, 0.0, 4.0), w, h);
    let (image, _) = headless
        .render(&ctx, &frame(cam, Sun::default(), vec![draw]))
        .unwrap();
    let edge = |y: u32| (0..w).find(|&x| image.get_pixel(x, y).0[0] == 255);
    let first = edge(0).expect("box visible in row 0");
    assert!(first > 18 && first < 30, "edge at column {first}");
    for y in 0..h {
        assert_eq!(edge(y), Some(first), "row {y}");
    }
}

#[test]
fn point_light_is_full_inside_inner_radius_and_zero_beyond_outer() {
    let ctx = context();
    let (w, h) = (64, 64);
    let (mut headless, plane) =
        support::renderer_with_mesh(&ctx, (w, h), &primitives::plane(20.0), "plane");
    let material = Material {
        base_color: Vec4::new(0.5, 0.5, 0.5, 1.0),
        specular_color: Vec3::ZERO,
        specular_power: 1.0,
        emissive: Vec3::ZERO,
    };
    let dark = Sun {
        intensity: 0.0,
        ambient: Vec3::ZERO,
        ..Sun::default()
    };
    // Camera straight above the plane looking down; light 1 m above the centre.
    let cam = support::square_camera(
        Vec3::new(0.0, 6.0, 0.0),
        Vec3::NEG_Z,
        90f32.to_radians(),
        100.0,
    );
    let mut data = frame(
        cam,
        dark,
        vec![DrawItem {
            mesh: plane,
            model: Mat4::IDENTITY,
            material,
            surface: None,
        }],
    );
    data.clear_color = Vec4::new(0.0, 0.0, 0.0, 1.0);
    data.point_lights.push(PointLight {
        position: Vec3::new(0.0, 1.0, 0.0),
        color: Vec3::new(1.0, 0.5, 0.25),
        intensity: 1.5,
        inner_radius: 2.0,
        outer_radius: 4.0,
    });
    let (image, _) = headless.render(&ctx, &data).unwrap();
    // Centre: distance ≈ 1 < inner radius, so attenuation 1; N·L ≈ 1 (camera ray hits ~(0,0,0)).
    let expected = Vec3::new(1.0, 0.5, 0.25) * 1.5 * 0.5;
    assert_pixel_near(
        &image,
        w / 2,
        h / 2,
        srgb_bytes(expected),
        3,
        "under the light",
    );
    // Corner of the view: ground ≈ 6 m away from the centre, beyond the outer radius.
    assert_pixel_near(&image, 0, 0, [0, 0, 0], 0, "beyond the outer radius");
}

#[test]
fn rendering_is_deterministic() {
    let ctx = context();
    let render = || {
        let (w, h) = (48, 40);
        let mut headless = HeadlessRenderer::new(&ctx, w, h).unwrap();
        let sphere = headless
            .renderer
            .upload_mesh(&ctx, &primitives::uv_sphere(0.7, 24, 12), "sphere")
            .unwrap();
        let cube = headless
            .renderer
            .upload_mesh(&ctx, &primitives::cube(1.0), "cube")
            .unwrap();
        let draws = vec![
            DrawItem {
                mesh: sphere,
                model: Mat4::from_translation(Vec3::X * 0.6),
                material: Material::default(),
                surface: None,
            },
            DrawItem {
                mesh: cube,
                model: Mat4::from_rotation_y(0.7) * Mat4::from_translation(Vec3::NEG_X * 0.6),
                material: Material {
                    base_color: Vec4::new(0.2, 0.6, 0.9, 1.0),
                    ..Default::default()
                },
                surface: None,
            },
        ];
        headless
            .render(
                &ctx,
                &frame(
                    camera(Vec3::new(0.5, 1.0, 3.0), w, h),
                    Sun::default(),
                    draws,
                ),
            )
            .unwrap()
            .0
    };
    let (a, b) = (render(), render());
    let max_diff = sierra_testkit::diff::max_byte_diff(a.as_raw(), b.as_raw());
    assert!(max_diff <= 1, "max difference {max_diff}");
}

#[test]
fn bad_mesh_handle_is_an_error_not_a_panic() {
    let ctx = context();
    let mut headless = HeadlessRenderer::new(&ctx, 8, 8).unwrap();
    let draws = vec![DrawItem {
        mesh: MeshHandle(7),
        model: Mat4::IDENTITY,
        material: Material::default(),
        surface: None,
    }];
    let err = headless
        .render(
            &ctx,
            &frame(camera(Vec3::Z * 3.0, 8, 8), Sun::default(), draws),
        )
        .unwrap_err();
    assert!(err.to_string().contains("mesh handle 7"), "{err}");
}

#[test]
fn oversized_and_zero_targets_are_errors() {
    let ctx = context();
    let too_big = ctx.device.limits().max_texture_dimension_2d + 1;
    assert!(matches!(
        HeadlessRenderer::new(&ctx, too_big, 4),
        Err(sierra_render::RenderError::LimitExceeded { .. })
    ));
    assert!(matches!(
        HeadlessRenderer::new(&ctx, 0, 4),
        Err(sierra_render::RenderError::InvalidInput(_))
    ));
}

/// Submits a copy within a 16-byte buffer made for uniforms only (no `COPY_SRC` or
/// `COPY_DST`): a validation error.
fn copy_from_a_uniform_buffer(ctx: &GpuContext) {
    let buffer = ctx
        .create_buffer(&wgpu::BufferDescriptor {
            label: Some("uniforms only"),
            size: 16,
            usage: wgpu::BufferUsages::UNIFORM,
            mapped_at_creation: false,
        })
        .unwrap();
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(&buffer, 0, &buffer, 0, 16);
    ctx.queue.submit([encoder.finish()]);
}

#[test]
fn validation_errors_are_results_not_panics() {
    let ctx = context();
    // A uniform buffer copied from: invalid usage → captured by the error scope.
    let err = ctx
        .scoped(
            || "copying from a buffer without COPY_SRC".to_owned(),
            || copy_from_a_uniform_buffer(&ctx),
        )
        .unwrap_err();
    assert!(err.to_string().contains("COPY_SRC"), "{err}");
}

#[test]
fn errors_outside_scopes_are_recorded_instead_of_panicking() {
    let ctx = context();
    assert!(ctx.take_uncaptured_errors("before").is_ok());
    // No error scope here: wgpu's default handler would panic; ours records the error.
    copy_from_a_uniform_buffer(&ctx);
    let err = ctx
        .take_uncaptured_errors("copying without COPY_SRC")
        .unwrap_err();
    assert!(
        err.to_string().contains("copying without COPY_SRC"),
        "{err}"
    );
    // Taking them empties the record.
    assert!(ctx.take_uncaptured_errors("after").is_ok());
}
