//! The one glTF material conversion reaches the skinned-character and baked-crowd paths: Fox
//! and CesiumMan rendered with `DebugView::UnlitAlbedo` show, on average, the colour of the
//! base-colour texels their front-facing triangles cover (computed on the CPU by
//! `sierra_testkit::albedo`, from the CPU-skinned pose), within 6/255 per channel. Negative
//! control: the same model with its images left out (texture unbound) fails the comparison.
//! Images: `sierra_albedo_<model>_<path>.png` in the temp directory.

// The renderer tests' helpers (GPU context), shared rather than copied.
#[path = "../../sierra_render/tests/support/mod.rs"]
mod support;

use glam::{Mat4, Vec3, Vec4};
use sierra_anim::Playback;
use sierra_content::crowd::{bake_asset, baked_palettes, CrowdMaterials};
use sierra_content::skinned_mesh::skinned_primitive_mesh;
use sierra_content::{ModelPoser, SkinnedModel};
use sierra_gltf::GltfAsset;
use sierra_render::compute::skinning::skin_on_cpu;
use sierra_render::passes::crowd::CrowdInstance;
use sierra_render::{Camera, DebugView, FrameData, GpuContext, HeadlessRenderer, PostSettings};
use sierra_testkit::albedo::{front_texel_mean, silhouette_mean, Rgba8};
use support::context;

const SIZE: u32 = 160;
/// Magenta: in neither model's texture.
const CLEAR: [u8; 3] = [255, 0, 255];
/// Allowed difference per channel, sRGB 8-bit.
const TOLERANCE: f32 = 6.0;
/// Pose time, seconds into clip 0 (crowds: their clock, with one member at phase 0).
const TIME: f32 = 0.0;

fn load(relative: &str) -> Option<GltfAsset> {
    let path = sierra_testkit::shared_asset(relative)?;
    Some(GltfAsset::load(&path).unwrap_or_else(|e| panic!("{e}")))
}

/// The CPU expectation and a camera framing the posed model from its front-left, above.
fn expectation(asset: &GltfAsset) -> ([f32; 3], Camera) {
    let instance = asset.skin_instances()[0];
    let mut poser = ModelPoser::new(asset, instance.skin).unwrap();
    let palette = poser.palette(0, TIME, Playback::Loop).unwrap().to_vec();
    let joints = asset.skins[instance.skin].joint_count();
    let mut image = None;
    let (mut positions, mut uvs, mut indices) = (Vec::new(), Vec::new(), Vec::new());
    for p in &asset.meshes[instance.mesh].primitives {
        let texture = asset.materials[p.material.unwrap()]
            .base_color_texture
            .unwrap()
            .image;
        assert!(image.replace(texture).is_none_or(|i| i == texture));
        let posed = skin_on_cpu(&skinned_primitive_mesh(p, joints).unwrap(), &palette);
        let base = positions.len() as u32;
        indices.extend(posed.indices.iter().map(|i| i + base));
        positions.extend(posed.positions.iter().map(|&p| Vec3::from(p)));
        uvs.extend(posed.uvs);
    }
    let camera = support::framing_camera(
        support::bounding_box(positions.iter().copied()),
        Vec3::new(0.8, 0.3, 1.0),
        2.4,
        40f32.to_radians(),
    );
    let view_proj = camera.view_proj();
    let clip: Vec<[f32; 4]> = positions
        .iter()
        .map(|&p| (view_proj * p.extend(1.0)).to_array())
        .collect();
    let texture = &asset.images[image.unwrap()];
    let texture = Rgba8 {
        width: texture.width,
        height: texture.height,
        pixels: &texture.rgba8,
    };
    (
        front_texel_mean(texture, &clip, &uvs, &indices, (SIZE, SIZE)).unwrap(),
        camera,
    )
}

fn albedo_frame(camera: Camera) -> FrameData {
    FrameData {
        clear_color: Vec4::new(1.0, 0.0, 1.0, 1.0),
        post: PostSettings {
            debug_view: DebugView::UnlitAlbedo,
            ..PostSettings::default()
        },
        ..FrameData::new(camera)
    }
}

