//! One frame, one way: the same ticks of `assets/levels/platforms.json` rendered through the
//! headless `render` command, through `bench scene`'s runner and through the window (under
//! Xvfb, same size, a key track that takes screenshots) give the same frames, within the
//! golden-image tolerance ([`ImageDiff::matches_golden`]). All three run the one frame runner;
//! a window frame that drew through another path (another sun, camera or settings) would differ.

mod support;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use sierra::cli::bench::scene::SceneRunner;
use sierra_testkit::image_diff::ImageDiff;

const W: u32 = 160;
const H: u32 = 90;
/// Frames compared (frame `i` is drawn after `i + 1` ticks in every path).
const FRAMES: [usize; 3] = [5, 17, 30];

fn level() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/platforms.json")
}

#[test]
fn headless_render_bench_scene_and_the_window_draw_the_same_frames() {
    let dir = tempfile::tempdir().unwrap();

    // 1. `sierra render`.
    let out = dir.path().join("render");
    let status = Command::new(env!("CARGO_BIN_EXE_sierra"))
        .arg("render")
        .arg(level())
        .args(["--frames", "31", "--size", &format!("{W}x{H}"), "--out"])
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    let rendered: Vec<Vec<u8>> = FRAMES
        .iter()
        .map(|i| {
            let path = out.join(format!("frame_{i:04}.png"));
            image::open(&path).unwrap().to_rgba8().into_raw()
        })
        .collect();

    // 2. `bench scene`'s runner.
    let mut bench = SceneRunner::new(&level(), W, H).unwrap();
    let mut benched = Vec::new();
    for i in 0..=30 {
        let (image, stats) = bench.frame().unwrap();
        assert_eq!(
            stats.skinned_draws, 0,
            "the platforms level has no characters"
        );
        if FRAMES.contains(&i) {
            benched.push(image.into_raw());
        }
    }

    // 3. The window: a key track presses P (screenshot) at the compared frames.
    let presses: Vec<String> = FRAMES
        .iter()
        .map(|t| format!(r#"{{"key": "P", "tick": {t}}}"#))
        .collect();
    let track = dir.path().join("shots.json");
    std::fs::write(&track, format!(r#"{{"presses": [{}]}}"#, presses.join(","))).unwrap();
    let shots = dir.path().join("shots");
    let mut args: Vec<OsString> = ["demo", "--frames", "31", "--size", &format!("{W}x{H}")]
        .map(OsString::from)
        .into();
    args.extend(["--mute".into(), "--level".into(), level().into_os_string()]);
    args.extend(["--input".into(), track.into_os_string()]);
    args.extend(["--screenshot-dir".into(), shots.clone().into_os_string()]);
    if support::window_run_ok(support::SCREEN, args, Duration::from_secs(300)).is_none() {
        return;
    }
    let windowed: Vec<Vec<u8>> = FRAMES
        .iter()
        .map(|i| {
            let path = shots.join(format!("screenshot_{i:05}.png"));
            let image = image::open(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
                .to_rgba8();
            assert_eq!(image.dimensions(), (W, H));
            image.into_raw()
        })
        .collect();

    for (k, frame) in FRAMES.iter().enumerate() {
        let bench_diff = ImageDiff::of(&rendered[k], &benched[k]);
        assert!(
            bench_diff.matches_golden(),
            "frame {frame}, bench scene vs render: {bench_diff:?}"
        );
        let window_diff = ImageDiff::of(&rendered[k], &windowed[k]);
        eprintln!("frame {frame}: bench {bench_diff:?}, window {window_diff:?}");
        assert!(
            window_diff.matches_golden(),
            "frame {frame}, window vs render: {window_diff:?}"
        );
    }
    // Negative control: consecutive compared frames differ (the platforms spin), so a path
    // stuck on one tick would fail.
    assert!(!ImageDiff::of(&rendered[0], &rendered[1]).matches_golden());
}
