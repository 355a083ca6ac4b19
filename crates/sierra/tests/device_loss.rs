//! Device loss (issue #44, `docs/faults.md` "Device loss"): the hidden
//! `--test-lose-device-at-frame N` destroys the GPU device (`wgpu::Device::destroy`, the closest
//! wgpu offers to a driver losing it) before frame N. The documented behaviour, headless and in
//! the window: the run ends at that frame with `error: GPU device lost while …` naming the
//! reason and exit status 3, within a time bound, with no panic; a headless run keeps the frames
//! written before the loss complete and equal to an unbroken run's, writes nothing after it
//! (no frame N, contact sheet or stats), leaves no temporary file, and its manifest stays true
//! (the next run into the folder needs no `--force`). Covered: `render` (loss before frame 2),
//! `demo --headless` (before frame 0) and the `demo` window under Xvfb (before frame 10).
//! Negative controls: the same runs without the option exit 0 and write everything.

mod support;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use sierra_testkit::child::{run_limited, Limits, Outcome};

#[path = "common/out_files.rs"]
mod out_files;
use out_files::{assert_manifest_lists_every_file, frame, names};

const LEVEL: &str = r#"{
  "camera": { "position": [0, 2, 4], "target": [0, 0, 0], "fovYDegrees": 50 },
  "clearColor": [0.2, 0.3, 0.4],
  "objects": [
    { "name": "Floor", "scale": [6, 1, 6], "mesh": "grid:4" },
    { "name": "Box", "position": [0, 0.5, 0], "mesh": "cube", "material": { "baseColor": [0.9, 0.2, 0.1] },
      "components": [ { "type": "Spinner", "degreesPerSecond": 900 } ] }
  ]
}"#;

const FRAMES: usize = 5;
const LOSE_AT: usize = 2;

/// The bound on a run that loses its device: it must end, not hang or spin.
const BOUND: Duration = Duration::from_secs(60);

/// Exit status of a run whose device was lost (`sierra::device_loss::EXIT_DEVICE_LOST`).
const EXIT_DEVICE_LOST: i32 = 3;

/// `sierra render LEVEL --frames 5 --size 96x64 --out OUT [--test-lose-device-at-frame 2]`
/// under a timeout of [`BOUND`].
fn render(level: &Path, out: &Path, lose: bool) -> Outcome {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sierra"));
    cmd.arg("render")
        .arg(level)
        .args(["--frames", &FRAMES.to_string(), "--size", "96x64", "--out"])
        .arg(out)
        .env(
            "WGPU_BACKEND",
            std::env::var("WGPU_BACKEND").unwrap_or_else(|_| "vulkan".into()),
        );
    if lose {
        cmd.args(["--test-lose-device-at-frame", &LOSE_AT.to_string()]);
    }
    let outcome = run_limited(&mut cmd, &Limits::data(4 << 30, BOUND)).expect("sierra starts");
    assert!(
        !outcome.timed_out,
        "the run did not end within {BOUND:?}: {}",
        outcome.describe()
    );
    assert!(
        !outcome.stderr.contains("panicked") && outcome.signal().is_none(),
        "crashed: {}",
        outcome.describe()
    );
    outcome
}

/// The names `.sierra-manifest.json` in `dir` lists.
#[test]
fn a_headless_run_that_loses_its_device_ends_with_a_clear_error_and_keeps_earlier_frames() {
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("level.json");
    std::fs::write(&level, LEVEL).unwrap();

    // Negative control: the unbroken run exits 0 and writes every frame.
    let whole = dir.path().join("whole");
    let run = render(&level, &whole, false);
    assert_eq!(run.exit_code(), Some(0), "{}", run.describe());
    for i in 0..FRAMES {
        assert!(frame(&whole, i).exists(), "frame {i}: {}", run.describe());
    }
    assert!(whole.join("contact_sheet.png").exists());

    let lost = dir.path().join("lost");
    let run = render(&level, &lost, true);
    eprintln!("device-loss run: {:?}\n{}", run.wall, run.stderr);
    assert_eq!(
        run.exit_code(),
        Some(EXIT_DEVICE_LOST),
        "{}",
        run.describe()
    );
    assert!(
        run.stderr
            .contains(&format!("error: frame {LOSE_AT}: GPU device lost while"))
            && run.stderr.contains("the device was destroyed")
            && run.stderr.contains("Sierra does not re-create the device"),
        "the error names the frame, the loss and its reason: {}",
        run.stderr
    );
    // The frames before the loss are complete PNGs equal to the unbroken run's...
    for i in 0..LOSE_AT {
        let bytes = std::fs::read(frame(&lost, i)).unwrap();
        image::load_from_memory(&bytes).unwrap_or_else(|e| panic!("frame {i}: {e}"));
        assert_eq!(
            bytes,
            std::fs::read(frame(&whole, i)).unwrap(),
            "frame {i} differs from the unbroken run's"
        );
    }
    // ... and nothing from the loss on was written, not even in part.
    let left = names(&lost);
    for name in ["contact_sheet.png", "stats.json"]
        .into_iter()
        .map(str::to_owned)
        .chain((LOSE_AT..FRAMES).map(|i| format!("frame_{i:04}.png")))
    {
        assert!(!left.contains(&name), "{name} was written: {left:?}");
    }
    assert!(
        !left.iter().any(|n| n.contains(".sierra-tmp-")),
        "temporary files left: {left:?}"
    );
    // The manifest stays true: it lists every file left, so the next run needs no --force.
    assert_manifest_lists_every_file(&lost);
    let again = render(&level, &lost, false);
    assert_eq!(again.exit_code(), Some(0), "{}", again.describe());
    assert_eq!(names(&lost), names(&whole));
}

