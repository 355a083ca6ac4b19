//! Terrain detail at walking height (#49): in the README's walk frame
//! (`sierra demo --headless --camera-path walk --frames 120 --size 960x540`, frame 40) the
//! grass and sand carry at least twice the high-frequency detail they had before the detail
//! textures per surface type: the mean absolute 3×3 Laplacian (8-neighbour kernel) of the
//! luma (Rec. 709 weights on the 8-bit sRGB frame) over the grass and sand pixels. The control
//! is the same frame with [`Landscape::surface_detail`](sierra::world::landscape::Landscape)
//! off (the island as it was drawn before them); the pixels measured are the grass and sand of
//! the control frame (green: G above both R and B by 8 levels; sand: R > G > B with R − B > 30),
//! whose 3×3 neighbourhoods are all of them, in both frames.

use std::path::Path;

use sierra::camera_path::{CameraPath, CameraPathKind};
use sierra::cli::demo::{DEMO_LEVEL, HEADLESS_TICKS_PER_FRAME};
use sierra::game::Game;
use sierra::game_loop::DEFAULT_TICK_HZ;
use sierra::headless::{run_headless, HeadlessOptions};

const WIDTH: u32 = 960;
const HEIGHT: u32 = 540;
const FRAME: usize = 40;
const PATH_FRAMES: u32 = 120;

fn walk_frame(dir: &Path, surface_detail: bool) -> image::RgbImage {
    let mut game =
        Game::load(Path::new(DEMO_LEVEL), DEFAULT_TICK_HZ).unwrap_or_else(|e| panic!("{e:#}"));
    game.world
        .landscape
        .as_mut()
        .expect("the demo's island")
        .surface_detail = surface_detail;
    let seconds = (PATH_FRAMES * HEADLESS_TICKS_PER_FRAME) as f32 / DEFAULT_TICK_HZ as f32;
    game.camera_path = Some(CameraPath::new(CameraPathKind::Walk, seconds));
    let out = dir.join(if surface_detail { "detail" } else { "control" });
    run_headless(
        game,
        &HeadlessOptions {
            ticks_per_frame: HEADLESS_TICKS_PER_FRAME,
            force: true,
            ..HeadlessOptions::new(FRAME + 1, WIDTH, HEIGHT, out.clone())
        },
    )
    .unwrap_or_else(|e| panic!("{e:#}"));
    image::open(out.join(format!("frame_{FRAME:04}.png")))
        .unwrap()
        .to_rgb8()
}

fn is_grass_or_sand(p: &image::Rgb<u8>) -> bool {
    let [r, g, b] = p.0.map(i32::from);
    let grass = g > r + 8 && g > b + 8;
    let sand = r > g && g > b && r - b > 30;
    grass || sand
}

fn luma(p: &image::Rgb<u8>) -> f32 {
    0.2126 * f32::from(p[0]) + 0.7152 * f32::from(p[1]) + 0.0722 * f32::from(p[2])
}

/// Pixels whose 3×3 neighbourhood is all grass or sand in `frame`.
fn mask(frame: &image::RgbImage) -> Vec<(u32, u32)> {
    let (w, h) = frame.dimensions();
    (1..h - 1)
        .flat_map(|y| (1..w - 1).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            (0..3).all(|dy| {
                (0..3).all(|dx| is_grass_or_sand(frame.get_pixel(x + dx - 1, y + dy - 1)))
            })
        })
        .collect()
}

/// Mean of `|8·c − Σ neighbours|` of the luma over `pixels`.
fn mean_laplacian(frame: &image::RgbImage, pixels: &[(u32, u32)]) -> f32 {
    let sum: f32 = pixels
        .iter()
        .map(|&(x, y)| {
            let mut l = 0.0;
            for dy in 0..3 {
                for dx in 0..3 {
                    let v = luma(frame.get_pixel(x + dx - 1, y + dy - 1));
                    l += if dx == 1 && dy == 1 { -8.0 * v } else { v };
                }
            }
            f32::abs(l)
        })
        .sum();
    sum / pixels.len() as f32
}

#[test]
fn grass_and_sand_at_walking_height_have_twice_the_detail() {
    let tmp = tempfile::tempdir().unwrap();
    let control = walk_frame(tmp.path(), false);
    let detail = walk_frame(tmp.path(), true);
    let pixels = mask(&control);
    let share = pixels.len() as f32 / (WIDTH * HEIGHT) as f32;
    assert!(
        share > 0.1,
        "grass and sand cover {:.1} % of the frame",
        share * 100.0
    );
    let before = mean_laplacian(&control, &pixels);
    let after = mean_laplacian(&detail, &pixels);
    eprintln!(
        "mean |Laplacian| of luma over {} grass/sand pixels ({:.1} %): {before:.2} without the \
         detail textures, {after:.2} with ({:.2}x)",
        pixels.len(),
        share * 100.0,
        after / before
    );
    assert!(after >= 2.0 * before, "{after:.2} < 2 × {before:.2}");
}
