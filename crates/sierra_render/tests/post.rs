//! Tonemapping and sky: the tonemap curves against a CPU reference, the sky behind the scene
//! and its sun disc where the sun direction projects.

mod support;

use glam::{Mat4, Vec3};
use sierra_render::passes::tonemap::{aces_reference, TonemapPass};
use sierra_render::passes::{Pass, PassInputs};
use sierra_render::{primitives, Camera, DrawItem, HeadlessRenderer, Material, MeshHandle, Sun};
use sierra_render::{TonemapSettings, Tonemapper};
use support::{context, targets, write_hdr};

/// Linear [0, 1] → 8-bit sRGB (the test kit's independent encoder).
fn srgb_byte(linear: f32) -> u8 {
    sierra_testkit::srgb::srgb_byte(f64::from(linear))
}

/// An empty frame seen from 1 m along +Z through a square 1 rad view.
fn unit_frame() -> sierra_render::FrameData {
    support::frame(support::square_camera(Vec3::Z, Vec3::Y, 1.0, 10.0))
}

/// Tonemaps a row of grey HDR values `inputs[i]` and returns the output bytes of each pixel.
fn tonemap_row(inputs: &[f32], tonemapper: Tonemapper) -> Vec<[u8; 4]> {
    let ctx = context();
    let size = inputs.len() as u32;
    let targets = targets(&ctx, size);
    let pixels: Vec<_> = inputs
        .iter()
        .enumerate()
        .map(|(x, &v)| (x as u32, 0, Vec3::splat(v)))
        .collect();
    write_hdr(&ctx, &targets, &pixels);
    let output =
        sierra_render::OffscreenTarget::new(&ctx, size, size).unwrap_or_else(|e| panic!("{e}"));
    let mut pass =
        TonemapPass::new(&ctx, sierra_render::OUTPUT_FORMAT).unwrap_or_else(|e| panic!("{e}"));
    pass.resize(&ctx, &targets)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut frame = unit_frame();
    frame.post.tonemap = TonemapSettings {
        tonemapper,
        exposure_ev: 0.0,
    };
    let inputs_ = PassInputs {
        frame: &frame,
        draws: &[],
        meshes: &sierra_render::MeshStore::new(),
        materials: &sierra_render::MaterialStore::new(&ctx).unwrap(),
        targets: &targets,
        output: &output.view,
        shadow_casters: &[],
    };
    pass.prepare(&ctx, &inputs_)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    pass.record(
        &mut encoder,
        &inputs_,
        sierra_render::passes::PassQueries::none(),
    );
    ctx.queue.submit([encoder.finish()]);
    let image = sierra_render::readback::read_texture_rgba(&ctx, &output.texture)
        .unwrap_or_else(|e| panic!("{e}"));
    (0..size).map(|x| image.get_pixel(x, 0).0).collect()
}

const RAMP: [f32; 8] = [0.0, 0.02, 0.18, 0.5, 1.0, 2.0, 8.0, 64.0];

#[test]
fn none_passes_linear_values_clamped() {
    let out = tonemap_row(&RAMP, Tonemapper::None);
    for (value, pixel) in RAMP.iter().zip(&out) {
        // ±1: the HDR texture stores binary16, the output rounds to 8 bits.
        assert!(
            pixel[0].abs_diff(srgb_byte(*value)) <= 1,
            "none({value}) = {pixel:?}"
        );
    }
}

#[test]
fn aces_matches_the_reference_fit() {
    let out = tonemap_row(&RAMP, Tonemapper::Aces);
    for (value, pixel) in RAMP.iter().zip(&out) {
        let expected = srgb_byte(aces_reference([*value; 3])[0]);
        assert!(
            pixel[0].abs_diff(expected) <= 1,
            "aces({value}) = {} vs {expected}",
            pixel[0]
        );
    }
    // Filmic shape: black stays black, mid-grey is darkened a little, highlights roll off below white.
    assert!(out[0][0] <= 1);
    assert!(out[2][0] < srgb_byte(0.18) && out[2][0] > srgb_byte(0.08));
    assert!(out[6][0] > 240);
}

