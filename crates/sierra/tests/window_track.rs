//! Window + overlay test (#10.3): under Xvfb, `sierra demo` runs 300 frames of the demo island
//! (160x90, about 50 s on lavapipe) in a window with
//! the egui overlay, driven by the scripted key track `assets/input/window_tour.json` (camera
//! cycle through every mode, fly camera, player walk and jump, a water drop (R, as the overlay's
//! button), sun keys, wireframe on/off, pause and single steps, two screenshots), and exits 0
//! with both screenshots written. Also: a 1280x720 window on platforms.json with the player
//! (#28 must-show 1), and windows that close when their key track ends.

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
    let Some((stdout, stderr)) =
        support::window_run_ok(support::SCREEN, args, Duration::from_secs(400))
    else {
        return;
    };
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
    let Some((stdout, _)) = support::window_run_ok(support::SCREEN, args, Duration::from_secs(120))
    else {
        return;
    };
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
    let Some((stdout, stderr)) =
        support::window_run_ok(support::SCREEN, args, Duration::from_secs(120))
    else {
        return;
    };
    // Xvfb's screen here is 1024x768: 1280x720 scaled by 0.8.
    assert!(stdout.contains("window: 1024x576 "), "stdout:\n{stdout}");
    // The window libraries' start-up notes (XSETTINGS, XRandR, egui's framebuffer remark) are
    // filtered out of the log.
    assert!(
        !stderr.contains("winit") && !stderr.contains("egui"),
        "stderr:\n{stderr}"
    );
}

/// `platforms.json` with the player of `player.json` standing on the centre platform: every
/// asset is built in, so the level can live in a temporary folder.
fn platforms_with_player(dir: &Path) -> std::path::PathBuf {
    let levels = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels");
    let read = |name: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(levels.join(name)).unwrap()).unwrap()
    };
    let mut level = read("platforms.json");
    let player = read("player.json")["objects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "Player")
        .cloned()
        .expect("player.json has a Player");
    let mut player = player;
    player["position"] = serde_json::json!([0.0, 0.2, 0.0]);
    level["objects"].as_array_mut().unwrap().push(player);
    let path = dir.join("platforms_player.json");
    std::fs::write(&path, serde_json::to_string_pretty(&level).unwrap()).unwrap();
    path
}

/// Must-show 1 of #28: at 1280x720 (on a 1920x1080 screen) the player walks and jumps on
/// `platforms.json` under a key track of 102 frames; the overlay showed its FPS and GPU
/// readouts, the screenshot is 1280x720 and not blank, and the window closes by itself after
/// the track's last event.
#[test]
fn a_1280x720_window_shows_fps_and_gpu_readouts_and_ends_with_its_track() {
    let dir = tempfile::tempdir().unwrap();
    let level = platforms_with_player(dir.path());
    let track = dir.path().join("walk.json");
    std::fs::write(
        &track,
        r#"{"presses": [{"key": "forward", "tick": 20, "ticks": 30},
                        {"key": "jump", "tick": 60},
                        {"key": "P", "tick": 100}]}"#,
    )
    .unwrap();
    let shots = dir.path().join("shots");
    let mut args: Vec<OsString> = ["demo", "--size", "1280x720", "--mute"]
        .map(OsString::from)
        .into();
    args.extend(["--level".into(), level.into_os_string()]);
    args.extend(["--input".into(), track.into_os_string()]);
    args.extend(["--screenshot-dir".into(), shots.clone().into()]);
    let Some((stdout, _)) = support::window_run_ok("1920x1080", args, Duration::from_secs(400))
    else {
        return;
    };
    assert!(stdout.contains("window: 1280x720 "), "stdout:\n{stdout}");
    // P goes down before frame 100 and up before frame 101: the window closes after 102.
    assert!(
        stdout.contains("window closed after 102 frames"),
        "stdout:\n{stdout}"
    );
    // The readouts the overlay showed in its last frame: "<fps> FPS  <ms> ms" and the GPU
    // time of the newest timed frame ("n/a" only on an adapter without timestamp queries).
    let readout = |prefix: &str| {
        stdout
            .lines()
            .find_map(|l| l.strip_prefix("overlay: ").filter(|r| r.contains(prefix)))
            .unwrap_or_else(|| panic!("no overlay {prefix} readout in:\n{stdout}"))
            .to_owned()
    };
    let fps = readout(" FPS  ");
    let value: f64 = fps.split(' ').next().unwrap().parse().unwrap();
    assert!(value > 0.0 && value.is_finite(), "{fps}");
    assert!(fps.ends_with(" ms"), "{fps}");
    let gpu = readout("GPU ");
    // The window times its passes without ever waiting for the timings.
    if stdout.contains("gpu timing: off") {
        assert_eq!(gpu, "GPU n/a");
    } else {
        assert!(
            stdout.contains("gpu timing: on, 0 waits"),
            "stdout:\n{stdout}"
        );
        let ms: f64 = gpu
            .strip_prefix("GPU ")
            .and_then(|g| g.strip_suffix(" ms"))
            .unwrap_or_else(|| panic!("{gpu}"))
            .parse()
            .unwrap();
        assert!(ms > 0.0 && ms.is_finite(), "{gpu}");
    }
    let written: Vec<_> = std::fs::read_dir(&shots)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "png"))
        .collect();
    assert_eq!(written.len(), 1, "{written:?}");
    assert!(written[0].ends_with("screenshot_00100.png"), "{written:?}");
    let image = image::open(&written[0]).unwrap().to_rgba8();
    assert_eq!(image.dimensions(), (1280, 720));
    let first = image.get_pixel(0, 0);
    assert!(image.pixels().any(|p| p != first), "a single colour");
}
