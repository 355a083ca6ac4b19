//! `sierra export-mannequin OUT.glb` as a subprocess: the file equals the built-in
//! bytes, and `sierra pose` on it prints the in-memory mannequin's poses.

use std::process::Command;

use sierra_gltf::builtin::mannequin;
use sierra_gltf::{pose, ClipSelector};

fn sierra(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sierra"))
        .args(args)
        .output()
        .unwrap()
}

fn close(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value::*;
    match (a, b) {
        (Number(x), Number(y)) => {
            (x.as_f64().unwrap() - y.as_f64().unwrap()).abs()
                <= 1e-6 * (1.0 + y.as_f64().unwrap().abs())
        }
        (Array(x), Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| close(x, y)),
        (Object(x), Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| close(v, w)))
        }
        _ => a == b,
    }
}

#[test]
fn exported_mannequin_poses_equal_the_in_memory_ones() {
    let dir = std::env::temp_dir().join(format!("sierra_export_mannequin_{}", std::process::id()));
    let out = dir.join("sub/mannequin.glb");
    let o = sierra(&["export-mannequin", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(&out).unwrap(), mannequin::glb());
    let asset = mannequin::load().unwrap();
    for (clip, t) in [
        ("walk", "0.3"),
        ("run", "0.5"),
        ("land", "0.2"),
        ("idle", "1.0"),
    ] {
        let o = sierra(&["pose", out.to_str().unwrap(), "--clip", clip, "--time", t]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let printed: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let expected = pose::pose(
            &asset,
            &ClipSelector::Name(clip.into()),
            t.parse().unwrap(),
            0,
        )
        .unwrap()
        .to_json();
        assert!(close(&printed, &expected), "{clip} at {t}");
    }
    // An unknown clip is a clear error listing the clips, not a panic.
    let o = sierra(&["pose", out.to_str().unwrap(), "--clip", "moonwalk"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && err.contains("moonwalk") && err.contains("walk"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
