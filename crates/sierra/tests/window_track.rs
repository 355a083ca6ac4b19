//! Window + overlay test (#10.3): under Xvfb, `sierra demo` runs 300 frames of the demo island
//! (160x90, about 50 s on lavapipe) in a window with
//! the egui overlay, driven by the scripted key track `assets/input/window_tour.json` (camera
//! cycle through every mode, fly camera, player walk and jump, a water drop (R, as the overlay's
//! button), sun keys, wireframe on/off, pause and single steps, two screenshots), and exits 0
//! with both screenshots written.

mod support;

use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

#[test]
fn scripted_track_drives_window_overlay_and_writes_screenshots() {
    let track = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/input/window_tour.json");
    let shots = tempfile::tempdir().unwrap();
    let mut args: Vec<OsString> = ["demo", "--frames", "300", "--size", "160x90", "--mute"]
        .map(OsString::from)
        .into();
    args.extend(["--input".into(), track.into_os_string()]);
    args.extend(["--screenshot-dir".into(), shots.path().into()]);
    let Some(out) = support::run_in_xvfb(args, Duration::from_secs(400)) else {
        return;
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "exit {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    assert!(
        stdout.contains("window closed after 300 frames"),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    // Every camera mode visited, wireframe toggled both ways, by the track's key events.
    for line in [
        "camera: Aerial",
        "camera: Walk",
        "camera: Fly",
        "camera: Follow",
        "wireframe on",
        "wireframe off",
        "water drop",
    ] {
        assert!(stdout.contains(line), "missing `{line}` in:\n{stdout}");
    }
    // Track ticks 230 (F12) and 280 (P): one screenshot each, named by frame number.
    // The folder also holds Sierra's output manifest (`.sierra-manifest.json`).
    let mut written: Vec<_> = std::fs::read_dir(shots.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "png"))
        .collect();
    written.sort();
    assert_eq!(written.len(), 2, "{written:?}\n{stdout}");
    for path in &written {
        let image = image::open(path).unwrap().to_rgba8();
        assert_eq!(image.dimensions(), (160, 90), "{}", path.display());
        let first = image.get_pixel(0, 0);
        assert!(
            image.pixels().any(|p| p != first),
            "{} is a single colour",
            path.display()
        );
    }
    // The two screenshots show different views (camera moved, sun turned).
    let a = image::open(&written[0]).unwrap().to_rgba8();
    let b = image::open(&written[1]).unwrap().to_rgba8();
    assert_ne!(a.as_raw(), b.as_raw());
}

#[test]
fn without_frames_the_window_closes_when_its_key_track_ends() {
    let dir = tempfile::tempdir().unwrap();
    let track = dir.path().join("short.json");
    std::fs::write(
        &track,
        r#"{"presses": [{"key": "C", "tick": 3}, {"key": "P", "tick": 12}]}"#,
    )
    .unwrap();
    let level = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/platforms.json");
    let mut args: Vec<OsString> = ["demo", "--size", "64x36", "--mute"]
        .map(OsString::from)
        .into();
    args.extend(["--level".into(), level.into_os_string()]);
    args.extend(["--input".into(), track.into_os_string()]);
    args.extend(["--screenshot-dir".into(), dir.path().join("shots").into()]);
    let Some(out) = support::run_in_xvfb(args, Duration::from_secs(120)) else {
        return;
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The last event (P's release, one tick after its press at 12) is delivered in frame 13;
    // the window closes after that frame.
    assert!(
        stdout.contains("window closed after 14 frames"),
        "stdout:\n{stdout}"
    );
}

#[test]
fn without_size_the_window_is_1280x720_made_smaller_to_fit_the_screen() {
    let dir = tempfile::tempdir().unwrap();
    let track = dir.path().join("one.json");
    std::fs::write(&track, r#"{"presses": [{"key": "N", "tick": 1}]}"#).unwrap();
    let level = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/platforms.json");
    let mut args: Vec<OsString> = ["demo", "--mute"].map(OsString::from).into();
    args.extend(["--level".into(), level.into_os_string()]);
    args.extend(["--input".into(), track.into_os_string()]);
    let Some(out) = support::run_in_xvfb(args, Duration::from_secs(120)) else {
        return;
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    // Xvfb's screen here is 1024x768: 1280x720 scaled by 0.8.
    assert!(stdout.contains("window: 1024x576 "), "stdout:\n{stdout}");
    // The window libraries' start-up notes (XSETTINGS, XRandR, egui's framebuffer remark) are
    // filtered out of the log.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("winit") && !stderr.contains("egui"),
        "stderr:\n{stderr}"
    );
}
