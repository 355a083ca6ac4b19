//! FXAA against a 16× supersampled reference: a white half-plane on black whose edge runs 15°
//! off vertical. The reference renders the same frame at 4× the width and height (16 samples
//! per pixel) and averages each 4×4 block in linear light; each image's error is its mean
//! |pixel − reference| in linear light over all pixels. FXAA must remove at least 40 % of the
//! aliased image's error; 4× MSAA's figure is printed beside it.

mod support;

use glam::{Mat4, Vec3};
use sierra_render::{AntiAliasing, FrameData, GpuContext, HeadlessRenderer};
use support::{context, white_cube_frame};

const SIZE: u32 = 64;
/// Reference supersampling per axis (4 × 4 = 16 samples per pixel).
const SS: u32 = 4;

/// The slanted-edge frame for a renderer of any size: a large white unlit box whose left edge
/// passes through the view's centre, turned 15° about the view axis.
fn edge_frame(ctx: &GpuContext, headless: &mut HeadlessRenderer, aa: AntiAliasing) -> FrameData {
    let model = Mat4::from_rotation_z(15f32.to_radians())
        * Mat4::from_translation(Vec3::new(5.0, 0.0, 0.0))
        * Mat4::from_scale(Vec3::new(10.0, 10.0, 0.01));
    let mut frame = white_cube_frame(ctx, headless, model);
    frame.post.aa = aa;
    frame
}

/// An sRGB-encoded byte as linear light (the test kit's independent decoder).
fn srgb_to_linear(c: u8) -> f32 {
    sierra_testkit::srgb::srgb_to_linear(c) as f32
}

/// `[SIZE * SIZE]` linear red values of a render at `size` × `size`, box-averaged down to
/// SIZE × SIZE (the reference) when `size` is larger.
fn render_linear(ctx: &GpuContext, size: u32, aa: AntiAliasing, samples: u32) -> Vec<f32> {
    let mut headless = HeadlessRenderer::new(ctx, size, size).unwrap_or_else(|e| panic!("{e}"));
    headless
        .renderer
        .set_sample_count(ctx, samples)
        .unwrap_or_else(|e| panic!("{e}"));
    let frame = edge_frame(ctx, &mut headless, aa);
    let (image, _) = headless
        .render(ctx, &frame)
        .unwrap_or_else(|e| panic!("{e}"));
    let _ =
        image.save(std::env::temp_dir().join(format!("sierra_fxaa_{size}_{aa:?}_{samples}.png")));
    let k = size / SIZE;
    let mut out = vec![0.0; (SIZE * SIZE) as usize];
    for y in 0..size {
        for x in 0..size {
            out[((y / k) * SIZE + x / k) as usize] +=
                srgb_to_linear(image.get_pixel(x, y).0[0]) / (k * k) as f32;
        }
    }
    out
}

fn mean_error(image: &[f32], reference: &[f32]) -> f32 {
    let sum: f32 = image
        .iter()
        .zip(reference)
        .map(|(a, b)| (a - b).abs())
        .sum();
    sum / image.len() as f32
}

#[test]
fn fxaa_brings_a_slanted_edge_closer_to_the_supersampled_reference() {
    let ctx = context();
    let reference = render_linear(&ctx, SIZE * SS, AntiAliasing::None, 1);
    let aliased = render_linear(&ctx, SIZE, AntiAliasing::None, 1);
    let fxaa = render_linear(&ctx, SIZE, AntiAliasing::Fxaa, 1);
    let msaa = render_linear(&ctx, SIZE, AntiAliasing::None, 4);
    let (e_aliased, e_fxaa, e_msaa) = (
        mean_error(&aliased, &reference),
        mean_error(&fxaa, &reference),
        mean_error(&msaa, &reference),
    );
    let reduction = |e: f32| 100.0 * (1.0 - e / e_aliased);
    eprintln!(
        "mean |pixel - 16x reference| (linear): none {e_aliased:.5}, FXAA {e_fxaa:.5} ({:.0} % less), 4x MSAA {e_msaa:.5} ({:.0} % less)",
        reduction(e_fxaa),
        reduction(e_msaa)
    );
    // The edge is there and aliased: about one pixel per row is off by a large amount.
    assert!(e_aliased > 0.002, "no aliased edge: {e_aliased}");
    assert!(
        reduction(e_fxaa) >= 40.0,
        "FXAA removed only {:.0} % of the error",
        reduction(e_fxaa)
    );
    // Away from the edge FXAA leaves pixels alone: the corners are exactly black and white.
    let at = |v: &[f32], x: u32, y: u32| v[(y * SIZE + x) as usize];
    assert_eq!(at(&fxaa, 2, 32), 0.0);
    assert_eq!(at(&fxaa, SIZE - 3, 32), 1.0);
}

#[test]
fn fxaa_is_off_unless_the_frame_asks() {
    let ctx = context();
    let mut headless = HeadlessRenderer::new(&ctx, SIZE, SIZE).unwrap_or_else(|e| panic!("{e}"));
    let plain = edge_frame(&ctx, &mut headless, AntiAliasing::None);
    let (a, _) = headless
        .render(&ctx, &plain)
        .unwrap_or_else(|e| panic!("{e}"));
    let filtered = edge_frame(&ctx, &mut headless, AntiAliasing::Fxaa);
    let (b, _) = headless
        .render(&ctx, &filtered)
        .unwrap_or_else(|e| panic!("{e}"));
    // The aliased image is pure black and white; FXAA adds greys on the edge only.
    let greys = |i: &image::RgbaImage| i.pixels().filter(|p| (8..=247).contains(&p.0[0])).count();
    assert_eq!(greys(&a), 0);
    assert!(greys(&b) >= SIZE as usize / 2, "{} grey pixels", greys(&b));
    // Switching back gives the aliased image again.
    let (c, _) = headless
        .render(&ctx, &plain)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(a == c);
}
