//! A GPU command run without `XDG_RUNTIME_DIR` (or with an invalid one) prints no Mesa
//! runtime-dir error: `main` makes a private runtime folder before anything starts.
//!
//! Negative control: the same GPU start without the fix (this test binary opening a GPU
//! context itself, in a child process without `XDG_RUNTIME_DIR`) does print Mesa's error, so
//! the silence of `sierra` is the fix's doing, not a driver that never complains.

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

/// Mesa's complaint without a runtime directory.
const MESA_ERROR: &str = "XDG_RUNTIME_DIR is invalid or not set";

/// The control's child: opens a GPU context as `sierra` does, without
/// `ensure_private_runtime_dir`. Run by the test below in a child process (it needs its own
/// environment); ignored on its own.
#[test]
#[ignore = "the negative control's child process, run by a_gpu_command_without_a_runtime_dir_prints_no_mesa_error"]
fn control_child_opens_a_gpu_context_without_the_fix() {
    sierra_render::GpuContext::headless().unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn a_gpu_command_without_a_runtime_dir_prints_no_mesa_error() {
    // The control: without the fix, Mesa complains.
    let control = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "control_child_opens_a_gpu_context_without_the_fix",
        ])
        .args(["--ignored", "--nocapture", "--test-threads=1"])
        .env_remove("XDG_RUNTIME_DIR")
        .output()
        .unwrap();
    let control_err = String::from_utf8_lossy(&control.stderr).into_owned()
        + &String::from_utf8_lossy(&control.stdout);
    assert!(control.status.success(), "control child: {control_err}");
    assert!(
        control_err.contains(MESA_ERROR),
        "without the fix the GPU start should print Mesa's error; it printed:\n{control_err}"
    );

    for dir in [None, Some("relative/not-a-dir"), Some("/")] {
        let (ok, stderr) = render_without(dir);
        assert!(ok, "XDG_RUNTIME_DIR={dir:?}: {stderr}");
        assert!(
            !stderr.contains(MESA_ERROR) && !stderr.contains("XDG_RUNTIME_DIR"),
            "XDG_RUNTIME_DIR={dir:?} printed:\n{stderr}"
        );
    }
}
