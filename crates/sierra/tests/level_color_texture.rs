//! A level material's `baseColorTexture` reaches the pixels of a built-in primitive: the front
//! face of a cube seen head-on, drawn unlit (`DebugView::UnlitAlbedo`), has the texture's mean
//! colour; without the texture the face is the plain `baseColor` (the control). Missing files,
//! files outside the asset root and non-image paths are errors naming the file and the JSON path.

use std::path::Path;

use sierra::frame_runner::FrameRunner;
use sierra::game::Game;
use sierra::game_loop::DEFAULT_TICK_HZ;
use sierra_render::{DebugView, GpuContext, HeadlessRenderer};

const SIZE: u32 = 96;

/// A 64² texture of four flat quadrants (sRGB) and its mean colour.
fn write_texture(path: &Path) -> [f32; 3] {
    let colours = [[200, 40, 40], [40, 200, 60], [50, 60, 220], [230, 210, 40]];
    let image = image::RgbaImage::from_fn(64, 64, |x, y| {
        let c = colours[(usize::from(x >= 32)) + 2 * usize::from(y >= 32)];
        image::Rgba([c[0], c[1], c[2], 255])
    });
    image.save(path).unwrap();
    let mut mean = [0.0; 3];
    for c in colours {
        for (m, v) in mean.iter_mut().zip(c) {
            *m += f32::from(v) / 4.0;
        }
    }
    mean
}

/// A level drawing a unit cube seen head-on from +Z with `material` (JSON object fields).
fn write_level(dir: &Path, name: &str, material: &str) -> std::path::PathBuf {
    let json = format!(
        r#"{{
  "camera": {{"position": [0, 0, 4], "target": [0, 0, 0], "fovYDegrees": 30, "near": 0.5, "far": 20}},
  "clearColor": [0, 0, 0],
  "objects": [{{"name": "Box", "mesh": "cube", "material": {{"baseColor": [1, 1, 1]{material}}}}}]
}}"#
    );
    let path = dir.join(name);
    std::fs::write(&path, json).unwrap();
    path
}

/// Mean colour of the drawn pixels whose 8 neighbours are drawn too (the face without its
/// anti-aliased edge), after two unlit ticks.
fn face_mean(ctx: &GpuContext, level: &Path) -> [f32; 3] {
    let mut game = Game::load(level, DEFAULT_TICK_HZ).unwrap_or_else(|e| panic!("{e:#}"));
    game.debug_view = DebugView::UnlitAlbedo;
    let mut headless = HeadlessRenderer::new(ctx, SIZE, SIZE).unwrap();
    let mut runner = FrameRunner::new(ctx, &mut headless.renderer, game).unwrap();
    runner.headless_frame(ctx, &mut headless).unwrap();
    let (image, _) = runner.headless_frame(ctx, &mut headless).unwrap();
    image
        .save(std::env::temp_dir().join(format!(
            "sierra_level_color_texture_{}.png",
            level.file_stem().unwrap().to_string_lossy()
        )))
        .ok();
    let drawn = |x: u32, y: u32| image.get_pixel(x, y).0[..3].iter().any(|&c| c > 8);
    let (mut sum, mut n) = ([0.0f32; 3], 0);
    for y in 1..SIZE - 1 {
        for x in 1..SIZE - 1 {
            if (0..9).all(|k| drawn(x + k % 3 - 1, y + k / 3 - 1)) {
                for (s, &v) in sum.iter_mut().zip(&image.get_pixel(x, y).0[..3]) {
                    *s += f32::from(v);
                }
                n += 1;
            }
        }
    }
    assert!(n > 400, "only {n} face pixels");
    sum.map(|s| s / n as f32)
}

fn max_difference(a: [f32; 3], b: [f32; 3]) -> f32 {
    a.iter()
        .zip(&b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

#[test]
fn base_color_texture_reaches_the_face_pixels() {
    let dir = tempfile::tempdir().unwrap();
    let want = write_texture(&dir.path().join("quadrants.png"));
    let ctx = GpuContext::headless().unwrap();
    let textured = write_level(
        dir.path(),
        "textured.json",
        r#", "baseColorTexture": "quadrants.png""#,
    );
    let got = face_mean(&ctx, &textured);
    assert!(
        max_difference(got, want) <= 6.0,
        "face mean {got:?}, texture mean {want:?}"
    );
    // Control: without the texture the face is the plain white base colour, far from the
    // texture's mean, so the comparison above tells them apart.
    let plain = face_mean(&ctx, &write_level(dir.path(), "plain.json", ""));
    assert!(
        max_difference(plain, [255.0; 3]) <= 2.0 && max_difference(plain, want) > 40.0,
        "untextured face mean {plain:?}"
    );
}

#[test]
fn bad_base_color_textures_name_the_file_and_json_path() {
    let dir = tempfile::tempdir().unwrap();
    let level_dir = dir.path().join("level");
    std::fs::create_dir(&level_dir).unwrap();
    write_texture(&dir.path().join("outside.png"));
    std::fs::write(level_dir.join("notes.txt"), "not an image").unwrap();
    for (name, texture, needle) in [
        ("missing.json", "nothere.png", "nothere.png"),
        ("outside.json", "../outside.png", "outside.png"),
        ("text.json", "notes.txt", "notes.txt"),
    ] {
        let path = write_level(
            &level_dir,
            name,
            &format!(r#", "baseColorTexture": "{texture}""#),
        );
        let message = format!("{:#}", Game::load(&path, DEFAULT_TICK_HZ).err().unwrap());
        assert!(
            message.contains("objects[0].material.baseColorTexture") && message.contains(needle),
            "{name}: {message}"
        );
    }
}
