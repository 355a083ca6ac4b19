//! Window test: runs `sierra demo` in a real window under Xvfb (`xvfb-run -a`)
//! as a subprocess (winit needs the main thread and one event loop per process),
//! renders at least 30 frames, resizes to 1x1 and back, and exits cleanly.

mod support;

use std::time::Duration;

#[test]
fn window_renders_survives_resize_to_1x1_and_back_and_exits_cleanly() {
    let args = [
        "demo",
        "--frames",
        "40",
        "--size",
        "160x120",
        "--test-resize",
    ];
    let Some((stdout, stderr)) =
        support::window_run_ok(support::SCREEN, args, Duration::from_secs(90))
    else {
        return;
    };
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
