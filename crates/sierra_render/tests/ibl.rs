//! Image-based lighting (`sierra_render::environment`), measured in the HDR target before bloom
//! and tonemapping:
//! - a white furnace: under a uniform environment of radiance L, white metals at every roughness
//!   and white dielectrics return L within 5 % — and without the multiple-scattering energy
//!   compensation (Fdez-Agüera 2019) the rough metals lose more than that;
//! - a sphere grid under the procedural sky: metallic spheres are never black, and as roughness
//!   rises the peak luminance does not rise and the area above half the peak does not shrink;
//! - the split-sum table against its known limits.

mod support;

use glam::{Mat4, Vec3, Vec4};
use sierra_render::environment::EnvironmentSizes;
use sierra_render::material::{ShadingModel, SurfaceMaterial};
use sierra_render::{
    primitives, DrawItem, EnvironmentSource, FrameData, GpuContext, HeadlessRenderer, Material,
    MeshHandle, Sun,
};

/// Side of the rendered images.
const SIZE: u32 = 48;
/// Roughness steps of the grid.
const ROUGHNESS: [f32; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Bake sizes small enough for the software driver, large enough to measure.
fn sizes() -> EnvironmentSizes {
    EnvironmentSizes {
        cube: 32,
        prefiltered_mips: 5,
        irradiance: 8,
        brdf_lut: 32,
        samples: 32,
        lut_samples: 128,
    }
}

struct Scene {
    ctx: GpuContext,
    headless: HeadlessRenderer,
    sphere: MeshHandle,
}

fn scene() -> Scene {
    let ctx = support::context();
    let mut headless = HeadlessRenderer::new(&ctx, SIZE, SIZE).unwrap_or_else(|e| panic!("{e}"));
    headless
        .renderer
        .set_environment_sizes(&ctx, sizes())
        .unwrap_or_else(|e| panic!("{e}"));
    let sphere = headless
        .renderer
        .upload_mesh(&ctx, &primitives::uv_sphere(1.0, 48, 24), "sphere")
        .unwrap_or_else(|e| panic!("{e}"));
    Scene {
        ctx,
        headless,
        sphere,
    }
}

/// A frame of one white sphere of `metallic`/`roughness`, filling most of the view from +Z,
/// with no sun, no ambient, no point lights: only the environment lights it.
fn sphere_frame(scene: &mut Scene, metallic: f32, roughness: f32, albedo: f32) -> FrameData {
    let surface = scene
        .headless
        .renderer
        .add_material(
            &scene.ctx,
            &SurfaceMaterial {
                model: ShadingModel::MetallicRoughness {
                    metallic,
                    roughness,
                },
                ..SurfaceMaterial::default()
            },
        )
        .unwrap_or_else(|e| panic!("{e}"));
    let camera = support::square_camera(Vec3::new(0.0, 0.0, 3.2), Vec3::Y, 0.7, 10.0);
    let mut frame = support::frame(camera);
    frame.sun = Sun {
        direction: Vec3::new(-0.4, -0.6, -0.5),
        intensity: 0.0,
        ambient: Vec3::ZERO,
        ..Sun::default()
    };
    frame.draws.push(DrawItem {
        surface: Some(surface),
        ..DrawItem::new(
            scene.sphere,
            Mat4::IDENTITY,
            Material {
                base_color: Vec4::new(albedo, albedo, albedo, 1.0),
                ..Material::default()
            },
        )
    });
    frame
}

/// Renders `frame` and returns the HDR target's luminances of the sphere's pixels: those whose
/// centre lies within `inner` of the sphere's projected radius (edges are partly background).
fn sphere_luminances(scene: &mut Scene, frame: &FrameData, inner: f32) -> Vec<f32> {
    scene
        .headless
        .render(&scene.ctx, frame)
        .unwrap_or_else(|e| panic!("{e}"));
    let hdr = support::read_rgb(&scene.ctx, &scene.headless.renderer.targets().hdr);
    // Projected radius in pixels: the sphere of radius 1 at distance 3.2 under a 0.7 rad view.
    let angular = (1.0f32 / 3.2).asin();
    let radius_px = angular.tan() / (0.35f32).tan() * SIZE as f32 / 2.0;
    let centre = SIZE as f32 / 2.0;
    (0..SIZE * SIZE)
        .filter(|i| {
            let (x, y) = ((i % SIZE) as f32 + 0.5, (i / SIZE) as f32 + 0.5);
            ((x - centre).powi(2) + (y - centre).powi(2)).sqrt() < radius_px * inner
        })
        .map(|i| hdr[i as usize].dot(Vec3::new(0.2126, 0.7152, 0.0722)))
        .collect()
}

fn furnace(scene: &mut Scene, compensation: bool) -> Vec<(String, f32)> {
    let radiance = 0.5;
    let mut worst = Vec::new();
    for (metallic, name) in [(1.0, "metal"), (0.0, "dielectric")] {
        for roughness in ROUGHNESS {
            let mut frame = sphere_frame(scene, metallic, roughness, 1.0);
            frame.post.environment.source = EnvironmentSource::Uniform(Vec3::splat(radiance));
            frame.post.environment.energy_compensation = compensation;
            let lum = sphere_luminances(scene, &frame, 0.9);
            assert!(lum.len() > 200, "{} sphere pixels", lum.len());
            let off = lum
                .iter()
                .map(|l| (l / radiance - 1.0).abs())
                .fold(0.0f32, f32::max);
            worst.push((format!("{name} roughness {roughness}"), off));
        }
    }
    worst
}

#[test]
fn white_furnace_returns_the_environment_within_five_percent_and_fails_without_compensation() {
    let mut scene = scene();
    let on = furnace(&mut scene, true);
    for (what, off) in &on {
        assert!(
            *off <= 0.05,
            "{what}: a pixel is {:.1} % off the environment's radiance (all: {on:?})",
            off * 100.0
        );
    }
    let off = furnace(&mut scene, false);
    eprintln!("furnace, compensated: {on:?}\nfurnace, uncompensated: {off:?}");
    for (what, error) in &off {
        let rough_metal = what.starts_with("metal") && !what.ends_with(" 0");
        if rough_metal && !what.ends_with("0.25") {
            assert!(
                *error > 0.05,
                "{what}: without energy compensation it should lose more than 5 % (all: {off:?})"
            );
        }
    }
}

/// Peak luminance and the fraction of sphere pixels above half of it.
fn peak_and_area(lum: &[f32]) -> (f32, f32) {
    let peak = lum.iter().copied().fold(0.0f32, f32::max);
    let above = lum.iter().filter(|&&l| l >= 0.5 * peak).count();
    (peak, above as f32 / lum.len() as f32)
}

#[test]
fn sphere_grid_under_the_sky_metals_never_black_highlights_spread_as_roughness_rises() {
    let mut scene = scene();
    for metallic in [1.0, 0.0] {
        let mut previous: Option<(f32, f32, f32)> = None;
        for roughness in ROUGHNESS {
            let mut frame = sphere_frame(&mut scene, metallic, roughness, 0.9);
            frame.post.environment.source = EnvironmentSource::Sky;
            let lum = sphere_luminances(&mut scene, &frame, 0.95);
            let (peak, area) = peak_and_area(&lum);
            let darkest = lum.iter().copied().fold(f32::INFINITY, f32::min);
            eprintln!("metallic {metallic} roughness {roughness}: peak {peak:.3}, area above half-peak {area:.3}, darkest {darkest:.3}");
            if metallic == 1.0 {
                assert!(
                    darkest > 0.02,
                    "metal at roughness {roughness}: a pixel is black ({darkest})"
                );
            }
            if let Some((r0, p0, a0)) = previous {
                // 1 % slack for the bake's sampling noise.
                assert!(
                    peak <= p0 * 1.01,
                    "metallic {metallic}: peak rose from {p0} (roughness {r0}) to {peak} (roughness {roughness})"
                );
                assert!(
                    area >= a0 - 0.01,
                    "metallic {metallic}: area above half-peak shrank from {a0} (roughness {r0}) to {area} (roughness {roughness})"
                );
            }
            previous = Some((roughness, peak, area));
        }
    }
}

#[test]
fn brdf_table_has_the_split_sum_limits() {
    let scene = scene();
    let lut = support::read_rgb(&scene.ctx, scene.headless.renderer.environment_maps().lut());
    let n = sizes().brdf_lut as usize;
    let at = |x: usize, y: usize| lut[y * n + x];
    // Smooth and facing the viewer: the mirror reflects everything, F0 * 1 + 0.
    let smooth_facing = at(n - 1, 0);
    assert!(
        (smooth_facing.x + smooth_facing.y - 1.0).abs() < 0.03 && smooth_facing.y < 0.03,
        "smooth, N.V ~ 1: {smooth_facing}"
    );
    // Energy lost to single scattering grows with roughness (Kulla & Conty 2017, fig. 2).
    let rough = at(n - 1, n - 1);
    assert!(rough.x + rough.y < 0.9, "rough, N.V ~ 1: {rough}");
    for y in 1..n {
        let (e0, e1) = (at(n / 2, y - 1), at(n / 2, y));
        assert!(
            e1.x + e1.y <= e0.x + e0.y + 0.02,
            "Ess rises with roughness at row {y}: {e0} -> {e1}"
        );
    }
}

/// The HDR target after rendering `frame`, and the frame's number.
fn render_hdr(
    scene: &mut Scene,
    frame: &FrameData,
) -> (Vec<Vec3>, Vec<sierra_render::GpuFrameTimings>) {
    let (_, stats) = scene
        .headless
        .render(&scene.ctx, frame)
        .unwrap_or_else(|e| panic!("{e}"));
    let hdr = support::read_rgb(&scene.ctx, &scene.headless.renderer.targets().hdr);
    (hdr, stats.gpu)
}

fn max_difference(a: &[Vec3], b: &[Vec3]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (*x - *y).abs().max_element())
        .fold(0.0, f32::max)
}

