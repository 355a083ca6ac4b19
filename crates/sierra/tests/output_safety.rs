//! Output folders and files never destroy a user's files (issue #22): the `sierra` binary run as
//! a child process under a timeout and memory limit ([`sierra_testkit::child`]).
//!
//! A folder holding files Sierra did not write is refused (naming a file and `--force`) and left
//! byte for byte as it was; `--force` overwrites only Sierra's own names; a second, shorter run
//! into Sierra's own folder leaves none of the first run's frames; single-file outputs refuse
//! an existing file.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use sierra_testkit::child::{run_limited, Limits, Outcome};

const LEVEL: &str = r#"{"camera": {"position": [0, 2, 4], "target": [0, 0, 0]},
  "objects": [{"name": "Box", "mesh": "cube"}]}"#;

/// Runs `sierra ARGS` (lavapipe allowed: data limit, not address space).
fn sierra(args: &[&str]) -> Outcome {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sierra"));
    cmd.args(args).env(
        "WGPU_BACKEND",
        std::env::var("WGPU_BACKEND").unwrap_or_else(|_| "vulkan".into()),
    );
    let outcome = run_limited(&mut cmd, &Limits::data(2 << 30, Duration::from_secs(120)))
        .expect("sierra starts");
    assert!(!outcome.timed_out, "{args:?}: {}", outcome.describe());
    assert!(
        !outcome.stderr.contains("panicked"),
        "{args:?}: {}",
        outcome.describe()
    );
    outcome
}

/// Every file in `dir` (recursively not needed: flat folders) with its bytes, sorted by name.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

/// A folder of a user's own files under names Sierra writes, plus a dotfile named like the
/// old writability probe.
fn users_folder(root: &Path) -> std::path::PathBuf {
    let dir = root.join("mine");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("frame_0000.png"), "my holiday photo").unwrap();
    std::fs::write(dir.join("stats.json"), "{\"my\": \"numbers\"}").unwrap();
    std::fs::write(dir.join(".sierra_write_test"), "my dotfile").unwrap();
    dir
}

fn refused(o: &Outcome, file: &str) {
    assert_eq!(o.exit_code(), Some(1), "{}", o.describe());
    assert!(
        o.stderr.contains(file) && o.stderr.contains("--force"),
        "the refusal names {file} and --force: {}",
        o.stderr
    );
}

#[test]
fn a_users_folder_is_refused_and_left_untouched() {
    let tmp = tempfile::tempdir().unwrap();
    let level = tmp.path().join("level.json");
    std::fs::write(&level, LEVEL).unwrap();
    let dir = users_folder(tmp.path());
    let before = snapshot(&dir);
    let d = dir.to_str().unwrap();
    let l = level.to_str().unwrap();
    refused(
        &sierra(&["render", l, "--size", "16x16", "--out", d]),
        "frame_0000.png",
    );
    refused(
        &sierra(&["view", "builtin:mannequin", "--frames", "1", "--out", d]),
        "stats.json",
    );
    refused(
        &sierra(&["demo", "--headless", "--frames", "1", "--out", d]),
        ".sierra_write_test",
    );
    refused(
        &sierra(&["water", "--size", "8", "--steps", "1", "--out", d]),
        "frame_0000.png",
    );
    assert_eq!(snapshot(&dir), before, "nothing in the folder changed");
}

#[test]
fn force_overwrites_only_sierras_names() {
    let tmp = tempfile::tempdir().unwrap();
    let level = tmp.path().join("level.json");
    std::fs::write(&level, LEVEL).unwrap();
    let dir = users_folder(tmp.path());
    std::fs::write(dir.join("frame_0005.png"), "not this run's frame").unwrap();
    let l = level.to_str().unwrap();
    let d = dir.to_str().unwrap();
    let o = sierra(&["render", l, "--size", "16x16", "--out", d, "--force"]);
    assert!(o.status.success(), "{}", o.describe());
    let frame = image::open(dir.join("frame_0000.png")).expect("Sierra's frame replaced the file");
    assert_eq!((frame.width(), frame.height()), (16, 16));
    let stats: serde_json::Value = sierra_testkit::json::read(&dir.join("stats.json"));
    assert_eq!(stats["frames"].as_array().unwrap().len(), 1);
    for (name, text) in [
        (".sierra_write_test", "my dotfile"),
        ("frame_0005.png", "not this run's frame"),
    ] {
        assert_eq!(
            std::fs::read_to_string(dir.join(name)).unwrap(),
            text,
            "{name} left alone"
        );
    }
    // No probe or temporary file is left behind.
    let names: Vec<String> = snapshot(&dir).into_iter().map(|(n, _)| n).collect();
    assert!(
        !names.iter().any(|n| n.ends_with(".tmp")),
        "no temporary files: {names:?}"
    );
}

