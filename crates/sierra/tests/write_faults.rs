//! Writes that fail part way (issue #44): `sierra render` runs in a child process under a file
//! size limit (`ulimit -f`, `RLIMIT_FSIZE`) with `SIGXFSZ` ignored, so a write past the limit
//! fails with `EFBIG` instead of killing the process, as a full disk would fail it. The limit is
//! chosen between the size of the largest frame and the size of the contact sheet (measured on
//! an unlimited run of the same level), so the frames are written and the contact sheet is not.
//! The run must end with a clear error naming `contact_sheet.png`, leave nothing under that
//! name (before the atomic writes it was left truncated at the limit) nor a temporary file, keep
//! the frames intact, and leave a manifest that is still true: every file in the folder is
//! listed, so the next run into the folder needs no `--force`.

use std::path::Path;
use std::process::{Command, Output};

#[path = "common/out_files.rs"]
mod out_files;
use out_files::{assert_manifest_lists_every_file, frame, names};

const LEVEL: &str = r#"{
  "camera": { "position": [0, 2, 4], "target": [0, 0, 0], "fovYDegrees": 50 },
  "clearColor": [0.2, 0.3, 0.4],
  "objects": [
    { "name": "Floor", "scale": [6, 1, 6], "mesh": "grid:4" },
    { "name": "Box", "position": [0, 0.5, 0], "mesh": "cube", "material": { "baseColor": [0.9, 0.2, 0.1] },
      "components": [ { "type": "Spinner", "degreesPerSecond": 90 },
                      { "type": "AudioLoop", "source": "builtin:surf", "volume": 0.5 } ] }
  ]
}"#;

const FRAMES: usize = 3;

/// `sierra render LEVEL --frames 3 --size 96x64 --out OUT` through `bash`, under a file size
/// limit of `limit_kib` KiB (none when `None`) with `SIGXFSZ` ignored.
fn render(level: &Path, out: &Path, limit_kib: Option<u64>) -> Output {
    let limit = limit_kib.map_or_else(String::new, |k| format!("ulimit -f {k}; "));
    let script = format!("trap '' XFSZ; {limit}exec \"$0\" \"$@\"");
    Command::new("bash")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_sierra"))
        .arg("render")
        .arg(level)
        .args(["--frames", &FRAMES.to_string(), "--size", "96x64", "--out"])
        .arg(out)
        .env(
            "WGPU_BACKEND",
            std::env::var("WGPU_BACKEND").unwrap_or_else(|_| "vulkan".into()),
        )
        // Mesa's shader cache must not be the file that meets the limit.
        .env("MESA_SHADER_CACHE_DISABLE", "true")
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn size(path: &Path) -> u64 {
    std::fs::metadata(path).unwrap().len()
}

#[test]
fn a_write_failing_part_way_names_the_file_and_leaves_no_partial_file() {
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("level.json");
    std::fs::write(&level, LEVEL).unwrap();

    // The unlimited run: what the files are, and where to put the limit.
    let whole = dir.path().join("whole");
    let run = render(&level, &whole, None);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let largest_frame = (0..FRAMES).map(|i| size(&frame(&whole, i))).max().unwrap();
    let sheet = size(&whole.join("contact_sheet.png"));
    let limit_kib = largest_frame / 1024 + 1;
    assert!(
        sheet > limit_kib * 1024,
        "the contact sheet ({sheet} bytes) must be over the limit ({limit_kib} KiB) for the \
         test to mean anything; frames up to {largest_frame} bytes"
    );

    let cut = dir.path().join("cut");
    let run = render(&level, &cut, Some(limit_kib));
    let stderr = text(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let sheet_path = cut.join("contact_sheet.png");
    assert!(
        stderr.contains(&format!("cannot write {}", sheet_path.display()))
            && stderr.contains("File too large"),
        "the error names the file and the cause: {stderr}"
    );
    // Nothing under the final name, no temporary left; the earlier files intact.
    let left = names(&cut);
    assert!(
        !sheet_path.exists(),
        "a partial contact sheet was left: {left:?}"
    );
    assert!(
        !left.iter().any(|n| n.contains(".sierra-tmp-")),
        "temporary files left: {left:?}"
    );
    for i in 0..FRAMES {
        assert_eq!(
            std::fs::read(frame(&cut, i)).unwrap(),
            std::fs::read(frame(&whole, i)).unwrap(),
            "frame {i} differs from the unlimited run's"
        );
    }
    // The manifest stays true: it lists every file the failed run left...
    assert_manifest_lists_every_file(&cut);
    // ... so the next run into the same folder needs no --force, and completes it (its
    // `audio.wav` listed too, so a third run is accepted as well).
    for _ in 0..2 {
        let run = render(&level, &cut, None);
        assert!(run.status.success(), "{}", text(&run.stderr));
    }
    assert_eq!(names(&cut), names(&whole));
    assert!(cut.join("audio.wav").exists());
}
