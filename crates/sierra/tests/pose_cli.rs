//! `sierra pose` and `sierra bench anim` as subprocesses: the printed JSON equals the
//! library's (which `sierra_gltf/tests/pose.rs` checks against an independent
//! computation), bad input exits with an error naming the file, never a panic.

use std::process::Command;

fn sierra(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sierra"))
        .args(args)
        .output()
        .unwrap()
}

/// Structural equality with numbers compared to 1e-6 (JSON text round-trips f32 through f64).
fn same(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value::*;
    match (a, b) {
        (Number(x), Number(y)) => {
            (x.as_f64().unwrap() - y.as_f64().unwrap()).abs()
                <= 1e-6 * (1.0 + y.as_f64().unwrap().abs())
        }
        (Array(x), Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y)),
        (Object(x), Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

#[test]
fn pose_prints_the_fox_walk_pose_as_json() {
    let Some(path) = sierra_testkit::shared_asset("gltf/Fox/Fox.glb") else {
        return;
    };
    let p = path.to_str().unwrap();
    let out = sierra(&["pose", p, "--clip", "Walk", "--time", "0.5"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let asset = sierra_gltf::GltfAsset::load(&path).unwrap();
    let expected =
        sierra_gltf::pose::pose(&asset, &sierra_gltf::ClipSelector::parse("Walk"), 0.5, 0)
            .unwrap()
            .to_json();
    assert!(
        same(&json, &expected),
        "CLI JSON differs from the library's"
    );
    assert_eq!(json["joints"].as_array().unwrap().len(), 24);
    for key in ["index", "name", "node", "parent", "world", "skin"] {
        assert!(json["joints"][0].get(key).is_some(), "{key}");
    }
    let list = sierra(&["pose", p, "--list"]);
    let list: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
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
        let out = sierra(&args);
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
    let out = sierra(&[
        "bench",
        "anim",
        "--characters",
        "20",
        "--frames",
        "3",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
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
