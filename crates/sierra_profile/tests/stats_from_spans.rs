//! The statistics layer measures span busy times with an injected clock: known durations in,
//! exact statistics out (no sleeping, no timing thresholds).

use std::time::Duration;

use sierra_profile::{profile_scope, ManualClock, Profiler, ProfilerConfig, TraceGuard};

/// A profiler whose spans are timed by a clock the test advances (default settings otherwise):
/// the clock, then the profiler, its tracing dispatcher and the guard that flushes its trace.
fn on_manual_clock() -> (ManualClock, (Profiler, tracing::Dispatch, TraceGuard)) {
    let clock = ManualClock::new();
    let config = ProfilerConfig {
        clock: std::sync::Arc::new(clock.clone()),
        ..ProfilerConfig::default()
    };
    (clock, Profiler::build(config).unwrap())
}

#[test]
fn known_span_durations_give_exact_stats() {
    let (clock, (profiler, dispatch, _guard)) = on_manual_clock();
    tracing::dispatcher::with_default(&dispatch, || {
        for frame in 1..=10u64 {
            {
                profile_scope!("frame");
                {
                    profile_scope!("animation");
                    clock.advance(Duration::from_millis(frame)); // 1..=10 ms
                }
                {
                    profile_scope!("render");
                    clock.advance(Duration::from_millis(2));
                }
                // Re-entering a scope in the same frame adds to its frame time.
                {
                    profile_scope!("render");
                    clock.advance(Duration::from_millis(1));
                }
            }
            clock.advance(Duration::from_millis(100)); // outside every scope
            profiler.end_frame();
        }
    });
    let stats = profiler.stats();
    assert_eq!(stats.frames, 10);
    let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
    let anim = stats.scopes["animation"];
    assert!(
        close(anim.avg_ms, 5.5) && close(anim.max_ms, 10.0),
        "{anim:?}"
    );
    assert!(
        close(anim.p95_ms, 10.0),
        "ceil(0.95*10) = 10th of 10: {anim:?}"
    );
    let render = stats.scopes["render"];
    assert!(close(render.avg_ms, 3.0) && close(render.max_ms, 3.0) && close(render.p95_ms, 3.0));
    let frame = stats.scopes["frame"];
    assert!(
        close(frame.avg_ms, 8.5) && close(frame.max_ms, 13.0),
        "{frame:?}"
    );
    assert_eq!(profiler.last_frame_ms("animation"), Some(10.0));
}

#[test]
fn stats_json_has_the_documented_shape() {
    let (clock, (profiler, dispatch, _guard)) = on_manual_clock();
    tracing::dispatcher::with_default(&dispatch, || {
        profile_scope!("water");
        clock.advance(Duration::from_micros(1500));
    });
    profiler.end_frame();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stats.json");
    profiler.write_stats(&path).unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let water = &json["scopes"]["water"];
    for key in ["avg_ms", "max_ms", "p95_ms"] {
        assert_eq!(water[key].as_f64(), Some(1.5), "{key} in {json}");
    }
    assert_eq!(json["frames"].as_u64(), Some(1));
}

#[test]
fn unwritable_paths_are_errors_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("no_such_dir").join("trace.json");
    let config = ProfilerConfig {
        trace_path: Some(bad.clone()),
        ..ProfilerConfig::default()
    };
    let err = Profiler::build(config).err().expect("must fail");
    assert!(
        err.to_string().contains(&bad.display().to_string()),
        "{err}"
    );

    let (profiler, _dispatch, _guard) = Profiler::build(ProfilerConfig::default()).unwrap();
    let bad_stats = dir.path().join("no_such_dir").join("stats.json");
    let err = profiler.write_stats(&bad_stats).unwrap_err();
    assert!(err.to_string().contains("stats.json"), "{err}");

    let not_a_trace = dir.path().join("notes.txt");
    std::fs::write(&not_a_trace, "not json").unwrap();
    let err = sierra_profile::append_track(&not_a_trace, "GPU", &[]).unwrap_err();
    assert!(err.to_string().contains("notes.txt"), "{err}");
}
