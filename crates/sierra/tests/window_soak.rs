//! Memory soak (#10.5): 2,000 headless frames of the demo at 64x64; the resident set size at
//! the end is within 5 % of frame 200. Takes minutes on the software rasteriser, so it is out
//! of the default run:
//! `WGPU_BACKEND=vulkan cargo test --release -p sierra --test window_soak -- --ignored --nocapture`
//! (or `sierra bench soak`).

use std::path::Path;

use sierra::cli::bench::soak::{rss_kib, soak, MAX_GROWTH};
use sierra::cli::demo::DEMO_LEVEL;

#[test]
fn rss_is_read_from_proc() {
    let before = rss_kib().unwrap();
    // Touch 64 MiB: the resident set must grow by about that much.
    let block = vec![1u8; 64 << 20];
    let after = rss_kib().unwrap();
    assert!(std::hint::black_box(&block)
        .iter()
        .step_by(4096)
        .all(|&b| b == 1));
    assert!(after >= before + 60 * 1024, "{before} KiB -> {after} KiB");
}

#[test]
#[ignore = "minutes on lavapipe: run with --ignored (documented in the README)"]
fn demo_2000_frames_at_64x64_does_not_grow() {
    let report = soak(Path::new(DEMO_LEVEL), 2000, 64, 64).unwrap();
    println!("{report:?} growth {:+.2} %", report.growth() * 100.0);
    assert!(report.growth() <= MAX_GROWTH, "{report:?}");
}
