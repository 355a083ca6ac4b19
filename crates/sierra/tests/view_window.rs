//! `sierra view MODEL --window` under Xvfb: the interactive orbit viewer runs a scripted orbit
//! for 60 frames and writes its last frame. Orbiting by 6° a frame comes back to where 0° a
//! frame looks from (the same clip time), 3° a frame looks from the other side: the orbit
//! turns the camera, not the model.

mod support;

use std::path::{Path, PathBuf};
use std::time::Duration;

use image::RgbaImage;

/// Runs the viewer on `model` for 60 frames orbiting `degrees` per frame; returns its stdout
/// and its last frame.
fn orbit(model: &Path, degrees: &str) -> Option<(String, RgbaImage)> {
    let out = tempfile::tempdir().unwrap();
    let args = [
        "view".into(),
        model.as_os_str().to_owned(),
        "--window".into(),
        "--clip".into(),
        "Walk".into(),
        "--frames".into(),
        "60".into(),
        "--orbit".into(),
        degrees.into(),
        "--size".into(),
        "320x240".into(),
        "--out".into(),
        out.path().as_os_str().to_owned(),
    ];
    let (stdout, stderr) = support::window_run_ok(support::SCREEN, args, Duration::from_secs(300))?;
    let shot: PathBuf = out.path().join("window.png");
    let image = image::open(&shot)
        .unwrap_or_else(|e| panic!("{}: {e}\n{stdout}\n{stderr}", shot.display()))
        .to_rgba8();
    Some((stdout, image))
}

/// Mean absolute difference per channel, LSB.
fn mean_difference(a: &RgbaImage, b: &RgbaImage) -> f64 {
    let sum: u64 = a
        .as_raw()
        .iter()
        .zip(b.as_raw())
        .map(|(x, y)| u64::from(x.abs_diff(*y)))
        .sum();
    sum as f64 / a.as_raw().len() as f64
}

#[test]
fn a_scripted_orbit_writes_the_windows_last_frame() {
    let Some(fox) = sierra_testkit::shared_asset("gltf/Fox/Fox.glb") else {
        return;
    };
    let Some((stdout, still)) = orbit(&fox, "0") else {
        return;
    };
    assert!(stdout.contains("viewer closed after 60 frames"), "{stdout}");
    assert_eq!(still.dimensions(), (320, 240));
    // The textured fox: orange texels (red well above green above blue) on the grey ground
    // under the blue-grey sky.
    let orange = still
        .pixels()
        .filter(|p| p[0] > 120 && i32::from(p[0]) - i32::from(p[1]) > 40 && p[1] > p[2])
        .count();
    assert!(orange > 500, "{orange} orange pixels");
    let (_, full_turn) = orbit(&fox, "6").unwrap();
    let (_, half_turn) = orbit(&fox, "3").unwrap();
    let same = mean_difference(&still, &full_turn);
    let other_side = mean_difference(&still, &half_turn);
    assert!(same < 0.5, "a full turn comes back: {same} LSB");
    eprintln!("full turn {same} LSB, half turn {other_side} LSB");
    assert!(
        other_side > 1.5,
        "half a turn shows the other side: {other_side} LSB"
    );
}
