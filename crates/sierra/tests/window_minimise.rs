//! Window test under Xvfb (issue #44): `sierra demo --test-minimise` injects a 0 × 0 resize and
//! unmaps its window (Xvfb has no window manager to minimise with), stays hidden 5 s, maps and
//! restores itself, then asks for 100 resizes within a second. The run must keep going and exit
//! cleanly; while hidden the game keeps ticking at its fixed 60 Hz and the process uses at most
//! 5 % of one core (its CPU time from `/proc/self/stat`: a resource bound, not a timing); the
//! resident memory after the storm is within 10 % of before.

mod support;

use std::time::Duration;

/// The numbers after `key` on the line starting with `prefix`.
fn number_after(stdout: &str, prefix: &str, key: &str) -> f64 {
    let line = stdout
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line {prefix:?}:\n{stdout}"));
    let at = line
        .find(key)
        .unwrap_or_else(|| panic!("{key:?} not in {line:?}"))
        + key.len();
    line[at..]
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no number after {key:?} in {line:?}"))
}

#[test]
fn a_minimised_window_ticks_without_spinning_and_a_resize_storm_keeps_memory() {
    let args = [
        "demo",
        "--level",
        "assets/levels/platforms.json",
        "--frames",
        "60",
        "--size",
        "320x180",
        "--test-minimise",
    ];
    let Some((stdout, stderr)) = support::window_run_ok(
        support::SCREEN,
        args.iter().map(|a| {
            if a.ends_with(".json") {
                sierra_testkit::workspace_root().join(a).into_os_string()
            } else {
                a.into()
            }
        }),
        Duration::from_secs(120),
    ) else {
        return;
    };
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stdout.contains("resized to 0x0"), "{stdout}");
    let hidden = "test-minimise: hidden";
    let wall = number_after(&stdout, hidden, "hidden");
    let cpu = number_after(&stdout, hidden, "cpu");
    let ticks = number_after(&stdout, hidden, "ticks");
    eprintln!("hidden {wall} s: cpu {cpu} s, {ticks} ticks");
    assert!(wall >= 5.0, "{stdout}");
    assert!(
        cpu <= 0.05 * wall,
        "{cpu} s of CPU in {wall} s at 0x0: more than 5 % of a core"
    );
    // The fixed 60 Hz clock runs on: the ticks due in the wall time, less one for rounding.
    assert!(
        ticks >= (wall * 60.0).floor() - 1.0,
        "{ticks} ticks in {wall} s"
    );
    let before = number_after(&stdout, "test-minimise: rss before storm", "storm");
    let after = number_after(&stdout, "test-minimise: storm of", "rss after");
    eprintln!("rss before {before} KiB, after {after} KiB");
    assert!(
        before > 0.0 && after <= before * 1.1,
        "resident memory grew from {before} KiB to {after} KiB over the storm"
    );
    assert!(stdout.contains("window closed after "), "{stdout}");
}
