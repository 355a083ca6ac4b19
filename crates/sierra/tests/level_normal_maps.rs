//! Level settings reach the renderer. `post.msaa` switches 4× MSAA on. A material's `normalMap`
//! reaches the forward pass: a normal-mapped plane lit by a
//! grazing sun shows its bumps (pixel variance); the same plane without the map is flat shaded.
//! The frame is written to the temp directory (`sierra_level_normal_maps.png`) to look at.

use sierra::frame_runner::FrameRunner;
use sierra::game::Game;
use sierra::game_loop::DEFAULT_TICK_HZ;
use sierra::scene_to_frame::View;
use sierra_render::{GpuContext, HeadlessRenderer};

const W: u32 = 128;
const H: u32 = 64;

#[test]
fn normal_mapped_plane_shows_its_pattern_under_a_grazing_sun() {
    // Two 4 m planes side by side seen from straight above; the sun comes in 15 degrees above
    // the horizon along +X, no ambient, no specular: a flat plane is one colour (N.L = sin 15°).
    let json = r#"{
      "camera": { "position": [0, 6, 0.001], "target": [0, 0, 0], "fovYDegrees": 40, "near": 0.1, "far": 20 },
      "sun": { "direction": [1, -0.268, 0], "color": [1, 1, 1], "intensity": 2.0, "ambient": [0, 0, 0] },
      "clearColor": [0, 0, 0],
      "objects": [
        { "name": "Bumpy", "position": [-2, 0, 0], "scale": 4, "mesh": "plane",
          "material": { "baseColor": [1, 1, 1], "specularColor": [0, 0, 0], "normalMap": "builtin:bumps" } },
        { "name": "Flat", "position": [2, 0, 0], "scale": 4, "mesh": "plane",
          "material": { "baseColor": [1, 1, 1], "specularColor": [0, 0, 0] } }
      ]
    }"#;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("normal_maps.json");
    std::fs::write(&path, json).unwrap();
    let game = Game::load(&path, DEFAULT_TICK_HZ).unwrap_or_else(|e| panic!("{e:#}"));
    let ctx = GpuContext::headless().unwrap_or_else(|e| panic!("{e}"));
    let mut headless = HeadlessRenderer::new(&ctx, W, H).unwrap_or_else(|e| panic!("{e}"));
    let mut runner =
        FrameRunner::new(&ctx, &mut headless.renderer, game).unwrap_or_else(|e| panic!("{e:#}"));
    runner.tick();
    let frame = runner
        .extract(&View::at_tick(W as f32 / H as f32))
        .unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(frame.draws.len(), 2);
    // One plane mesh, uploaded once, drawn with two materials: the draws name them.
    assert_eq!(
        frame.draws[0].mesh, frame.draws[1].mesh,
        "both planes draw the one plane mesh"
    );
    assert!(
        frame.draws[0].surface.is_some(),
        "the bumpy plane names its material"
    );
    assert_eq!(
        frame.draws[1].surface, None,
        "the flat plane draws the default material"
    );
    let (image, _) = headless
        .render(&ctx, runner.frame())
        .unwrap_or_else(|e| panic!("{e}"));
    let _ = image.save(std::env::temp_dir().join("sierra_level_normal_maps.png"));
    assert_eq!(
        headless.renderer.meshes().uploads(),
        1,
        "the plane is uploaded once, whatever materials draw it"
    );
    assert_eq!(
        headless.renderer.materials().len(),
        1,
        "one normal-mapped material"
    );

    // Left half: the bumpy plane, right half: the flat one (inner columns only).
    sierra_testkit::relief::assert_bumpy_left_flat_right(&image, 100.0, 25.0);
}

#[test]
fn level_post_msaa_turns_on_multisampling() {
    let json = r#"{
      "camera": { "position": [0, 2, 4], "target": [0, 0, 0] },
      "post": { "msaa": 4 },
      "objects": [ { "name": "Box", "mesh": "cube", "material": { "normalMap": "builtin:ripples" } } ]
    }"#;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("msaa.json");
    std::fs::write(&path, json).unwrap();
    let game = Game::load(&path, DEFAULT_TICK_HZ).unwrap_or_else(|e| panic!("{e:#}"));
    let ctx = GpuContext::headless().unwrap_or_else(|e| panic!("{e}"));
    let mut headless = HeadlessRenderer::new(&ctx, 32, 32).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(headless.renderer.sample_count(), 1);
    let mut runner =
        FrameRunner::new(&ctx, &mut headless.renderer, game).unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(headless.renderer.sample_count(), 4);
    let (_, stats) = runner
        .headless_frame(&ctx, &mut headless)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(stats.draw_calls, 1);
}
