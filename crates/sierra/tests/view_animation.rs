//! `sierra view` plays node animation (models without skins: BoxAnimated, AnimatedCube,
//! AnimatedTriangle, InterpolationTest write frames that differ over their clips) and frames the
//! bounds of the whole clip: RiggedSimple, RecursiveSkeletons and MorphPrimitivesTest never touch
//! the image border in any frame (the model's projected bounds stay inside the frame); lit
//! frames stand the model on a ground plane (which receives the sun's shadow; not checked here).

use std::path::Path;
use std::process::Command;

const SIZE: u32 = 96;
const FRAMES: usize = 8;

/// Runs `sierra view` on shared model `relative` (with `extra` arguments) and returns its frames.
fn view(relative: &str, out: &Path, extra: &[&str]) -> Option<Vec<image::RgbaImage>> {
    let path = sierra_testkit::shared_asset(relative)?;
    let run = Command::new(env!("CARGO_BIN_EXE_sierra"))
        .args([
            "view",
            path.to_str().unwrap(),
            "--frames",
            &FRAMES.to_string(),
        ])
        .args(extra)
        .args(["--size", &format!("{SIZE}x{SIZE}"), "--out"])
        .arg(out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{relative}: {}",
        String::from_utf8_lossy(&run.stderr)
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
