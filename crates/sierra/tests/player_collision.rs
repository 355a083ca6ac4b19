//! The player against the world (#27): terrain slopes it walks up and those it cannot, walls it
//! stops at and slides along, and a follow camera that never ends inside a box. Headless, no
//! rendering; the terrain is a height field built here, so every expected value is exact.

use glam::Vec3;
use sierra::game::Game;
use sierra::gameplay::follow_camera::clearance;
use sierra::gameplay::input::Key;
use sierra::gameplay::player::{BODY, MAX_SLOPE_DEGREES};
use sierra_scene::collision::Aabb;
use sierra_terrain::HeightField;

const TICK_HZ: f64 = 60.0;

/// A level with a player at `at` (no character: the graph runs on its fallback durations),
/// walking at 4 m/s, the level camera looking along −Z (so RIGHT is +X and FORWARD is −Z),
/// plus `objects`.
fn game_with_player(at: Vec3, objects: &str) -> Game {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("level.json");
    let level = format!(
        r#"{{"camera": {{"position": [0, 3, 10], "target": [0, 1, 0]}}, "objects": [
            {{"name": "Me", "position": [{}, {}, {}],
              "components": [{{"type": "PlayerControl", "speed": 4, "jumpSpeed": 5}}]}}{objects}]}}"#,
        at.x, at.y, at.z
    );
    std::fs::write(&path, level).unwrap();
    Game::load(&path, TICK_HZ).unwrap()
}

fn feet(game: &Game) -> Vec3 {
    let node = game.gameplay.player.as_ref().unwrap().node;
    Vec3::from(game.scene.graph.world(node).unwrap().translation)
}

/// Runs `ticks` ticks of gameplay on `terrain` holding `keys`.
fn walk(
    game: &mut Game,
    terrain: Option<&HeightField>,
    keys: &[Key],
    ticks: u64,
    mut each: impl FnMut(&Game),
) {
    for k in keys {
        game.gameplay.keys.set(*k, true);
    }
    let dt = 1.0 / TICK_HZ as f32;
    for _ in 0..ticks {
        let tick = game.clock.tick();
        game.gameplay
            .tick(&mut game.scene, terrain, tick, dt)
            .unwrap();
        game.clock.advance();
        game.scene.graph.propagate();
        each(game);
    }
    for k in keys {
        game.gameplay.keys.set(*k, false);
    }
}

/// A 64 m square field, 0.5 m between samples: flat at height 0 for x < 0, then rising along +X
/// at `degrees`.
fn ramp(degrees: f32) -> HeightField {
    let n = 129;
    let size = 64.0;
    let slope = degrees.to_radians().tan();
    let spacing = size / (n - 1) as f32;
    let heights = (0..n * n)
        .map(|k| {
            let x = -size / 2.0 + (k % n) as f32 * spacing;
            x.max(0.0) * slope
        })
        .collect();
    HeightField::new(n, size, heights).unwrap()
}

#[test]
fn walking_up_a_30_degree_terrain_slope_keeps_the_feet_on_the_height_field() {
    let field = ramp(30.0);
    let mut game = game_with_player(Vec3::new(-3.0, 0.0, 0.0), "");
    let mut worst = 0.0f32;
    walk(&mut game, Some(&field), &[Key::Right], 180, |game| {
        let p = feet(game);
        let ground = field.height_at(p.x, p.z).unwrap();
        if !game.gameplay.player.as_ref().unwrap().airborne {
            worst = worst.max((p.y - ground).abs());
        }
    });
    let p = feet(&game);
    // 3 s at 4 m/s: 3 m of flat, then 9 m of slope (the slope's length, not its run, is not
    // asked for: the controller moves 4 m/s horizontally).
    assert!((p.x - 9.0).abs() < 1e-3, "walked to {p}");
    assert!((p.y - 9.0 * 30f32.to_radians().tan()).abs() < 0.05, "{p}");
    assert!(worst < 0.05, "feet left the ground by {worst} m");
    assert!(!game.gameplay.player.as_ref().unwrap().airborne);
}

#[test]
fn a_slope_steeper_than_the_limit_stops_the_player_at_its_foot() {
    assert!(MAX_SLOPE_DEGREES < 60.0);
    let field = ramp(60.0);
    let mut game = game_with_player(Vec3::new(-3.0, 0.0, 0.0), "");
    walk(&mut game, Some(&field), &[Key::Right], 180, |_| {});
    let p = feet(&game);
    // Stopped within a sample (0.5 m) of the foot, not up the slope.
    assert!(p.x < 0.5 && p.x > -0.5, "{p}");
    assert!(p.y < 0.5 * 60f32.to_radians().tan(), "{p}");
}

