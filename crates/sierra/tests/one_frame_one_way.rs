//! One frame, one way: the same ticks of `assets/levels/platforms.json` rendered through the
//! headless `render` command, through `bench scene`'s runner and through the window (under
//! Xvfb, same size, a key track that takes screenshots) give the same frames, within the
//! golden-image tolerance ([`ImageDiff::matches_golden`]), every one of the 31 frames. All
//! three run the one frame runner; a window frame that drew through another path (another sun,
//! camera or settings) would differ. The headless paths are compared before the window runs, so
//! a machine without `xvfb-run` still compares them (and says, through the skip helper, that
//! the window was not compared). Negative control: the same frames one tick apart do not match,
//! so a path a tick early or late, or stuck on one tick, fails.

mod support;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use sierra::cli::bench::scene::SceneRunner;
use sierra_testkit::image_diff::ImageDiff;

const W: u32 = 160;
const H: u32 = 90;
/// Frames rendered and compared, all of them (frame `i` is drawn after `i + 1` ticks in every
/// path).
const FRAMES: usize = 31;

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
    let rendered: Vec<Vec<u8>> = (0..FRAMES)
        .map(|i| {
            let path = out.join(format!("frame_{i:04}.png"));
            image::open(&path).unwrap().to_rgba8().into_raw()
        })
        .collect();

    // Negative control: a frame does not match the next one (the platforms spin), so a path
    // one tick off, or stuck, would fail the comparisons below.
    for k in 0..FRAMES - 1 {
        let next = ImageDiff::of(&rendered[k], &rendered[k + 1]);
        assert!(
            !next.matches_golden(),
            "frames {k} and {} match: {next:?}",
            k + 1
        );
    }

    // 2. `bench scene`'s runner.
    let mut bench = SceneRunner::new(&level(), W, H).unwrap();
    for (i, want) in rendered.iter().enumerate() {
        let (image, stats) = bench.frame().unwrap();
        assert_eq!(
            stats.skinned_draws, 0,
            "the platforms level has no characters"
        );
        let diff = ImageDiff::of(want, image.as_raw());
        assert!(
            diff.matches_golden(),
            "frame {i}, bench scene vs render: {diff:?}"
        );
    }

    // 3. The window: a key track presses P (screenshot) at every frame.
    let presses: Vec<String> = (0..FRAMES)
        .map(|t| format!(r#"{{"key": "P", "tick": {t}}}"#))
        .collect();
    let track = dir.path().join("shots.json");
    std::fs::write(&track, format!(r#"{{"presses": [{}]}}"#, presses.join(","))).unwrap();
    let shots = dir.path().join("shots");
    let frames = FRAMES.to_string();
    let mut args: Vec<OsString> = ["demo", "--frames", &frames, "--size", &format!("{W}x{H}")]
        .map(OsString::from)
        .into();
    args.extend(["--mute".into(), "--level".into(), level().into_os_string()]);
    args.extend(["--input".into(), track.into_os_string()]);
    args.extend(["--screenshot-dir".into(), shots.clone().into_os_string()]);
    // Without xvfb-run: said and counted by the skip helper (a failure under CI).
    let Some(_) = support::window_run_ok(support::SCREEN, args, Duration::from_secs(300)) else {
        return;
    };
    for (i, want) in rendered.iter().enumerate() {
        let path = shots.join(format!("screenshot_{i:05}.png"));
        let image = image::open(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .to_rgba8();
        assert_eq!(image.dimensions(), (W, H));
        let diff = ImageDiff::of(want, image.as_raw());
        assert!(
            diff.matches_golden(),
            "frame {i}, window vs render: {diff:?}"
        );
    }
}
