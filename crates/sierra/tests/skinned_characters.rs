//! Characters are drawn as GPU-skinned meshes: the IK level rendered as `sierra render
//! assets/levels/ik.json --frames 3 --size 128x128` does (same library path as `run_headless`),
//! and the same frame rendered again without the skinned draws shows what they added.

#[path = "common/skinned_triangles.rs"]
mod skinned_triangles;

use sierra::frame_runner::FrameRunner;
use sierra::game::Game;
use sierra::game_loop::DEFAULT_TICK_HZ;
use sierra_render::{GpuContext, HeadlessRenderer};
use skinned_triangles::skinned_triangles;

const SIZE: u32 = 128;

#[test]
fn ik_level_draws_the_skinned_mannequin_where_its_skeleton_is() {
    let game = Game::load(
        &sierra_testkit::workspace_root().join("assets/levels/ik.json"),
        DEFAULT_TICK_HZ,
    )
    .unwrap();
    let ctx = GpuContext::headless().unwrap();
    let mut headless = HeadlessRenderer::new(&ctx, SIZE, SIZE).unwrap();
    let mut runner = FrameRunner::new(&ctx, &mut headless.renderer, game).unwrap();
    let mut with = None;
    for _ in 0..3 {
        with = Some(runner.headless_frame(&ctx, &mut headless).unwrap());
    }
    let (with, stats_with) = with.unwrap();
    assert_eq!(stats_with.skinned_draws, 1, "the mannequin is skinned");
    let mut frame = runner.frame().clone();
    frame.skinned.clear();
    let (without, stats_without) = headless.render(&ctx, &frame).unwrap();
    let game = runner.game();

    // Independent count: the mannequin file's skinned triangles.
    let asset = sierra_gltf::builtin::load_model("builtin:mannequin").unwrap();
    let mannequin = skinned_triangles(&asset);
    assert!(mannequin > 100, "{mannequin}");
    assert_eq!(
        stats_with.triangles - stats_without.triangles,
        mannequin,
        "one skinned mannequin per character ({} characters)",
        game.gameplay.characters.len()
    );

    // Pixels the body covers differ from the frame without it.
    let changed: Vec<(u32, u32)> = with
        .enumerate_pixels()
        .filter(|(x, y, p)| {
            let q = without.get_pixel(*x, *y);
            p.0.iter()
                .zip(q.0)
                .any(|(a, b)| (i32::from(*a) - i32::from(b)).abs() > 8)
        })
        .map(|(x, y, _)| (x, y))
        .collect();
    let share = changed.len() as f32 / (SIZE * SIZE) as f32;
    assert!(
        share > 0.03,
        "the body covers {:.1}% of the image",
        share * 100.0
    );

    // The skinned body is where the animated skeleton is: the spine joint's projection
    // (world-space joint from this tick's pose, through the frame's camera) is covered.
    let c = &game.gameplay.characters[0];
    let spine = c.model.skeleton.find_joint("spine").unwrap();
    let world = game.gameplay.poses[0].model[spine].w_axis.truncate();
    let ndc = frame.camera.view_proj().project_point3(world);
    assert!(
        ndc.x.abs() < 1.0 && ndc.y.abs() < 1.0,
        "spine off-screen: {ndc}"
    );
    let px = ((ndc.x * 0.5 + 0.5) * SIZE as f32) as i64;
    let py = ((0.5 - ndc.y * 0.5) * SIZE as f32) as i64;
    let near = changed
        .iter()
        .any(|&(x, y)| (i64::from(x) - px).abs() <= 2 && (i64::from(y) - py).abs() <= 2);
    assert!(near, "no body pixel around the spine at ({px}, {py})");
}
