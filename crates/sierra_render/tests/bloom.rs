//! Bloom (seed 000): a single bright pixel spreads into the separable 9-tap Gaussian; pixels
//! below the threshold get no bloom. Values are read straight from the linear HDR textures.

mod support;

use glam::Vec3;
use sierra_render::passes::bloom::{BloomPass, GAUSSIAN_WEIGHTS};
use sierra_render::passes::{Pass, PassInputs};
use sierra_render::targets::RenderTargets;
use sierra_render::{BloomSettings, FrameData, GpuContext};
use support::{context, read_rgb, targets, write_hdr};

const SIZE: u32 = 64;

fn frame() -> FrameData {
    support::frame(support::square_camera(
        glam::Vec3::Z,
        glam::Vec3::Y,
        1.0,
        10.0,
    ))
}

/// Runs the bloom pass once over the given HDR pixels (black elsewhere).
fn run_bloom(
    ctx: &GpuContext,
    pixels: &[(u32, u32, Vec3)],
    settings: BloomSettings,
) -> (BloomPass, RenderTargets) {
    let targets = targets(ctx, SIZE);
    write_hdr(ctx, &targets, pixels);
    let mut bloom = BloomPass::new(ctx).unwrap_or_else(|e| panic!("{e}"));
    bloom
        .resize(ctx, &targets)
        .unwrap_or_else(|e| panic!("{e}"));
    let output = targets.hdr.create_view(&Default::default());
    let mut frame = frame();
    frame.post.bloom = settings;
    let inputs = PassInputs {
        frame: &frame,
        draws: &[],
        meshes: &sierra_render::MeshStore::new(),
        materials: &sierra_render::MaterialStore::new(ctx).unwrap(),
        targets: &targets,
        output: &output,
        shadow_casters: &[],
    };
    bloom
        .prepare(ctx, &inputs)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    bloom.record(
        &mut encoder,
        &inputs,
        sierra_render::passes::PassQueries::none(),
    );
    ctx.queue.submit([encoder.finish()]);
    ctx.take_uncaptured_errors("bloom")
        .unwrap_or_else(|e| panic!("{e}"));
    (bloom, targets)
}

#[test]
fn single_bright_pixel_spreads_into_the_separable_gaussian() {
    let ctx = context();
    // Pixel (33, 33) lies in half-resolution texel (16, 16) and quarter-resolution texel (8, 8).
    let value = 4.0;
    let (bloom, targets) = run_bloom(
        &ctx,
        &[(33, 33, Vec3::splat(value))],
        BloomSettings::default(),
    );
    let quarter = SIZE / 4;
    let blurred = read_rgb(
        &ctx,
        bloom
            .blurred_texture()
            .expect("bloom targets exist after resize"),
    );
    let at = |x: i32, y: i32| blurred[(y as u32 * quarter + x as u32) as usize].x;

    // The bright pass averages 2x2 pixels, the downsample another 2x2: value / 16 before the blur.
    let peak = value / 16.0;
    let expected_centre = peak * GAUSSIAN_WEIGHTS[0] * GAUSSIAN_WEIGHTS[0];
    assert!(
        (at(8, 8) - expected_centre).abs() < 2e-3 * expected_centre.max(1.0),
        "centre {} vs {expected_centre}",
        at(8, 8)
    );
    for d in 0..5i32 {
        let w = GAUSSIAN_WEIGHTS[d as usize];
        // Symmetric along both axes and separable: B(dx, dy) = peak * w[dx] * w[dy].
        for (x, y) in [(8 + d, 8), (8 - d, 8), (8, 8 + d), (8, 8 - d)] {
            let expected = peak * w * GAUSSIAN_WEIGHTS[0];
            assert!(
                (at(x, y) - expected).abs() <= 2e-3 * expected,
                "quarter texel ({x},{y}) = {} vs {expected}",
                at(x, y)
            );
        }
        let diagonal = peak * w * w;
        assert!((at(8 + d, 8 + d) - diagonal).abs() <= 3e-3 * diagonal);
        if d < 4 {
            // Ratios between neighbouring texels are the ratios of the seed's weights.
            let ratio = at(9 + d, 8) / at(8 + d, 8);
            let expected_ratio = GAUSSIAN_WEIGHTS[d as usize + 1] / GAUSSIAN_WEIGHTS[d as usize];
            assert!(
                (ratio - expected_ratio).abs() < 2e-3,
                "ratio at {d}: {ratio} vs {expected_ratio}"
            );
        }
    }
    // The 9-tap kernel reaches 4 texels: nothing beyond.
    assert_eq!(at(13, 8), 0.0);
    assert_eq!(at(8, 3), 0.0);
    assert_eq!(at(0, 0), 0.0);

    // Composite: the highlight is added around the pixel; far away the image stays black.
    let hdr = read_rgb(&ctx, &targets.hdr);
    let pixel = |x: u32, y: u32| hdr[(y * SIZE + x) as usize];
    assert!(pixel(33, 33).x > value, "bright pixel gains its own bloom");
    assert!(
        pixel(37, 33).x > 0.0 && pixel(29, 33).x > 0.0,
        "bloom spreads to neighbours"
    );
    assert_eq!(pixel(2, 2), Vec3::ZERO);
    assert_eq!(pixel(60, 33), Vec3::ZERO);
}

