//! Shadow casters are culled against the sun's box: a cube far outside it costs the shadow pass
//! no vertex invocations (pipeline statistics), while the same cube inside the box costs some;
//! and a mesh casts only its caster indices (`Renderer::set_caster_indices`).
//! Negative control: with culling off, the far cube is drawn into the map (its vertices are
//! counted), so the zero comes from the cull and not from the clipper.

mod support;

use glam::{Mat4, Vec3};
use sierra_render::pipeline_statistics::PassStatistics;
use sierra_render::{primitives, DrawItem, FrameData, GpuContext, HeadlessRenderer, Material};
use support::{context, frame};

/// The shadow pass's statistics of one frame; `None` where the adapter cannot count.
fn shadow_statistics(
    ctx: &GpuContext,
    headless: &mut HeadlessRenderer,
    frame: &FrameData,
) -> Option<PassStatistics> {
    let (_, stats) = headless
        .render(ctx, frame)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut gpu = stats.gpu;
    gpu.extend(headless.renderer.flush_gpu_timings(ctx).unwrap());
    let timings = gpu.into_iter().find(|t| t.frame == stats.frame)?;
    timings
        .pass_statistics?
        .into_iter()
        .find(|s| s.label == "shadow")
}

#[test]
fn a_caster_outside_the_suns_box_costs_the_shadow_pass_no_vertices() {
    let ctx = context();
    let (mut headless, cube) =
        support::renderer_with_mesh(&ctx, (64, 64), &primitives::cube(1.0), "cube");
    let mut frame = frame(support::square_camera(
        Vec3::new(0.0, 0.0, 4.0),
        Vec3::Y,
        1.0,
        50.0,
    ));
    frame.sun.direction = Vec3::new(0.3, -1.0, 0.2).normalize();
    assert!(frame.post.shadow.enabled && frame.sun.intensity > 0.0);
    let at = |x: f32| DrawItem {
        mesh: cube,
        model: Mat4::from_translation(Vec3::new(x, 0.0, 0.0)),
        material: Material::default(),
        surface: None,
    };
    frame.draws = vec![at(0.0)];
    let Some(inside) = shadow_statistics(&ctx, &mut headless, &frame) else {
        return sierra_testkit::skip::skip(
            sierra_testkit::skip::Reason::GpuFeature,
            format!(
                "no pipeline statistics (or timestamps) on {}",
                ctx.adapter_summary()
            ),
        );
    };
    assert!(inside.vertex_shader_invocations > 0, "{inside:?}");

    // A mesh whose caster indices are limited casts only those (a terrain chunk's ground
    // without its skirt): none at all costs nothing, and lifting the limit restores the count.
    headless.renderer.set_caster_indices(cube, Some(0));
    let limited = shadow_statistics(&ctx, &mut headless, &frame).unwrap();
    assert_eq!(limited.vertex_shader_invocations, 0, "{limited:?}");
    headless.renderer.set_caster_indices(cube, None);
    let restored = shadow_statistics(&ctx, &mut headless, &frame).unwrap();
    assert_eq!(restored, inside);

    // 500 m to the side: outside the view's 40 m shadow box and its 50 m margin.
    frame.draws = vec![at(500.0)];
    let outside = shadow_statistics(&ctx, &mut headless, &frame).unwrap();
    assert_eq!(outside.vertex_shader_invocations, 0, "{outside:?}");

    // Control: unculled, the same far cube runs its vertices through the shadow pass.
    headless.renderer.forward.culling = false;
    let unculled = shadow_statistics(&ctx, &mut headless, &frame).unwrap();
    assert!(unculled.vertex_shader_invocations > 0, "{unculled:?}");
}
