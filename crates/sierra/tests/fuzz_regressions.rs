//! Every crash the fuzz targets found (docs/fuzzing.md), as a plain `cargo test` test: the input
//! inline, and the outcome the fix gives. The crash inputs also sit in `fuzz/regressions/`, which
//! `.ci/run` replays through the fuzz targets when the nightly toolchain is present. Key tracks
//! belong to the window, hence the `window` feature.
#![cfg(feature = "window")]

use std::path::Path;

use sierra::key_track::KeyTrack;

/// `key_track`, crash-4f5312dc: a press at tick `u64::MAX` overflowed `tick + ticks` (a panic
/// with overflow checks; in release a key-up at tick 0, before its key-down). It is now an
/// error naming the press.
#[test]
fn key_track_press_at_the_last_tick_is_an_error_not_an_overflow() {
    let text = r#"{"presses": [{"key": "jump", "tick": 0, "ticks": 1},
        {"key": "ArrowLeft", "tick": 18446744073709551615}]}"#;
    // Before the fix `tick + ticks` overflowed (a panic with overflow checks, else a key-up at
    // tick 0); now the release tick past u64::MAX is an error naming the press.
    let err = KeyTrack::from_json_str(text, Path::new("crash.json")).unwrap_err();
    let message = err.to_string();
    assert!(
        message.contains("crash.json") && message.contains("presses[1].ticks"),
        "{message}"
    );
}

/// The committed crash inputs of the targets that run in-process here parse without panicking.
#[test]
fn committed_crash_inputs_replay_cleanly() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions");
    let mut replayed = 0;
    for entry in std::fs::read_dir(root.join("key_track")).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        if let Ok(text) = std::str::from_utf8(&bytes) {
            let _ = KeyTrack::from_json_str(text, Path::new("regression.json"));
        }
        replayed += 1;
    }
    for entry in std::fs::read_dir(root.join("gltf_import")).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let imported = sierra_gltf::GltfAsset::from_bytes(
            &bytes,
            &path,
            &sierra_gltf::Resolver::default(),
            Default::default(),
        );
        assert!(imported.is_err(), "{} is not a valid model", path.display());
        replayed += 1;
    }
    assert!(
        replayed >= 2,
        "the key_track and gltf_import crash inputs are committed"
    );
}
