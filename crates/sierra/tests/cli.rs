//! The `sierra` binary run as a subprocess: headless render output, and bad
//! input that must fail with a clear message and a non-zero exit, never a panic.

use std::path::Path;
use std::process::{Command, Output};

use sierra_testkit::process::{output_ok, stderr_of_clean_failure};

/// `sierra ARGS…` on `$WGPU_BACKEND` (Vulkan when unset).
fn sierra(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sierra"));
    cmd.args(args).env(
        "WGPU_BACKEND",
        std::env::var("WGPU_BACKEND").unwrap_or_else(|_| "vulkan".into()),
    );
    cmd
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `args`, expects failure without a panic, returns stderr.
fn fails(args: &[&str]) -> String {
    stderr_of_clean_failure(&mut sierra(args))
}

/// `sierra render LEVEL --out OUT`, which must fail without a panic; returns stderr.
fn render_fails(level: &str, out: &Path) -> String {
    fails(&["render", level, "--out", out.to_str().unwrap()])
}

/// `sierra render LEVEL --frames FRAMES --size SIZE --out OUT`, which must succeed.
fn render(level: &str, frames: &str, size: &str, out: &Path) -> Output {
    output_ok(&mut sierra(&[
        "render",
        level,
        "--frames",
        frames,
        "--size",
        size,
        "--out",
        out.to_str().unwrap(),
    ]))
}

fn write(dir: &Path, name: &str, contents: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path.to_string_lossy().into_owned()
}

const SMALL_LEVEL: &str = r#"{
  "camera": { "position": [0, 2, 4], "target": [0, 0, 0], "fovYDegrees": 50 },
  "clearColor": [0.2, 0.3, 0.4],
  "objects": [
    { "name": "Floor", "scale": [6, 1, 6], "mesh": "grid:4" },
    { "name": "Box", "position": [0, 0.5, 0], "mesh": "cube", "material": { "baseColor": [0.9, 0.2, 0.1] },
      "components": [ { "type": "Spinner", "degreesPerSecond": 90 } ] }
  ]
}"#;

#[test]
fn render_writes_frames_contact_sheet_and_stats() {
    let dir = tempfile::tempdir().unwrap();
    let level = write(dir.path(), "level.json", SMALL_LEVEL);
    let out = dir.path().join("out");
    let run = render(&level, "3", "64x48", &out);
    assert!(
        text(&run.stdout).contains("wrote 3 frames"),
        "{}",
        text(&run.stdout)
    );
    for i in 0..3 {
        let frame = image::open(out.join(format!("frame_{i:04}.png"))).unwrap();
        assert_eq!((frame.width(), frame.height()), (64, 48));
    }
    assert!(!out.join("frame_0003.png").exists());
    let sheet = image::open(out.join("contact_sheet.png")).unwrap();
    assert!(sheet.width() > 64 && sheet.height() > 48);
    let stats = sierra_testkit::json::read(&out.join("stats.json"));
    let frames = stats["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 3);
    for (i, f) in frames.iter().enumerate() {
        assert_eq!(f["frame"], i);
        assert_eq!(f["tick"], i + 1);
        assert!(f["cpu_ms"].as_f64().unwrap() > 0.0);
        if f["gpu_ms"].is_null() {
            assert!(f["gpu_pass_ms"].is_null() && f["gpu_scopes"].is_null());
            sierra_testkit::skip::skip(
                sierra_testkit::skip::Reason::GpuFeature,
                "no timestamp queries: the frames' GPU scopes are not checked",
            );
        } else {
            let passes = f["gpu_pass_ms"].as_object().unwrap();
            assert!(passes.contains_key("forward"), "{passes:?}");
            // The frame's span holds its top-level scopes and the gaps between them.
            let sum: f64 = f["gpu_scopes"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|s| s["depth"] == 0)
                .map(|s| s["end_ms"].as_f64().unwrap() - s["start_ms"].as_f64().unwrap())
                .sum();
            assert!(sum <= f["gpu_ms"].as_f64().unwrap() + 1e-6);
        }
        // grid:4 = 32 triangles, cube = 12.
        assert_eq!(f["triangles"], 44);
        assert_eq!(f["draw_calls"], 2);
    }
    // The spinning box makes consecutive frames differ; the simulation really ticks.
    let a = image::open(out.join("frame_0000.png")).unwrap().to_rgba8();
    let c = image::open(out.join("frame_0002.png")).unwrap().to_rgba8();
    assert_ne!(a.as_raw(), c.as_raw());
}

/// A level with a spatial sound: `render` writes `audio.wav`, one tick of sound per frame.
#[test]
fn render_writes_the_levels_sound_as_audio_wav() {
    let dir = tempfile::tempdir().unwrap();
    let level = SMALL_LEVEL.replace(
        r#"{ "type": "Spinner", "degreesPerSecond": 90 }"#,
        r#"{ "type": "Spinner", "degreesPerSecond": 90 },
           { "type": "AudioLoop", "source": "builtin:surf", "spatial": true }"#,
    );
    let level = write(dir.path(), "level.json", &level);
    let out = dir.path().join("out");
    let run = render(&level, "3", "32x24", &out);
    assert!(
        text(&run.stdout).contains("audio.wav"),
        "{}",
        text(&run.stdout)
    );
    // 16-bit stereo WAV: 44-byte header + 3 ticks × 735 frames (44.1 kHz / 60) × 4 bytes.
    let wav = std::fs::read(out.join("audio.wav")).unwrap();
    assert_eq!(wav.len(), 44 + 3 * 735 * 4);
    assert!(wav[44..].iter().any(|&b| b != 0), "not silent");
    // No sound device is opened without --play-audio (nothing said about one on stderr).
    assert!(
        !text(&run.stderr).contains("audio:"),
        "{}",
        text(&run.stderr)
    );
}

#[test]
fn two_render_runs_give_the_same_frames() {
    let dir = tempfile::tempdir().unwrap();
    let level = write(dir.path(), "level.json", SMALL_LEVEL);
    let render = |name: &str| {
        let out = dir.path().join(name);
        render(&level, "4", "48x32", &out);
        image::open(out.join("frame_0003.png")).unwrap().to_rgba8()
    };
    let (a, b) = (render("a"), render("b"));
    let max_diff = sierra_testkit::diff::max_byte_diff(a.as_raw(), b.as_raw());
    assert!(max_diff <= 1, "frames differ by {max_diff}");
}

#[test]
fn headless_demo_writes_into_out_with_a_one_line_summary() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("demo");
    let run = output_ok(&mut sierra(&[
        "demo",
        "--headless",
        "--frames",
        "2",
        "--size",
        "96x54",
        "--out",
        out.to_str().unwrap(),
    ]));
    let stdout = text(&run.stdout);
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(
        stdout.contains("wrote 2 frames") && stdout.contains("contact_sheet.png"),
        "{stdout}"
    );
    assert!(out.join("frame_0001.png").exists() && out.join("stats.json").exists());
}

