//! `sierra bench crowd`: the JSON report has one row per count with CPU and GPU figures and the
//! adapter type; a bad count is a clear error, not a panic. (Timings are reported, never judged.)

use std::process::{Command, Output};

fn sierra(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sierra"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("running sierra: {e}"))
}

#[test]
fn bench_crowd_reports_every_count_as_json() {
    let out = sierra(&[
        "bench",
        "crowd",
        "--instances",
        "4,8",
        "--frames",
        "1",
        "--size",
        "32x32",
        "--json",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    assert!(json["adapter_type"].as_str().is_some_and(|t| !t.is_empty()));
    let rows = json["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["instances"], 4);
    assert_eq!(rows[1]["instances"], 8);
    // Twice the instances, twice the triangles: every instance is drawn.
    let tris = |r: &serde_json::Value| r["triangles"].as_u64().unwrap_or(0);
    assert!(tris(&rows[0]) > 0 && tris(&rows[1]) == 2 * tris(&rows[0]));
    for r in rows {
        let cpu = r["cpu_ms_per_frame"].as_f64().unwrap_or(-1.0);
        assert!(cpu.is_finite() && cpu > 0.0, "{r}");
    }
}

#[test]
fn bench_crowd_rejects_a_bad_count() {
    let out = sierra(&["bench", "crowd", "--instances", "10,many"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("many") && !stderr.contains("panicked"),
        "{stderr}"
    );
}
