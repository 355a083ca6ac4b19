//! `sierra export-mannequin OUT.glb` as a subprocess: the file equals the built-in
//! bytes, and `sierra pose` on it prints the in-memory mannequin's poses.

use std::process::Command;

use sierra_testkit::json;
use sierra_testkit::process::{output_ok, stderr_of_clean_failure};

use sierra_gltf::builtin::mannequin;
use sierra_gltf::{pose, ClipSelector};

fn sierra() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sierra"))
}

#[test]
fn exported_mannequin_poses_equal_the_in_memory_ones() {
    let dir = std::env::temp_dir().join(format!("sierra_export_mannequin_{}", std::process::id()));
    let out = dir.join("sub/mannequin.glb");
    output_ok(sierra().arg("export-mannequin").arg(&out));
    assert_eq!(std::fs::read(&out).unwrap(), mannequin::glb());
    let asset = mannequin::load().unwrap();
    for (clip, t) in [
        ("walk", "0.3"),
        ("run", "0.5"),
        ("land", "0.2"),
        ("idle", "1.0"),
    ] {
        let mut pose_cmd = sierra();
        pose_cmd
            .arg("pose")
            .arg(&out)
            .args(["--clip", clip, "--time", t]);
        let printed = json::parse(&output_ok(&mut pose_cmd).stdout);
        let expected = pose::pose(
            &asset,
            &ClipSelector::Name(clip.into()),
            t.parse().unwrap(),
            0,
        )
        .unwrap()
        .to_json();
        assert!(json::approx_eq(&printed, &expected), "{clip} at {t}");
    }
    // An unknown clip is a clear error listing the clips, not a panic.
    let err = stderr_of_clean_failure(sierra().arg("pose").arg(&out).args(["--clip", "moonwalk"]));
    assert!(err.contains("moonwalk") && err.contains("walk"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