#[test]
fn pixels_below_the_threshold_get_no_bloom() {
    let ctx = context();
    // Brightest channel 0.79 < 0.8 (a whole 4x4 block, so averaging cannot hide a leak).
    let mut dim = Vec::new();
    for y in 8..12 {
        for x in 8..12 {
            dim.push((x, y, Vec3::new(0.79, 0.5, 0.2)));
        }
    }
    let (bloom, targets) = run_bloom(&ctx, &dim, BloomSettings::default());
    let bright = read_rgb(&ctx, bloom.bright_texture().expect("targets"));
    assert!(
        bright.iter().all(|&c| c == Vec3::ZERO),
        "bright pass kept a dim pixel"
    );
    let hdr = read_rgb(&ctx, &targets.hdr);
    assert!(
        (hdr[(9 * SIZE + 9) as usize].x - 0.79).abs() < 1e-3,
        "dim pixel unchanged"
    );
    assert_eq!(
        hdr[(9 * SIZE + 14) as usize],
        Vec3::ZERO,
        "no bloom next to a dim pixel"
    );

    // A pixel exactly on the threshold is kept (0.75: exact in binary16, unlike 0.8).
    let settings = BloomSettings {
        threshold: 0.75,
        ..BloomSettings::default()
    };
    let (bloom, _) = run_bloom(&ctx, &[(40, 40, Vec3::new(0.75, 0.0, 0.0))], settings);
    let bright = read_rgb(&ctx, bloom.bright_texture().expect("targets"));
    let kept = bright[(20 * (SIZE / 2) + 20) as usize].x;
    assert!(
        (kept - 0.75 / 4.0).abs() < 1e-3,
        "threshold is inclusive: {kept}"
    );
}

#[test]
fn threshold_intensity_and_blur_passes_are_configurable() {
    let ctx = context();
    let pixel = [(33, 33, Vec3::splat(4.0))];
    let high = BloomSettings {
        threshold: 5.0,
        ..BloomSettings::default()
    };
    let (bloom, _) = run_bloom(&ctx, &pixel, high);
    let blurred = read_rgb(&ctx, bloom.blurred_texture().expect("targets"));
    assert!(
        blurred.iter().all(|&c| c == Vec3::ZERO),
        "a higher threshold removes the pixel"
    );

    let sum = |settings| {
        let (_, targets) = run_bloom(&ctx, &pixel, settings);
        read_rgb(&ctx, &targets.hdr)
            .iter()
            .map(|c| c.x)
            .sum::<f32>()
            - 4.0
    };
    let once = sum(BloomSettings::default());
    let doubled = sum(BloomSettings {
        intensity: 2.0,
        ..BloomSettings::default()
    });
    assert!(
        (doubled / once - 2.0).abs() < 0.02,
        "intensity scales the added light: {once} {doubled}"
    );

    let (wide, _) = run_bloom(
        &ctx,
        &pixel,
        BloomSettings {
            blur_passes: 2,
            ..BloomSettings::default()
        },
    );
    let blurred = read_rgb(&ctx, wide.blurred_texture().expect("targets"));
    // Two passes reach 8 quarter texels from the centre.
    assert!(blurred[(8 * 16 + 14) as usize].x > 0.0);
}
