//! Gameplay end to end, headless without rendering: the player state machine driven by a
//! scripted input track, IK towards the orb while walking, the attached sword, bad input.

use std::path::{Path, PathBuf};

use glam::{Mat4, Quat, Vec3};
use sierra::game::Game;
use sierra::gameplay::input::InputTrack;
use sierra::gameplay::player::PlayerState::{self, *};
use sierra_anim::ik::{JointLimit, RotationChangeTracker};

/// `path` under the repository root.
fn repo(path: &str) -> PathBuf {
    sierra_testkit::workspace_root().join(path)
}

#[test]
fn input_track_walks_jumps_onto_the_platform_walks_off_its_edge_and_lands() {
    let mut game = Game::load(&repo("assets/levels/player.json"), 60.0).unwrap();
    game.gameplay.track =
        Some(InputTrack::load(&repo("assets/input/player_walk_jump.json")).unwrap());
    let node = game.gameplay.player.as_ref().unwrap().node;
    let mut landings = Vec::new();
    let mut previous = Idle;
    for _ in 0..260 {
        game.tick();
        let state = game.gameplay.player.as_ref().unwrap().state;
        if state == Land && previous != Land {
            landings.push(game.scene.graph.world(node).unwrap().translation.y);
        }
        previous = state;
    }
    let player = game.gameplay.player.as_ref().unwrap();
    eprintln!("states {:?}, landings at y {landings:?}", player.history);
    let expected: Vec<PlayerState> = vec![Idle, Walk, Jump, Land, Idle, Walk, Fall, Land, Idle];
    assert_eq!(player.state_sequence(), expected, "{:?}", player.history);
    // First landing on the platform top (0.3 + 0.6/2), the second on the ground top (y = 0).
    assert_eq!(landings.len(), 2);
    assert!((landings[0] - 0.6).abs() < 1e-4, "{landings:?}");
    assert!(landings[1].abs() < 1e-4, "{landings:?}");
    let end = Vec3::from(game.scene.graph.world(node).unwrap().translation);
    // 140 ticks of "right" at 4 m/s (air control included), from x = 0.
    assert!(
        (end - Vec3::new(140.0 * 4.0 / 60.0, 0.0, 0.0)).length() < 1e-3,
        "{end}"
    );
    assert_eq!(player.ground, game.scene.object("Ground"));
}

#[test]
fn ik_hand_reaches_the_orb_elbow_stays_in_its_hinge_no_popping_and_the_sword_follows() {
    let mut game = Game::load(&repo("assets/levels/ik.json"), 60.0).unwrap();
    let gp = &game.gameplay;
    assert_eq!(gp.characters.len(), 1);
    let skeleton = gp.characters[0].model.skeleton.clone();
    let joint = |n: &str| skeleton.find_joint(n).unwrap();
    let (shoulder, forearm, hand, tip) = (
        joint("upperarm_r"),
        joint("forearm_r"),
        joint("hand_r"),
        joint("middle_01_r"),
    );
    let chain_length: f32 = [(shoulder, forearm), (forearm, hand), (hand, tip)]
        .iter()
        .map(|&(_, b)| skeleton.rest_pose()[b].translation.length())
        .sum();
    let orb = game.scene.object("Orb").unwrap();
    let sword = game.scene.object("Sword").unwrap();
    let elbow_limit = JointLimit::hinge(1, Vec3::X, -150f32.to_radians(), 0.0).unwrap();
    let forearm_rest = skeleton.rest_pose()[forearm].rotation;
    // The level's offset: 0.4 m down the hand's -Y, the blade (local Z) turned 90° about X onto
    // it, away from the body.
    let offset = Mat4::from_translation(Vec3::new(0.0, -0.4, 0.0))
        * Mat4::from_rotation_x(90f32.to_radians())
        * Mat4::from_scale(Vec3::new(0.03, 0.03, 0.9));
    let mut tracker = RotationChangeTracker::new();
    let mut rotations: Vec<Quat> = Vec::new();
    let (mut reached, mut in_reach) = (0, 0);
    for _ in 0..240 {
        game.tick();
        let pose = &game.gameplay.poses[0];
        let target = Vec3::from(game.scene.graph.world(orb).unwrap().translation);
        let shoulder_pos = pose.model[shoulder].w_axis.truncate();
        let tip_pos = pose.model[tip].w_axis.truncate();
        if (target - shoulder_pos).length() < 0.9 * chain_length {
            in_reach += 1;
            let miss = (tip_pos - target).length();
            assert!(
                miss < 0.02,
                "hand misses the orb by {miss} m at tick {}",
                game.clock.tick()
            );
            reached += 1;
        }
        let q = forearm_rest.inverse() * pose.local[forearm].rotation;
        let excess = elbow_limit.excess(q, Vec3::NEG_Y);
        assert!(
            excess < 1e-3,
            "elbow outside its hinge by {excess} rad at tick {}",
            game.clock.tick()
        );
        rotations.clear();
        rotations.extend(pose.local.iter().map(|t| t.rotation));
        tracker.push(&rotations);
        // The sword: hand world × offset (× the sword's own scale).
        let hand_world = pose.model[hand];
        let sword_world = Mat4::from(game.scene.graph.world(sword).unwrap());
        let expected = hand_world * offset;
        assert!(
            sword_world.abs_diff_eq(expected, 1e-5),
            "sword {sword_world} != {expected}"
        );
        // The joint node written into the scene graph is the job's hand matrix.
        let hand_node = game.gameplay.characters[0].joint_nodes[hand];
        assert!(
            Mat4::from(game.scene.graph.world(hand_node).unwrap()).abs_diff_eq(hand_world, 1e-5)
        );
    }
    assert!(
        in_reach > 120,
        "the orb should mostly be in reach ({in_reach}/240 ticks)"
    );
    assert_eq!(reached, in_reach);
    let (j, frame, change) = tracker.worst().unwrap();
    eprintln!("in reach {in_reach}/240 ticks; worst joint rotation change {change} rad (joint {j}, frame {frame})");
    // Walking at 60 Hz turns joints by a few degrees per tick; a pop (a solver flip) is tens of degrees.
    assert!(
        change < 0.15,
        "joint {} ({}) turned {change} rad between ticks at frame {frame}",
        j,
        skeleton.names()[j]
    );
}

