//! Issue #47 must-show 1: the authoring loop in a window (Xvfb). A copy of
//! `assets/levels/platforms.json` in a temporary folder runs in a window, paused by its key track
//! after a screenshot; while it runs the test recolours `PlatformCenter` in the file (and moves
//! the file's camera), waits for the `reloaded` line and the screenshot taken after it: the
//! platform shows the new colour and every pixel away from it is as before (the running camera
//! and the paused clock were kept). Then it
//! writes invalid JSON: the window keeps running, its stderr names the file and line:column;
//! fixing the file applies the fix. Also `sierra view MODEL --window` reloading its model.

mod support;

use std::path::Path;
use std::time::Duration;

use image::RgbaImage;

/// The platform recoloured, its colour in the shipped level.
const GREEN: &str = r#""baseColor": [0.2, 0.7, 0.3]"#;

/// The level camera's position in the shipped level.
const CAMERA: &str = r#""position": [0, 6, 12]"#;

/// How long one step (start-up, a reload, a screenshot) may take on lavapipe.
const STEP: Duration = Duration::from_secs(120);

/// Pixels that look `hue`: `"magenta"` (red and blue well over green) or `"cyan"` (green and
/// blue well over red). None of the shipped level's colours is either.
fn count_hue(image: &RgbaImage, hue: &str) -> usize {
    image
        .pixels()
        .filter(|p| {
            let [r, g, b, _] = p.0.map(i32::from);
            match hue {
                "magenta" => r > g + 60 && b > g + 60,
                "cyan" => g > r + 60 && b > r + 60,
                _ => unreachable!(),
            }
        })
        .count()
}

/// Whether a pixel lies within `margin` pixels of the box around `image`'s `hue` pixels.
fn near_hue(image: &RgbaImage, hue: &str, margin: u32) -> impl Fn(u32, u32) -> bool {
    let single = |x, y| {
        let mut one = RgbaImage::new(1, 1);
        one.put_pixel(0, 0, *image.get_pixel(x, y));
        count_hue(&one, hue) == 1
    };
    let mut min = (u32::MAX, u32::MAX);
    let mut max = (0, 0);
    for (x, y, _) in image.enumerate_pixels() {
        if single(x, y) {
            min = (min.0.min(x), min.1.min(y));
            max = (max.0.max(x), max.1.max(y));
        }
    }
    move |x, y| {
        x + margin >= min.0 && x <= max.0 + margin && y + margin >= min.1 && y <= max.1 + margin
    }
}

/// Pixels that differ between `a` and `b` by more than 2 in some channel.
fn changed_pixels(a: &RgbaImage, b: &RgbaImage) -> Vec<(u32, u32)> {
    a.enumerate_pixels()
        .filter(|(x, y, p)| {
            let q = b.get_pixel(*x, *y);
            p.0.iter().zip(q.0).any(|(&u, v)| u.abs_diff(v) > 2)
        })
        .map(|(x, y, _)| (x, y))
        .collect()
}

/// The screenshots written so far, oldest first.
fn screenshots(dir: &Path) -> Vec<RgbaImage> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "png"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| image::open(p).unwrap().to_rgba8())
        .collect()
}

