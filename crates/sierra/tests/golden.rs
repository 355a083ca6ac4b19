//! Golden images: the demo's headless frames 0, 12 and 47 and the platforms level's frame 30 at
//! 320x180, rendered by the `sierra` binary as `scripts/update-golden.sh` rendered them
//! (`tests/golden/README.md` names the commit and the commands), must match the committed PNGs:
//! at least 99.5 % of pixels within 1 LSB, none off by more than 6, mean absolute difference at
//! most 0.2 LSB ([`ImageDiff::matches_golden`]). A negative control turns the platforms level's
//! sun by 1° and must fail the same comparison.

use std::path::{Path, PathBuf};
use std::process::Command;

use sierra_testkit::image_diff::ImageDiff;

/// Runs the `sierra` binary with `args`, panicking with its output when it fails.
fn sierra(args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_sierra"))
        .args(args)
        .output()
        .expect("running sierra");
    assert!(
        out.status.success(),
        "sierra {args:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn rgba(path: &Path) -> Vec<u8> {
    image::open(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .to_rgba8()
        .into_raw()
}

/// Compares a rendered frame with its golden image.
fn diff(rendered: &Path, golden: &str) -> ImageDiff {
    ImageDiff::of(
        &rgba(rendered),
        &rgba(&sierra_testkit::workspace_root().join(format!("tests/golden/{golden}"))),
    )
}

fn render_platforms(level: &Path, out: &Path) -> PathBuf {
    let (level, out) = (level.to_str().unwrap(), out.to_str().unwrap());
    sierra(&[
        "render", level, "--frames", "31", "--size", "320x180", "--out", out,
    ]);
    Path::new(out).join("frame_0030.png")
}

#[test]
fn the_demos_frames_0_12_and_47_match_the_golden_images() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("demo");
    let out_str = out.to_str().unwrap();
    sierra(&[
        "demo",
        "--headless",
        "--mute",
        "--frames",
        "48",
        "--size",
        "320x180",
        "--out",
        out_str,
    ]);
    for n in ["0000", "0012", "0047"] {
        let d = diff(
            &out.join(format!("frame_{n}.png")),
            &format!("demo_frame_{n}.png"),
        );
        assert!(d.matches_golden(), "demo frame {n}: {d:?}");
    }
}

#[test]
fn the_platforms_levels_frame_30_matches_and_a_sun_turned_by_one_degree_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let level = sierra_testkit::workspace_root().join("assets/levels/platforms.json");
    let frame = render_platforms(&level, &dir.path().join("platforms"));
    let d = diff(&frame, "platforms_frame_0030.png");
    assert!(d.matches_golden(), "platforms frame 30: {d:?}");

    // Negative control: the same level with its sun direction turned by 1° about +Y.
    let text = std::fs::read_to_string(&level).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let sun = &mut json["sun"]["direction"];
    let v: Vec<f32> = (0..3).map(|i| sun[i].as_f64().unwrap() as f32).collect();
    let turned = glam::Quat::from_rotation_y(1f32.to_radians()) * glam::Vec3::from_slice(&v);
    *sun = serde_json::json!([turned.x, turned.y, turned.z]);
    let turned_level = dir.path().join("platforms_sun_1deg.json");
    std::fs::write(&turned_level, serde_json::to_string(&json).unwrap()).unwrap();
    let frame = render_platforms(&turned_level, &dir.path().join("turned"));
    let d = diff(&frame, "platforms_frame_0030.png");
    assert!(
        !d.matches_golden(),
        "a sun turned by 1 degree passes the golden comparison: {d:?}"
    );
}
