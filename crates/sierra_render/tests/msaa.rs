//! 4× MSAA: silhouette edges get coverage-weighted values between the object and the background
//! (single-sample edges are hard), interiors keep their exact value, and every pass that draws
//! into the HDR target (forward, crowd, sky, wireframe) runs at the shared sample count.

mod support;

use glam::Mat4;
use sierra_render::HeadlessRenderer;
use support::{context, white_cube_frame};

const SIZE: u32 = 64;

/// A white unlit (emissive 1, albedo 0) cube turned 30° about Y and X, on black.
fn cube_frame(
    ctx: &sierra_render::GpuContext,
    headless: &mut HeadlessRenderer,
) -> sierra_render::FrameData {
    white_cube_frame(
        ctx,
        headless,
        Mat4::from_rotation_x(0.5) * Mat4::from_rotation_y(0.5),
    )
}

/// Pixels strictly between black and white (partly covered edge pixels).
fn partial(image: &image::RgbaImage) -> usize {
    image
        .pixels()
        .filter(|p| (8..=247).contains(&p.0[0]))
        .count()
}

#[test]
fn msaa_4x_blends_edges_and_keeps_interiors() {
    let ctx = context();
    let mut headless = HeadlessRenderer::new(&ctx, SIZE, SIZE).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        headless.renderer.sample_count(),
        1,
        "MSAA is off by default"
    );
    let frame = cube_frame(&ctx, &mut headless);
    let (single, _) = headless
        .render(&ctx, &frame)
        .unwrap_or_else(|e| panic!("{e}"));
    headless
        .renderer
        .set_sample_count(&ctx, 4)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(headless.renderer.sample_count(), 4);
    let (multi, _) = headless
        .render(&ctx, &frame)
        .unwrap_or_else(|e| panic!("{e}"));
    let _ = multi.save(std::env::temp_dir().join("sierra_msaa_4x.png"));
    let (hard, soft) = (partial(&single), partial(&multi));
    assert_eq!(
        hard, 0,
        "one sample per pixel: every pixel is cube or background"
    );
    assert!(soft > 40, "4x MSAA: {soft} partly covered edge pixels");
    // Interior and background untouched.
    assert_eq!(single.get_pixel(32, 32), multi.get_pixel(32, 32));
    assert_eq!(single.get_pixel(32, 32).0[0], 255);
    assert_eq!(single.get_pixel(1, 1), multi.get_pixel(1, 1));
    // Resizing keeps the sample count; switching back gives the single-sample image again.
    headless
        .renderer
        .resize(&ctx, SIZE, SIZE)
        .unwrap_or_else(|e| panic!("{e}"));
    headless
        .renderer
        .set_sample_count(&ctx, 1)
        .unwrap_or_else(|e| panic!("{e}"));
    let (again, _) = headless
        .render(&ctx, &frame)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(again == single);
}

#[test]
fn msaa_runs_every_hdr_pass_at_the_same_sample_count() {
    // A pass left at one sample per pixel against 4-sample targets is a wgpu validation error,
    // which `render` returns: sky, crowd (an empty crowd pass still opens its render pass),
    // bloom after the resolve, and the wireframe pipeline.
    let ctx = context();
    let mut headless = HeadlessRenderer::new(&ctx, SIZE, SIZE).unwrap_or_else(|e| panic!("{e}"));
    let mut frame = cube_frame(&ctx, &mut headless);
    headless
        .renderer
        .set_sample_count(&ctx, 4)
        .unwrap_or_else(|e| panic!("{e}"));
    frame.post.sky.enabled = true;
    frame.post.bloom.enabled = true;
    let (with_sky, _) = headless
        .render(&ctx, &frame)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_ne!(with_sky.get_pixel(1, 1).0[..3], [0, 0, 0], "sky drawn");
    if headless.renderer.forward.wireframe_supported() {
        frame.post.wireframe = true;
        headless
            .render(&ctx, &frame)
            .unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn unsupported_sample_counts_are_refused() {
    let ctx = context();
    let mut headless = HeadlessRenderer::new(&ctx, SIZE, SIZE).unwrap_or_else(|e| panic!("{e}"));
    let err = headless
        .renderer
        .set_sample_count(&ctx, 3)
        .expect_err("3 samples per pixel is not a valid count");
    assert!(err.to_string().contains("3 samples"), "{err}");
    assert_eq!(headless.renderer.sample_count(), 1);
}
