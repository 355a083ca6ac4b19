//! `gltfpack` output drawn by `sierra view` next to its original (issue #19): the packed files
//! (`gltfpack -c -kn` Fox: meshopt-compressed, quantised; `gltfpack` CesiumMan: quantised, UVs
//! dequantised by `KHR_texture_transform`) are produced at test time into a temporary folder,
//! never committed, and each frame's difference to the original's is printed, not asserted:
//! gltfpack resamples the clips and quantises positions, normals and UVs. `sierra pose` of each
//! packed file (through the animation job) equals three.js's pose within 1e-4, as the library's
//! pose does in `sierra_gltf/tests/gltfpack.rs`.
//! Run with `--nocapture` to read the report; the frames stay in the temp folder to look at.
//!
//! Needs `tools/js/node_modules` (`npm ci` in `tools/js`): skipped without it, except under CI.

use std::path::Path;
use std::process::Command;

use sierra_testkit::image_diff::ImageDiff;
use sierra_testkit::json;
use sierra_testkit::node_tools;
use sierra_testkit::process::output_ok;

const FRAMES: usize = 3;

fn view(model: &Path, clip: &str, out: &Path) -> Vec<image::RgbaImage> {
    output_ok(
        Command::new(env!("CARGO_BIN_EXE_sierra"))
            .arg("view")
            .arg(model)
            .args(["--clip", clip, "--frames", &FRAMES.to_string()])
            .args(["--size", "128x128", "--force", "--out"])
            .arg(out)
            .env("WGPU_BACKEND", "vulkan"),
    );
    (0..FRAMES)
        .map(|i| {
            image::open(out.join(format!("frame_{i:04}.png")))
                .unwrap()
                .to_rgba8()
        })
        .collect()
}

/// Largest difference between the joint world matrices `sierra pose` prints for `model` at
/// `clip` (index) and `time` and three.js's (`tools/js/gltf_pose.mjs`).
fn cli_pose_difference(model: &Path, clip: usize, time: f32) -> f64 {
    let (clip, time) = (clip.to_string(), time.to_string());
    let ours = json::parse(
        &output_ok(
            Command::new(env!("CARGO_BIN_EXE_sierra"))
                .arg("pose")
                .arg(model)
                .args(["--clip", &clip, "--time", &time]),
        )
        .stdout,
    );
    let args = [model.as_os_str(), clip.as_ref(), time.as_ref()];
    let theirs = json::parse(&node_tools::node("gltf_pose.mjs", &args));
    let (ours, theirs) = (
        ours["joints"].as_array().unwrap(),
        theirs["joints"].as_array().unwrap(),
    );
    assert_eq!(ours.len(), theirs.len());
    let mut worst = 0.0f64;
    for (a, b) in ours.iter().zip(theirs) {
        assert_eq!(a["name"], b["name"]);
        for (x, y) in a["world"]
            .as_array()
            .unwrap()
            .iter()
            .zip(b["world"].as_array().unwrap())
        {
            worst = worst.max((x.as_f64().unwrap() - y.as_f64().unwrap()).abs());
        }
    }
    worst
}

/// Packs `sample` with `flags`, checks `sierra pose` of the packed file against three.js, views
/// both at `clip` and prints the difference per frame.
fn report(sample: &str, flags: &[&str], packed_name: &str, clip: &str) {
    let Some(source) = sierra_testkit::shared_asset(sample) else {
        return;
    };
    if !node_tools::installed("gltfpack") {
        return;
    }
    let dir = std::env::temp_dir().join("sierra_gltfpack_view");
    std::fs::create_dir_all(&dir).unwrap();
    let packed = dir.join(packed_name);
    node_tools::gltfpack(flags, &source, &packed);
    if node_tools::installed("three") {
        for time in [0.0, 0.4, 0.9] {
            let worst = cli_pose_difference(&packed, 0, time);
            assert!(worst <= 1e-4, "{packed_name} at {time} s: {worst}");
        }
    }
    let original = view(&source, clip, &dir.join(format!("{packed_name}.original")));
    let repacked = view(&packed, clip, &dir.join(format!("{packed_name}.packed")));
    let (before, after) = (
        std::fs::metadata(&source).unwrap().len(),
        std::fs::metadata(&packed).unwrap().len(),
    );
    eprintln!(
        "{packed_name} (gltfpack {}): {before} → {after} bytes; frames in {}",
        flags.join(" "),
        dir.display()
    );
    for (i, (a, b)) in original.iter().zip(&repacked).enumerate() {
        let d = ImageDiff::of(a.as_raw(), b.as_raw());
        eprintln!(
            "  frame {i}: {:.1} % of pixels within 1 LSB of the original's, mean {:.2} LSB, max {} LSB",
            d.within_one * 100.0,
            d.mean,
            d.max
        );
    }
}

#[test]
fn gltfpack_output_renders_like_its_original_reported() {
    report("gltf/Fox/Fox.glb", &["-c", "-kn"], "Fox_packed.glb", "Walk");
    report("gltf/CesiumMan/CesiumMan.glb", &[], "CesiumMan_q.glb", "0");
}
