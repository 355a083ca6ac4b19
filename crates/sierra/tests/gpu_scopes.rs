//! GPU timing of the demo, structurally (no speed asserted): in `stats.json` every pass of the
//! renderer's pass list and every compute dispatch of a frame has a scope, the scopes nest
//! properly (the passes inside a `frame` scope where the device times whole encoders),
//! `gpu_ms` is the end of the last top-level scope and fits within the frame's CPU wall time
//! (the frame waits for its read-back, so its GPU work ran inside that window: an independent
//! clock), `gpu_pass_ms` holds each label's scopes, the run waited for timings at most once
//! (the final flush), the trace's GPU track carries every scope, and `startup_ms` names every
//! start-up stage within the run's wall time, and (where the adapter counts) every pass's
//! invocations per screen pixel with their medians over the run match the counts. Negative controls: overlapping top-level scopes
//! fail the nesting check, and GPU times in microseconds fail the CPU-window check.
//!
//! One test per file: a profiled run installs the process-wide `tracing` subscriber.

#[path = "common/startup.rs"]
mod startup_stages;

use std::path::Path;

use sierra::cli::demo::DEMO_LEVEL;
use sierra::game::Game;
use sierra::game_loop::DEFAULT_TICK_HZ;
use sierra::headless::{run_headless, HeadlessOptions};

/// The renderer's pass list, in order, and the dispatches the demo runs every frame.
const PASSES: [&str; 8] = [
    "shadow", "forward", "crowd", "sky", "sea", "bloom", "tonemap", "fxaa",
];
const DISPATCHES: [&str; 2] = ["water steps", "skinning"];
const FRAMES: usize = 4;

/// Margin for timestamps converted to milliseconds and back.
const EPS: f64 = 1e-6;

