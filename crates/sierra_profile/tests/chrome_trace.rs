//! The Chrome trace of a profiled run with rayon workers: valid JSON trace events, balanced
//! begin/end pairs per thread, spans from the main thread and from every worker thread.
//! Its own test binary because it installs the process-wide subscriber.

use std::collections::{BTreeMap, BTreeSet};

use rayon::prelude::*;
use sierra_profile::{append_track, profile_scope, Profiler, TrackSpan};

#[test]
fn trace_json_shows_every_worker_thread() {
    let dir = tempfile::tempdir().unwrap();
    let trace_path = dir.path().join("trace.json");
    let (profiler, guard) = Profiler::start(Some(&trace_path)).unwrap();
    assert_eq!(guard.path(), Some(trace_path.as_path()));
    // Worker threads are named so the trace labels their tracks.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .thread_name(|i| format!("sierra-worker-{i}"))
        .build()
        .unwrap();

    for _ in 0..3 {
        {
            profile_scope!("frame");
            // broadcast runs once on every worker thread: deterministic coverage of all workers.
            pool.broadcast(|_| {
                profile_scope!("animation_job");
                std::hint::black_box((0..10_000u64).sum::<u64>());
            });
            pool.install(|| {
                (0..16u64).into_par_iter().for_each(|i| {
                    profile_scope!("skinning_job");
                    std::hint::black_box((0..i * 100).sum::<u64>());
                })
            });
        }
        profiler.end_frame();
    }
    let origin = guard.origin();
    drop(guard);
    // GPU pass timings (as from timestamp queries) placed on the trace's time base.
    let gpu_start_us = (std::time::Instant::now() - origin).as_secs_f64() * 1e6;
    let gpu = [
        TrackSpan {
            name: "shadow".into(),
            start_us: gpu_start_us,
            duration_us: 120.0,
        },
        TrackSpan {
            name: "forward".into(),
            start_us: gpu_start_us + 130.0,
            duration_us: 800.0,
        },
    ];
    append_track(&trace_path, "GPU", &gpu).unwrap();

    let text = std::fs::read_to_string(&trace_path).unwrap();
    let events: Vec<serde_json::Value> =
        serde_json::from_str(&text).expect("trace is a JSON array");
    let mut thread_names = BTreeMap::new();
    let mut depth: BTreeMap<u64, i64> = BTreeMap::new();
    let mut span_threads: BTreeMap<String, BTreeSet<u64>> = BTreeMap::new();
    let mut last_ts: BTreeMap<u64, f64> = BTreeMap::new();
    let mut gpu_pid = None;
    let mut gpu_spans = Vec::new();
    for e in &events {
        let ph = e["ph"].as_str().expect("every event has a phase");
        if e["pid"] != 1 {
            // The appended GPU process track.
            match ph {
                "M" if e["name"] == "process_name" => gpu_pid = Some(e["pid"].clone()),
                "M" => {}
                "X" => gpu_spans.push((e["name"].as_str().unwrap().to_owned(), e["dur"].as_f64())),
                other => panic!("unexpected phase {other} on the GPU track"),
            }
            continue;
        }
        let tid = e["tid"].as_u64().expect("every event has a thread id");
        assert!(e["pid"].is_u64());
        match ph {
            "M" => {
                assert_eq!(e["name"], "thread_name");
                thread_names.insert(tid, e["args"]["name"].as_str().unwrap().to_owned());
            }
            "B" | "E" => {
                let ts = e["ts"].as_f64().expect("span events have a timestamp (µs)");
                let prev = last_ts.insert(tid, ts).unwrap_or(f64::MIN);
                assert!(ts >= prev, "timestamps go forward on each thread");
                *depth.entry(tid).or_default() += if ph == "B" { 1 } else { -1 };
                assert!(depth[&tid] >= 0, "E without B on thread {tid}");
                let name = e["name"].as_str().unwrap().to_owned();
                span_threads.entry(name).or_default().insert(tid);
            }
            other => panic!("unexpected phase {other}"),
        }
    }
    assert!(
        depth.values().all(|&d| d == 0),
        "unbalanced spans: {depth:?}"
    );
    let all_threads: BTreeSet<u64> = span_threads.values().flatten().copied().collect();
    assert!(all_threads.len() >= 3, "main + 2 workers: {span_threads:?}");
    assert_eq!(
        span_threads["animation_job"].len(),
        2,
        "one track per worker"
    );
    assert!(!span_threads["animation_job"].is_superset(&span_threads["frame"]));
    let names: BTreeSet<&str> = thread_names.values().map(String::as_str).collect();
    assert!(
        names.contains("sierra-worker-0") && names.contains("sierra-worker-1"),
        "{names:?}"
    );

    assert!(gpu_pid.is_some(), "GPU track is named");
    assert_eq!(
        gpu_spans,
        [
            ("shadow".to_owned(), Some(120.0)),
            ("forward".to_owned(), Some(800.0))
        ]
    );

    let stats = profiler.stats();
    assert_eq!(stats.frames, 3);
    for scope in ["frame", "animation_job", "skinning_job"] {
        assert_eq!(stats.scopes[scope].frames, 3, "{scope}: {stats:?}");
    }
    // A second start in the same process is an error, not a panic.
    assert!(Profiler::start(None).is_err());
}
