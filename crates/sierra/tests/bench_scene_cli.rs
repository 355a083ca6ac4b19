//! `sierra bench scene --out DIR`: the plot goes into the output folder (never the current
//! one), is 800x400, and carries axis labels and a legend (text pixels where a bare plot has
//! none); the JSON names the plot's path and gives the start-up time by stage.

#[path = "common/startup.rs"]
mod startup_stages;

use std::process::Command;

use sierra_testkit::json;
use sierra_testkit::process::output_ok;

#[test]
fn bench_scene_writes_a_labelled_plot_into_its_out_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let out_dir = tmp.path().join("bench");
    let started = std::time::Instant::now();
    let json = json::parse(
        &output_ok(
            Command::new(env!("CARGO_BIN_EXE_sierra"))
                .args(["bench", "scene", "--frames", "3", "--size", "32x18"])
                .args(["--json", "--out"])
                .arg(&out_dir)
                .current_dir(tmp.path()),
        )
        .stdout,
    );
    let wall = started.elapsed();
    let plot = out_dir.join("bench_scene.png");
    assert_eq!(json["plot"], plot.display().to_string());
    // Start-up time by stage, and their total.
    assert_eq!(json["runs"].as_array().unwrap().len(), 1, "{json}");
    assert_eq!(json["runs"][0]["backend"], "gpu");
    let startup = json["runs"][0]["startup_ms"].as_object().unwrap();
    startup_stages::assert_stages(startup, wall);
    // The report is the printed JSON.
    assert_eq!(json::read(&out_dir.join("bench_scene.json")), json);
    // Nothing in the current folder but the output folder.
    let entries: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert_eq!(entries.len(), 1, "{entries:?}");
    let image = image::open(&plot).unwrap().to_rgb8();
    assert_eq!(image.dimensions(), (800, 400));
    let dark = |x0: u32, x1: u32, y0: u32, y1: u32| {
        (x0..x1)
            .flat_map(|x| (y0..y1).map(move |y| (x, y)))
            .filter(|&(x, y)| image.get_pixel(x, y).0.iter().all(|&c| c < 160))
            .count()
    };
    // The y axis's numbers and title left of the chart (x < 60), the x axis's title below it,
    // the caption above it, and the legend's names at the top right.
    let counts = [
        dark(0, 60, 40, 360),
        dark(300, 500, 372, 400),
        dark(250, 550, 0, 30),
        dark(600, 800, 30, 120),
    ];
    eprintln!("dark pixels: {counts:?}");
    assert!(counts[0] > 200, "no y-axis labels: {counts:?}");
    assert!(counts[1] > 20, "no x-axis title: {counts:?}");
    assert!(counts[2] > 100, "no caption: {counts:?}");
    assert!(counts[3] > 100, "no legend: {counts:?}");
}
