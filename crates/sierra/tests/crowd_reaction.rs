//! Crowd members react to the player at run time: they idle until the player walks close,
//! then crossfade to `walk` and walk away (their instances rewritten, the GPU running the
//! fade). Compared with the same level where the player stands still (negative control).

use std::path::{Path, PathBuf};

use glam::Vec3;
use sierra::frame_runner::FrameRunner;
use sierra::game::Game;
use sierra::game_loop::DEFAULT_TICK_HZ;
use sierra::gameplay::input::InputTrack;
use sierra::scene_to_frame::View;
use sierra::world::crowd_reaction::{Mood, NOTICE_RADIUS};
use sierra_render::{GpuContext, HeadlessRenderer};

const SIZE: u32 = 96;

/// Ground with a collision box, a 5×5 crowd around the origin, the player 8 m to its left.
const LEVEL: &str = r#"{
  "camera": {"position": [0, 14, 12], "target": [0, 0, 0], "fovYDegrees": 50, "near": 0.1, "far": 100},
  "sun": {"direction": [-0.3, -1, -0.4], "intensity": 1.0},
  "clearColor": [0.2, 0.3, 0.5],
  "objects": [
    {"name": "Ground", "position": [0, -0.5, 0], "scale": [40, 1, 40], "mesh": "cube",
     "material": {"baseColor": [0.4, 0.45, 0.4]},
     "components": [{"type": "CollisionBox", "halfExtents": [0.5, 0.5, 0.5]}]},
    {"name": "People", "components": [{"type": "Crowd", "model": "builtin:mannequin", "count": 25,
      "layout": "grid", "spacing": 1.5, "clips": ["idle"], "seed": 1}]},
    {"name": "Player", "position": [-8, 0, 0], "components": [{"type": "PlayerControl", "speed": 4}]}
  ]
}"#;

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs `ticks` ticks (the player walking right from tick 10 when `walk`), calling `each`
/// after every tick, and renders the last.
fn run(
    ctx: &GpuContext,
    dir: &Path,
    walk: bool,
    ticks: usize,
    mut each: impl FnMut(&Game),
) -> (image::RgbaImage, Game) {
    let level = write(dir, "crowd_player.json", LEVEL);
    let mut game = Game::load(&level, DEFAULT_TICK_HZ).unwrap();
    if walk {
        let track = r#"{"presses": [{"key": "right", "tick": 10, "ticks": 120}]}"#;
        game.gameplay.track = Some(InputTrack::load(&write(dir, "track.json", track)).unwrap());
    }
    let mut headless = HeadlessRenderer::new(ctx, SIZE, SIZE).unwrap();
    let mut runner = FrameRunner::new(ctx, &mut headless.renderer, game).unwrap();
    // Many ticks, then one frame, as a window that fell behind would run them.
    for _ in 0..ticks {
        runner.tick();
        each(runner.game());
    }
    runner.extract(&View::at_tick(1.0)).unwrap();
    let image = headless.render(ctx, runner.frame()).unwrap().0;
    (image, runner.into_game())
}

#[test]
fn crowd_members_walk_away_from_the_approaching_player() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = GpuContext::headless().unwrap();
    let (still, still_game) = run(&ctx, dir.path(), false, 150, |_| {});
    // Every tick, each member that moved stepped away from the player (positive dot product
    // of its step with the player → member direction).
    let mut previous: Vec<Vec3> = Vec::new();
    let (mut steps, mut away_steps) = (0, 0);
    let (walked, game) = run(&ctx, dir.path(), true, 150, |game| {
        let player = game.gameplay.player.as_ref().unwrap().node;
        let p = Vec3::from(game.scene.graph.world(player).unwrap().translation);
        let now: Vec<Vec3> = game.world.crowds.placed[0]
            .iter()
            .map(|i| i.model.w_axis.truncate())
            .collect();
        for (a, b) in previous.iter().zip(&now) {
            if a != b {
                steps += 1;
                away_steps += usize::from((*b - *a).dot((*a - p).with_y(0.0)) > 0.0);
            }
        }
        previous = now;
    });
    assert!(
        steps > 100 && away_steps == steps,
        "{away_steps} of {steps} steps away from the player"
    );
    if let Ok(out) = std::env::var("SIERRA_TEST_OUT") {
        walked
            .save(Path::new(&out).join("crowd_reaction.png"))
            .unwrap();
        still.save(Path::new(&out).join("crowd_still.png")).unwrap();
    }
    let crowds = &still_game.world.crowds;
    assert!(
        crowds.reactions[0].moods.iter().all(|m| *m == Mood::Calm),
        "nobody moves without the player"
    );
    let start: Vec<Vec3> = crowds.placed[0]
        .iter()
        .map(|i| i.model.w_axis.truncate())
        .collect();
    let player = game.gameplay.player.as_ref().unwrap().node;
    let p = Vec3::from(game.scene.graph.world(player).unwrap().translation);
    // 120 ticks right at 4 m/s from x = -8.
    assert!((p.x - 0.0).abs() < 0.1, "{p}");
    let crowds = &game.world.crowds;
    let mut fled = 0;
    for (i, inst) in crowds.placed[0].iter().enumerate() {
        let now = inst.model.w_axis.truncate();
        if crowds.reactions[0].moods[i] == Mood::Fleeing || now != start[i] {
            fled += 1;
            assert!((now - start[i]).length() > 0.5, "member {i} hardly moved");
            assert_eq!(inst.second_clip, 1, "member {i} plays `walk`");
        } else {
            assert!(
                (start[i] - p).with_y(0.0).length() >= NOTICE_RADIUS - 1.0,
                "member {i} near the path did not react"
            );
        }
    }
    assert!(fled >= 5, "{fled} reacted");
    // The frames differ where the members walked (the player itself has no mesh here).
    let differing = still
        .pixels()
        .zip(walked.pixels())
        .filter(|(a, b)| a.0.iter().zip(b.0).any(|(x, y)| x.abs_diff(y) > 24))
        .count();
    assert!(differing > 30, "{differing} pixels changed");
}