#[test]
fn every_pass_and_dispatch_of_the_demo_has_a_gpu_scope_and_scopes_nest() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("demo");
    let started = std::time::Instant::now();
    let game = Game::load(Path::new(DEMO_LEVEL), DEFAULT_TICK_HZ).unwrap();
    let summary = run_headless(
        game,
        &HeadlessOptions {
            profile: true,
            ..HeadlessOptions::new(FRAMES, 96, 54, out.clone())
        },
    )
    .unwrap();
    let wall = started.elapsed();
    let stats: serde_json::Value = sierra_testkit::json::read(&summary.stats);

    let startup = stats["startup_ms"].as_object().unwrap();
    startup_stages::assert_stages(startup, wall);

    // Read after each frame's PNG read-back: at most the one flush at the end waits.
    assert!(
        stats["gpu_timing_waits"].as_u64().unwrap() <= 1,
        "{}",
        stats["gpu_timing_waits"]
    );
    let frames = stats["frames"].as_array().unwrap();
    assert_eq!(frames.len(), FRAMES);
    if frames[0]["gpu_ms"].is_null() {
        assert!(frames.iter().all(|f| f["gpu_scopes"].is_null()));
        return sierra_testkit::skip::skip(
            sierra_testkit::skip::Reason::GpuFeature,
            format!(
                "no timestamp queries on {}: nothing timed",
                stats["adapter"]
            ),
        );
    }
    let mut scope_count = 0;
    for f in frames {
        let gpu_ms = f["gpu_ms"].as_f64().unwrap();
        let scopes: Vec<Scope> = f["gpu_scopes"]
            .as_array()
            .unwrap()
            .iter()
            .map(Scope::from_json)
            .collect();
        scope_count += scopes.len();
        let labels: Vec<&str> = scopes.iter().map(|s| s.label.as_str()).collect();
        for name in PASSES.iter().chain(&DISPATCHES) {
            assert!(
                labels.contains(name),
                "frame {}: no {name} scope in {labels:?}",
                f["frame"]
            );
        }
        // The passes in pass-list order.
        let order: Vec<usize> = PASSES
            .iter()
            .map(|p| labels.iter().position(|l| l == p).unwrap())
            .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{labels:?}");
        check_nesting(&scopes, gpu_ms);
        // Where the device times whole encoders, the frame's passes nest in its `frame` scope
        // (the water steps run in a submission of their own before it).
        if labels.contains(&"frame") {
            for s in &scopes {
                let inside = PASSES.contains(&s.label.as_str())
                    || ["skinning", "environment"].contains(&s.label.as_str());
                assert_eq!(s.depth, u64::from(inside), "{}", s.label);
            }
        }
        // gpu_ms: from the first scope's start (0) to the last top-level scope's end.
        let last_end = scopes
            .iter()
            .filter(|s| s.depth == 0)
            .map(|s| s.end)
            .fold(0.0, f64::max);
        assert!(scopes[0].start.abs() < EPS, "{}", scopes[0].start);
        assert!(
            (gpu_ms - last_end).abs() < EPS,
            "gpu_ms {gpu_ms}, last end {last_end}"
        );
        // Within the frame's CPU wall time (tick, recording, submit, read-back wait).
        let cpu_ms = f["cpu_ms"].as_f64().unwrap();
        within_cpu_window(gpu_ms, cpu_ms).unwrap_or_else(|e| panic!("frame {}: {e}", f["frame"]));
        // Control: the same frame in microseconds would not fit.
        assert!(within_cpu_window(gpu_ms * 1e3, cpu_ms).is_err());
        // Each label's entry holds exactly its own scopes (a label that repeats adds up).
        let passes = f["gpu_pass_ms"].as_object().unwrap();
        let mut names: Vec<&str> = labels.clone();
        names.sort_unstable();
        names.dedup();
        assert_eq!(passes.keys().map(String::as_str).collect::<Vec<_>>(), names);
        for (label, ms) in passes {
            let own: f64 = scopes
                .iter()
                .filter(|s| &s.label == label)
                .map(Scope::ms)
                .sum();
            assert!(
                (ms.as_f64().unwrap() - own).abs() < EPS * 10.0,
                "{label}: {ms} vs {own}"
            );
        }
        // Control: a scope ending after gpu_ms, or (where there are two) top-level scopes
        // made to overlap, fail the nesting check.
        let mut late = scopes.clone();
        late.last_mut().unwrap().end = gpu_ms + 1.0;
        assert!(std::panic::catch_unwind(|| check_nesting(&late, gpu_ms)).is_err());
        let tops: Vec<usize> = (0..scopes.len())
            .filter(|&i| scopes[i].depth == 0)
            .collect();
        if let [first, second, ..] = tops[..] {
            let mut overlapping = scopes.clone();
            overlapping[second].start = overlapping[first].end - 1e-3;
            assert!(std::panic::catch_unwind(|| check_nesting(&overlapping, gpu_ms)).is_err());
        }
    }

    // The trace's GPU track: one span per scope of every frame.
    let trace: serde_json::Value = sierra_testkit::json::read(&out.join("trace.json"));
    let events = trace.as_array().unwrap();
    let gpu_pid = events
        .iter()
        .find(|e| e["ph"] == "M" && e["args"]["name"] == "GPU")
        .map(|e| e["pid"].clone())
        .expect("a GPU track");
    let gpu_spans = events
        .iter()
        .filter(|e| e["ph"] == "X" && e["pid"] == gpu_pid)
        .count();
    assert_eq!(gpu_spans, scope_count);
    check_invocations_per_pixel(&stats, 96 * 54);
}

