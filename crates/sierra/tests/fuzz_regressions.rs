//! Every crash the fuzz targets found (docs/fuzzing.md), as a plain `cargo test` test: the input
//! inline, and the outcome the fix gives. The crash inputs also sit in `fuzz/regressions/`, which
//! `.ci/run` replays through the fuzz targets when the nightly toolchain is present.

use std::path::Path;

use sierra::key_track::KeyTrack;

/// `key_track`, crash-4f5312dc: a press at tick `u64::MAX` overflowed `tick + ticks` (a panic
/// with overflow checks; in release a key-up at tick 0, before its key-down). The release
/// tick now saturates at `u64::MAX`.
#[test]
fn key_track_press_at_the_last_tick_does_not_overflow() {
    let text = r#"{"presses": [{"key": "jump", "tick": 0, "ticks": 1},
        {"key": "ArrowLeft", "tick": 18446744073709551615}]}"#;
    let track = KeyTrack::from_json_str(text, Path::new("crash.json")).unwrap();
    let left: Vec<(u64, bool)> = track
        .events
        .iter()
        .filter(|e| e.code == winit::keyboard::KeyCode::ArrowLeft)
        .map(|e| (e.tick, e.down))
        .collect();
    // Both at the last tick (a release sorts before a press at the same tick); before the fix
    // the release wrapped to tick 0.
    assert_eq!(left, [(u64::MAX, false), (u64::MAX, true)]);
    assert!(
        track.events.windows(2).all(|w| w[0].tick <= w[1].tick),
        "events in tick order"
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
        let imported = sierra_gltf::GltfAsset::from_bytes(&bytes, &path, None, Default::default());
        assert!(imported.is_err(), "{} is not a valid model", path.display());
        replayed += 1;
    }
    assert!(
        replayed >= 2,
        "the key_track and gltf_import crash inputs are committed"
    );
}
