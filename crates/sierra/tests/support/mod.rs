//! Shared by the window tests: runs the `sierra` binary in a window under Xvfb.

use std::ffi::OsStr;
use std::os::unix::process::CommandExt;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The screen the window tests run on unless they need another.
pub const SCREEN: &str = "1024x768";

/// Runs `sierra ARGS…` under `xvfb-run -a` on a screen of `screen` pixels (`"WIDTHxHEIGHT"`,
/// 24-bit colour; e.g. [`SCREEN`]), on lavapipe unless `WGPU_BACKEND` says otherwise, with a
/// private `XDG_RUNTIME_DIR`, and waits up to `timeout` for it to exit; the run must exit 0.
/// Returns its stdout and stderr as text, or `None` when `xvfb-run` is not installed, after a
/// `xvfb-run` skip (`sierra_testkit::skip`; a failure under CI), so the caller returns at once. Panics (the test fails) when the run
/// outlasts `timeout` or exits with an error (its output in the message).
pub fn window_run_ok<I, S>(screen: &str, args: I, timeout: Duration) -> Option<(String, String)>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let out = window_run(screen, args, timeout)?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "exit {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    Some((stdout, stderr))
}

/// As [`window_run_ok`], whatever the exit: returns the whole output (status, stdout, stderr).
pub fn window_run<I, S>(screen: &str, args: I, timeout: Duration) -> Option<Output>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    if !sierra_testkit::skip::program_or_skip("xvfb-run", sierra_testkit::skip::Reason::XvfbRun) {
        return None;
    }
    let runtime_dir = tempfile::tempdir().unwrap();
    let mut child = Command::new("xvfb-run")
        .args([
            "-a",
            "-s",
            &format!("-screen 0 {screen}x24"),
            env!("CARGO_BIN_EXE_sierra"),
        ])
        .args(args)
        .env(
            "WGPU_BACKEND",
            std::env::var("WGPU_BACKEND").unwrap_or_else(|_| "vulkan".into()),
        )
        .env("XDG_RUNTIME_DIR", runtime_dir.path())
        .env_remove("WAYLAND_DISPLAY")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own process group, so a timed-out run is killed whole (xvfb-run, Xvfb and
        // sierra), not left running to slow every later test.
        .process_group(0)
        .spawn()
        .expect("xvfb-run starts");
    let deadline = Instant::now() + timeout;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let group = -(child.id() as i32);
            // SAFETY: kill(2) with a negative pid signals that process group; no memory involved.
            unsafe { libc::kill(group, libc::SIGKILL) };
            let _ = child.wait();
            panic!("the window run did not finish within {timeout:?}");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Some(child.wait_with_output().unwrap())
}
