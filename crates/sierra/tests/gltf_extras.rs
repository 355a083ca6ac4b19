//! Seed 001's glTF node extras in a running game: a `ColliderDef` is a shape the player
//! stands on, and `ConstraintDef`s on a character's joints limit the IK chain through them.
//! Both files are built here: a JSON-only platform file and the built-in mannequin with
//! constraints written into its arm joints' extras.

use std::path::{Path, PathBuf};

use glam::{Quat, Vec3};
use serde_json::{json, Value};
use sierra::game::Game;
use sierra_anim::ik::JointLimit;

/// A GLB holding `document` and, if given, `bin` (glTF 2.0 §4.4: chunks padded to 4 bytes).
fn glb(document: &Value, bin: Option<&[u8]>) -> Vec<u8> {
    let mut json_chunk = document.to_string().into_bytes();
    while json_chunk.len() % 4 != 0 {
        json_chunk.push(b' ');
    }
    let mut body = Vec::new();
    body.extend_from_slice(&(json_chunk.len() as u32).to_le_bytes());
    body.extend_from_slice(b"JSON");
    body.extend_from_slice(&json_chunk);
    if let Some(bin) = bin {
        body.extend_from_slice(&(bin.len() as u32).to_le_bytes());
        body.extend_from_slice(b"BIN\0");
        body.extend_from_slice(bin);
    }
    let mut out = b"glTF".to_vec();
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(12 + body.len() as u32).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// Splits a GLB into its JSON document and BIN chunk.
fn split_glb(bytes: &[u8]) -> (Value, Vec<u8>) {
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    let json_len = word(12);
    let document = serde_json::from_slice(&bytes[20..20 + json_len]).unwrap();
    let bin_at = 20 + json_len;
    let bin_len = word(bin_at);
    (document, bytes[bin_at + 8..bin_at + 8 + bin_len].to_vec())
}

/// A platform file: node `Deck` 1 m up carrying a 4 × 0.5 × 4 m box collider (top at y = 1.25).
fn platform(collider: bool) -> Vec<u8> {
    let mut deck = json!({ "name": "Deck", "translation": [0.0, 1.0, 0.0] });
    if collider {
        deck["extras"] = json!({ "collider": {
            "shape": "BOX", "box_half_extents": [2.0, 0.25, 2.0], "mass": 0.0,
            "collision_group": "static", "collision_mask": "player" } });
    }
    glb(
        &json!({ "asset": { "version": "2.0" }, "scene": 0,
                 "scenes": [{ "nodes": [0] }], "nodes": [deck] }),
        None,
    )
}

/// The arm limits written into the mannequin's extras (degrees): tight enough that the
/// orb's path needs more, so the solver has to respect them.
const SHOULDER: (f32, f32) = (35.0, 20.0);
const ELBOW: (f32, f32) = (-70.0, 0.0);
const WRIST: (f32, f32) = (25.0, 10.0);

/// The built-in mannequin with seed 001 constraints on the right arm's joints.
fn constrained_mannequin() -> Vec<u8> {
    let (mut document, bin) = split_glb(&sierra_gltf::builtin::mannequin::glb());
    let extras = [
        (
            "upperarm_r",
            json!({ "type": "BALL_SOCKET", "swing_limit_deg": SHOULDER.0,
                               "twist_limit_deg": SHOULDER.1, "parent_bone": "clavicle_r" }),
        ),
        (
            "forearm_r",
            json!({ "type": "HINGE", "hinge_min_deg": ELBOW.0,
                              "hinge_max_deg": ELBOW.1, "hinge_axis": [1, 0, 0] }),
        ),
        (
            "hand_r",
            json!({ "type": "BALL_SOCKET", "swing_limit_deg": WRIST.0,
                           "twist_limit_deg": WRIST.1 }),
        ),
    ];
    for node in document["nodes"].as_array_mut().unwrap() {
        for (name, constraint) in &extras {
            if node["name"] == *name {
                node["extras"] = json!({ "constraint": constraint });
            }
        }
    }
    glb(&document, Some(&bin))
}

fn write_level(dir: &Path, collider: bool, limits: bool) -> PathBuf {
    std::fs::write(dir.join("platform.glb"), platform(collider)).unwrap();
    let arm = if limits {
        constrained_mannequin()
    } else {
        sierra_gltf::builtin::mannequin::glb()
    };
    std::fs::write(dir.join("arm.glb"), arm).unwrap();
    let level = r#"{"objects": [
      {"name": "Stage", "mesh": "platform.glb"},
      {"name": "Player", "position": [0, 3, 0], "components": [
        {"type": "Character", "model": "arm.glb", "clip": "idle"},
        {"type": "PlayerControl", "speed": 4, "jumpSpeed": 5}]},
      {"name": "Walker", "position": [1, 1.25, 0], "rotation": [0, 180, 0], "components": [
        {"type": "Character", "model": "arm.glb", "clip": "walk"}]},
      {"name": "Orb", "parent": "Walker", "position": [-0.3, 1.25, 0.38], "components": [
        {"type": "FigureEight", "size": [0.3, 0.25, 0.15], "period": 2},
        {"type": "IkTarget", "character": "Walker",
         "chain": ["upperarm_r", "forearm_r", "hand_r", "middle_01_r"]}]}
    ]}"#;
    let path = dir.join("level.json");
    std::fs::write(&path, level).unwrap();
    path
}

