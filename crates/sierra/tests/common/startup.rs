//! The start-up stages every level run reports in `startup_ms` (stats.json, `bench scene --json`).

/// The stages, in the order a headless run goes through them.
pub const STAGES: [&str; 12] = [
    "level",
    "gameplay",
    "terrain_cpu",
    "crowd_bakes",
    "gpu_init",
    "pipelines",
    "mesh_upload",
    "terrain_upload",
    "water_upload",
    "sky_upload",
    "crowd_upload",
    "environment",
];

/// Asserts that `startup` has every stage (≥ 0 ms) and that `total` is their sum.
pub fn assert_stages_sum_to_total(startup: &serde_json::Map<String, serde_json::Value>) {
    for stage in STAGES {
        assert!(
            startup[stage].as_f64().unwrap() >= 0.0,
            "{stage}: {startup:?}"
        );
    }
    let sum: f64 = STAGES.iter().map(|s| startup[*s].as_f64().unwrap()).sum();
    let total = startup["total"].as_f64().unwrap();
    assert!((sum - total).abs() <= 1e-6 * sum.max(1.0), "{startup:?}");
}