#[test]
fn agx_is_monotonic_and_compresses_highlights() {
    let out = tonemap_row(&RAMP, Tonemapper::Agx);
    for pair in out.windows(2) {
        assert!(pair[1][0] >= pair[0][0], "AgX not monotonic: {out:?}");
    }
    assert!(out[0][0] < 10, "black stays near black: {out:?}");
    assert!(
        out[4][0] < 250 && out[7][0] > 230,
        "1.0 is not clipped, 64 is near white: {out:?}"
    );
    // Grey in, grey out (the AgX matrices keep neutral colours neutral).
    for pixel in &out {
        assert!(pixel[0].abs_diff(pixel[1]) <= 1 && pixel[1].abs_diff(pixel[2]) <= 1);
    }
}

#[test]
fn sky_fills_the_background_with_the_sun_disc_on_the_sun_direction() {
    let ctx = context();
    let size = 96;
    let (mut headless, cube) =
        support::renderer_with_mesh(&ctx, (size, size), &primitives::cube(1.0), "cube");
    assert_eq!(cube, MeshHandle(0));
    let eye = Vec3::new(0.0, 1.0, 5.0);
    let camera = Camera::look_at(eye, Vec3::new(0.0, 1.5, 0.0), Vec3::Y, 1.2, 1.0, 0.1, 100.0);
    let to_sun = Vec3::new(0.35, 0.45, -1.0).normalize();
    let mut frame = support::frame(camera);
    frame.sun = Sun {
        direction: -to_sun,
        ..Sun::default()
    };
    frame.draws.push(DrawItem {
        mesh: cube,
        model: Mat4::from_translation(Vec3::new(-1.0, 0.0, 0.0)),
        material: Material::default(),
        surface: None,
    });
    let (without_sky, _) = headless
        .render(&ctx, &frame)
        .unwrap_or_else(|e| panic!("{e}"));
    frame.post.sky.enabled = true;
    let (with_sky, _) = headless
        .render(&ctx, &frame)
        .unwrap_or_else(|e| panic!("{e}"));
    with_sky
        .save(std::env::temp_dir().join("sierra_sky_test.png"))
        .ok();

    // The sun disc is where the sun direction projects.
    let clip = camera.view_proj() * (eye + to_sun).extend(1.0);
    let ndc = clip.truncate() / clip.w;
    let sun_px = (
        ((ndc.x * 0.5 + 0.5) * size as f32) as u32,
        ((0.5 - ndc.y * 0.5) * size as f32) as u32,
    );
    assert_eq!(
        with_sky.get_pixel(sun_px.0, sun_px.1).0[..3],
        [255, 255, 255],
        "sun disc at {sun_px:?}"
    );
    let away = with_sky
        .get_pixel(sun_px.0.saturating_sub(20), sun_px.1 + 20)
        .0;
    assert!(away[0] < 250, "only the disc is saturated: {away:?}");

    // Sky only where no geometry is: the cube's pixels are unchanged, the background is not.
    let cube_px = {
        let clip = camera.view_proj() * Vec3::new(-1.0, 0.0, 0.5).extend(1.0);
        let ndc = clip.truncate() / clip.w;
        (
            ((ndc.x * 0.5 + 0.5) * size as f32) as u32,
            ((0.5 - ndc.y * 0.5) * size as f32) as u32,
        )
    };
    assert_eq!(
        with_sky.get_pixel(cube_px.0, cube_px.1),
        without_sky.get_pixel(cube_px.0, cube_px.1)
    );
    assert_ne!(
        with_sky.get_pixel(size - 2, 2),
        without_sky.get_pixel(size - 2, 2)
    );
    // Higher up is closer to the zenith colour (bluer: less red relative to blue).
    let top = with_sky.get_pixel(size / 2, 1).0;
    let horizon = with_sky.get_pixel(size / 2, size / 2 + 10).0;
    assert!(
        top[2] > top[0] && (top[0] as i32) < horizon[0] as i32,
        "top {top:?} horizon {horizon:?}"
    );
}

