//! `append_track` reads a trace file from disk: odd but well-formed content gives a track or
//! an error naming the file, never a panic.

use serde_json::Value;
use sierra_profile::{append_track, TrackSpan};

#[test]
fn largest_process_id_is_an_error_not_an_overflow() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("trace.json");
    let span = TrackSpan {
        name: "forward".into(),
        start_us: 10.0,
        duration_us: 5.0,
    };

    // The track takes the largest process id plus one.
    std::fs::write(&trace, r#"[{"ph": "M", "pid": 41, "tid": 0, "name": "x"}]"#).unwrap();
    append_track(&trace, "GPU", std::slice::from_ref(&span)).unwrap();
    let events: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).unwrap();
    let last = events.last().unwrap();
    assert_eq!(last["pid"], 42);
    assert_eq!(last["name"], "forward");

    // u64::MAX + 1 overflowed (a panic in debug builds, pid 0 in release).
    let max = format!(
        r#"[{{"ph": "M", "pid": {}, "tid": 0, "name": "x"}}]"#,
        u64::MAX
    );
    std::fs::write(&trace, &max).unwrap();
    let err = append_track(&trace, "GPU", &[span]).unwrap_err();
    assert!(err.to_string().contains("trace.json"), "{err}");
    assert!(err.to_string().contains("process id"), "{err}");
    // The file is left as it was.
    assert_eq!(std::fs::read_to_string(&trace).unwrap(), max);
}
