//! Pipelines are compiled at load, never during frames: after loading the demo (its scripted run
//! and the README's whole walk-through) and the platforms level, headless runs report `pipelines_created` and `shader_modules_created` of 0 for every
//! frame in `stats.json`, while the load itself created some (`pipelines_at_load`); and each
//! creation is a `pipeline_compile` span in the Chrome trace.
//!
//! One test in this file: a profiled run installs the process-wide `tracing` subscriber.

use std::path::Path;

use sierra::camera_path::{CameraPath, CameraPathKind};
use sierra::cli::demo::DEMO_LEVEL;
use sierra::game::Game;
use sierra::game_loop::DEFAULT_TICK_HZ;
use sierra::headless::{run_headless, HeadlessOptions};

/// Runs `level` headless for a few frames and returns its `stats.json` and the run's folder.
fn run(level: &str, profile: bool, out: &Path) -> serde_json::Value {
    let game = Game::load(Path::new(level), DEFAULT_TICK_HZ).unwrap_or_else(|e| panic!("{e:#}"));
    run_game(game, 4, profile, out)
}

/// Runs `game` headless for `frames` frames of 4 ticks; returns its `stats.json`.
fn run_game(game: Game, frames: usize, profile: bool, out: &Path) -> serde_json::Value {
    let summary = run_headless(
        game,
        &HeadlessOptions {
            ticks_per_frame: 4,
            profile,
            ..HeadlessOptions::new(frames, 96, 54, out)
        },
    )
    .unwrap_or_else(|e| panic!("{e:#}"));
    sierra_testkit::json::read(&summary.stats)
}

/// Asserts that `stats` loaded some pipelines and created none during its frames.
fn assert_none_after_load(level: &str, stats: &serde_json::Value) -> u64 {
    let at_load = stats["pipelines_at_load"].as_u64().unwrap();
    let modules_at_load = stats["shader_modules_at_load"].as_u64().unwrap();
    assert!(
        at_load >= 10 && modules_at_load >= 5,
        "{level}: the load compiles the passes' pipelines ({at_load}) and shaders ({modules_at_load})"
    );
    for frame in stats["frames"].as_array().unwrap() {
        assert_eq!(
            (
                frame["pipelines_created"].as_u64(),
                frame["shader_modules_created"].as_u64()
            ),
            (Some(0), Some(0)),
            "{level}: frame {} compiled pipelines after load",
            frame["frame"]
        );
    }
    at_load + modules_at_load
}

#[test]
fn demo_and_platforms_create_no_pipeline_after_load_and_trace_each_creation() {
    let tmp = tempfile::tempdir().unwrap();
    let demo = run(DEMO_LEVEL, true, &tmp.path().join("demo"));
    let created = assert_none_after_load("demo", &demo);
    let trace: serde_json::Value = sierra_testkit::json::read(&tmp.path().join("demo/trace.json"));
    let events = trace
        .as_array()
        .or_else(|| trace["traceEvents"].as_array())
        .unwrap();
    let spans = events
        .iter()
        .filter(|e| e["name"] == "pipeline_compile" && e["ph"] != "E")
        .count() as u64;
    assert_eq!(
        spans, created,
        "one pipeline_compile span per pipeline and shader module created"
    );

    let platforms = run(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../assets/levels/platforms.json"
        ),
        false,
        &tmp.path().join("platforms"),
    );
    assert_none_after_load("platforms", &platforms);

    // The walk-through of `sierra demo --camera-path walk --frames 120`, every frame of it: past
    // the crowds, the platforms and the beach (the stalls of docs/stalls.md were not compiles).
    let mut walk = Game::load(Path::new(DEMO_LEVEL), DEFAULT_TICK_HZ).unwrap();
    walk.camera_path = Some(CameraPath::new(
        CameraPathKind::Walk,
        (120.0 * 4.0 / DEFAULT_TICK_HZ) as f32,
    ));
    let walk = run_game(walk, 120, false, &tmp.path().join("walk"));
    assert_none_after_load("walk", &walk);
}
