//! The exported mannequin loaded by three.js's `GLTFLoader` (the web's reference loader)
//! in Node, through `tools/js/gltf_summary.mjs`: 68 joints, six clips, and the finger
//! limits checked on the quaternions three.js decoded.
//!
//! Needs `tools/js/node_modules` (`npm ci` in `tools/js`, which `.ci/run` does). Without
//! it the test says so and passes, except under CI (`CI` set), where it fails.

#[path = "common/fingers.rs"]
mod fingers;

use std::collections::BTreeMap;

use glam::Quat;
use serde_json::Value;
use sierra_gltf::builtin::mannequin;
use sierra_testkit::node_tools;

/// Runs the summary script on `glb`, or `None` (skip) when three.js is not installed here.
fn threejs_summary(glb: &std::path::Path) -> Option<Value> {
    if !node_tools::installed("three") {
        return None;
    }
    let out = node_tools::node("gltf_summary.mjs", &[glb.as_os_str()]);
    Some(serde_json::from_slice(&out).expect("the script prints JSON"))
}

#[test]
fn threejs_gltf_loader_reads_68_joints_six_clips_and_fingers_within_limits() {
    let dir = std::env::temp_dir().join(format!("sierra_threejs_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mannequin.glb");
    std::fs::write(&path, mannequin::glb()).unwrap();
    let summary = threejs_summary(&path);
    let _ = std::fs::remove_dir_all(&dir);
    let Some(summary) = summary else {
        return;
    };
    let joints: Vec<&str> = summary["joints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j.as_str().unwrap())
        .collect();
    assert_eq!(joints.len(), 68, "{joints:?}");
    for name in [
        "pelvis",
        "head",
        "hand_l",
        "hand_r",
        "foot_r",
        "thumb_03_l",
        "pinky_end_r",
    ] {
        assert!(joints.contains(&name), "{name} in {joints:?}");
    }
    let clips = summary["clips"].as_array().unwrap();
    let names: Vec<&str> = clips.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, mannequin::CLIPS);
    for clip in clips {
        let name = clip["name"].as_str().unwrap();
        assert!(clip["duration"].as_f64().unwrap() > 0.1, "{name}");
        let mut keys: BTreeMap<String, Vec<Quat>> = BTreeMap::new();
        for track in clip["tracks"].as_array().unwrap() {
            let Some(joint) = track["name"].as_str().unwrap().strip_suffix(".quaternion") else {
                continue;
            };
            let v: Vec<f32> = sierra_testkit::json::f32_array(&track["values"]);
            let quats = v
                .chunks_exact(4)
                .map(|q| Quat::from_xyzw(q[0], q[1], q[2], q[3]));
            keys.insert(joint.to_string(), quats.collect());
        }
        // End sites are never keyed (negative control for the track lookup).
        assert!(!keys.contains_key("middle_end_l"), "{name}");
        let (range, lo, hi) = fingers::check_clip(name, &keys);
        eprintln!("three.js {name}: every phalanx turns >= {range:.1} deg, flexion in [{lo:.1}, {hi:.1}] deg");
    }
}
