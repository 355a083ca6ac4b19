//! How the sea looks (issue #49), through the whole renderer: the sun's shadow on the water
//! keeps the water's hue and darkens it; the sun's glint stays a bounded sparkle. Each check
//! also runs on the sea as it was drawn before (`SeaSettings::legacy`: no shadow, a
//! Blinn-Phong highlight on the simulation's normals; and no water level, so shadows under
//! water are not filled), which must fail it. The foam's check runs on the demo itself:
//! `crates/sierra/tests/sea_foam_view.rs`. Frames go to `$CARGO_TARGET_TMPDIR/sea_look_*.png`.

#[path = "../../sierra_render/tests/support/mod.rs"]
mod support;

use glam::{Mat4, Vec2, Vec3, Vec4};
use image::RgbaImage;
use sierra_content::water::water_compute;
use sierra_render::compute::water::WaterCompute;
use sierra_render::primitives::{cube_for_scale, plane};
use sierra_render::{
    BloomSettings, Camera, DrawItem, FrameData, GpuContext, HeadlessRenderer, Material,
    PostSettings, Sun, TonemapSettings, Tonemapper,
};
use sierra_terrain::water::{InitialState, WaterParams};
use support::context;

/// The demo level's sun (`assets/levels/demo.json`).
fn demo_sun() -> Sun {
    Sun {
        direction: Vec3::new(-0.35, -0.5, -0.8),
        color: Vec3::new(1.0, 0.95, 0.85),
        intensity: 1.4,
        ambient: Vec3::new(0.16, 0.18, 0.22),
    }
}

/// The demo's look without bloom: ACES, sun shadows on (the game's defaults).
fn aces() -> PostSettings {
    PostSettings {
        tonemap: TonemapSettings {
            tonemapper: Tonemapper::Aces,
            ..TonemapSettings::default()
        },
        ..PostSettings::default()
    }
}

fn save(image: &RgbaImage, name: &str) {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    image
        .save(dir.join(format!("sea_look_{name}.png")))
        .unwrap();
}