/// A mirror sphere under the sky of a sun travelling along `to_scene` at `time_s`.
fn sky_frame(scene: &mut Scene, to_scene: Vec3, time_s: f64) -> FrameData {
    let mut frame = sphere_frame(scene, 1.0, 0.0, 0.9);
    frame.sun.direction = to_scene;
    frame.sun.intensity = 1.0;
    frame.post.environment.source = EnvironmentSource::Sky;
    frame.post.environment.time_s = time_s;
    frame
}

#[test]
fn a_moved_sun_rebakes_one_step_per_frame_at_most_every_half_second_and_matches_a_fresh_bake() {
    let (sun_a, sun_b) = (Vec3::new(-0.4, -0.6, -0.5), Vec3::new(0.7, -0.35, 0.3));
    let mut scene = scene();
    let mut timings = Vec::new();
    let first = sky_frame(&mut scene, sun_a, 0.0);
    timings.extend(render_hdr(&mut scene, &first).1);
    // The sun moved 0.2 s after the last bake: the old environment stays.
    let moved = sky_frame(&mut scene, sun_b, 0.2);
    let (stale, gpu) = render_hdr(&mut scene, &moved);
    timings.extend(gpu);
    let steps = sierra_render::environment::schedule::bake_steps(sizes().prefiltered_mips);
    let mut last = Vec::new();
    for k in 0..steps.len() {
        let frame = sky_frame(&mut scene, sun_b, 0.5 + k as f64 / 60.0);
        let (hdr, gpu) = render_hdr(&mut scene, &frame);
        timings.extend(gpu);
        if k + 1 < steps.len() {
            // Nothing is published before the last step: no half-baked environment shows.
            assert_eq!(
                max_difference(&hdr, &stale),
                0.0,
                "step {k} ({:?}) changed the image",
                steps[k]
            );
        } else {
            assert!(
                max_difference(&hdr, &stale) > 0.01,
                "the published bake changed nothing"
            );
        }
        last = hdr;
    }
    let mut fresh = self::scene();
    let frame = sky_frame(&mut fresh, sun_b, 0.0);
    let (baked_at_once, _) = render_hdr(&mut fresh, &frame);
    let difference = max_difference(&last, &baked_at_once);
    assert!(
        difference < 1e-3,
        "incremental vs at-once bake differ by {difference}"
    );

    timings.extend(
        scene
            .headless
            .renderer
            .flush_gpu_timings(&scene.ctx)
            .unwrap_or_else(|e| panic!("{e}")),
    );
    if sierra_testkit::skip::unless(
        !timings.is_empty(),
        sierra_testkit::skip::Reason::GpuFeature,
        "no timestamp queries: the environment's GPU scopes are not checked here",
    ) {
        return;
    }
    let baking: Vec<u64> = timings
        .iter()
        .filter(|t| t.scopes.iter().any(|s| s.label == "environment"))
        .map(|t| t.frame)
        .collect();
    // The first frame bakes everything; then one step in each of the rebake's frames.
    let expected: Vec<u64> = std::iter::once(0)
        .chain(2..2 + steps.len() as u64)
        .collect();
    assert_eq!(baking, expected, "frames with an environment GPU scope");
}

