//! Crowd members wear different colours (#49): a crowd of 20 mannequins in a grid, seen from
//! above and in front under a white sun, shows at least 3 distinct tints among its members'
//! mean colours. A member's mean colour is the average of a 5×5 pixel window around its chest
//! (its world position projected with the level's camera); two colours are distinct when their
//! chromaticities (`rgb / (r + g + b)` of the 8-bit frame) differ by more than 0.03, so shading
//! alone (a darker or lighter grey) never counts as a tint. The control, the same crowd with
//! `"tints": false` (every member the model's own colour, as crowds were before #49), must
//! show fewer than 3.

use std::path::Path;

use glam::{Vec2, Vec3};
use serde_json::json;
use sierra::game::Game;
use sierra::game_loop::DEFAULT_TICK_HZ;
use sierra::headless::{run_headless, HeadlessOptions};

const WIDTH: u32 = 480;
const HEIGHT: u32 = 270;
const EYE: [f32; 3] = [0.0, 11.0, 9.0];
const FOV_Y_DEGREES: f32 = 50.0;
/// Chest height of a mannequin at scale 1, metres.
const CHEST: f32 = 1.2;

/// Columns of the crowd's grid (`ceil(√20)`) and its spacing, metres.
const COLUMNS: usize = 5;
const SPACING: f32 = 1.6;

fn level(dir: &Path, tints: bool) -> std::path::PathBuf {
    let level = json!({
        "camera": { "position": EYE, "target": [0, 0, 0], "fovYDegrees": FOV_Y_DEGREES,
                    "near": 0.1, "far": 100 },
        "sun": { "direction": [-0.3, -1.0, -0.4], "color": [1, 1, 1], "intensity": 1.0,
                 "ambient": [0.25, 0.25, 0.25] },
        "clearColor": [0, 0, 0],
        "objects": [
            { "name": "Crowd", "components": [ { "type": "Crowd", "model": "builtin:mannequin",
              "count": 20, "layout": "grid", "spacing": SPACING, "clips": ["idle"], "seed": 7,
              "tints": tints } ] }
        ]
    });
    let path = dir.join("crowd.json");
    std::fs::write(&path, serde_json::to_string(&level).unwrap()).unwrap();
    path
}

/// Renders the crowd (`tints` as the component's field) and returns each member's mean chest
/// colour, 8-bit sRGB. Member `i` of the grid stands at `((i mod 5) − 2, 0, ⌊i / 5⌋ − 1.5)` ×
/// the spacing (the `grid` layout, centred on the node at the origin; no terrain).
fn member_colours(dir: &Path, tints: bool) -> Vec<Vec3> {
    let game = Game::load(&level(dir, tints), DEFAULT_TICK_HZ).unwrap_or_else(|e| panic!("{e:#}"));
    let chests: Vec<Vec3> = (0..20)
        .map(|i| {
            let (x, z) = ((i % COLUMNS) as f32 - 2.0, (i / COLUMNS) as f32 - 1.5);
            Vec3::new(x * SPACING, CHEST, z * SPACING)
        })
        .collect();
    let out = dir.join(if tints { "tinted" } else { "white" });
    run_headless(
        game,
        &HeadlessOptions {
            force: true,
            ..HeadlessOptions::new(1, WIDTH, HEIGHT, out.clone())
        },
    )
    .unwrap_or_else(|e| panic!("{e:#}"));
    let image = image::open(out.join("frame_0000.png")).unwrap().to_rgb8();
    let camera = sierra_render::Camera::look_at(
        Vec3::from(EYE),
        Vec3::ZERO,
        Vec3::Y,
        FOV_Y_DEGREES.to_radians(),
        WIDTH as f32 / HEIGHT as f32,
        0.1,
        100.0,
    );
    let view_proj = camera.view_proj();
    chests
        .iter()
        .map(|&p| {
            let ndc = view_proj.project_point3(p);
            let px = Vec2::new(
                (ndc.x * 0.5 + 0.5) * WIDTH as f32,
                (0.5 - ndc.y * 0.5) * HEIGHT as f32,
            );
            let mut sum = Vec3::ZERO;
            for dy in -2..=2 {
                for dx in -2..=2 {
                    let x = (px.x as i32 + dx).clamp(0, WIDTH as i32 - 1) as u32;
                    let y = (px.y as i32 + dy).clamp(0, HEIGHT as i32 - 1) as u32;
                    let c = image.get_pixel(x, y);
                    sum += Vec3::new(f32::from(c[0]), f32::from(c[1]), f32::from(c[2]));
                }
            }
            sum / 25.0
        })
        .collect()
}

/// Greedy clusters of chromaticities within 0.03 of a cluster's first member.
fn distinct_tints(colours: &[Vec3]) -> usize {
    let mut seeds: Vec<Vec2> = Vec::new();
    for c in colours {
        let chroma = Vec2::new(c.x, c.y) / (c.x + c.y + c.z).max(1.0);
        if seeds.iter().all(|s| s.distance(chroma) > 0.03) {
            seeds.push(chroma);
        }
    }
    seeds.len()
}

#[test]
fn crowd_members_wear_at_least_three_tints_among_twenty() {
    let tmp = tempfile::tempdir().unwrap();
    let tinted = member_colours(tmp.path(), true);
    assert!(
        tinted.iter().all(|c| c.max_element() > 20.0),
        "a chest window fell on the background: {tinted:?}"
    );
    let n = distinct_tints(&tinted);
    eprintln!("{n} distinct tints among 20 members: {tinted:?}");
    assert!(n >= 3, "{n} distinct tints: {tinted:?}");

    let white = member_colours(tmp.path(), false);
    let control = distinct_tints(&white);
    eprintln!("control (\"tints\": false): {control} distinct");
    assert!(
        control < 3,
        "white members read as {control} tints: {white:?}"
    );
}