/// Linear value of an sRGB-encoded byte.
fn linear(c: u8) -> f32 {
    let c = f32::from(c) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// HSV hue of an RGB colour, degrees in [0, 360).
fn hue_deg(c: Vec3) -> f32 {
    let max = c.max_element();
    let min = c.min_element();
    let d = max - min;
    if d <= 0.0 {
        return 0.0;
    }
    let h = if max == c.x {
        ((c.y - c.z) / d).rem_euclid(6.0)
    } else if max == c.y {
        (c.z - c.x) / d + 2.0
    } else {
        (c.x - c.y) / d + 4.0
    };
    h * 60.0
}

/// Whether the ray `origin + s dir` (s > 0) meets the axis-aligned box `lo..hi`.
fn ray_hits_box(origin: Vec3, dir: Vec3, lo: Vec3, hi: Vec3) -> bool {
    let inv = dir.recip();
    let a = (lo - origin) * inv;
    let b = (hi - origin) * inv;
    let near = a.min(b).max_element();
    let far = a.max(b).min_element();
    far >= near.max(0.0)
}

// ----- shadows -------------------------------------------------------------------------------

/// Half-size and centre of the platform that shadows the water.
const PLATFORM_HALF: Vec3 = Vec3::new(3.0, 0.25, 3.0);
const PLATFORM_AT: Vec3 = Vec3::new(0.0, 4.0, 0.0);

/// A 4 m-high platform over 1 m of still water on a sand floor, seen from 14 m up in front of
/// its shadow (within the shadows' 40 m; the demo's sun and colours): the frame, and for each
/// pixel whether both its water surface point and the floor point seen through it lie deep in
/// the platform's shadow (`Some(true)`), both in the sunlit ring 0.6-3 m around it
/// (`Some(false)`), or neither or hidden by the platform (`None`), from the geometry alone.
fn platform_over_water(ctx: &GpuContext, legacy: bool) -> (RgbaImage, Vec<Option<bool>>) {
    let (w, h) = (480u32, 270u32);
    let (n, cell) = (48usize, 2.0f32);
    let origin = Vec3::new(-48.0, 0.0, -48.0);
    let p = WaterParams::new(n, n, cell);
    let terrain = vec![-1.0; n * n];
    let depth = InitialState::Still { level: 0.0 }
        .depth(&p, &terrain)
        .unwrap();
    let water: WaterCompute = water_compute(ctx, p, &terrain, &depth).unwrap();
    let mut headless = HeadlessRenderer::new(ctx, w, h).unwrap();
    let r = &mut headless.renderer;
    let floor = r.upload_mesh(ctx, &plane(96.0), "sand").unwrap();
    let platform = r
        .upload_mesh(ctx, &cube_for_scale(PLATFORM_HALF * 2.0), "platform")
        .unwrap();
    let platform_model =
        Mat4::from_translation(PLATFORM_AT) * Mat4::from_scale(PLATFORM_HALF * 2.0);
    r.sea.settings.origin = origin;
    r.sea.settings.legacy = legacy;
    r.sea.bind_water(ctx, &water).unwrap();
    r.sea.set_current(water.current_index());
    let sand = Material {
        base_color: Vec4::new(0.62, 0.52, 0.36, 1.0),
        specular_color: Vec3::ZERO,
        ..Material::default()
    };
    let red = Material {
        base_color: Vec4::new(0.8, 0.2, 0.15, 1.0),
        ..Material::default()
    };
    let eye = Vec3::new(-3.0, 14.0, -24.0);
    let target = Vec3::new(-3.0, 0.0, -6.0);
    let camera = Camera::look_at(eye, target, Vec3::Y, 0.9, w as f32 / h as f32, 0.5, 500.0);
    let mut frame = FrameData {
        sun: demo_sun(),
        draws: vec![
            DrawItem {
                mesh: floor,
                model: Mat4::from_translation(Vec3::new(0.0, -1.0, 0.0)),
                material: sand,
                surface: None,
            },
            DrawItem {
                mesh: platform,
                model: platform_model,
                material: red,
                surface: None,
            },
        ],
        clear_color: Vec4::new(0.5, 0.65, 0.9, 1.0),
        post: aces(),
        ..FrameData::new(camera)
    };
    // The sea's level fills shadows under water (`shadow_in_water`); the control draws as
    // before, without it.
    frame.sea.level = (!legacy).then_some(0.0);
    let (image, _) = headless.render(ctx, &frame).unwrap();

    // Each pixel's ray onto the water plane (y = 0), then towards the sun past the platform.
    let to_sun = -demo_sun().direction.normalize();
    let inv = frame.camera.view_proj().inverse();
    let (lo, hi) = (PLATFORM_AT - PLATFORM_HALF, PLATFORM_AT + PLATFORM_HALF);
    let grown = |m: f32| (lo - Vec3::splat(m), hi + Vec3::splat(m));
    let classes = (0..w * h)
        .map(|i| {
            let ndc = Vec2::new(
                ((i % w) as f32 + 0.5) / w as f32 * 2.0 - 1.0,
                1.0 - ((i / w) as f32 + 0.5) / h as f32 * 2.0,
            );
            let far = inv.project_point3(ndc.extend(1.0));
            let dir = (far - eye).normalize();
            if dir.y >= 0.0 {
                return None;
            }
            let (glo, ghi) = grown(0.3);
            if ray_hits_box(eye, dir, glo, ghi) {
                return None; // the platform itself
            }
            // The surface point and the floor point behind it (refraction ignored).
            let surface = eye + dir * (-eye.y / dir.y);
            let floor = eye + dir * ((-1.0 - eye.y) / dir.y);
            // Whether both, or either, see the sun through the platform grown by `m` metres
            // (sideways only).
            let shaded = |m: f32| {
                let (glo, ghi) = grown(m);
                let (glo, ghi) = (Vec3::new(glo.x, lo.y, glo.z), Vec3::new(ghi.x, hi.y, ghi.z));
                [surface, floor].map(|p| ray_hits_box(p, to_sun, glo, ghi))
            };
            let inner = shaded(-0.6) == [true, true];
            let outer = shaded(0.6).contains(&true);
            let ring = shaded(3.0).contains(&true);
            if inner {
                Some(true)
            } else if !outer && ring {
                Some(false)
            } else {
                None
            }
        })
        .collect();
    (image, classes)
}

/// Mean linear colour of the pixels of `image` whose class is `Some(which)`, and their count.
fn mean_of(image: &RgbaImage, classes: &[Option<bool>], which: bool) -> (Vec3, usize) {
    let (sum, count) = image
        .pixels()
        .zip(classes)
        .filter(|(_, c)| **c == Some(which))
        .fold((Vec3::ZERO, 0), |(s, k), (p, _)| {
            (
                s + Vec3::new(linear(p[0]), linear(p[1]), linear(p[2])),
                k + 1,
            )
        });
    (sum / count.max(1) as f32, count)
}

/// Luminance (Rec. 709) of a linear colour.
fn luminance(c: Vec3) -> f32 {
    c.dot(Vec3::new(0.2126, 0.7152, 0.0722))
}

/// The hue difference (degrees) between the shadowed water and the sunlit water around it,
/// and how much darker the shadowed water is (1 - its luminance over the sunlit one's).
fn shadow_hue_and_darkening(ctx: &GpuContext, legacy: bool) -> (f32, f32) {
    let (image, classes) = platform_over_water(ctx, legacy);
    save(&image, if legacy { "shadow_legacy" } else { "shadow" });
    let (shadowed, in_shadow) = mean_of(&image, &classes, true);
    let (sunlit, in_sun) = mean_of(&image, &classes, false);
    assert!(
        in_shadow > 400 && in_sun > 400,
        "{in_shadow} shadowed, {in_sun} sunlit pixels"
    );
    let dh = (hue_deg(shadowed) - hue_deg(sunlit)).abs();
    let dh = dh.min(360.0 - dh);
    let darker = 1.0 - luminance(shadowed) / luminance(sunlit);
    println!(
        "legacy {legacy}: shadowed {shadowed:?} (hue {:.1}), sunlit {sunlit:?} (hue {:.1}): \
         hue differs by {dh:.1} deg, {:.1} % darker",
        hue_deg(shadowed),
        hue_deg(sunlit),
        darker * 100.0
    );
    (dh, darker)
}

/// Issue #49's must-show: where a platform shadows the water, the water keeps its hue (HSV
/// hue within 10° of the sunlit water around the shadow) and is at least 15 % darker. The sea
/// as drawn before (no shadow on the water: the shadowed sand floor shows through as a slab
/// of another colour) fails the same check.
#[test]
fn a_shadow_on_the_sea_darkens_the_water_and_keeps_its_hue() {
    let ctx = context();
    let (dh, darker) = shadow_hue_and_darkening(&ctx, false);
    assert!(dh <= 10.0, "hue differs by {dh:.1} deg");
    assert!(darker >= 0.15, "only {:.1} % darker", darker * 100.0);
    let (dh, darker) = shadow_hue_and_darkening(&ctx, true);
    assert!(
        dh > 10.0 || darker < 0.15,
        "the control passes: hue {dh:.1} deg, {:.1} % darker",
        darker * 100.0
    );
}

// ----- glint ---------------------------------------------------------------------------------

/// A low camera over a sea with waves (drops spreading), looking towards the demo's sun as the
/// follow camera does, with the demo's bloom: the sea's pixels (below the horizon) brighter
/// than 0.79 in linear luminance (0.9 sRGB), and the largest 4-connected patch of them.
fn bright_sea_pixels(ctx: &GpuContext, legacy: bool) -> (usize, usize) {
    let (w, h) = (480u32, 270u32);
    let (n, cell) = (96usize, 4.0f32);
    let origin = Vec3::new(-192.0, 0.0, -192.0);
    let p = WaterParams::new(n, n, cell);
    let terrain = vec![-8.0; n * n];
    let depth = InitialState::Still { level: 0.0 }
        .depth(&p, &terrain)
        .unwrap();
    let mut water: WaterCompute = water_compute(ctx, p, &terrain, &depth).unwrap();
    for at in [Vec2::new(150.0, 170.0), Vec2::new(210.0, 120.0)] {
        water.add_drop(ctx, at, 12.0, 0.8).unwrap();
    }
    water.step(ctx, 0.25, 16).unwrap();
    let mut headless = HeadlessRenderer::new(ctx, w, h).unwrap();
    let r = &mut headless.renderer;
    r.sea.settings.origin = origin;
    r.sea.settings.legacy = legacy;
    r.sea.bind_water(ctx, &water).unwrap();
    r.sea.set_current(water.current_index());
    let to_sun = -demo_sun().direction.normalize();
    let ahead = Vec3::new(to_sun.x, 0.0, to_sun.z).normalize();
    let eye = Vec3::new(0.0, 4.0, 0.0) - ahead * 30.0;
    let camera = Camera::look_at(
        eye,
        eye + ahead * 20.0 - Vec3::Y * 6.0,
        Vec3::Y,
        0.9,
        w as f32 / h as f32,
        0.5,
        1000.0,
    );
    let frame = FrameData {
        sun: demo_sun(),
        clear_color: Vec4::new(0.5, 0.65, 0.9, 1.0),
        post: PostSettings {
            bloom: BloomSettings {
                enabled: true,
                ..BloomSettings::default()
            },
            ..aces()
        },
        ..FrameData::new(camera)
    };
    let (image, _) = headless.render(ctx, &frame).unwrap();
    save(&image, if legacy { "glint_legacy" } else { "glint" });
    let inv = frame.camera.view_proj().inverse();
    let bright: Vec<bool> = image
        .enumerate_pixels()
        .map(|(x, y, p)| {
            let ndc = Vec2::new(
                (x as f32 + 0.5) / w as f32 * 2.0 - 1.0,
                1.0 - (y as f32 + 0.5) / h as f32 * 2.0,
            );
            let sea = (inv.project_point3(ndc.extend(1.0)) - eye).y < 0.0;
            sea && luminance(Vec3::new(linear(p[0]), linear(p[1]), linear(p[2]))) > 0.79
        })
        .collect();
    let count = bright.iter().filter(|b| **b).count();
    (count, largest_patch(&bright, w as usize))
}

/// Pixels in the largest 4-connected patch of `set` (`w` wide, row-major).
fn largest_patch(set: &[bool], w: usize) -> usize {
    let mut seen = vec![false; set.len()];
    let mut largest = 0;
    for start in 0..set.len() {
        if !set[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        let (mut stack, mut size) = (vec![start], 0);
        while let Some(i) = stack.pop() {
            size += 1;
            let (x, y) = (i % w, i / w);
            let neighbours = [
                (x > 0).then(|| i - 1),
                (x + 1 < w).then_some(i + 1),
                (y > 0).then(|| i - w),
                (i + w < set.len()).then_some(i + w),
            ];
            for j in neighbours.into_iter().flatten() {
                if set[j] && !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        largest = largest.max(size);
    }
    largest
}

/// The sun's glint is a bounded sparkle: on waves seen towards a low sun, fewer sea pixels
/// are near white (> 0.9 sRGB luminance) than with the pre-#49 highlight (the "ghost pillar"),
/// and they come as sparkles: the largest connected patch of them is under a quarter of the
/// control's one blob; some remain (the glint is not simply gone).
#[test]
fn the_glint_is_a_bounded_sparkle() {
    let ctx = context();
    let (now, now_patch) = bright_sea_pixels(&ctx, false);
    let (before, before_patch) = bright_sea_pixels(&ctx, true);
    println!(
        "near-white sea pixels: {now}, largest patch {now_patch} \
         (pre-#49 highlight: {before}, largest patch {before_patch})"
    );
    assert!(now > 0, "no glint at all");
    assert!(
        before_patch > 100,
        "the control has no highlight to compare with"
    );
    assert!(now < before, "{now} bright pixels, the control {before}");
    assert!(
        4 * now_patch < before_patch,
        "a bright patch of {now_patch} px, the control's {before_patch}"
    );
}
