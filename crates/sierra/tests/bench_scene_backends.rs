//! `sierra bench scene --backend cpu|gpu|both`: the demo with its terrain generation and sea
//! simulation on the CPU path and on the GPU path draws the same island, and the report
//! compares their start-up and frame times side by side.

#[path = "common/startup.rs"]
mod startup_stages;

use std::path::{Path, PathBuf};
use std::process::Command;

use sierra::cli::bench::scene::{ImageDifference, SceneRunner};
use sierra::world::World;
use sierra_terrain::island::Backend;

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/demo.json")
}

#[test]
fn both_backends_render_the_same_island_and_the_report_lists_their_times() {
    let tmp = tempfile::tempdir().unwrap();
    let out_dir = tmp.path().join("bench");
    let out = Command::new(env!("CARGO_BIN_EXE_sierra"))
        .args([
            "bench",
            "scene",
            "--backend",
            "both",
            "--frames",
            "60",
            "--size",
            "160x90",
        ])
        .arg("--json")
        .arg("--out")
        .arg(&out_dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let runs = json["runs"].as_array().unwrap();
    let backends: Vec<_> = runs
        .iter()
        .map(|r| r["backend"].as_str().unwrap())
        .collect();
    assert_eq!(backends, ["cpu", "gpu"]);
    for run in runs {
        startup_stages::assert_stages_sum_to_total(run["startup_ms"].as_object().unwrap());
        assert!(run["frame"]["mean_ms"].as_f64().unwrap() > 0.0, "{run}");
        for stage in ["gameplay", "sea_cpu", "build_frame", "render"] {
            assert!(
                run["cpu_stages"][stage]["mean_ms"].as_f64().unwrap() >= 0.0,
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
            Some(stats) => assert!(
                stats["forward"]["fragment_shader_invocations"]
                    .as_f64()
                    .unwrap()
                    > 0.0,
                "{run}"
            ),
            None => assert!(run["pipeline_statistics"].is_null()),
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

/// The largest `|a[i] - b[i]|`.
fn max_abs_diff(a: &[f32], b: &[f32]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
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

#[test]
fn the_cpu_sea_is_what_the_sea_pass_draws_and_it_follows_the_gpu_simulation() {
    let frames = 40;
    let (cpu, cpu_frame) = run(Backend::Cpu, frames);
    let sim = cpu
        .runner
        .game()
        .world
        .sea
        .as_ref()
        .unwrap()
        .cpu_simulation()
        .unwrap();
    assert!(sim.steps() > 0, "the CPU sea never stepped");
    // The sea pass reads the renderer's depth buffer: it holds the CPU simulation's state.
    let drawn = World::sea_depth(&cpu.ctx, &cpu.headless.renderer)
        .unwrap()
        .unwrap();
    assert_eq!(drawn, sim.depth(), "the CPU state was not uploaded");

    let (gpu, gpu_frame) = run(Backend::Gpu, frames);
    assert!(gpu
        .runner
        .game()
        .world
        .sea
        .as_ref()
        .unwrap()
        .cpu_simulation()
        .is_none());
    let stepped = World::sea_depth(&gpu.ctx, &gpu.headless.renderer)
        .unwrap()
        .unwrap();
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
