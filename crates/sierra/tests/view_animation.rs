//! `sierra view` plays node animation (models without skins: BoxAnimated, AnimatedCube,
//! AnimatedTriangle, InterpolationTest write frames that differ over their clips; BoxAnimated's
//! frames rank its inner box's height as its translation keys do; AnimatedCube's and
//! AnimatedTriangle's look alike exactly where their keyed turns agree) and frames the
//! bounds of the whole clip: RiggedSimple, RecursiveSkeletons and MorphPrimitivesTest never touch
//! the image border in any frame (the model's projected bounds stay inside the frame); lit
//! frames stand the model on a ground plane that receives the model's sun shadow (darker ground
//! near the model, for Fox, whose size is far beyond the game's shadow distance).

use std::path::Path;
use std::process::Command;

use sierra_testkit::process::output_ok;

const SIZE: u32 = 96;
const FRAMES: usize = 8;

/// Runs `sierra view` on shared model `relative` (with `extra` arguments) and returns its frames.
fn view(relative: &str, out: &Path, extra: &[&str]) -> Option<Vec<image::RgbaImage>> {
    let path = sierra_testkit::shared_asset(relative)?;
    output_ok(
        Command::new(env!("CARGO_BIN_EXE_sierra"))
            .arg("view")
            .arg(&path)
            .args(["--frames", &FRAMES.to_string()])
            .args(extra)
            .args(["--size", &format!("{SIZE}x{SIZE}"), "--out"])
            .arg(out),
    );
    Some(
        (0..FRAMES)
            .map(|f| {
                image::open(out.join(format!("frame_{f:04}.png")))
                    .unwrap()
                    .to_rgba8()
            })
            .collect(),
    )
}

#[test]
fn node_animated_models_move_in_view() {
    for relative in [
        "gltf/BoxAnimated/BoxAnimated.glb",
        "gltf/AnimatedCube/AnimatedCube.gltf",
        "gltf/AnimatedTriangle/AnimatedTriangle.gltf",
        "gltf/InterpolationTest/InterpolationTest.glb",
    ] {
        let dir = tempfile::tempdir().unwrap();
        let Some(frames) = view(relative, dir.path(), &[]) else {
            return;
        };
        // Before, node animation was not played: every frame was bit-identical.
        let distinct = frames.windows(2).filter(|w| w[0] != w[1]).count();
        assert!(
            distinct >= 2,
            "{relative}: only {distinct} of {} consecutive frame pairs differ",
            FRAMES - 1
        );
    }
}

/// Whether every pixel of the image's one-pixel border has the background colour (the
/// top-left pixel's, which no model in these views reaches).
fn border_is_background(image: &image::RgbaImage) -> bool {
    let background = *image.get_pixel(0, 0);
    let (w, h) = image.dimensions();
    (0..w).all(|x| *image.get_pixel(x, 0) == background && *image.get_pixel(x, h - 1) == background)
        && (0..h).all(|y| {
            *image.get_pixel(0, y) == background && *image.get_pixel(w - 1, y) == background
        })
}

#[test]
fn moving_models_stay_inside_the_frame_over_their_whole_clip() {
    for relative in [
        "gltf/RiggedSimple/RiggedSimple.glb",
        "gltf/RecursiveSkeletons/RecursiveSkeletons.glb",
        "gltf/MorphPrimitivesTest/MorphPrimitivesTest.glb",
    ] {
        let dir = tempfile::tempdir().unwrap();
        // Unlit albedo: the model alone, without the ground plane that reaches the border.
        let Some(frames) = view(relative, dir.path(), &["--albedo"]) else {
            return;
        };
        for (f, image) in frames.iter().enumerate() {
            image
                .save(std::env::temp_dir().join(format!(
                    "sierra_view_bounds_{}_{f}.png",
                    relative.rsplit('/').next().unwrap()
                )))
                .ok();
            assert!(
                border_is_background(image),
                "{relative}: frame {f} touches the image border"
            );
            assert!(
                image.pixels().any(|p| p != image.get_pixel(0, 0)),
                "{relative}: frame {f} is empty"
            );
        }
    }
}

#[test]
fn lit_frames_stand_the_model_on_a_ground_plane() {
    let dir = tempfile::tempdir().unwrap();
    let Some(frames) = view("gltf/BoxAnimated/BoxAnimated.glb", dir.path(), &[]) else {
        return;
    };
    let image = &frames[0];
    let background = *image.get_pixel(0, 0);
    // The ground fills the bottom of the image, below the model.
    let bottom = (0..SIZE)
        .filter(|&x| *image.get_pixel(x, SIZE - 1) != background)
        .count();
    assert!(
        bottom as u32 > SIZE / 2,
        "only {bottom} ground pixels on the bottom row"
    );
    image
        .save(std::env::temp_dir().join("sierra_view_ground.png"))
        .ok();
    // With --albedo the model is shown alone.
    let dir = tempfile::tempdir().unwrap();
    let albedo = view(
        "gltf/BoxAnimated/BoxAnimated.glb",
        dir.path(),
        &["--albedo"],
    )
    .unwrap();
    let background = *albedo[0].get_pixel(0, 0);
    assert!((0..SIZE).all(|x| *albedo[0].get_pixel(x, SIZE - 1) == background));
}

