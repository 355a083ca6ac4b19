//! A level's `post.environment` reaches the renderer: a Phong plane facing up under no sun and
//! no ambient is black without it and lit by the environment with it — by the sky, or by an
//! equirectangular image (.png or Radiance .hdr) read through the level's asset root; a missing image is an error that
//! names it, and the load reports the `environment` start-up stage.

use std::path::Path;

use sierra::frame_runner::FrameRunner;
use sierra::game::Game;
use sierra::game_loop::DEFAULT_TICK_HZ;
use sierra::scene_to_frame::View;
use sierra_render::{GpuContext, HeadlessRenderer};

const SIZE: u32 = 32;

/// A level of one white, non-specular plane facing up, seen from above, with `environment`
/// as its `post.environment` JSON (or none).
fn level(environment: Option<&str>) -> String {
    let post = environment.map_or(String::new(), |e| {
        format!(r#", "post": {{ "environment": {e} }}"#)
    });
    format!(
        r#"{{
      "camera": {{ "position": [0, 4, 0.001], "target": [0, 0, 0], "fovYDegrees": 30, "near": 0.1, "far": 20 }},
      "sun": {{ "direction": [0, -1, 0], "color": [1, 1, 1], "intensity": 0, "ambient": [0, 0, 0] }},
      "clearColor": [0, 0, 0],
      "objects": [ {{ "name": "Floor", "scale": 8, "mesh": "plane",
          "material": {{ "baseColor": [1, 1, 1], "specularColor": [0, 0, 0] }} }} ]{post}
    }}"#
    )
}

/// The centre pixel of the level's first frame (tonemap none: linear values clamped, sRGB).
fn centre_pixel(folder: &Path, json: &str) -> anyhow::Result<[u8; 4]> {
    let path = folder.join("level.json");
    std::fs::write(&path, json)?;
    let game = Game::load(&path, DEFAULT_TICK_HZ)?;
    let ctx = GpuContext::headless()?;
    let mut headless = HeadlessRenderer::new(&ctx, SIZE, SIZE)?;
    let mut runner = FrameRunner::new(&ctx, &mut headless.renderer, game)?;
    assert!(
        runner
            .game()
            .startup
            .stages()
            .iter()
            .any(|(stage, _)| *stage == "environment"),
        "the environment bake is a start-up stage"
    );
    runner.tick();
    runner.extract(&View::at_tick(1.0))?;
    let (image, _) = headless.render(&ctx, runner.frame())?;
    Ok(image.get_pixel(SIZE / 2, SIZE / 2).0)
}

#[test]
fn a_level_environment_lights_phong_materials_from_the_sky_or_an_image() {
    let dir = tempfile::tempdir().unwrap();
    let unlit = centre_pixel(dir.path(), &level(None)).unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(
        &unlit[..3],
        &[0, 0, 0],
        "no sun, no ambient, no environment: black"
    );

    let sky = centre_pixel(dir.path(), &level(Some(r#"{ "source": "sky" }"#)))
        .unwrap_or_else(|e| panic!("{e:#}"));
    assert!(
        sky[2] > sky[0] && sky[2] > 100,
        "the blue sky lights the floor: {sky:?}"
    );

    // An equirectangular image: green above the horizon (top half), black below.
    let mut image = image::RgbaImage::new(8, 4);
    for (_, y, p) in image.enumerate_pixels_mut() {
        *p = image::Rgba(if y < 2 {
            [0, 255, 0, 255]
        } else {
            [0, 0, 0, 255]
        });
    }
    image.save(dir.path().join("green_sky.png")).unwrap();
    let green = centre_pixel(
        dir.path(),
        &level(Some(r#"{ "source": "green_sky.png", "intensity": 0.5 }"#)),
    )
    .unwrap_or_else(|e| panic!("{e:#}"));
    assert!(
        green[1] > 150 && green[0] < 30 && green[2] < 30,
        "a green environment: {green:?}"
    );

    // A Radiance .hdr: green of radiance 4.016 ((128 + 0.5) · 2^(131 - 136)) above the horizon.
    let mut hdr = b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 4 +X 8\n".to_vec();
    for y in 0..4 {
        for _ in 0..8 {
            hdr.extend(if y < 2 {
                [0, 128, 0, 131]
            } else {
                [0, 0, 0, 0]
            });
        }
    }
    std::fs::write(dir.path().join("green_sky.hdr"), hdr).unwrap();
    let bright = centre_pixel(
        dir.path(),
        &level(Some(r#"{ "source": "green_sky.hdr", "intensity": 0.1 }"#)),
    )
    .unwrap_or_else(|e| panic!("{e:#}"));
    // The floor faces up into the green hemisphere: 0.1 × 4.016 ≈ 0.40 (sRGB ≈ 170), more than
    // an 8-bit image at intensity 0.1 could give (at most 0.1, sRGB 89).
    assert!(
        bright[1] > 120 && bright[0] < 30,
        "a bright HDR environment: {bright:?}"
    );

    let missing = centre_pixel(dir.path(), &level(Some(r#"{ "source": "missing.png" }"#)))
        .expect_err("a missing image is refused");
    let text = format!("{missing:#}");
    assert!(text.contains("missing.png"), "{text}");
}