#[test]
fn an_edited_level_reloads_in_the_running_window_and_a_broken_edit_keeps_it_running() {
    let dir = tempfile::tempdir().unwrap();
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/platforms.json");
    let original = std::fs::read_to_string(shipped).unwrap();
    assert_eq!(original.matches(GREEN).count(), 1, "the level changed");
    let level = dir.path().join("platforms.json");
    std::fs::write(&level, &original).unwrap();
    // Pause at tick 2 (the spinners stop), screenshot at tick 5.
    let track = dir.path().join("track.json");
    std::fs::write(
        &track,
        r#"{"presses": [{"key": "Enter", "tick": 2}, {"key": "P", "tick": 5}]}"#,
    )
    .unwrap();
    let shots = dir.path().join("shots");
    let args = [
        "demo".as_ref(),
        "--size".as_ref(),
        "320x180".as_ref(),
        "--mute".as_ref(),
        "--frames".as_ref(),
        "100000".as_ref(),
        "--test-screenshot-on-reload".as_ref(),
        "--level".as_ref(),
        level.as_os_str(),
        "--input".as_ref(),
        track.as_os_str(),
        "--screenshot-dir".as_ref(),
        shots.as_os_str(),
    ];
    let Some(mut window) = support::spawn_window(support::SCREEN, args) else {
        return;
    };
    window.wait_for("screenshot:", 1, false, STEP);

    // A good edit: the centre platform turns magenta, and the file's camera rises by 1 m (the
    // running camera is kept: an author's view does not jump on a save).
    assert_eq!(original.matches(CAMERA).count(), 1, "the level changed");
    let magenta = original
        .replace(GREEN, r#""baseColor": [0.9, 0.05, 0.8]"#)
        .replace(CAMERA, r#""position": [0, 7, 12]"#);
    std::fs::write(&level, &magenta).unwrap();
    window.wait_for("reloaded ", 1, false, STEP);
    window.wait_for("screenshot:", 2, false, STEP);
    let shown = screenshots(&shots);
    let (before, after) = (&shown[0], &shown[1]);
    assert_eq!(
        count_hue(before, "magenta"),
        0,
        "control: no magenta before"
    );
    let recoloured = count_hue(after, "magenta");
    assert!(
        recoloured > 100,
        "{recoloured} magenta pixels after the reload"
    );
    // Away from the platform nothing moved (camera and clock kept): no pixel changed outside
    // the recoloured pixels' box grown by the reach of the platform's bloom glow (about 25 px
    // here); that far region is most of the image, so the check covers the view.
    let near = near_hue(after, "magenta", 32);
    let (w, h) = after.dimensions();
    let far = (0..w * h).filter(|i| !near(i % w, i / w)).count();
    assert!(
        far * 10 > (w * h) as usize * 7,
        "only {far} pixels away from the platform"
    );
    let far_changes = changed_pixels(before, after)
        .into_iter()
        .filter(|&(x, y)| !near(x, y))
        .count();
    assert_eq!(
        far_changes, 0,
        "pixels away from the platform changed: the view moved"
    );
    assert!(
        window.stdout().contains(&format!(
            "reloaded {}",
            level.canonicalize().unwrap().display()
        )),
        "{}",
        window.stdout()
    );

    // A broken edit: a missing comma on the platform's line.
    let line = magenta
        .lines()
        .position(|l| l.contains("0.9, 0.05, 0.8"))
        .unwrap()
        + 1;
    std::fs::write(&level, magenta.replace("0.9, 0.05, 0.8", "0.9, 0.05 0.8")).unwrap();
    window.wait_for("reload failed", 1, true, STEP);
    let stderr = window.stderr();
    let place = format!("platforms.json:{line}:");
    assert!(stderr.contains(&place), "no `{place}` in:\n{stderr}");
    let column = stderr
        .split(&place)
        .nth(1)
        .unwrap()
        .split(':')
        .next()
        .unwrap();
    assert!(
        column.parse::<u32>().is_ok(),
        "no column after `{place}`:\n{stderr}"
    );
    assert!(window.running(), "the window ended on the broken edit");

    // The fix applies: cyan now.
    let cyan = original.replace(GREEN, r#""baseColor": [0.05, 0.8, 0.9]"#);
    std::fs::write(&level, cyan).unwrap();
    window.wait_for("reloaded ", 2, false, STEP);
    window.wait_for("screenshot:", 3, false, STEP);
    let fixed = &screenshots(&shots)[2];
    assert!(count_hue(fixed, "cyan") > 100, "the fix did not apply");
    assert_eq!(count_hue(fixed, "magenta"), 0);
    assert_eq!(
        count_hue(after, "cyan"),
        0,
        "control: no cyan before the fix"
    );
}

/// `sierra view MODEL --window` follows its model too: overwriting the `.glb` reloads it, a
/// broken file is refused naming it while the viewer keeps running, and the good file again
/// reloads.
#[test]
fn the_viewer_reloads_its_model_and_survives_a_broken_one() {
    let dir = tempfile::tempdir().unwrap();
    let shipped =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/models/mannequin.glb");
    let glb = std::fs::read(shipped).unwrap();
    let model = dir.path().join("model.glb");
    std::fs::write(&model, &glb).unwrap();
    let out = dir.path().join("out");
    let args = [
        "view".as_ref(),
        model.as_os_str(),
        "--window".as_ref(),
        "--size".as_ref(),
        "96x96".as_ref(),
        "--out".as_ref(),
        out.as_os_str(),
    ];
    let Some(mut window) = support::spawn_window(support::SCREEN, args) else {
        return;
    };
    window.wait_for("viewer:", 1, false, STEP);
    std::fs::write(&model, &glb).unwrap();
    window.wait_for("reloaded ", 1, false, STEP);
    std::fs::write(&model, &glb[..glb.len() / 2]).unwrap();
    window.wait_for("reload failed", 1, true, STEP);
    assert!(window.stderr().contains("model.glb"), "{}", window.stderr());
    assert!(window.running(), "the viewer ended on the broken model");
    std::fs::write(&model, &glb).unwrap();
    window.wait_for("reloaded ", 2, false, STEP);
}
