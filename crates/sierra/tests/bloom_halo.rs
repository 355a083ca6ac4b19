//! Bloom keeps emitters' shapes (#49): every emitter of the shipped demo level (each object
//! whose material has an emissive colour), drawn alone at the demo's default headless size
//! (480×270) with the demo's `post` block, seen as a disc 12 px across, has a bloom halo no
//! wider than that disc. The halo's width is measured on the frame itself: the mean luma of
//! 1 px rings around the disc's centre, minus the background's, stays above 3 levels (of 255)
//! out to the halo's edge; width = edge − the disc's projected radius. The same measurement
//! with the settings the demo shipped before (the control: emissive up to 12, bloom intensity
//! 0.8) must find a halo wider than its disc.

use std::path::Path;

use serde_json::{json, Value};
use sierra::game::Game;
use sierra::game_loop::DEFAULT_TICK_HZ;
use sierra::headless::{run_headless, HeadlessOptions};

const WIDTH: u32 = 480;
const HEIGHT: u32 = 270;
const FOV_Y_DEGREES: f32 = 55.0;
/// The emitter's projected diameter, pixels.
const DISC_PX: f32 = 12.0;
/// The built-in `sphere` mesh's radius, metres.
const SPHERE_RADIUS: f32 = 0.5;
/// A ring counts as halo while its mean luma exceeds the background's by more than this.
const VISIBLE_LEVELS: f32 = 3.0;

/// The demo's emitters, `(name, emissive)`, and its `post` block.
fn demo_emitters(level: &Value) -> (Vec<(String, [f32; 3])>, Value) {
    let emitters = level["objects"]
        .as_array()
        .expect("objects")
        .iter()
        .filter_map(|o| {
            let e = o["material"]["emissive"].as_array()?;
            let e: Vec<f32> = e.iter().map(|v| v.as_f64().unwrap() as f32).collect();
            let name = o["name"].as_str().unwrap().to_owned();
            (e.iter().any(|&v| v > 0.0)).then(|| (name, [e[0], e[1], e[2]]))
        })
        .collect();
    (emitters, level["post"].clone())
}

/// Distance from the camera at which a sphere of [`SPHERE_RADIUS`] spans [`DISC_PX`].
fn distance_for_disc() -> f32 {
    let half_fov = (FOV_Y_DEGREES * 0.5).to_radians();
    // Projected radius r_px = (H/2) · tan(asin(R/d)) / tan(fov/2); solve for d.
    let t = DISC_PX * 0.5 * half_fov.tan() / (HEIGHT as f32 * 0.5);
    SPHERE_RADIUS / t.atan().sin()
}

/// Renders one emitter of `emissive` alone under `post` (sky off, so the background is flat)
/// and returns its halo's width in pixels.
fn halo_width(emissive: [f32; 3], post: &Value, dir: &Path) -> f32 {
    let mut post = post.clone();
    post["sky"] = json!(false);
    let level = json!({
        "camera": { "position": [0, 0, 0], "target": [0, 0, -1], "fovYDegrees": FOV_Y_DEGREES,
                    "near": 0.1, "far": 100 },
        "sun": { "direction": [0, -1, 0], "color": [1, 1, 1], "intensity": 1.0, "ambient": [0, 0, 0] },
        "clearColor": [0.2, 0.28, 0.36],
        "post": post,
        "objects": [
            { "name": "Emitter", "position": [0, 0, -distance_for_disc()], "mesh": "sphere",
              "material": { "baseColor": [0, 0, 0], "specularColor": [0, 0, 0], "emissive": emissive } }
        ]
    });
    let path = dir.join("emitter.json");
    std::fs::write(&path, serde_json::to_string(&level).unwrap()).unwrap();
    let game = Game::load(&path, DEFAULT_TICK_HZ).unwrap_or_else(|e| panic!("{e:#}"));
    let out = dir.join("out");
    run_headless(
        game,
        &HeadlessOptions {
            force: true,
            ..HeadlessOptions::new(1, WIDTH, HEIGHT, out.clone())
        },
    )
    .unwrap_or_else(|e| panic!("{e:#}"));
    let image = image::open(out.join("frame_0000.png")).unwrap().to_rgb8();
    let rings = ring_means(&image);
    let background = rings[90..120].iter().sum::<f32>() / 30.0;
    let edge = rings
        .iter()
        .rposition(|&m| m - background > VISIBLE_LEVELS)
        .unwrap_or(0) as f32
        + 1.0;
    edge - DISC_PX * 0.5
}

/// Mean luma (Rec. 709 weights on the 8-bit sRGB values) of the pixels whose centres lie
/// `[r, r + 1)` pixels from the image centre, for `r` in `0..120`.
fn ring_means(image: &image::RgbImage) -> Vec<f32> {
    let (cx, cy) = (WIDTH as f32 * 0.5, HEIGHT as f32 * 0.5);
    let mut sums = vec![(0.0f32, 0u32); 120];
    for (x, y, p) in image.enumerate_pixels() {
        let r = (x as f32 + 0.5 - cx).hypot(y as f32 + 0.5 - cy) as usize;
        if let Some(s) = sums.get_mut(r) {
            s.0 += 0.2126 * f32::from(p[0]) + 0.7152 * f32::from(p[1]) + 0.0722 * f32::from(p[2]);
            s.1 += 1;
        }
    }
    sums.iter().map(|&(s, n)| s / n.max(1) as f32).collect()
}

#[test]
fn no_emitter_of_the_demo_blooms_wider_than_itself() {
    let level: Value = sierra_testkit::json::read(Path::new(sierra::cli::demo::DEMO_LEVEL));
    let (emitters, post) = demo_emitters(&level);
    assert!(emitters.len() >= 4, "the orb and three lamps: {emitters:?}");
    let tmp = tempfile::tempdir().unwrap();
    let mut widths = Vec::new();
    for (name, emissive) in &emitters {
        let width = halo_width(*emissive, &post, tmp.path());
        eprintln!("{name}: emissive {emissive:?}, halo {width:.1} px around a {DISC_PX} px disc");
        widths.push((name.clone(), width));
    }
    for (name, width) in &widths {
        assert!(
            *width <= DISC_PX,
            "{name}: halo {width:.1} px > {DISC_PX} px"
        );
    }

    // Control: the demo's emitters and bloom before #49.
    let mut before = post.clone();
    before["bloomIntensity"] = json!(0.8);
    before["exposure"] = json!(0.0);
    let widest = [
        [12.0, 9.0, 3.0],
        [4.0, 0.8, 0.4],
        [0.6, 4.0, 0.8],
        [0.6, 1.2, 4.0],
    ]
    .iter()
    .map(|&e| halo_width(e, &before, tmp.path()))
    .fold(0.0f32, f32::max);
    eprintln!("before #49: widest halo {widest:.1} px");
    assert!(
        widest > DISC_PX,
        "the control's halo {widest:.1} px fits its disc"
    );
}
