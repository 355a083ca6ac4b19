//! Window test: runs `sierra demo` in a real window under Xvfb (`xvfb-run -a`)
//! as a subprocess (winit needs the main thread and one event loop per process),
//! renders at least 30 frames, resizes to 1x1 and back, and exits cleanly.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn window_renders_survives_resize_to_1x1_and_back_and_exits_cleanly() {
    let has_xvfb = Command::new("sh")
        .args(["-c", "command -v xvfb-run"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_xvfb {
        assert!(
            std::env::var_os("CI").is_none(),
            "xvfb-run is missing and CI is set (run scripts/setup.sh)"
        );
        eprintln!("skipping: xvfb-run not installed (apt-get install xvfb xauth)");
        return;
    }
    let runtime_dir = tempfile::tempdir().unwrap();
    let mut child = Command::new("xvfb-run")
        .args([
            "-a",
            "-s",
            "-screen 0 1024x768x24",
            env!("CARGO_BIN_EXE_sierra"),
        ])
        .args([
            "demo",
            "--frames",
            "40",
            "--size",
            "160x120",
            "--test-resize",
        ])
        .env(
            "WGPU_BACKEND",
            std::env::var("WGPU_BACKEND").unwrap_or_else(|_| "vulkan".into()),
        )
        .env("XDG_RUNTIME_DIR", runtime_dir.path())
        .env_remove("WAYLAND_DISPLAY")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("xvfb-run starts");
    let deadline = Instant::now() + Duration::from_secs(90);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the window run did not finish within 90 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "exit {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        stdout.contains("window: 160x120"),
        "no window opened:\n{stdout}"
    );
    let small = stdout
        .find("resized to 1x1")
        .unwrap_or_else(|| panic!("never 1x1:\n{stdout}"));
    assert!(
        stdout[small..].contains("resized to 160x120"),
        "never resized back:\n{stdout}"
    );
    let frames: u64 = stdout
        .lines()
        .find_map(|l| l.strip_prefix("window closed after "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no frame count:\n{stdout}"));
    assert!(frames >= 30, "only {frames} frames");
}
