//! The built-in mannequin: structure, clips, gait, and the exported `.glb` round trip.

#[path = "common/fingers.rs"]
mod fingers;

use std::collections::BTreeMap;

use glam::{Quat, Vec3};
use sierra_gltf::builtin::mannequin;
use sierra_gltf::pose::pose;
use sierra_gltf::{ClipSelector, GltfAsset};

fn joint_world(asset: &GltfAsset, clip: &str, time: f32, name: &str) -> Vec3 {
    let report = pose(asset, &ClipSelector::Name(clip.into()), time, 0).unwrap();
    let j = report.joints.iter().find(|j| j.name == name).unwrap();
    j.world.w_axis.truncate()
}

#[test]
fn mannequin_has_the_required_skeleton_mesh_material_and_clips() {
    let asset = mannequin::load().unwrap();
    assert!(asset.warnings.is_empty(), "{:?}", asset.warnings);
    let skin = asset.skin(0).unwrap();
    assert_eq!(
        skin.joint_count(),
        68,
        "document 000's character has 68 bones"
    );
    let name_of = |node: usize| asset.nodes[node].name.as_str();
    let node_named = |name: &str| asset.nodes.iter().position(|n| n.name == name).unwrap();
    for side in ["l", "r"] {
        let chain = [
            "clavicle",
            "upperarm",
            "forearm",
            "hand",
            "middle_01",
            "middle_02",
            "middle_03",
            "middle_end",
        ]
        .map(|b| format!("{b}_{side}"));
        for pair in chain.windows(2) {
            let child = node_named(&pair[1]);
            assert_eq!(
                asset.nodes[child].parent.map(name_of),
                Some(pair[0].as_str())
            );
        }
        for (parent, child) in [
            ("thigh", "calf"),
            ("calf", "foot"),
            ("foot", "ball"),
            ("hand", "thumb_01"),
            ("hand", "pinky_01"),
            ("ring_02", "ring_03"),
        ] {
            let c = node_named(&format!("{child}_{side}"));
            assert_eq!(
                asset.nodes[c].parent.map(name_of),
                Some(format!("{parent}_{side}").as_str())
            );
        }
    }
    for n in ["spine", "chest", "upper_chest", "neck", "head"] {
        assert!(skin.joint_nodes.iter().any(|&j| name_of(j) == n), "{n}");
    }
    let prim = &asset.meshes[0].primitives[0];
    let triangles = prim.indices.len() / 3;
    assert!((1500..=4000).contains(&triangles), "{triangles} triangles");
    assert_eq!(prim.normals.len(), prim.positions.len());
    assert!(prim.material.is_some());
    // Blended influences exist (smooth joints), and every vertex's weights sum to 1.
    assert!(prim.weights.iter().any(|w| w.x > 0.4 && w.x < 0.6));
    for w in &prim.weights {
        assert!((w.x + w.y + w.z + w.w - 1.0).abs() < 1e-5);
    }
    // 1.8 m tall standing on y = 0, facing +Z.
    let (min, max) = prim
        .positions
        .iter()
        .fold((Vec3::MAX, Vec3::MIN), |(a, b), p| (a.min(*p), b.max(*p)));
    assert!(
        min.y.abs() < 0.02 && (max.y - 1.81).abs() < 0.05,
        "{min} {max}"
    );
    for clip in mannequin::CLIPS {
        let i = asset.find_clip(&ClipSelector::Name(clip.into())).unwrap();
        let built = asset.skin_clip(0, i).unwrap();
        assert!(built.duration() > 0.1, "{clip}");
    }
}

#[test]
fn walk_and_run_swing_legs_in_opposition_with_arms_counter_swinging() {
    let asset = mannequin::load().unwrap();
    for (clip, period) in [("walk", 1.0), ("run", 0.7)] {
        // At a quarter cycle the left leg is forward, so the right arm is forward.
        for (t, left_forward) in [(0.25 * period, true), (0.75 * period, false)] {
            let fl = joint_world(&asset, clip, t, "foot_l").z;
            let fr = joint_world(&asset, clip, t, "foot_r").z;
            let hl = joint_world(&asset, clip, t, "hand_l").z;
            let hr = joint_world(&asset, clip, t, "hand_r").z;
            let s = if left_forward { 1.0 } else { -1.0 };
            assert!(
                s * fl > 0.1 && s * fr < -0.1,
                "{clip} t={t}: feet {fl} {fr}"
            );
            assert!(s * hr > s * hl + 0.05, "{clip} t={t}: hands {hl} {hr}");
        }
    }
    // The jump crouch lowers the pelvis; in the air the arms are raised sideways.
    let p0 = joint_world(&asset, "jump_start", 0.0, "pelvis").y;
    let p1 = joint_world(&asset, "jump_start", 0.2, "pelvis").y;
    assert!(p1 < p0 - 0.1, "{p0} {p1}");
    let hand = joint_world(&asset, "in_air", 0.0, "hand_l");
    assert!(hand.x > 0.5, "{hand}");
}

#[test]
fn exported_glb_round_trips_through_the_importer_and_sierra_pose() {
    let bytes = mannequin::glb();
    assert_eq!(bytes, mannequin::glb(), "deterministic");
    let dir = std::env::temp_dir().join(format!("sierra_mannequin_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mannequin.glb");
    std::fs::write(&path, &bytes).unwrap();
    let from_file = GltfAsset::load(&path).unwrap();
    let in_memory = mannequin::load().unwrap();
    assert_eq!(from_file.meshes, in_memory.meshes);
    for clip in mannequin::CLIPS {
        for t in [0.0, 0.13, 0.3, 0.61, 1.9] {
            let sel = ClipSelector::Name(clip.into());
            let a = pose(&from_file, &sel, t, 0).unwrap();
            let b = pose(&in_memory, &sel, t, 0).unwrap();
            assert_eq!(a, b, "{clip} at {t}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_clip_moves_every_finger_joint_within_the_documented_limits() {
    let asset = mannequin::load().unwrap();
    for clip in mannequin::CLIPS {
        let sel = ClipSelector::Name(clip.into());
        let duration = pose(&asset, &sel, 0.0, 0).unwrap().duration;
        let mut keys: BTreeMap<String, Vec<Quat>> = BTreeMap::new();
        for i in 0..=32 {
            let report = pose(&asset, &sel, duration * i as f32 / 32.0, 0).unwrap();
            for j in &report.joints {
                let parent = j
                    .parent
                    .map_or(glam::Mat4::IDENTITY, |p| report.joints[p].world);
                let (_, rotation, _) = (parent.inverse() * j.world).to_scale_rotation_translation();
                keys.entry(j.name.clone()).or_default().push(rotation);
            }
        }
        let (range, lo, hi) = fingers::check_clip(clip, &keys);
        eprintln!(
            "{clip}: every phalanx turns >= {range:.1} deg, flexion in [{lo:.1}, {hi:.1}] deg"
        );
    }
}

/// `assets/levels/models/mannequin.glb`, the model the shipped levels and the README's examples use
/// (a clone has no shared samples), is exactly what the code writes, and loads as the built-in.
#[test]
fn the_committed_mannequin_glb_is_what_the_code_writes() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../assets/levels/models/mannequin.glb");
    sierra_testkit::generated::assert_committed_bytes_match(
        &path,
        &mannequin::glb(),
        "SIERRA_BLESS=1 cargo test --release -p sierra_gltf --test mannequin committed",
    );
    let file = GltfAsset::load(&path).unwrap();
    assert_eq!(file.clips.len(), mannequin::load().unwrap().clips.len());
}