fn player_y(game: &Game) -> f32 {
    let node = game.gameplay.player.as_ref().unwrap().node;
    game.scene.graph.world(node).unwrap().translation.y
}

#[test]
fn the_player_falls_onto_the_collider_from_the_gltf_extras_and_stands_on_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut game = Game::load(&write_level(dir.path(), true, false), 60.0).unwrap();
    for _ in 0..120 {
        game.tick();
    }
    let y = player_y(&game);
    assert!(
        (y - 1.25).abs() < 1e-4,
        "player at y {y}, the deck top is 1.25"
    );
    let deck = game.scene.find_path("Stage/Deck").unwrap();
    assert_eq!(game.gameplay.player.as_ref().unwrap().ground, Some(deck));
    // Negative control: the same file without the collider extras has nothing to stand on.
    let dir = tempfile::tempdir().unwrap();
    let mut game = Game::load(&write_level(dir.path(), false, false), 60.0).unwrap();
    for _ in 0..120 {
        game.tick();
    }
    assert!(player_y(&game) < 0.0, "fell through: y {}", player_y(&game));
}

/// Largest excess (radians) over the three limits during 180 ticks, and the ticks the orb
/// was out of the chain's unconstrained reach.
fn worst_excess(game: &mut Game) -> f32 {
    let character = game
        .gameplay
        .characters
        .iter()
        .position(|c| game.scene.graph.name(c.node) == Some("Walker"))
        .unwrap();
    let skeleton = game.gameplay.characters[character].model.skeleton.clone();
    let joint = |n: &str| skeleton.find_joint(n).unwrap();
    let rad = f32::to_radians;
    // (joint, its limit, its child in the chain).
    let limits = [
        (
            joint("upperarm_r"),
            JointLimit::ball_socket(0, rad(SHOULDER.0), rad(SHOULDER.1)).unwrap(),
            joint("forearm_r"),
        ),
        (
            joint("forearm_r"),
            JointLimit::hinge(1, Vec3::X, rad(ELBOW.0), rad(ELBOW.1)).unwrap(),
            joint("hand_r"),
        ),
        (
            joint("hand_r"),
            JointLimit::ball_socket(2, rad(WRIST.0), rad(WRIST.1)).unwrap(),
            joint("middle_01_r"),
        ),
    ];
    let mut worst = 0.0f32;
    for _ in 0..180 {
        game.tick();
        let pose = &game.gameplay.poses[character];
        for &(j, limit, child) in &limits {
            let rest: Quat = skeleton.rest_pose()[j].rotation;
            let q = rest.inverse() * pose.local[j].rotation;
            // Swing and twist are about the bone: the rest direction to the chain child.
            let bone = skeleton.rest_pose()[child].translation.normalize();
            worst = worst.max(limit.excess(q, bone.into()));
        }
    }
    worst
}

#[test]
fn an_ik_chain_through_joints_constrained_in_gltf_extras_never_exceeds_their_limits() {
    let dir = tempfile::tempdir().unwrap();
    let mut game = Game::load(&write_level(dir.path(), true, true), 60.0).unwrap();
    let constrained = worst_excess(&mut game);
    // Negative control: without the extras the same chase leaves those limits far behind.
    let dir = tempfile::tempdir().unwrap();
    let mut free = Game::load(&write_level(dir.path(), true, false), 60.0).unwrap();
    let unconstrained = worst_excess(&mut free);
    eprintln!("worst excess over the extras' limits: {constrained} rad with them, {unconstrained} rad without");
    assert!(constrained < 1e-3, "{constrained} rad outside the limits");
    assert!(
        unconstrained > 0.2,
        "the control should exceed them: {unconstrained}"
    );
}
