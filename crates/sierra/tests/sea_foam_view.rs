//! The sea's foam view in the demo itself (issue #49): `sierra demo --headless --size 960x540
//! --debug-view foam` draws the foam mask (`DebugView::Foam`: the foam's coverage, grey on
//! black, nothing else), here and with the sea as drawn before issue #49
//! (`--test-sea-legacy`). The frames stay in `$CARGO_TARGET_TMPDIR/sea_foam_view_*/`.

use std::path::PathBuf;
use std::process::Command;

use glam::Vec2;

/// The demo's first 13 frames at 960×540 with `view` (e.g. `--debug-view foam`) into a fresh
/// folder `name`, with the pre-#49 sea when `legacy`; returns frame 12's red channel (linear,
/// 0..1, row-major) and its width.
fn foam_view(name: &str, view: &[&str], legacy: bool) -> (Vec<f32>, usize) {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&out);
    let mut args = vec![
        "demo",
        "--headless",
        "--mute",
        "--size",
        "960x540",
        "--frames",
        "13",
    ];
    args.extend_from_slice(view);
    args.push("--out");
    let out_arg = out.to_string_lossy().into_owned();
    args.push(&out_arg);
    if legacy {
        args.push("--test-sea-legacy");
    }
    let run = Command::new(env!("CARGO_BIN_EXE_sierra"))
        .args(&args)
        .output()
        .expect("running sierra");
    assert!(
        run.status.success(),
        "sierra {args:?} failed:\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let image = image::open(out.join("frame_0012.png")).unwrap().to_rgb8();
    let mask = image.pixels().map(|p| linear(p[0])).collect();
    (mask, image.width() as usize)
}

/// Linear value of an sRGB-encoded byte.
fn linear(c: u8) -> f32 {
    let c = f32::from(c) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// Hard-edge pixels of `mask` (`w` wide): foam pixels (above 0.5) where a 4-neighbour is at
/// least 0.5 lower. A soft edge ramps over more than one pixel and has none.
fn hard_edges(mask: &[f32], w: usize) -> Vec<bool> {
    let h = mask.len() / w;
    (0..mask.len())
        .map(|i| {
            let (x, y) = (i % w, i / w);
            let lower = |j: usize| mask[i] - mask[j] >= 0.5;
            mask[i] > 0.5
                && ((x > 0 && lower(i - 1))
                    || (x + 1 < w && lower(i + 1))
                    || (y > 0 && lower(i - w))
                    || (y + 1 < h && lower(i + w)))
        })
        .collect()
}

/// Boundary pixels of the mask `foam` (`w` wide, row-major): foam pixels with a 4-neighbour
/// that is not foam.
fn boundary(foam: &[bool], w: usize) -> Vec<bool> {
    let h = foam.len() / w;
    (0..foam.len())
        .map(|i| {
            let (x, y) = (i % w, i / w);
            foam[i]
                && ((x > 0 && !foam[i - 1])
                    || (x + 1 < w && !foam[i + 1])
                    || (y > 0 && !foam[i - w])
                    || (y + 1 < h && !foam[i + w]))
        })
        .collect()
}

/// The longest straight run of boundary pixels: its length in pixels, first pixel (x, y) and
/// direction (degrees). From each boundary pixel, steps of one pixel in each of 128
/// directions (rounded to the nearest pixel) while they stay on the boundary; a polygon's edge
/// is such a run along its whole length.
fn longest_straight_run(edge: &[bool], w: usize) -> (usize, usize, usize, f32) {
    let h = edge.len() / w;
    let directions: Vec<Vec2> = (0..128)
        .map(|k| {
            let a = k as f32 * std::f32::consts::PI / 128.0;
            Vec2::new(a.cos(), a.sin())
        })
        .collect();
    let mut longest = (0, 0, 0, 0.0);
    for (i, _) in edge.iter().enumerate().filter(|(_, e)| **e) {
        let start = Vec2::new((i % w) as f32, (i / w) as f32);
        for d in &directions {
            let mut run = 1;
            loop {
                let p = (start + *d * run as f32).round();
                if p.x < 0.0 || p.y < 0.0 || p.x >= w as f32 || p.y >= h as f32 {
                    break;
                }
                if !edge[p.y as usize * w + p.x as usize] {
                    break;
                }
                run += 1;
            }
            if run > longest.0 {
                longest = (run, i % w, i / w, d.y.atan2(d.x).to_degrees());
            }
        }
    }
    longest
}

/// The foam view shows the foam alone: on the beach frame the sky's rows (the top 100) are
/// black and there is foam (over 2,000 pixels above half coverage); the lit frame (no debug
/// view), the control, has a sky there. Prints, for the closing note of issue #49, how straight
/// the foam's edges are now and with the pre-#49 sea (`--test-sea-legacy`): the longest
/// straight run of hard-edge pixels (a step of half the range to a neighbour) and of the
/// half-coverage line (`longest_straight_run`). Neither is asserted: on this frame both seas
/// have no hard edge and a half-coverage line with straight runs of about 28 px (issue #49's
/// "no straight run over 8 px" is not met; `docs/rendering.md`).
#[test]
fn the_foam_view_shows_the_foam_alone() {
    for (name, legacy) in [("sea_foam_view_now", false), ("sea_foam_view_legacy", true)] {
        let (mask, w) = foam_view(name, &["--debug-view", "foam"], legacy);
        let foam = mask.iter().filter(|m| **m > 0.5).count();
        let hard = hard_edges(&mask, w);
        let (hard_run, ..) = longest_straight_run(&hard, w);
        let half: Vec<bool> = mask.iter().map(|m| *m > 0.5).collect();
        let (half_run, x, y, angle) = longest_straight_run(&boundary(&half, w), w);
        println!(
            "legacy {legacy}: {foam} foam pixels; longest straight hard edge {hard_run} px; \
             longest straight run of the half-coverage line {half_run} px from ({x}, {y}) at \
             {angle:.0} deg"
        );
        if !legacy {
            let sky = mask[..100 * w].iter().fold(0.0f32, |a, m| a.max(*m));
            assert_eq!(sky, 0.0, "the foam view draws something in the sky's rows");
            assert!(foam > 2000, "only {foam} foam pixels");
        }
    }
    let (lit, w) = foam_view("sea_foam_view_lit", &[], false);
    let sky = lit[..100 * w].iter().fold(0.0f32, |a, m| a.max(*m));
    assert!(sky > 0.1, "the control (lit frame) has no sky: {sky}");
}
