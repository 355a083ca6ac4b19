//! The headless build (`cargo build -p sierra --no-default-features`, docs/building.md) compiles
//! no window, overlay or sound-device stack: `cargo tree` of it names none of winit, egui, cpal
//! or ALSA. The default build, which has the window and the sound device, names every one of them
//! (the control: a check that reads the tree wrongly, or a feature that stops gating them, fails).

use std::collections::BTreeSet;
use std::process::Command;

/// Crates only the window (`window` feature) and the sound device (`audio-device`) bring in.
const WINDOW_AND_DEVICE_CRATES: [&str; 8] = [
    "winit",
    "notify",
    "egui",
    "egui-wgpu",
    "egui-winit",
    "cpal",
    "alsa",
    "alsa-sys",
];

/// Names of every package `sierra` is built from (normal and build dependencies, this host)
/// with the given extra `cargo tree` arguments.
fn dependency_names(extra: &[&str]) -> BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .current_dir(sierra_testkit::workspace_root())
        .args([
            "tree", "--locked", "-p", "sierra", "-e", "no-dev", "--prefix", "none",
        ])
        .args(["--format", "{p}"])
        .args(extra)
        .output()
        .expect("cargo tree runs");
    assert!(
        output.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .expect("cargo tree prints UTF-8")
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_headless_build_has_no_window_overlay_or_sound_device_crate() {
    let headless = dependency_names(&["--no-default-features"]);
    assert!(
        headless.contains("wgpu") && headless.contains("sierra_render"),
        "the tree was read: the headless build still renders ({} packages)",
        headless.len()
    );
    let present: Vec<&str> = WINDOW_AND_DEVICE_CRATES
        .into_iter()
        .filter(|name| headless.contains(*name))
        .collect();
    assert!(
        present.is_empty(),
        "the headless build compiles {present:?}; gate them behind the `window` or \
         `audio-device` feature"
    );
}

#[test]
fn the_default_build_has_the_window_and_the_sound_device() {
    let full = dependency_names(&[]);
    let missing: Vec<&str> = WINDOW_AND_DEVICE_CRATES
        .into_iter()
        // ALSA is the sound device on Linux only.
        .filter(|name| cfg!(target_os = "linux") || !name.starts_with("alsa"))
        .filter(|name| !full.contains(*name))
        .collect();
    assert!(missing.is_empty(), "the default build lacks {missing:?}");
}
