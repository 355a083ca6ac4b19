//! `sierra bench scene --backend cpu|gpu|both`: the demo with its terrain generation and sea
//! simulation on the CPU path and on the GPU path draws the same island, and the report
//! compares their start-up and frame times side by side.

#[path = "common/startup.rs"]
mod startup_stages;

use std::path::{Path, PathBuf};
use std::process::Command;

use sierra_testkit::diff::max_abs_diff;
use sierra_testkit::json;
use sierra_testkit::process::output_ok;

use sierra::cli::bench::scene::{ImageDifference, SceneRunner};
use sierra::world::World;
use sierra_terrain::island::Backend;
use sierra_terrain::water::WaterSim;

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/demo.json")
}

#[test]
fn both_backends_render_the_same_island_and_the_report_lists_their_times() {
    let tmp = tempfile::tempdir().unwrap();
    let out_dir = tmp.path().join("bench");
    let started = std::time::Instant::now();
    let json = json::parse(
        &output_ok(
            Command::new(env!("CARGO_BIN_EXE_sierra"))
                .args(["bench", "scene", "--backend", "both", "--frames", "60"])
                .args(["--size", "160x90", "--json", "--out"])
                .arg(&out_dir),
        )
        .stdout,
    );
    let wall = started.elapsed();
    let runs = json["runs"].as_array().unwrap();
    let backends: Vec<_> = runs
        .iter()
        .map(|r| r["backend"].as_str().unwrap())
        .collect();
    assert_eq!(backends, ["cpu", "gpu"]);
    for run in runs {
        startup_stages::assert_stages(run["startup_ms"].as_object().unwrap(), wall);
        assert!(run["frame"]["mean_ms"].as_f64().unwrap() > 0.0, "{run}");
        // Stages that run every frame took some time (a stage never timed reports 0); the
        // CPU sea's is checked per backend below.
        for stage in ["gameplay", "build_frame", "render"] {
            assert!(
                run["cpu_stages"][stage]["mean_ms"].as_f64().unwrap() > 0.0,
                "{stage}: {run}"
            );
        }
        // Memory by class, and pipeline statistics or their null (adapters without them).
        let memory = &run["gpu_memory"];
        assert!(
            memory["meshes"].as_u64().unwrap() > 0
                && memory["render_targets"].as_u64().unwrap() > 0,
            "{memory}"
        );
        match run["pipeline_statistics"].as_object() {
            Some(stats) => {
                assert!(
                    stats["forward"]["fragment_shader_invocations"]
                        .as_f64()
                        .unwrap()
                        > 0.0,
                    "{run}"
                );
                // Every pass's invocations per pixel of the 160 x 90 screen, recomputed here.
                for (label, pass) in stats {
                    for kind in ["vertex", "fragment"] {
                        let count = pass[format!("{kind}_shader_invocations")].as_f64().unwrap();
                        let per_pixel = pass[format!("{kind}_invocations_per_pixel")]
                            .as_f64()
                            .unwrap_or_else(|| panic!("{label}: {pass}"));
                        let expected = count / (160.0 * 90.0);
                        assert!(
                            (per_pixel - expected).abs() <= 1e-9 * expected.max(1.0),
                            "{label} {kind}: {per_pixel} per pixel, {count} in all"
                        );
                    }
                }
            }
            None => {
                assert!(run["pipeline_statistics"].is_null());
                sierra_testkit::skip::skip(
                    sierra_testkit::skip::Reason::GpuFeature,
                    "no pipeline statistics: the forward pass's counts are not checked",
                );
            }
        }
        let frame = image::open(run["frame_image"].as_str().unwrap()).unwrap();
        assert_eq!((frame.width(), frame.height()), (160, 90));
    }
    // The CPU sea runs inside the tick; the GPU one in its compute scope (where the adapter
    // has timestamp queries).
    assert!(
        runs[0]["cpu_stages"]["sea_cpu"]["mean_ms"]
            .as_f64()
            .unwrap()
            > 0.0
    );
    assert_eq!(
        runs[1]["cpu_stages"]["sea_cpu"]["mean_ms"]
            .as_f64()
            .unwrap(),
        0.0
    );
    if !runs[1]["gpu_passes"].as_object().unwrap().is_empty() {
        assert!(
            runs[1]["gpu_passes"]["water steps"]["mean_ms"]
                .as_f64()
                .unwrap()
                > 0.0
        );
        assert!(runs[0]["gpu_passes"].get("water steps").is_none());
    }
    // The same island: the two last frames (a second of sea with drops) agree.
    let d = &json["last_frame_difference"];
    let (mean, over) = (
        d["mean_abs_255"].as_f64().unwrap(),
        d["fraction_over_8_255"].as_f64().unwrap(),
    );
    eprintln!(
        "last frames: mean |diff| {mean:.4}/255, {:.4} % over 8/255",
        over * 100.0
    );
    assert!(mean <= 1.0 && over <= 0.005, "{d}");
    let compare = image::open(out_dir.join("bench_scene_compare.png")).unwrap();
    assert_eq!((compare.width(), compare.height()), (800, 400));
    assert!(out_dir.join("bench_scene.json").is_file());
}

/// Runs the demo at a small size for `frames` frames with its terrain and sea on `backend`.
fn run(backend: Backend, frames: usize) -> (SceneRunner, image::RgbaImage) {
    let mut runner = SceneRunner::on(&demo(), 96, 54, Some(backend)).unwrap();
    let mut last = None;
    for _ in 0..frames {
        last = Some(runner.frame().unwrap().0);
    }
    (runner, last.unwrap())
}

/// The demo's CPU sea simulation, when its sea runs on the CPU.
fn cpu_sea(scene: &SceneRunner) -> Option<&WaterSim> {
    let sea = scene.runner.game().world.sea.as_ref();
    sea.expect("the demo has a sea").cpu_simulation()
}

/// The water depths the sea pass draws (the renderer's depth buffer, read back).
fn drawn_sea_depth(scene: &SceneRunner) -> Vec<f32> {
    World::sea_depth(&scene.ctx, &scene.headless.renderer)
        .unwrap()
        .expect("the renderer has a sea")
}

#[test]
fn the_cpu_sea_is_what_the_sea_pass_draws_and_it_follows_the_gpu_simulation() {
    let frames = 40;
    let (cpu, cpu_frame) = run(Backend::Cpu, frames);
    let sim = cpu_sea(&cpu).expect("the CPU backend simulates the sea on the CPU");
    assert!(sim.steps() > 0, "the CPU sea never stepped");
    // The sea pass reads the renderer's depth buffer: it holds the CPU simulation's state.
    let drawn = drawn_sea_depth(&cpu);
    assert_eq!(drawn, sim.depth(), "the CPU state was not uploaded");

    let (gpu, gpu_frame) = run(Backend::Gpu, frames);
    assert!(cpu_sea(&gpu).is_none());
    let stepped = drawn_sea_depth(&gpu);
    let worst = max_abs_diff(&drawn, &stepped);
    let moved = max_abs_diff(sim.depth(), sim.previous_depth());
    eprintln!("CPU vs GPU sea after {frames} frames: max |depth diff| {worst:e} m; last step moved {moved:e} m");
    assert!(
        moved > 1e-4,
        "the sea is still: the comparison would prove nothing"
    );
    assert!(worst <= 1e-3, "max depth difference {worst} m");
    let d = ImageDifference::of(&cpu_frame, &gpu_frame).unwrap();
    assert!(d.mean_abs <= 1.0 && d.fraction_over_8 <= 0.005, "{d:?}");
}
