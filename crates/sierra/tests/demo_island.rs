//! The demo island level loads and renders headless (tiny size, few frames) with terrain, sea,
//! planet, birds and palms drawn; the `walk` camera path stays at eye height over the terrain.

use std::path::Path;

use sierra::camera_path::{CameraPath, CameraPathKind, EYE_HEIGHT};
use sierra::cli::demo::DEMO_LEVEL;
use sierra::game::Game;
use sierra::game_loop::DEFAULT_TICK_HZ;
use sierra::headless::{run_headless, HeadlessOptions};
use sierra_render::{GpuContext, HeadlessRenderer};

#[test]
fn demo_island_renders_every_landscape_element() {
    let game = Game::load(Path::new(DEMO_LEVEL), DEFAULT_TICK_HZ).unwrap();
    let w = &game.world;
    assert!(w.landscape.is_some() && w.sea.is_some(), "terrain and sea");
    assert!(
        w.sky.planet.is_some() && w.sky.palms.is_some(),
        "planet and palms"
    );
    assert_eq!(w.sky.flock.as_ref().unwrap().birds().len(), 10, "ten birds");

    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("demo_island");
    let mut game = game;
    game.camera_path = Some(CameraPath {
        kind: CameraPathKind::Aerial,
        duration: 5.0 / DEFAULT_TICK_HZ as f32,
    });
    let summary = run_headless(
        game,
        &HeadlessOptions {
            frames: 5,
            width: 128,
            height: 72,
            out: out.clone(),
            force: false,
            profile: false,
        },
    )
    .unwrap();
    let stats: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&summary.stats).unwrap()).unwrap();
    let last = &stats["frames"][4];
    // 64 terrain chunks + planet + clouds + 10 birds + palms + 6 platform/lamp nodes, drawn or
    // left out by frustum culling.
    assert!(
        last["draw_calls"].as_u64().unwrap() + last["culled_draws"].as_u64().unwrap()
            >= 64 + 2 + 10 + 1 + 6,
        "{last}"
    );
    assert!(last["triangles"].as_u64().unwrap() > 50_000, "{last}");
    let image = image::open(out.join("frame_0004.png")).unwrap().to_rgb8();
    let mut lo = [255u8; 3];
    let mut hi = [0u8; 3];
    for p in image.pixels() {
        for c in 0..3 {
            lo[c] = lo[c].min(p[c]);
            hi[c] = hi[c].max(p[c]);
        }
    }
    assert!(
        (0..3).all(|c| hi[c] - lo[c] > 60),
        "uniform image {lo:?}..{hi:?}"
    );
}

#[test]
fn walk_path_stays_at_eye_height_over_the_terrain() {
    let ctx = GpuContext::headless().unwrap();
    let mut headless = HeadlessRenderer::new(&ctx, 16, 16).unwrap();
    let mut game = Game::load(Path::new(DEMO_LEVEL), DEFAULT_TICK_HZ).unwrap();
    game.world
        .upload(&ctx, &mut headless.renderer, &mut game.startup)
        .unwrap();
    game.camera_path = Some(CameraPath {
        kind: CameraPathKind::Walk,
        duration: 1.0,
    });
    let mut moved = 0.0f32;
    let mut last: Option<glam::Vec3> = None;
    for _ in 0..70 {
        game.tick();
        let eye = game.scene.camera.position;
        let ground = game.world.ground_height(eye.x, eye.z).unwrap().max(0.0);
        assert!(eye.y >= ground + EYE_HEIGHT - 1e-3, "{eye} under {ground}");
        assert!(eye.y <= ground + EYE_HEIGHT + 1e-3, "{eye} over {ground}");
        if let Some(p) = last {
            moved += (eye - p).length();
        }
        last = Some(eye);
    }
    assert!(moved > 50.0, "the walk moved {moved} m");
}
