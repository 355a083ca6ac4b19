//! `stats.json`'s `gpu_memory`: a level's meshes and textures take the bytes Sierra's accounting
//! reports. Two levels differ only in their objects, so the difference of their reports is what
//! those objects uploaded: cubes that share a mesh (whatever their materials) add one cube's
//! vertex and index bytes; a built-in normal map adds its mip chain.

use std::path::Path;
use std::process::Command;

use sierra_testkit::json;
use sierra_testkit::process::output_ok;

const CAMERA: &str = r#""camera": {"position": [0, 2, 6], "target": [0, 0, 0]}"#;

/// Renders `objects` (a JSON array) for one 32x18 frame; returns `stats.json`'s `gpu_memory`.
fn gpu_memory(dir: &Path, name: &str, objects: &str) -> serde_json::Value {
    let level = dir.join(format!("{name}.json"));
    std::fs::write(&level, format!("{{{CAMERA}, \"objects\": {objects}}}")).unwrap();
    let out = dir.join(name);
    output_ok(
        Command::new(env!("CARGO_BIN_EXE_sierra"))
            .arg("render")
            .arg(&level)
            .args(["--frames", "1", "--size", "32x18", "--out"])
            .arg(&out),
    );
    json::read(&out.join("stats.json"))["gpu_memory"].clone()
}

fn bytes(memory: &serde_json::Value, class: &str) -> i64 {
    memory[class]
        .as_i64()
        .unwrap_or_else(|| panic!("{class}: {memory}"))
}

#[test]
fn a_levels_meshes_and_textures_report_the_bytes_they_take() {
    let tmp = tempfile::tempdir().unwrap();
    let empty = gpu_memory(tmp.path(), "empty", "[]");
    let cubes = gpu_memory(
        tmp.path(),
        "cubes",
        r#"[{"name": "a", "mesh": "cube", "material": {"baseColor": [1, 0, 0]}},
            {"name": "b", "position": [2, 0, 0], "mesh": "cube", "material": {"baseColor": [0, 1, 0]}}]"#,
    );
    // One unit cube: 24 vertices of 64 bytes (position, normal, uv, tangent, colour) and 36
    // u32 indices, however many objects draw it.
    assert_eq!(
        bytes(&cubes, "meshes") - bytes(&empty, "meshes"),
        24 * 64 + 36 * 4,
        "{empty} {cubes}"
    );
    assert_eq!(bytes(&cubes, "textures"), bytes(&empty, "textures"));
    let bumpy = gpu_memory(
        tmp.path(),
        "bumpy",
        r#"[{"name": "a", "mesh": "cube", "material": {"normalMap": "builtin:bumps"}}]"#,
    );
    let added = bytes(&bumpy, "textures") - bytes(&empty, "textures");
    // A square RGBA8 normal map with its full mip chain: 4 bytes × (4/3 of the top level,
    // rounded down per level); its side is a power of two between 64 and 1024.
    let chain = |side: i64| {
        (0..=side.trailing_zeros())
            .map(|l| (side >> l).pow(2) * 4)
            .sum::<i64>()
    };
    assert!(
        (6..=10).map(|p| chain(1 << p)).any(|c| c == added),
        "a normal map added {added} bytes"
    );
    for m in [&empty, &cubes, &bumpy] {
        let sum: i64 = [
            "meshes",
            "textures",
            "render_targets",
            "storage",
            "uniforms",
            "other",
        ]
        .iter()
        .map(|c| bytes(m, c))
        .sum();
        assert_eq!(sum, bytes(m, "total"));
        assert!(bytes(m, "render_targets") >= 32 * 18 * (8 + 4 + 8), "{m}");
    }
}