#[test]
fn an_equirectangular_image_lights_the_upper_half_from_its_top_rows() {
    // 16 × 8 texels: red radiance in the upper half (the top rows are +Y), blue in the lower.
    let (w, h) = (16u32, 8u32);
    let texels: Vec<f32> = (0..h)
        .flat_map(|y| (0..w).map(move |_| y))
        .flat_map(|y| {
            if y < h / 2 {
                [0.8, 0.0, 0.0, 1.0]
            } else {
                [0.0, 0.0, 0.8, 1.0]
            }
        })
        .collect();
    let mut scene = scene();
    scene
        .headless
        .renderer
        .set_environment_image(&scene.ctx, w, h, &texels)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut frame = sphere_frame(&mut scene, 1.0, 0.6, 1.0);
    frame.post.environment.source = EnvironmentSource::Image(Vec3::ONE);
    scene
        .headless
        .render(&scene.ctx, &frame)
        .unwrap_or_else(|e| panic!("{e}"));
    let hdr = support::read_rgb(&scene.ctx, &scene.headless.renderer.targets().hdr);
    let centre = SIZE / 2;
    let (top, bottom) = (
        hdr[((centre - 10) * SIZE + centre) as usize],
        hdr[((centre + 10) * SIZE + centre) as usize],
    );
    assert!(
        top.x > 2.0 * top.z && top.x > 0.2,
        "upper sphere reflects red: {top}"
    );
    assert!(
        bottom.z > 2.0 * bottom.x && bottom.z > 0.2,
        "lower sphere reflects blue: {bottom}"
    );
    let refused = scene
        .headless
        .renderer
        .set_environment_image(&scene.ctx, w, h, &texels[4..]);
    assert!(refused.is_err(), "a short image is refused");
}

#[test]
fn phong_materials_use_the_environment_only_when_asked() {
    let mut scene = scene();
    let radiance = 0.5;
    let albedo = 0.6;
    let phong = |scene: &mut Scene, lit: bool| {
        let mut frame = sphere_frame(scene, 0.0, 1.0, albedo);
        // The Phong default surface: no `surface`, black specular colour.
        frame.draws[0].surface = None;
        frame.draws[0].material.specular_color = Vec3::ZERO;
        frame.sun.ambient = Vec3::splat(0.1);
        frame.post.environment.source = EnvironmentSource::Uniform(Vec3::splat(radiance));
        frame.post.environment.phong = lit;
        sphere_luminances(scene, &frame, 0.9)
    };
    // Off: the flat ambient term, ambient × albedo, as before image-based lighting.
    for l in phong(&mut scene, false) {
        assert!((l - 0.1 * albedo).abs() < 0.01, "flat ambient: {l}");
    }
    // On: the irradiance of a uniform environment is its radiance.
    for l in phong(&mut scene, true) {
        assert!(
            (l - radiance * albedo).abs() < 0.02,
            "environment-lit Phong: {l}"
        );
    }
}