fn write_level(dir: &Path, objects: &str) -> PathBuf {
    let path = dir.join("level.json");
    std::fs::write(&path, format!(r#"{{"objects": [{objects}]}}"#)).unwrap();
    path
}

fn load_error(objects: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = write_level(dir.path(), objects);
    format!(
        "{:#}",
        Game::load(&path, 60.0).err().expect("level should fail")
    )
}

const WALKER: &str = r#"{"name": "W", "components": [{"type": "Character", "model": "builtin:mannequin", "clip": "walk"}]}"#;

fn ik_target(chain: &str, limits: &str) -> String {
    format!(
        r#"{WALKER}, {{"name": "T", "components": [{{"type": "IkTarget", "character": "W", "chain": {chain}, "limits": {limits}}}]}}"#
    )
}

#[test]
fn bad_characters_and_ik_targets_are_errors_naming_file_and_json_path() {
    let cases = [
        (
            r#"{"name": "W", "components": [{"type": "Character", "model": "builtin:mannequin", "clip": "dance"}]}"#.to_owned(),
            vec!["level.json", "objects[0].components[0].clip", "dance", "walk"],
        ),
        (
            ik_target(r#"["upperarm_r", "forearm_r", "wrist_r"]"#, "{}"),
            vec!["level.json", "objects[1].components[0].chain[2]", "wrist_r"],
        ),
        (
            ik_target(r#"["upperarm_r", "hand_l"]"#, "{}"),
            vec!["level.json", "objects[1].components[0].chain[1]", "not a parent chain"],
        ),
        (
            ik_target(
                r#"["upperarm_r", "forearm_r", "hand_r"]"#,
                r#"{"forearm_r": {"type": "HINGE", "hinge_min_deg": 10, "hinge_max_deg": -10}}"#,
            ),
            vec!["level.json", "objects[1].components[0].limits.forearm_r", "min"],
        ),
        (
            ik_target(r#"["upperarm_r", "forearm_r"]"#, r#"{"hand_r": {"type": "HINGE"}}"#),
            vec!["objects[1].components[0].limits.hand_r", "not in the chain"],
        ),
        (
            r#"{"name": "T", "components": [{"type": "IkTarget", "character": "Nobody", "chain": ["a", "b"]}]}"#.to_owned(),
            vec!["objects[0].components[0].character", "Nobody"],
        ),
        (
            format!(r#"{WALKER}, {{"name": "S", "components": [{{"type": "Attachment", "character": "W", "joint": "sword_hand"}}]}}"#),
            vec!["objects[1].components[0].joint", "sword_hand"],
        ),
    ];
    for (objects, needles) in cases {
        let err = load_error(&objects);
        for needle in needles {
            assert!(err.contains(needle), "`{needle}` missing from: {err}");
        }
    }
}

#[test]
fn a_character_model_without_a_skin_is_an_error() {
    let Some(cube) = sierra_testkit::shared_asset("gltf/AnimatedCube/AnimatedCube.gltf") else {
        return;
    };
    // Models are read inside the level's folder (the asset root): copy the cube beside the level.
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(cube.parent().unwrap()).unwrap() {
        let from = entry.unwrap().path();
        std::fs::copy(&from, dir.path().join(from.file_name().unwrap())).unwrap();
    }
    let path = write_level(
        dir.path(),
        r#"{"name": "C", "components": [{"type": "Character", "model": "AnimatedCube.gltf", "clip": "x"}]}"#,
    );
    let err = format!(
        "{:#}",
        Game::load(&path, 60.0).err().expect("level should fail")
    );
    assert!(
        err.contains("objects[0].components[0].model") && err.contains("no skin"),
        "{err}"
    );
}

#[test]
fn a_malformed_input_track_names_file_and_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("track.json");
    std::fs::write(&path, "{\"presses\": [\n  {\"key\": \"jump\", \"tick\": 3},\n  {\"key\": \"fly\", \"tick\": 4}\n]}").unwrap();
    let err = InputTrack::load(&path).unwrap_err().to_string();
    assert!(
        err.contains("track.json:3:") && err.contains("presses[1].key") && err.contains("fly"),
        "{err}"
    );
}

/// Closest distance between segments `[p0, p1]` and `[q0, q1]` (clamped parameters; Ericson,
/// Real-Time Collision Detection, 5.1.9).
fn segment_distance(p0: Vec3, p1: Vec3, q0: Vec3, q1: Vec3) -> f32 {
    let (d1, d2, r) = (p1 - p0, q1 - q0, p0 - q0);
    let (a, e, f) = (d1.dot(d1), d2.dot(d2), d2.dot(r));
    let (c, b) = (d1.dot(r), d1.dot(d2));
    let denom = a * e - b * b;
    let mut s = if denom > 1e-12 {
        ((b * f - c * e) / denom).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let mut t = (b * s + f) / e;
    if t < 0.0 {
        t = 0.0;
        s = (-c / a).clamp(0.0, 1.0);
    } else if t > 1.0 {
        t = 1.0;
        s = ((b - c) / a).clamp(0.0, 1.0);
    }
    ((p0 + d1 * s) - (q0 + d2 * t)).length()
}

/// The `ik` level's sword, held in the IK-driven right hand, never passes through the
/// mannequin's torso or head: over 8 s its blade (a segment along the sword's length) stays
/// clear of capsules around the pelvis-spine-chest-neck-head chain (0.15 m: the mannequin's torso is
/// about 0.3 m deep).
#[test]
fn the_ik_levels_sword_clears_the_torso_and_head() {
    const TORSO_RADIUS: f32 = 0.15;
    let mut game = Game::load(&repo("assets/levels/ik.json"), 60.0).unwrap();
    let skeleton = game.gameplay.characters[0].model.skeleton.clone();
    let chain: Vec<usize> = [
        "pelvis",
        "spine",
        "chest",
        "upper_chest",
        "neck",
        "head",
        "head_end",
    ]
    .iter()
    .map(|n| {
        skeleton
            .find_joint(n)
            .unwrap_or_else(|| panic!("no joint {n}"))
    })
    .collect();
    let sword = game.scene.object("Sword").unwrap();
    let mut closest = (f32::INFINITY, 0);
    for tick in 0..480 {
        game.tick();
        let pose = &game.gameplay.poses[0];
        let world = Mat4::from(game.scene.graph.world(sword).unwrap());
        let (tip, hilt) = (
            world.transform_point3(Vec3::new(0.0, 0.0, 0.5)),
            world.transform_point3(Vec3::new(0.0, 0.0, -0.5)),
        );
        for pair in chain.windows(2) {
            let (a, b) = (
                pose.model[pair[0]].w_axis.truncate(),
                pose.model[pair[1]].w_axis.truncate(),
            );
            let d = segment_distance(hilt, tip, a, b) - TORSO_RADIUS;
            if d < closest.0 {
                closest = (d, tick);
            }
        }
    }
    eprintln!(
        "sword's closest approach to the torso: {:.3} m at tick {}",
        closest.0, closest.1
    );
    assert!(
        closest.0 > 0.0,
        "the sword cuts {:.3} m into the torso at tick {}",
        -closest.0,
        closest.1
    );
}