#[test]
fn a_shorter_second_run_leaves_no_stale_frames() {
    let tmp = tempfile::tempdir().unwrap();
    let level = tmp.path().join("level.json");
    std::fs::write(&level, LEVEL).unwrap();
    let out = tmp.path().join("out");
    let (l, d) = (level.to_str().unwrap(), out.to_str().unwrap());
    for frames in ["4", "2"] {
        let o = sierra(&[
            "render", l, "--frames", frames, "--size", "16x16", "--out", d,
        ]);
        assert!(o.status.success(), "{}", o.describe());
    }
    let mut frames: Vec<String> = snapshot(&out)
        .into_iter()
        .map(|(n, _)| n)
        .filter(|n| n.starts_with("frame_"))
        .collect();
    frames.sort();
    assert_eq!(frames, ["frame_0000.png", "frame_0001.png"]);
    let stats: serde_json::Value = sierra_testkit::json::read(&out.join("stats.json"));
    assert_eq!(stats["frames"].as_array().unwrap().len(), 2);
    // Negative control: a user's file added to Sierra's folder makes the next run refuse.
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    refused(
        &sierra(&["render", l, "--size", "16x16", "--out", d]),
        "notes.txt",
    );
}

#[test]
fn single_file_outputs_refuse_an_existing_file() {
    let tmp = tempfile::tempdir().unwrap();
    let glb = tmp.path().join("model.glb");
    std::fs::write(&glb, "my model").unwrap();
    let g = glb.to_str().unwrap();
    refused(&sierra(&["export-mannequin", g]), "model.glb");
    assert_eq!(std::fs::read_to_string(&glb).unwrap(), "my model");
    let o = sierra(&["export-mannequin", g, "--force"]);
    assert!(o.status.success(), "{}", o.describe());
    assert_eq!(&std::fs::read(&glb).unwrap()[..4], b"glTF");

    // `bench scene --out` is an output folder: a plot of the user's there is refused.
    let bench = tmp.path().join("bench");
    std::fs::create_dir(&bench).unwrap();
    let plot = bench.join("bench_scene.png");
    std::fs::write(&plot, "my plot").unwrap();
    let args = [
        "bench", "scene", "--frames", "1", "--size", "32x18", "--out",
    ];
    let o = sierra(&[&args[..], &[bench.to_str().unwrap()]].concat());
    refused(&o, "bench_scene.png");
    assert_eq!(std::fs::read_to_string(&plot).unwrap(), "my plot");

    let obj = tmp.path().join("obj");
    std::fs::create_dir(&obj).unwrap();
    std::fs::write(obj.join("palm_lod100.obj"), "my palm").unwrap();
    let args = ["export-obj", "--object", "palm", "--lod", "100", "--out"];
    let o = sierra(&[&args[..], &[obj.to_str().unwrap()]].concat());
    refused(&o, "palm_lod100.obj");
    assert_eq!(
        std::fs::read_to_string(obj.join("palm_lod100.obj")).unwrap(),
        "my palm"
    );
    // Into a new folder it writes, and a second run replaces its own files.
    let fresh = tmp.path().join("fresh");
    for _ in 0..2 {
        let o = sierra(&[&args[..], &[fresh.to_str().unwrap()]].concat());
        assert!(o.status.success(), "{}", o.describe());
    }
    assert!(fresh.join("palm_lod100.obj").exists() && fresh.join("palm_lod100.mtl").exists());
}
