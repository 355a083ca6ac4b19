//! `sierra pose` and `sierra bench anim` as subprocesses: the printed JSON equals the
//! library's (which `sierra_gltf/tests/pose.rs` checks against an independent
//! computation), bad input exits with an error naming the file, never a panic.

use std::process::Command;

use sierra_testkit::json;
use sierra_testkit::process::output_ok;

fn sierra(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sierra"));
    cmd.args(args);
    cmd
}

/// Runs `sierra ARGS…`, which must succeed, and parses the JSON it prints.
fn sierra_json(args: &[&str]) -> serde_json::Value {
    json::parse(&output_ok(&mut sierra(args)).stdout)
}

#[test]
fn pose_prints_the_fox_walk_pose_as_json() {
    let Some(path) = sierra_testkit::shared_asset("gltf/Fox/Fox.glb") else {
        return;
    };
    let p = path.to_str().unwrap();
    let json = sierra_json(&["pose", p, "--clip", "Walk", "--time", "0.5"]);
    let asset = sierra_gltf::GltfAsset::load(&path).unwrap();
    let expected =
        sierra_gltf::pose::pose(&asset, &sierra_gltf::ClipSelector::parse("Walk"), 0.5, 0)
            .unwrap()
            .to_json();
    assert!(
        json::approx_eq(&json, &expected),
        "CLI JSON differs from the library's"
    );
    assert_eq!(json["joints"].as_array().unwrap().len(), 24);
    for key in ["index", "name", "node", "parent", "world", "skin"] {
        assert!(json["joints"][0].get(key).is_some(), "{key}");
    }
    let list = sierra_json(&["pose", p, "--list"]);
    assert_eq!(list["clips"][1]["name"], "Walk");
}

#[test]
fn pose_bad_input_fails_cleanly() {
    let Some(path) = sierra_testkit::shared_asset("gltf/Fox/Fox.glb") else {
        return;
    };
    let p = path.to_str().unwrap();
    for args in [
        vec!["pose", p, "--clip", "Gallop", "--time", "0"],
        vec!["pose", p, "--clip", "Walk", "--skin", "3"],
        vec!["pose", "/nonexistent/model.glb", "--clip", "0"],
    ] {
        let out = sierra(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(
            err.contains("Fox.glb") || err.contains("model.glb"),
            "{err}"
        );
    }
}

#[test]
fn bench_anim_json_has_the_figures() {
    let json = sierra_json(&[
        "bench",
        "anim",
        "--characters",
        "20",
        "--frames",
        "3",
        "--json",
    ]);
    for key in [
        "one_thread_us_per_character",
        "staged_one_thread_us_per_character",
        "two_thread_speedup",
        "fused_over_staged",
    ] {
        assert!(json[key].as_f64().is_some_and(|v| v > 0.0), "{key}: {json}");
    }
    for stages in ["stages_over_crowd", "stages_hot_one_character"] {
        for key in [
            "sampling_two_clips_ns",
            "blending_ns",
            "local_to_model_ns",
            "palette_ns",
        ] {
            let v = &json[stages][key];
            assert!(
                v.as_f64().is_some_and(|v| v > 0.0),
                "{stages}.{key}: {json}"
            );
        }
    }
    assert_eq!(json["joints"], 68);
    assert_eq!(
        json["keyed_tracks_per_clip"], 136,
        "the anchor workload keys every joint twice"
    );
}
