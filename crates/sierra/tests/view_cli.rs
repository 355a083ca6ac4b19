//! `sierra view` as a subprocess: the mannequin animates (frames differ), AnimatedMorphCube's
//! animated morph weights change its shape (GPU morph targets), and bad input (unknown clip,
//! missing file) exits non-zero with a clear message.

use std::path::Path;
use std::process::Command;

use sierra_testkit::process::{output_ok, stderr_of_clean_failure};

fn sierra(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sierra"));
    cmd.args(args).env("WGPU_BACKEND", "vulkan");
    cmd
}

/// Runs `sierra view ARGS… --frames FRAMES --out OUT`, which must succeed, and returns the
/// frames it wrote.
fn view_frames(args: &[&str], frames: usize, out: &Path) -> Vec<image::RgbaImage> {
    output_ok(
        sierra(&["view"])
            .args(args)
            .args(["--frames", &frames.to_string(), "--out"])
            .arg(out),
    );
    (0..frames)
        .map(|i| {
            image::open(out.join(format!("frame_{i:04}.png")))
                .unwrap()
                .to_rgba8()
        })
        .collect()
}

#[test]
fn view_renders_the_mannequin_walking() {
    let dir = std::env::temp_dir().join(format!("sierra_view_{}", std::process::id()));
    let frames = view_frames(
        // The model alone: lit frames add a ground plane that would count as covered.
        &[
            "builtin:mannequin",
            "--clip",
            "walk",
            "--size",
            "96x96",
            "--albedo",
        ],
        3,
        &dir,
    );
    assert!(dir.join("contact_sheet.png").exists());
    // The model covers part of the image, and the pose changes between frames.
    let background = *frames[0].get_pixel(0, 0);
    let covered = frames[0].pixels().filter(|p| **p != background).count();
    assert!(covered > 400 && covered < 96 * 96 / 2, "{covered}");
    let changed = frames[0]
        .pixels()
        .zip(frames[1].pixels())
        .filter(|(a, b)| a != b)
        .count();
    assert!(changed > 50, "{changed}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn view_animates_morph_target_weights() {
    let Some(model) = sierra_testkit::shared_asset("gltf/AnimatedMorphCube/AnimatedMorphCube.glb")
    else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("sierra_view_morph_{}", std::process::id()));
    let frames = view_frames(&[model.to_str().unwrap(), "--size", "64x64"], 4, &dir);
    // The cube has no node animation: only its morph weights (the `weights` channel, sampled
    // per frame and applied on the GPU) can change the image.
    let background = *frames[0].get_pixel(0, 0);
    let covered = |f: &image::RgbaImage| f.pixels().filter(|p| **p != background).count();
    let sizes: Vec<usize> = frames.iter().map(covered).collect();
    assert!(sizes.iter().all(|&c| c > 100), "{sizes:?}");
    let changed = frames[0]
        .pixels()
        .zip(frames[2].pixels())
        .filter(|(a, b)| a != b)
        .count();
    assert!(
        changed > 100,
        "the morph weights did not change the cube: {changed}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn view_bad_input_is_a_clear_error() {
    let err = stderr_of_clean_failure(&mut sierra(&[
        "view",
        "builtin:mannequin",
        "--clip",
        "moonwalk",
        "--out",
        "/tmp/sierra_view_bad",
    ]));
    assert!(
        err.contains("moonwalk") && err.contains("jump_start"),
        "{err}"
    );
    let err = stderr_of_clean_failure(&mut sierra(&["view", "/nonexistent/model.glb"]));
    assert!(err.contains("/nonexistent/model.glb"), "{err}");
}
