//! Frustum culling: a cube behind the camera is not drawn (draw count, culled count, triangles)
//! and leaving it out changes no pixel; a cube half inside the view is kept.

mod support;

use glam::{Mat4, Vec3};
use sierra_render::{primitives, DrawItem, Material};
use support::{context, frame};

#[test]
fn objects_outside_the_frustum_are_not_drawn() {
    let ctx = context();
    let (mut headless, cube) =
        support::renderer_with_mesh(&ctx, (64, 64), &primitives::cube(1.0), "cube");
    let mut frame = frame(support::square_camera(
        Vec3::new(0.0, 0.0, 4.0),
        Vec3::Y,
        1.0,
        50.0,
    ));
    let at = |x: f32, z: f32| DrawItem {
        mesh: cube,
        model: Mat4::from_translation(Vec3::new(x, 0.0, z)),
        material: Material::default(),
        surface: None,
    };
    // In front; behind the camera; beside the view; straddling the left edge (x = -2.19 at z = 0).
    frame.draws = vec![at(0.0, 0.0), at(0.0, 8.0), at(30.0, 0.0), at(-2.3, 0.0)];
    let (image, stats) = headless
        .render(&ctx, &frame)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (stats.draw_calls, stats.culled_draws, stats.triangles),
        (2, 2, 24)
    );

    headless.renderer.forward.culling = false;
    let (unculled, stats) = headless
        .render(&ctx, &frame)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((stats.draw_calls, stats.culled_draws), (4, 0));
    assert!(image == unculled, "culling changed the image");

    // A mesh without known bounds is never culled.
    headless.renderer.forward.culling = true;
    headless.renderer.set_mesh_bounds(cube, None);
    let (_, stats) = headless
        .render(&ctx, &frame)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((stats.draw_calls, stats.culled_draws), (4, 0));
}