#[test]
fn a_window_that_loses_its_device_closes_with_a_clear_error() {
    let level = sierra_testkit::workspace_root().join("assets/levels/platforms.json");
    let args = |lose: bool| {
        let mut args: Vec<std::ffi::OsString> = ["demo", "--frames", "30", "--size", "320x180"]
            .iter()
            .map(Into::into)
            .collect();
        args.push("--level".into());
        args.push(level.clone().into_os_string());
        if lose {
            args.extend(["--test-lose-device-at-frame".into(), "10".into()]);
        }
        args
    };
    // Sierra's own statuses: xvfb-run's can be 5 whatever sierra did (`window_run_status`).
    // Negative control: the same window without the loss runs its 30 frames and exits 0.
    let Some((status, stdout, stderr)) =
        support::window_run_status(support::SCREEN, args(false), Duration::from_secs(120))
    else {
        return;
    };
    assert_eq!(status, Some(0), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(
        stdout.contains("window closed after 30 frames"),
        "{stdout}\n{stderr}"
    );

    // The run must end within the bound (the helper kills it and fails the test otherwise).
    let start = std::time::Instant::now();
    let Some((status, stdout, stderr)) =
        support::window_run_status(support::SCREEN, args(true), BOUND)
    else {
        return;
    };
    let wall = start.elapsed();
    eprintln!("window device-loss run: {wall:?}\n{stderr}");
    assert_eq!(
        status,
        Some(EXIT_DEVICE_LOST),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        stderr.contains("test-lose-device: destroyed the GPU device before frame 10")
            && stderr.contains("error: GPU device lost while")
            && stderr.contains("the device was destroyed"),
        "{stderr}"
    );
    assert!(!stdout.contains("window closed after"), "{stdout}");
}

/// `sierra demo --headless` on the platforms level, 3 frames, losing the device before the
/// first frame when `lose`.
fn headless_demo(out: &Path, lose: bool) -> Outcome {
    let level = sierra_testkit::workspace_root().join("assets/levels/platforms.json");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sierra"));
    cmd.args([
        "demo",
        "--headless",
        "--mute",
        "--frames",
        "3",
        "--size",
        "96x64",
    ])
    .arg("--level")
    .arg(level)
    .arg("--out")
    .arg(out)
    .env(
        "WGPU_BACKEND",
        std::env::var("WGPU_BACKEND").unwrap_or_else(|_| "vulkan".into()),
    );
    if lose {
        cmd.args(["--test-lose-device-at-frame", "0"]);
    }
    let outcome = run_limited(&mut cmd, &Limits::data(4 << 30, BOUND)).expect("sierra starts");
    assert!(!outcome.timed_out, "{}", outcome.describe());
    assert!(
        !outcome.stderr.contains("panicked") && outcome.signal().is_none(),
        "crashed: {}",
        outcome.describe()
    );
    outcome
}

#[test]
fn a_headless_demo_that_loses_its_device_before_the_first_frame_writes_no_frame() {
    let dir = tempfile::tempdir().unwrap();
    // Negative control: the unbroken demo exits 0 with its frames.
    let whole = dir.path().join("whole");
    let run = headless_demo(&whole, false);
    assert_eq!(run.exit_code(), Some(0), "{}", run.describe());
    assert!(frame(&whole, 2).exists() && whole.join("contact_sheet.png").exists());

    let lost = dir.path().join("lost");
    let run = headless_demo(&lost, true);
    assert_eq!(
        run.exit_code(),
        Some(EXIT_DEVICE_LOST),
        "{}",
        run.describe()
    );
    assert!(
        run.stderr.contains("error: frame 0: GPU device lost while"),
        "{}",
        run.stderr
    );
    let left = names(&lost);
    assert!(
        !left
            .iter()
            .any(|n| n.ends_with(".png") || n.contains(".sierra-tmp-")),
        "{left:?}"
    );
    assert_manifest_lists_every_file(&lost);
}
