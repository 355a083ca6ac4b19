//! Pipeline statistics per render pass (`PIPELINE_STATISTICS_QUERY`): on an adapter that has
//! them, a frame of one cube reports for the forward pass the cube's vertices and triangles and
//! at least one fragment per covered pixel, and a frame without it reports none; on one that
//! has not, the statistics are `None` (not zeros).

mod support;

use glam::Mat4;
use sierra_render::pipeline_statistics::PassStatistics;
use sierra_render::HeadlessRenderer;
use support::{context, white_cube_frame};

const SIZE: u32 = 64;

/// Renders `frame` and returns the image and the frame's statistics (`None` without the feature).
fn statistics(
    ctx: &sierra_render::GpuContext,
    headless: &mut HeadlessRenderer,
    frame: &sierra_render::FrameData,
) -> (image::RgbaImage, Option<Vec<PassStatistics>>) {
    let (image, stats) = headless.render(ctx, frame).unwrap();
    let mut gpu = stats.gpu;
    gpu.extend(headless.renderer.flush_gpu_timings(ctx).unwrap());
    let timings = gpu.into_iter().find(|t| t.frame == stats.frame);
    (image, timings.and_then(|t| t.pass_statistics))
}

fn pass<'a>(stats: &'a [PassStatistics], label: &str) -> &'a PassStatistics {
    stats
        .iter()
        .find(|s| s.label == label)
        .unwrap_or_else(|| panic!("{label}: {stats:?}"))
}

#[test]
fn the_forward_pass_counts_the_cubes_vertices_triangles_and_covered_pixels() {
    let ctx = context();
    let mut headless = HeadlessRenderer::new(&ctx, SIZE, SIZE).unwrap();
    let counted = ctx
        .features
        .contains(wgpu::Features::PIPELINE_STATISTICS_QUERY)
        && ctx.has_timestamps();
    let frame = white_cube_frame(&ctx, &mut headless, Mat4::from_rotation_y(0.5));
    let (image, stats) = statistics(&ctx, &mut headless, &frame);
    let Some(stats) = stats else {
        assert!(!counted, "the adapter counts, but no statistics came back");
        return sierra_testkit::skip::skip(
            sierra_testkit::skip::Reason::GpuFeature,
            format!(
                "no PIPELINE_STATISTICS_QUERY (or timestamps) on {}: the report's null",
                ctx.adapter_summary()
            ),
        );
    };
    assert!(counted);
    let covered = image.pixels().filter(|p| p.0[0] > 8).count() as u64;
    let forward = pass(&stats, "forward");
    eprintln!("{} covered pixels; {forward:?}", covered);
    // 24 vertices drawn through 36 indices (a vertex cache may shade each index or each vertex).
    assert!(
        (24..=36).contains(&forward.vertex_shader_invocations),
        "{forward:?}"
    );
    // 12 triangles reach the clipper (back faces are culled after it).
    assert!(
        (1..=12).contains(&forward.clipper_invocations),
        "{forward:?}"
    );
    // Each covered pixel shades at least once; 2x2 quads at the edges add a few helpers.
    assert!(
        forward.fragment_shader_invocations >= covered * 9 / 10,
        "{forward:?}"
    );
    assert!(
        forward.fragment_shader_invocations <= 2 * covered + 4 * SIZE as u64,
        "{forward:?}"
    );
    // The tonemap pass shades the whole image.
    assert!(pass(&stats, "tonemap").fragment_shader_invocations >= u64::from(SIZE * SIZE));

    // The same pass without the cube counts nothing.
    let mut empty = frame.clone();
    empty.draws.clear();
    let (_, stats) = statistics(&ctx, &mut headless, &empty);
    let forward = pass(stats.as_deref().unwrap(), "forward");
    assert_eq!(forward.vertex_shader_invocations, 0, "{forward:?}");
    assert_eq!(forward.fragment_shader_invocations, 0, "{forward:?}");
}
