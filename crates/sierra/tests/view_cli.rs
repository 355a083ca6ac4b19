//! `sierra view` as a subprocess: the mannequin animates (frames differ), AnimatedMorphCube's
//! animated morph weights change its shape (GPU morph targets), and bad input (unknown clip,
//! missing file) exits non-zero with a clear message.

use std::process::Command;

fn sierra(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sierra"))
        .args(args)
        .env("WGPU_BACKEND", "vulkan")
        .output()
        .unwrap()
}

#[test]
fn view_renders_the_mannequin_walking() {
    let dir = std::env::temp_dir().join(format!("sierra_view_{}", std::process::id()));
    let out = dir.to_str().unwrap();
    let o = sierra(&[
        "view",
        "builtin:mannequin",
        "--clip",
        "walk",
        "--frames",
        "3",
        "--size",
        "96x96",
        // The model alone: lit frames add a ground plane that would count as covered.
        "--albedo",
        "--out",
        out,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let frames: Vec<image::RgbaImage> = (0..3)
        .map(|i| {
            image::open(dir.join(format!("frame_{i:04}.png")))
                .unwrap()
                .to_rgba8()
        })
        .collect();
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
    let out = dir.to_str().unwrap();
    let o = sierra(&[
        "view",
        model.to_str().unwrap(),
        "--frames",
        "4",
        "--size",
        "64x64",
        "--out",
        out,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let frames: Vec<image::RgbaImage> = (0..4)
        .map(|i| {
            image::open(dir.join(format!("frame_{i:04}.png")))
                .unwrap()
                .to_rgba8()
        })
        .collect();
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
    let o = sierra(&[
        "view",
        "builtin:mannequin",
        "--clip",
        "moonwalk",
        "--out",
        "/tmp/sierra_view_bad",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && err.contains("moonwalk") && err.contains("jump_start"),
        "{err}"
    );
    let o = sierra(&["view", "/nonexistent/model.glb"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && err.contains("/nonexistent/model.glb"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}