/// A wall: x ∈ [2, 3], y ∈ [0, 3], z ∈ [−10, 10].
const WALL: &str = r#", {"name": "Wall", "position": [2.5, 1.5, 0], "scale": [1, 3, 20],
    "components": [{"type": "CollisionBox", "halfExtents": [0.5, 0.5, 0.5]}]},
    {"name": "Floor", "position": [0, -0.5, 0], "scale": [40, 1, 40],
    "components": [{"type": "CollisionBox", "halfExtents": [0.5, 0.5, 0.5]}]}"#;

#[test]
fn walking_into_a_box_stops_at_its_face_and_slides_along_it() {
    let mut game = game_with_player(Vec3::ZERO, WALL);
    walk(&mut game, None, &[Key::Right], 60, |_| {});
    let p = feet(&game);
    // Stopped with the body's side on the face x = 2.
    assert!((p.x - (2.0 - BODY.radius)).abs() < 1e-4, "{p}");
    assert!(p.z.abs() < 1e-4 && p.y.abs() < 1e-4, "{p}");
    // Diagonally into the wall: the part along the face remains (slides towards −Z).
    walk(&mut game, None, &[Key::Right, Key::Forward], 60, |_| {});
    let q = feet(&game);
    assert!((q.x - (2.0 - BODY.radius)).abs() < 1e-4, "{q}");
    let along = 4.0 / 2f32.sqrt(); // 1 s at 4 m/s, half of it along the wall
    assert!((q.z + along).abs() < 1e-2, "slid to {q}");
}

#[test]
fn the_follow_camera_pulls_in_and_never_ends_inside_a_box() {
    // The camera rests 6 m behind the player (+Z); the player walks into a wall's shadow so the
    // wall comes between them, then along and around it.
    let objects = r#", {"name": "Wall", "position": [0, 2, 3], "scale": [6, 4, 1],
        "components": [{"type": "CollisionBox", "halfExtents": [0.5, 0.5, 0.5]}]},
        {"name": "Cam", "components": [{"type": "FollowCamera", "target": "Me", "offset": [0, 2, 6], "stiffness": 6}]}"#;
    let mut game = game_with_player(Vec3::new(6.0, 0.0, 0.0), objects);
    let field = ramp(20.0);
    let mut pulled_in = 0;
    let mut check = |game: &Game| {
        let eye = game.scene.camera.position;
        let cam = &game.scene.camera;
        // The eye keeps its clearance from every box (a little less at the grown box's
        // square corners is not asked for: the test grows by 1 cm less).
        // Where the player stands nearer a box than the clearance (its back to the wall), the
        // eye may come nearer too, but never inside.
        let look = game.scene.camera.target;
        let near_look = |b: &sierra_scene::collision::OrientedBox, keep: f32| {
            let m = b.world.matrix3;
            let scale = Vec3::new(m.x_axis.length(), m.y_axis.length(), m.z_axis.length());
            Aabb::new(b.local.min - keep / scale, b.local.max + keep / scale)
                .contains_point(b.world_inverse.transform_point3(look))
        };
        let keep_all = clearance(cam.near, cam.fov_y_degrees) - 0.01;
        for b in game.gameplay.collision.boxes() {
            let keep = if near_look(b, keep_all) {
                0.0
            } else {
                keep_all
            };
            let local = b.world_inverse.transform_point3(eye);
            let m = b.world.matrix3;
            let scale = Vec3::new(m.x_axis.length(), m.y_axis.length(), m.z_axis.length());
            let grown = Aabb::new(b.local.min - keep / scale, b.local.max + keep / scale);
            assert!(
                !grown.contains_point(local) || (keep == 0.0 && !b.local.contains_point(local)),
                "camera {eye} within {keep} m of a box at tick {}",
                game.clock.tick()
            );
        }
        let ground = field.height_at(eye.x, eye.z).unwrap();
        assert!(
            eye.y > ground + keep_all,
            "camera {eye} within {keep_all} m of the terrain ({ground})"
        );
        let target = Vec3::from(
            game.scene
                .graph
                .world(game.gameplay.player.as_ref().unwrap().node)
                .unwrap()
                .translation,
        );
        if (eye - target).length() < 5.0 {
            pulled_in += 1;
        }
    };
    walk(&mut game, Some(&field), &[Key::Left], 90, &mut check);
    walk(&mut game, Some(&field), &[Key::Back], 30, &mut check);
    walk(&mut game, Some(&field), &[Key::Right], 120, &mut check);
    assert!(
        pulled_in > 30,
        "the wall never came between camera and player ({pulled_in} ticks)"
    );
}
