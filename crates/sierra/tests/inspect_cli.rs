//! `sierra inspect`: the node tree of the platforms level as JSON; bad levels exit non-zero
//! with the file and JSON path in the message.

use std::path::PathBuf;
use std::process::Command;

use sierra_testkit::json;
use sierra_testkit::process::{output_ok, stderr_of_clean_failure};

fn sierra() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sierra"))
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn inspect_prints_the_node_tree() {
    let tree = json::parse(
        &output_ok(
            sierra()
                .arg("inspect")
                .arg(repo().join("assets/levels/platforms.json"))
                .args(["--ticks", "60"]),
        )
        .stdout,
    );
    assert_eq!(tree["nodeCount"], 5);
    let nodes = tree["nodes"].as_array().unwrap();
    let right = nodes.iter().find(|n| n["name"] == "PlatformRight").unwrap();
    assert_eq!(right["components"][0]["type"], "Spinner");
    let beacon = nodes.iter().find(|n| n["name"] == "Beacon").unwrap();
    assert_eq!(beacon["parent"], right["index"]);
    assert_eq!(beacon["depth"], 1);
    // After 60 ticks at 90°/s the beacon (0.875 m along the platform's tilted +X) has
    // swung a quarter turn about the platform's Y axis: x ≈ 4, z ≈ -0.86.
    let p: Vec<f64> = beacon["worldPosition"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert!((p[0] - 4.0).abs() < 0.2 && p[2] < -0.5, "{p:?}");
}

#[test]
fn inspect_bad_level_is_an_error_naming_file_and_path() {
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("bad.json");
    std::fs::write(
        &level,
        r#"{"objects": [{"name": "A", "components": [{"type": "Lamp"}]}]}"#,
    )
    .unwrap();
    let err = stderr_of_clean_failure(sierra().arg("inspect").arg(&level));
    assert!(
        err.contains("bad.json")
            && err.contains("objects[0].components[0]")
            && err.contains("PointLight"),
        "{err}"
    );
}
