//! `sierra pose` goes through the animation job: from raw clips it prints what the independent
//! raw-glTF computation (`sierra_gltf::pose`, checked in `sierra_gltf/tests/pose.rs`) prints,
//! and with `--compressed` it agrees with it within 1e-3 m, for Fox, CesiumMan and the built-in
//! mannequin at several times.

use glam::Vec3;
use sierra::cli::pose::pose_report;
use sierra_gltf::{pose::PoseReport, ClipSelector, GltfAsset};

/// Largest distance (glTF units, metres) between the two reports' joints: each joint's world
/// position and the points 3 cm along its world axes, and (with `skin`) the origin as each skin
/// matrix moves it (the mesh origin can be far from the joint: Fox's is ~70 m from its head, so
/// that lever arm scales a compressed rotation's error; compared for raw clips only).
fn max_diff(a: &PoseReport, b: &PoseReport, skin: bool) -> f32 {
    assert_eq!(a.joints.len(), b.joints.len());
    let points = [Vec3::ZERO, Vec3::X * 0.03, Vec3::Y * 0.03, Vec3::Z * 0.03];
    a.joints
        .iter()
        .zip(&b.joints)
        .flat_map(|(x, y)| {
            assert_eq!((x.index, x.node, x.parent), (y.index, y.node, y.parent));
            let skin = if skin {
                (x.skin.w_axis - y.skin.w_axis).truncate().length()
            } else {
                0.0
            };
            points
                .map(|p| (x.world.transform_point3(p) - y.world.transform_point3(p)).length())
                .into_iter()
                .chain([skin])
        })
        .fold(0.0, f32::max)
}

fn check(name: &str, asset: &GltfAsset) {
    let mut compressed_differs = false;
    for clip in 0..asset.clips.len() {
        let sel = ClipSelector::parse(&clip.to_string());
        let duration = asset.clips[clip].duration;
        for f in [0.0, 0.13, 0.37, 0.5, 0.81, 1.0, 1.2] {
            let t = duration * f;
            let reference = sierra_gltf::pose::pose(asset, &sel, t, 0).unwrap();
            let raw = pose_report(asset, &sel, t, 0, false).unwrap();
            let comp = pose_report(asset, &sel, t, 0, true).unwrap();
            let (d_raw, d_comp) = (
                max_diff(&raw, &reference, true),
                max_diff(&comp, &reference, false),
            );
            assert!(
                d_raw <= 1e-5,
                "{name} clip {clip} t={t}: raw job differs by {d_raw}"
            );
            assert!(
                d_comp <= 1e-3,
                "{name} clip {clip} t={t}: compressed differs by {d_comp}"
            );
            compressed_differs |= d_comp > 0.0;
            assert_eq!(raw.time, reference.time);
        }
    }
    assert!(
        compressed_differs,
        "{name}: compression changed nothing (the check cannot fail)"
    );
}

#[test]
fn pose_through_the_job_matches_the_raw_gltf_computation_raw_and_compressed() {
    check(
        "mannequin",
        &sierra_gltf::builtin::mannequin::load().unwrap(),
    );
    for model in ["gltf/Fox/Fox.glb", "gltf/CesiumMan/CesiumMan.glb"] {
        let Some(path) = sierra_testkit::shared_asset(model) else {
            return;
        };
        check(model, &GltfAsset::load(&path).unwrap());
    }
}

#[test]
fn pose_compressed_on_the_command_line_prints_the_same_json_shape() {
    let Some(path) = sierra_testkit::shared_asset("gltf/Fox/Fox.glb") else {
        return;
    };
    let p = path.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_sierra"));
        cmd.args(["pose", p, "--clip", "Run", "--time", "0.4"])
            .args(extra);
        sierra_testkit::json::parse(&sierra_testkit::process::output_ok(&mut cmd).stdout)
    };
    let (raw, comp) = (run(&[]), run(&["--compressed"]));
    assert_eq!(raw["joints"].as_array().unwrap().len(), 24);
    let mut worst = 0.0f64;
    for (a, b) in raw["joints"]
        .as_array()
        .unwrap()
        .iter()
        .zip(comp["joints"].as_array().unwrap())
    {
        assert_eq!(a["name"], b["name"]);
        // The world translation column (metres).
        for i in 12..15 {
            let (x, y) = (
                a["world"][i].as_f64().unwrap(),
                b["world"][i].as_f64().unwrap(),
            );
            worst = worst.max((x - y).abs());
        }
    }
    assert!(worst > 0.0 && worst <= 1e-3, "raw vs compressed: {worst}");
}