#[test]
fn every_pass_reports_gpu_time_where_timestamps_exist() {
    let ctx = context();
    let mut headless = HeadlessRenderer::new(&ctx, 32, 32).unwrap_or_else(|e| panic!("{e}"));
    let mut frame = unit_frame();
    frame.post.sky.enabled = true;
    frame.post.bloom.enabled = true;
    frame.post.tonemap.tonemapper = Tonemapper::Aces;
    let (_, stats) = headless
        .render(&ctx, &frame)
        .unwrap_or_else(|e| panic!("{e}"));
    let newest = stats.newest_gpu();
    let names: Vec<&str> = newest.map_or(Vec::new(), |t| {
        t.scopes.iter().map(|s| s.label.as_str()).collect()
    });
    if ctx.has_timestamps() {
        // This frame's own timings, read after its read-back without another wait.
        assert_eq!(newest.map(|t| t.frame), Some(stats.frame));
        assert_eq!(headless.renderer.gpu_timing_waits(), 0);
        // In frame order (other passes, e.g. the sea, may sit between).
        let order: Vec<usize> = ["shadow", "forward", "sky", "bloom", "tonemap"]
            .iter()
            .map(|pass| names.iter().position(|n| n == pass).unwrap_or(usize::MAX))
            .collect();
        assert!(
            order.windows(2).all(|w| w[0] < w[1]) && order[4] != usize::MAX,
            "{names:?}"
        );
        let timings = newest.unwrap();
        assert!(timings
            .scopes
            .iter()
            .all(|s| s.start_ms.is_finite() && s.end_ms >= s.start_ms && s.start_ms >= 0.0));
        assert!(timings.gpu_ms() > 0.0);
    } else {
        assert!(names.is_empty() && stats.gpu.is_empty());
        sierra_testkit::skip::skip(
            sierra_testkit::skip::Reason::GpuFeature,
            "no timestamp queries: the passes' GPU scopes are not checked",
        );
    }
}

#[test]
fn wireframe_mode_draws_edges_only() {
    let ctx = context();
    let mut headless = HeadlessRenderer::new(&ctx, 64, 64).unwrap_or_else(|e| panic!("{e}"));
    let lines_supported = ctx
        .device
        .features()
        .contains(wgpu::Features::POLYGON_MODE_LINE);
    assert_eq!(
        headless.renderer.forward.wireframe_supported(),
        lines_supported
    );
    // Without line rasterisation a wireframe frame is drawn filled (the window says so).
    if sierra_testkit::skip::unless(
        lines_supported,
        sierra_testkit::skip::Reason::GpuFeature,
        "no POLYGON_MODE_LINE: wireframe frames are drawn filled",
    ) {
        return;
    }
    let cube = headless
        .renderer
        .upload_mesh(&ctx, &primitives::cube(1.0), "cube")
        .unwrap_or_else(|e| panic!("{e}"));
    let mut frame = support::frame(support::square_camera(
        Vec3::new(0.9, 0.9, 1.5),
        Vec3::Y,
        1.0,
        10.0,
    ));
    frame.draws.push(DrawItem {
        mesh: cube,
        model: Mat4::IDENTITY,
        material: Material::default(),
        surface: None,
    });
    let covered =
        |image: &image::RgbaImage| image.pixels().filter(|p| p.0[..3] != [0, 0, 0]).count();
    let (filled, _) = headless
        .render(&ctx, &frame)
        .unwrap_or_else(|e| panic!("{e}"));
    frame.post.wireframe = true;
    let (lines, _) = headless
        .render(&ctx, &frame)
        .unwrap_or_else(|e| panic!("{e}"));
    let (f, l) = (covered(&filled), covered(&lines));
    assert!(
        l > 20 && l * 3 < f,
        "wireframe covers {l} pixels, filled {f}"
    );
    // Background shows through inside the silhouette: pixels the filled cube covers are black
    // in the wireframe frame; lines only spill a pixel past the filled outline.
    let lit = |p: &image::Rgba<u8>| p.0[..3] != [0, 0, 0];
    let holes = filled
        .pixels()
        .zip(lines.pixels())
        .filter(|(a, b)| lit(a) && !lit(b))
        .count();
    let outside = filled
        .pixels()
        .zip(lines.pixels())
        .filter(|(a, b)| !lit(a) && lit(b))
        .count();
    assert!(
        holes * 2 > f && outside * 2 < l,
        "{holes} background pixels inside the silhouette, {outside} line pixels outside it"
    );
}
