//! Khronos sample models rendered with their materials: textures, normal maps with generated
//! (NormalTangentTest) and file (NormalTangentMirrorTest) tangents, metallic-roughness.
//! Images are written to the temp directory (`sierra_gltf_<name>.png`) to look at.

// The renderer tests' helpers (GPU context, frames, HDR targets), shared rather than copied.
#[path = "../../sierra_render/tests/support/mod.rs"]
mod support;

use glam::Vec3;
use sierra_content::upload_gltf;
use sierra_gltf::GltfAsset;
use sierra_render::{Camera, FrameData, HeadlessRenderer, Sun};
use support::context;

mod gltf_checks;
use gltf_checks::{AMBIENT, CLEAR, SIZE, SUN_DIRECTION};

/// Renders the model seen from +Z (its front, as glTF's "forward"), lit from the upper left front.
fn render(relative: &str, name: &str) -> Option<image::RgbaImage> {
    let path = sierra_testkit::shared_asset(relative)?;
    let asset = GltfAsset::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let ctx = context();
    let mut headless = HeadlessRenderer::new(&ctx, SIZE, SIZE).unwrap_or_else(|e| panic!("{e}"));
    let model = upload_gltf(&ctx, &mut headless.renderer, &asset).unwrap_or_else(|e| panic!("{e}"));
    let (eye, centre, near, far) = gltf_checks::view(model.bounds_min, model.bounds_max);
    let camera = Camera::look_at(eye, centre, Vec3::Y, 45f32.to_radians(), 1.0, near, far);
    let frame = FrameData {
        sun: Sun {
            direction: SUN_DIRECTION.normalize(),
            color: Vec3::ONE,
            intensity: 1.0,
            ambient: Vec3::splat(AMBIENT),
        },
        draws: model.draws.clone(),
        clear_color: CLEAR.extend(1.0),
        ..FrameData::new(camera)
    };
    let (image, _) = headless
        .render(&ctx, &frame)
        .unwrap_or_else(|e| panic!("{e}"));
    image
        .save(std::env::temp_dir().join(format!("sierra_gltf_{name}.png")))
        .ok();
    Some(image)
}

#[test]
fn normal_tangent_test_bumps_match_their_geometry_twins() {
    if let Some(image) = render(
        "gltf/NormalTangentTest/NormalTangentTest.glb",
        "normal_tangent",
    ) {
        gltf_checks::check_normal_tangent(&image);
    }
}

#[test]
fn normal_tangent_mirror_test_lights_both_halves_alike() {
    if let Some(image) = render(
        "gltf/NormalTangentMirrorTest/NormalTangentMirrorTest.glb",
        "normal_tangent_mirror",
    ) {
        gltf_checks::check_normal_tangent_mirror(&image);
    }
}

#[test]
fn textured_models_render_with_their_textures() {
    for (path, name) in [
        ("gltf/AnimatedCube/AnimatedCube.gltf", "animated_cube"),
        ("gltf/CesiumMan/CesiumMan.glb", "cesium_man"),
        ("gltf/Fox/Fox.glb", "fox"),
    ] {
        let Some(image) = render(path, name) else {
            return;
        };
        gltf_checks::check_textured(&image, name);
    }
}

#[test]
fn negative_scale_test_mirrored_nodes_are_culled_and_lit_like_the_others() {
    if let Some(image) = render(
        "gltf/NegativeScaleTest/NegativeScaleTest.glb",
        "negative_scale",
    ) {
        gltf_checks::check_negative_scale(&image);
    }
}