/// `asset` drawn as one GPU-skinned character (`SkinnedModel`, as a level `Character`).
fn render_character(ctx: &GpuContext, asset: &GltfAsset, camera: Camera) -> image::RgbaImage {
    let mut headless = HeadlessRenderer::new(ctx, SIZE, SIZE).unwrap();
    let model = SkinnedModel::upload(ctx, &mut headless.renderer, asset).unwrap();
    let instance = asset.skin_instances()[0];
    let mut poser = ModelPoser::new(asset, instance.skin).unwrap();
    let palette = poser.palette(0, TIME, Playback::Loop).unwrap();
    let mut frame = albedo_frame(camera);
    model
        .draw_with_palette(
            instance.skin,
            palette,
            Mat4::IDENTITY,
            &mut frame.skinned.palettes,
            &mut frame.skinned.draws,
        )
        .unwrap();
    headless.render(ctx, &frame).unwrap().0
}

/// `asset` drawn as a one-member baked crowd at phase 0.
fn render_crowd(ctx: &GpuContext, asset: &GltfAsset, camera: Camera) -> image::RgbaImage {
    let mut headless = HeadlessRenderer::new(ctx, SIZE, SIZE).unwrap();
    let (meshes, baked) = bake_asset(asset, 30.0).unwrap();
    let materials = CrowdMaterials::of(asset).upload(ctx).unwrap();
    let member = CrowdInstance::new(Mat4::IDENTITY, 0, 0.0, 1.0);
    for (mesh, (surface, material)) in meshes.iter().zip(&materials) {
        headless
            .renderer
            .crowd
            .add_crowd(
                ctx,
                mesh,
                &baked_palettes(&baked),
                material,
                surface,
                &[member],
            )
            .unwrap();
    }
    let mut frame = albedo_frame(camera);
    frame.crowds.time = TIME;
    headless.render(ctx, &frame).unwrap().0
}

/// The silhouette's mean colour, after saving the image.
fn silhouette(image: &image::RgbaImage, name: &str) -> [f32; 3] {
    image
        .save(std::env::temp_dir().join(format!("sierra_albedo_{name}.png")))
        .ok();
    let rgba = Rgba8 {
        width: image.width(),
        height: image.height(),
        pixels: image.as_raw(),
    };
    let (mean, count) = silhouette_mean(rgba, CLEAR).unwrap_or_else(|| panic!("{name}: empty"));
    assert!(count > 500, "{name}: only {count} pixels drawn");
    mean
}

fn matches(expected: [f32; 3], got: [f32; 3]) -> bool {
    expected
        .iter()
        .zip(got)
        .all(|(e, g)| (e - g).abs() <= TOLERANCE)
}

fn check(relative: &str, name: &str) {
    let Some(asset) = load(relative) else {
        return;
    };
    let ctx = context();
    let (expected, camera) = expectation(&asset);
    for (path, image) in [
        ("character", render_character(&ctx, &asset, camera)),
        ("crowd", render_crowd(&ctx, &asset, camera)),
    ] {
        let got = silhouette(&image, &format!("{name}_{path}"));
        eprintln!("{name} {path}: silhouette {got:?}, texels {expected:?}");
        assert!(
            matches(expected, got),
            "{name} as a {path}: silhouette mean {got:?} is not the covered texels' mean {expected:?}"
        );
    }
    // Negative control: without its images the material has no texture bound and draws its
    // factor alone (white for these models), which the comparison catches.
    let mut untextured = asset.clone();
    untextured.images.clear();
    for (path, image) in [
        ("character", render_character(&ctx, &untextured, camera)),
        ("crowd", render_crowd(&ctx, &untextured, camera)),
    ] {
        let got = silhouette(&image, &format!("{name}_{path}_untextured"));
        assert!(
            !matches(expected, got),
            "{name} as a {path} without its texture still matches: {got:?}"
        );
    }
}

#[test]
fn fox_shows_its_texture_as_a_character_and_as_a_crowd() {
    check("gltf/Fox/Fox.glb", "fox");
}

#[test]
fn cesium_man_shows_its_texture_as_a_character_and_as_a_crowd() {
    check("gltf/CesiumMan/CesiumMan.glb", "cesium_man");
}
