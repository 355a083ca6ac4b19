//! The start-up stages every level run reports in `startup_ms` (stats.json, `bench scene --json`).

use std::time::Duration;

use serde_json::{Map, Value};

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

/// Stages that do real work in every run (open a device, build pipelines, read the level), so
/// they must have taken some time: a stage that was never timed reports 0.
const ALWAYS_WORK: [&str; 3] = ["level", "gpu_init", "pipelines"];

/// Checks `startup` against `wall`, the wall-clock time the test measured around the whole
/// run (an independent clock): every stage is there, finite and ≥ 0 ms, the stages that always
/// work took some time, `total` is their sum, and that sum fits within `wall` (stages that
/// overlap, count twice, or report microseconds as milliseconds do not).
pub fn check_stages(startup: &Map<String, Value>, wall: Duration) -> Result<(), String> {
    let mut sum = 0.0;
    for stage in STAGES {
        let ms = startup
            .get(stage)
            .and_then(Value::as_f64)
            .ok_or_else(|| format!("no stage {stage}: {startup:?}"))?;
        if !(ms.is_finite() && ms >= 0.0) {
            return Err(format!("{stage}: {ms} ms"));
        }
        if ALWAYS_WORK.contains(&stage) && ms <= 0.0 {
            return Err(format!("{stage} took no time: never timed? {startup:?}"));
        }
        sum += ms;
    }
    let total = startup
        .get("total")
        .and_then(Value::as_f64)
        .ok_or_else(|| format!("no total: {startup:?}"))?;
    if (sum - total).abs() > 1e-6 * sum.max(1.0) {
        return Err(format!("total {total} ms is not the stages' sum {sum} ms"));
    }
    let wall_ms = wall.as_secs_f64() * 1e3;
    if total > wall_ms {
        return Err(format!(
            "the stages add up to {total} ms, more than the {wall_ms} ms the whole run took"
        ));
    }
    Ok(())
}

/// Asserts [`check_stages`], then its negative controls: the same report in microseconds
/// (every stage ×1000), without a stage, with a stage that always works at 0, or with a wrong
/// total, fails it.
pub fn assert_stages(startup: &Map<String, Value>, wall: Duration) {
    check_stages(startup, wall).unwrap_or_else(|e| panic!("{e}"));
    let doctored = |edit: &dyn Fn(&mut Map<String, Value>)| {
        let mut copy = startup.clone();
        edit(&mut copy);
        check_stages(&copy, wall)
    };
    let micro = doctored(&|m| {
        for v in m.values_mut() {
            *v = Value::from(v.as_f64().unwrap() * 1e3);
        }
    });
    assert!(micro.is_err(), "control: µs reported as ms passed");
    assert!(doctored(&|m| drop(m.remove("pipelines"))).is_err());
    assert!(doctored(&|m| {
        let p = m["pipelines"].as_f64().unwrap();
        m["pipelines"] = Value::from(0.0);
        m["total"] = Value::from(m["total"].as_f64().unwrap() - p);
    })
    .is_err());
    assert!(doctored(&|m| m["total"] = Value::from(m["total"].as_f64().unwrap() + 1.0)).is_err());
}