#[test]
fn demo_without_a_reachable_display_falls_back_to_headless() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fallback");
    let run = output_ok(
        sierra(&["demo", "--frames", "1", "--size", "32x18", "--out"])
            .arg(&out)
            // A display that does not exist: EventLoop::new() fails, which must not be fatal.
            .env("DISPLAY", ":4242")
            .env_remove("WAYLAND_DISPLAY"),
    );
    let stdout = text(&run.stdout);
    assert!(
        stdout.contains("rendering headless instead") && stdout.contains("wrote 1 frames"),
        "{stdout}"
    );
    assert!(out.join("frame_0000.png").exists());
}

#[test]
fn no_matching_adapter_says_what_to_install() {
    let dir = tempfile::tempdir().unwrap();
    let level = write(dir.path(), "level.json", SMALL_LEVEL);
    let stderr = stderr_of_clean_failure(
        Command::new(env!("CARGO_BIN_EXE_sierra"))
            .args(["render", &level, "--out"])
            .arg(dir.path().join("o"))
            .env("WGPU_ADAPTER_NAME", "no-such-gpu-anywhere"),
    );
    assert!(
        stderr.contains("no-such-gpu-anywhere") && stderr.contains("mesa-vulkan-drivers"),
        "{stderr}"
    );
}

#[test]
fn missing_level_file_names_the_file() {
    let stderr = render_fails("no/such/level.json", Path::new("unused"));
    assert!(
        stderr.contains("no/such/level.json") && stderr.contains("cannot read"),
        "{stderr}"
    );
}

/// Writes `contents` as level `name` in a fresh folder and renders it, which must fail
/// without a panic; returns the level's path and stderr.
fn render_level_fails(name: &str, contents: &str) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let level = write(dir.path(), name, contents);
    let stderr = render_fails(&level, &dir.path().join("o"));
    (level, stderr)
}

#[test]
fn malformed_json_reports_file_line_and_column() {
    let (level, stderr) = render_level_fails(
        "broken.json",
        "{\n  \"objects\": [\n    { \"name\": \"a\", }\n  ]\n}\n",
    );
    assert!(stderr.contains(&format!("{level}:3:")), "{stderr}");
}

#[test]
fn unknown_mesh_primitive_reports_its_json_path_and_the_valid_names() {
    let (_, stderr) = render_level_fails(
        "teapot.json",
        r#"{"objects": [{"name": "t", "mesh": "teapot"}]}"#,
    );
    assert!(
        stderr.contains("objects[0].mesh") && stderr.contains("teapot"),
        "{stderr}"
    );
    assert!(
        stderr.contains("cube") && stderr.contains("sphere"),
        "{stderr}"
    );
}

#[test]
fn zero_and_negative_sizes_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let level = write(dir.path(), "level.json", SMALL_LEVEL);
    for size in ["0x10", "10x0", "-5x10", "10x-5", "ax5", "64"] {
        let stderr = fails(&[
            "render",
            &level,
            &format!("--size={size}"),
            "--out",
            dir.path().to_str().unwrap(),
        ]);
        assert!(
            stderr.contains("--size") && stderr.contains("WIDTHxHEIGHT"),
            "{size}: {stderr}"
        );
    }
    let stderr = fails(&["render", &level, "--frames", "0"]);
    assert!(stderr.contains("--frames"), "{stderr}");
}

#[test]
fn unwritable_out_folder_is_an_error_before_rendering() {
    let dir = tempfile::tempdir().unwrap();
    let level = write(dir.path(), "level.json", SMALL_LEVEL);
    // A path below a regular file cannot be created, even by root.
    let blocker = write(dir.path(), "blocker", "");
    let out = format!("{blocker}/frames");
    let stderr = render_fails(&level, Path::new(&out));
    assert!(
        stderr.contains("cannot create output folder") && stderr.contains(&out),
        "{stderr}"
    );
}