/// Luma (0–255) of a pixel, Rec. 709 weights.
fn luma(p: &image::Rgba<u8>) -> f32 {
    0.2126 * f32::from(p.0[0]) + 0.7152 * f32::from(p.0[1]) + 0.0722 * f32::from(p.0[2])
}

/// The model's sun shadow on `view`'s ground (Fox, ~150 units long, far beyond the game's
/// 40 m shadow distance): ground pixels near the model (its silhouette's box grown by half its
/// size; the model's own pixels, from the `--albedo` frame, left out) are darker on average
/// than ground pixels away from it. Control: the ground away from the model is uniformly lit
/// (a flat plane under a directional sun), so the difference is the shadow, not shading.
#[test]
fn view_draws_the_models_shadow_on_its_ground() {
    let (lit_dir, albedo_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let model = "gltf/Fox/Fox.glb";
    let Some(lit) = view(model, lit_dir.path(), &["--clip", "Run"]) else {
        return;
    };
    let albedo = view(model, albedo_dir.path(), &["--clip", "Run", "--albedo"]).unwrap();
    let (lit, albedo) = (&lit[0], &albedo[0]);
    lit.save(std::env::temp_dir().join("sierra_view_shadow.png"))
        .ok();
    let (sky, empty) = (*lit.get_pixel(0, 0), *albedo.get_pixel(0, 0));
    // The model's pixels, grown by one pixel (anti-aliased edges).
    let model_at = |x: i64, y: i64| {
        (-1..=1).any(|dy| {
            (-1..=1).any(|dx| {
                let (x, y) = (x + dx, y + dy);
                (0..i64::from(SIZE)).contains(&x)
                    && (0..i64::from(SIZE)).contains(&y)
                    && *albedo.get_pixel(x as u32, y as u32) != empty
            })
        })
    };
    let (mut x0, mut x1, mut y0, mut y1) = (SIZE, 0, SIZE, 0);
    for (x, y, p) in albedo.enumerate_pixels() {
        if *p != empty {
            (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
        }
    }
    assert!(x0 < x1, "the model is drawn");
    let (gx, gy) = ((x1 - x0) / 2, (y1 - y0) / 2);
    let near = |x: u32, y: u32| x + gx >= x0 && x <= x1 + gx && y + gy >= y0 && y <= y1 + gy;
    let (mut near_luma, mut away_luma) = (Vec::new(), Vec::new());
    for (x, y, p) in lit.enumerate_pixels() {
        if *p == sky || model_at(i64::from(x), i64::from(y)) {
            continue;
        }
        if near(x, y) {
            &mut near_luma
        } else {
            &mut away_luma
        }
        .push(luma(p));
    }
    let mean = |v: &[f32]| v.iter().sum::<f32>() / v.len().max(1) as f32;
    let (lo, hi) = away_luma
        .iter()
        .fold((f32::MAX, f32::MIN), |(lo, hi), &l| (lo.min(l), hi.max(l)));
    assert!(
        away_luma.len() > 500 && hi - lo <= 3.0,
        "control: {} ground pixels away from the model, luma {lo}..{hi} (not uniform)",
        away_luma.len()
    );
    let (near_mean, away_mean) = (mean(&near_luma), mean(&away_luma));
    assert!(
        near_mean < away_mean - 8.0,
        "ground near the model (luma {near_mean:.1}, {} px) is not darker than away from it ({away_mean:.1})",
        near_luma.len()
    );
}

/// `view` frames follow BoxAnimated's clip: the frames sample the clip evenly (frame `f` at
/// `duration · f / (FRAMES − 1)`), and the height of the inner (pink, unlit albedo) box's pixel
/// centroid in each frame ranks as node 0's translation keys, interpolated here, rank the
/// frames' rises: a frame whose box has risen more (by 0.25 m or more) shows it higher.
#[test]
fn box_animated_view_frames_follow_its_translation_keys() {
    let dir = tempfile::tempdir().unwrap();
    let relative = "gltf/BoxAnimated/BoxAnimated.glb";
    let Some(frames) = view(relative, dir.path(), &["--albedo"]) else {
        return;
    };
    let asset =
        sierra_gltf::GltfAsset::load(sierra_testkit::shared_asset(relative).unwrap()).unwrap();
    let clip = &asset.clips[0];
    let track = clip
        .channels
        .iter()
        .find_map(|c| match &c.data {
            sierra_gltf::ChannelData::Translation(t) if c.node == 0 => Some(t.clone()),
            _ => None,
        })
        .unwrap();
    // Linear keys (the file's sampler is LINEAR), clamped at the ends.
    let rise_at = |t: f32| {
        let k = track.times.iter().rposition(|&k| k <= t).unwrap_or(0);
        if k + 1 >= track.times.len() {
            return track.values[k].y;
        }
        let u = ((t - track.times[k]) / (track.times[k + 1] - track.times[k])).clamp(0.0, 1.0);
        track.values[k].lerp(track.values[k + 1], u).y
    };
    // The inner material's base colour (0.8, 0.416, 0.795) in sRGB.
    let pink = |p: &image::Rgba<u8>| {
        p.0[..3]
            .iter()
            .zip([231i32, 172, 230])
            .all(|(&c, w)| (i32::from(c) - w).abs() <= 12)
    };
    let mut samples = Vec::new();
    for (f, image) in frames.iter().enumerate() {
        let rise = rise_at(clip.duration * f as f32 / (FRAMES - 1) as f32);
        let rows: Vec<u32> = image
            .enumerate_pixels()
            .filter(|(_, _, p)| pink(p))
            .map(|(_, y, _)| y)
            .collect();
        let centroid = rows.iter().sum::<u32>() as f32 / rows.len().max(1) as f32;
        // At rest only the inner box's top shows, level with the outer box's top.
        assert!(rows.len() > 10, "frame {f}: no inner box pixels");
        samples.push((f, rise, centroid));
    }
    for &(f, rise, y) in &samples {
        for &(g, other, other_y) in &samples {
            if rise > other + 0.25 {
                assert!(
                    y < other_y,
                    "frame {f} (rise {rise:.2} m) shows the box at row {y:.1}, not above frame {g} (rise {other:.2} m, row {other_y:.1})"
                );
            }
        }
    }
}

/// Share of pixels whose channels differ by more than 8 between `a` and `b`.
fn changed_share(a: &image::RgbaImage, b: &image::RgbaImage) -> f32 {
    let changed = a
        .pixels()
        .zip(b.pixels())
        .filter(|(p, q)| p.0.iter().zip(q.0).any(|(&x, y)| x.abs_diff(y) > 8))
        .count();
    changed as f32 / (a.width() * a.height()) as f32
}

/// `view` frames follow the rotation keys of AnimatedCube and AnimatedTriangle (one node turned
/// a full turn over the clip): frame `f` shows the clip at `duration · f / (FRAMES − 1)`, so
/// frames whose keyed rotations (slerped here) are the same turn look the same (the first and
/// the last, a full turn apart), and frames turned 30° or more apart look different.
#[test]
fn rotating_models_view_frames_follow_their_rotation_keys() {
    for relative in [
        "gltf/AnimatedCube/AnimatedCube.gltf",
        "gltf/AnimatedTriangle/AnimatedTriangle.gltf",
    ] {
        let dir = tempfile::tempdir().unwrap();
        let Some(frames) = view(relative, dir.path(), &["--albedo"]) else {
            return;
        };
        let path = sierra_testkit::shared_asset(relative).unwrap();
        let asset = sierra_gltf::GltfAsset::load(path).unwrap();
        let clip = &asset.clips[0];
        let track = clip
            .channels
            .iter()
            .find_map(|c| match &c.data {
                sierra_gltf::ChannelData::Rotation(t) => Some(t.clone()),
                _ => None,
            })
            .unwrap();
        let turn_at = |t: f32| {
            let k = track.times.iter().rposition(|&k| k <= t).unwrap_or(0);
            if k + 1 >= track.times.len() {
                return track.values[k];
            }
            let span = track.times[k + 1] - track.times[k];
            let u = ((t - track.times[k]) / span).clamp(0.0, 1.0);
            track.values[k].slerp(track.values[k + 1], u)
        };
        let turns: Vec<glam::Quat> = (0..FRAMES)
            .map(|f| turn_at(clip.duration * f as f32 / (FRAMES - 1) as f32))
            .collect();
        let (mut same, mut different) = (0, 0);
        for i in 0..FRAMES {
            for j in i + 1..FRAMES {
                let degrees = turns[i].angle_between(turns[j]).to_degrees();
                let share = changed_share(&frames[i], &frames[j]);
                if degrees < 0.5 {
                    same += 1;
                    assert!(
                        share < 0.005,
                        "{relative}: frames {i} and {j} are the same turn but {share:.3} of the pixels differ"
                    );
                } else if degrees >= 30.0 {
                    different += 1;
                    assert!(
                        share > 0.01,
                        "{relative}: frames {i} and {j} are {degrees:.0}° apart but only {share:.3} of the pixels differ"
                    );
                }
            }
        }
        assert!(
            same >= 1 && different >= 10,
            "{relative}: {same} same-turn and {different} different-turn frame pairs"
        );
    }
}