/// Every counted pass's invocations per screen pixel in each frame of `stats` (a
/// `pixels`-pixel screen) and their medians over the run, recomputed from the counts.
fn check_invocations_per_pixel(stats: &serde_json::Value, pixels: u64) {
    let frames = stats["frames"].as_array().unwrap();
    if frames[0]["gpu_pass_statistics"].is_null() {
        // An adapter without pipeline statistics: no counts, no medians.
        assert!(stats["pass_invocations_median"].is_null());
        return;
    }
    let mut fragments: std::collections::BTreeMap<String, Vec<f64>> = Default::default();
    for f in frames {
        for (label, pass) in f["gpu_pass_statistics"].as_object().unwrap() {
            for kind in ["vertex", "fragment"] {
                let count = pass[format!("{kind}_shader_invocations")].as_u64().unwrap();
                let per_pixel = pass[format!("{kind}_invocations_per_pixel")]
                    .as_f64()
                    .unwrap();
                let expected = count as f64 / pixels as f64;
                assert!(
                    (per_pixel - expected).abs() <= 1e-12 * expected.max(1.0),
                    "{label} {kind}: {per_pixel} per pixel, {count} in all"
                );
            }
            let per_pixel = pass["fragment_invocations_per_pixel"].as_f64().unwrap();
            fragments.entry(label.clone()).or_default().push(per_pixel);
        }
    }
    let medians = stats["pass_invocations_median"].as_object().unwrap();
    for pass in PASSES {
        let mut values = fragments
            .remove(pass)
            .unwrap_or_else(|| panic!("{pass} not counted"));
        values.sort_by(f64::total_cmp);
        let n = values.len();
        let median = 0.5 * (values[(n - 1) / 2] + values[n / 2]);
        let reported = &medians[pass];
        assert_eq!(reported["frames"].as_u64().unwrap(), n as u64, "{pass}");
        let got = reported["fragment_invocations_per_pixel"].as_f64().unwrap();
        assert!(
            (got - median).abs() <= 1e-12 * median.max(1.0),
            "{pass}: {got} vs {median}"
        );
    }
}

/// Whether a frame's `gpu_ms` fits in its `cpu_ms` (1 % and 10 µs for the GPU clock's
/// conversion to milliseconds).
fn within_cpu_window(gpu_ms: f64, cpu_ms: f64) -> Result<(), String> {
    if gpu_ms <= cpu_ms * 1.01 + 0.01 {
        Ok(())
    } else {
        Err(format!(
            "gpu_ms {gpu_ms} > the frame's CPU wall time {cpu_ms} ms"
        ))
    }
}

#[derive(Clone)]
struct Scope {
    label: String,
    depth: u64,
    start: f64,
    end: f64,
}

impl Scope {
    fn from_json(v: &serde_json::Value) -> Self {
        Self {
            label: v["label"].as_str().unwrap().to_owned(),
            depth: v["depth"].as_u64().unwrap(),
            start: v["start_ms"].as_f64().unwrap(),
            end: v["end_ms"].as_f64().unwrap(),
        }
    }

    fn ms(&self) -> f64 {
        self.end - self.start
    }
}

/// Scopes lie within `[0, gpu_ms]`; top-level scopes follow one another without overlap; each
/// nested scope (listed after its parent, depth-first) lies within its parent.
fn check_nesting(scopes: &[Scope], gpu_ms: f64) {
    let mut open: Vec<&Scope> = Vec::new();
    let mut last_top_end = 0.0f64;
    for s in scopes {
        assert!(
            0.0 <= s.start && s.start <= s.end && s.end <= gpu_ms + EPS,
            "{} [{}, {}] outside [0, {gpu_ms}]",
            s.label,
            s.start,
            s.end
        );
        open.truncate(s.depth as usize);
        assert_eq!(
            open.len() as u64,
            s.depth,
            "{}: no parent at depth {}",
            s.label,
            s.depth
        );
        match open.last() {
            Some(parent) => assert!(
                parent.start <= s.start + EPS && s.end <= parent.end + EPS,
                "{} not within {}",
                s.label,
                parent.label
            ),
            None => {
                assert!(
                    s.start + EPS >= last_top_end,
                    "{} overlaps the scope before",
                    s.label
                );
                last_top_end = s.end;
            }
        }
        open.push(s);
    }
}
