//! A GPU command run without `XDG_RUNTIME_DIR` (or with an invalid one) prints no Mesa
//! runtime-dir error: `main` makes a private runtime folder before anything starts.

use std::process::Command;

fn render_without(runtime_dir: Option<&str>) -> (bool, String) {
    let out_dir = tempfile::tempdir().unwrap();
    let level = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../assets/levels/platforms.json"
    );
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sierra"));
    cmd.args(["render", level, "--frames", "1", "--size", "32x32", "--out"])
        .arg(out_dir.path().join("out"))
        .env_remove("XDG_RUNTIME_DIR");
    if let Some(dir) = runtime_dir {
        cmd.env("XDG_RUNTIME_DIR", dir);
    }
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.success(), stderr)
}

#[test]
fn a_gpu_command_without_a_runtime_dir_prints_no_mesa_error() {
    for dir in [None, Some("relative/not-a-dir"), Some("/")] {
        let (ok, stderr) = render_without(dir);
        assert!(ok, "XDG_RUNTIME_DIR={dir:?}: {stderr}");
        assert!(
            !stderr.contains("XDG_RUNTIME_DIR"),
            "XDG_RUNTIME_DIR={dir:?} printed:\n{stderr}"
        );
    }
}
