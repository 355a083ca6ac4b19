//! The glTF files people actually have: `gltfpack` output (issue #19), produced at test time
//! into a temporary folder (never committed) from the shared Fox and CesiumMan samples:
//!
//! - `gltfpack -c -kn` (Fox): `EXT_meshopt_compression` buffer views with a fallback buffer
//!   that has no data, `KHR_mesh_quantization` attributes, 16-bit quaternion keys;
//! - `gltfpack` (CesiumMan): quantised attributes and keys, no compression.
//!
//! Sierra's pose of each packed file (`sierra_gltf::pose::pose`, the report `sierra pose`
//! prints) equals three.js's (GLTFLoader + MeshoptDecoder in Node, `tools/js/gltf_pose.mjs`)
//! within 1e-4 for every joint's world matrix, at four times of every clip.
//!
//! Needs `tools/js/node_modules` (`npm ci` in `tools/js`; `.ci/run` does it): skipped without
//! it, except under CI.

use std::path::{Path, PathBuf};

use serde_json::Value;
use sierra_gltf::{ClipSelector, GltfAsset};
use sierra_testkit::node_tools;

struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("sierra_gltfpack_{tag}_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The packed file, or `None` (skip) without the shared sample or the Node tools.
fn packed(sample: &str, flags: &[&str], out: &Path) -> Option<PathBuf> {
    let source = sierra_testkit::shared_asset(sample)?;
    if !node_tools::installed("gltfpack") || !node_tools::installed("three") {
        return None;
    }
    node_tools::gltfpack(flags, &source, out);
    Some(out.to_owned())
}

/// Largest absolute difference between Sierra's and three.js's joint world matrices over
/// every clip at 0, ¼, ½ and 0.9 of its duration; panics on a name or count mismatch.
fn max_pose_difference(file: &Path) -> f32 {
    let asset = GltfAsset::load(file).unwrap_or_else(|e| panic!("{e}"));
    assert!(!asset.clips.is_empty(), "{}: no clips", file.display());
    let mut worst = 0.0f32;
    for clip in 0..asset.clips.len() {
        let duration = sierra_gltf::pose::pose(&asset, &ClipSelector::Index(clip), 0.0, 0)
            .unwrap()
            .duration;
        for fraction in [0.0, 0.25, 0.5, 0.9] {
            let time = duration * fraction;
            let ours =
                sierra_gltf::pose::pose(&asset, &ClipSelector::Index(clip), time, 0).unwrap();
            let out = node_tools::node(
                "gltf_pose.mjs",
                &[
                    file.as_os_str(),
                    clip.to_string().as_ref(),
                    time.to_string().as_ref(),
                ],
            );
            let theirs: Value = serde_json::from_slice(&out).expect("gltf_pose.mjs prints JSON");
            let joints = theirs["joints"].as_array().unwrap();
            assert_eq!(joints.len(), ours.joints.len(), "clip {clip}");
            for (j, t) in ours.joints.iter().zip(joints) {
                assert_eq!(j.name, t["name"].as_str().unwrap(), "clip {clip}");
                let world: Vec<f32> = sierra_testkit::json::f32_array(&t["world"]);
                for (a, b) in j.world.to_cols_array().iter().zip(&world) {
                    worst = worst.max((a - b).abs());
                }
            }
        }
    }
    worst
}

#[test]
fn meshopt_compressed_fox_poses_as_threejs_poses_it() {
    let dir = TempDir::new("fox");
    let Some(file) = packed(
        "gltf/Fox/Fox.glb",
        &["-c", "-kn"],
        &dir.0.join("Fox_packed.glb"),
    ) else {
        return;
    };
    let json = gltf_json(&file);
    for ext in ["EXT_meshopt_compression", "KHR_mesh_quantization"] {
        assert!(
            json["extensionsRequired"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e == ext),
            "gltfpack -c requires {ext}: the test exercises it"
        );
    }
    let worst = max_pose_difference(&file);
    eprintln!("Fox_packed.glb: largest joint world-matrix difference to three.js {worst:e}");
    assert!(worst <= 1e-4, "{worst}");
}

#[test]
fn quantised_cesium_man_poses_as_threejs_poses_it() {
    let dir = TempDir::new("cesium");
    let Some(file) = packed(
        "gltf/CesiumMan/CesiumMan.glb",
        &[],
        &dir.0.join("CesiumMan_q.glb"),
    ) else {
        return;
    };
    let json = gltf_json(&file);
    assert!(
        json["extensionsRequired"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e == "KHR_mesh_quantization"),
        "gltfpack quantises by default: the test exercises it"
    );
    let worst = max_pose_difference(&file);
    eprintln!("CesiumMan_q.glb: largest joint world-matrix difference to three.js {worst:e}");
    assert!(worst <= 1e-4, "{worst}");
}

/// The JSON chunk of a GLB.
fn gltf_json(file: &Path) -> Value {
    let bytes = std::fs::read(file).unwrap();
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    serde_json::from_slice(&bytes[20..20 + len]).unwrap()
}
