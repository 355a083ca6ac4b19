//! Skinned glTF models show their base-colour textures on every path a user meets them: as a
//! `sierra view` model, as a level `Character` and as a level `Crowd`. Rendered unlit
//! (`DebugView::UnlitAlbedo`: `sierra view --albedo`, `Game::debug_view`), the silhouette's mean
//! colour equals the mean of the texels the model's front-facing triangles cover, computed on
//! the CPU from the same pose and camera (`sierra_testkit::albedo`), within 6/255 per channel.
//! Negative control: the same comparison fails when the texture is not bound.

#[path = "common/level_json.rs"]
mod level_json;

use std::path::Path;
use std::process::Command;

use sierra_testkit::process::output_ok;

use glam::{Mat4, Vec3};
use level_json::camera_json;
use sierra::frame_runner::FrameRunner;
use sierra::game::Game;
use sierra::game_loop::DEFAULT_TICK_HZ;
use sierra_anim::Playback;
use sierra_content::skinned_mesh::skinned_primitive_mesh;
use sierra_content::ModelPoser;
use sierra_gltf::GltfAsset;
use sierra_render::compute::skinning::skin_on_cpu;
use sierra_render::{Camera, DebugView, GpuContext, HeadlessRenderer};
use sierra_testkit::albedo::{front_texel_mean, silhouette_mean, Rgba8};

const SIZE: u32 = 160;
const TOLERANCE: f32 = 6.0;
const MODELS: [(&str, &str, &str); 2] = [
    ("gltf/Fox/Fox.glb", "Fox.glb", "Survey"),
    ("gltf/CesiumMan/CesiumMan.glb", "CesiumMan.glb", "0"),
];

fn load(relative: &str) -> Option<(std::path::PathBuf, GltfAsset)> {
    let path = sierra_testkit::shared_asset(relative)?;
    let asset = GltfAsset::load(&path).unwrap_or_else(|e| panic!("{e}"));
    Some((path, asset))
}

/// Vertices (world space, posed by the skin palette `palette`), UVs and triangles of the first
/// skinned mesh instance, and the base-colour image its primitives share.
fn posed(asset: &GltfAsset, palette: &[Mat4]) -> (Vec<Vec3>, Vec<[f32; 2]>, Vec<u32>, usize) {
    let instance = asset.skin_instances()[0];
    let joints = asset.skins[instance.skin].joint_count();
    let (mut positions, mut uvs, mut indices, mut image) =
        (Vec::new(), Vec::new(), Vec::new(), None);
    for p in &asset.meshes[instance.mesh].primitives {
        let material = &asset.materials[p.material.unwrap()];
        let texture = material.base_color_texture.unwrap().image;
        assert!(image.replace(texture).is_none_or(|i| i == texture));
        let mesh = skin_on_cpu(&skinned_primitive_mesh(p, joints).unwrap(), palette);
        let base = positions.len() as u32;
        indices.extend(mesh.indices.iter().map(|i| i + base));
        positions.extend(mesh.positions.iter().map(|&v| Vec3::from(v)));
        uvs.extend(mesh.uvs);
    }
    (positions, uvs, indices, image.unwrap())
}

/// The mean colour of the texels the posed model's front faces cover, seen by `camera`.
fn expected(asset: &GltfAsset, palette: &[Mat4], camera: &Camera) -> [f32; 3] {
    let (positions, uvs, indices, image) = posed(asset, palette);
    let view_proj = camera.view_proj();
    let clip: Vec<[f32; 4]> = positions
        .iter()
        .map(|&p| (view_proj * p.extend(1.0)).to_array())
        .collect();
    let image = &asset.images[image];
    let texture = Rgba8 {
        width: image.width,
        height: image.height,
        pixels: &image.rgba8,
    };
    front_texel_mean(texture, &clip, &uvs, &indices, (SIZE, SIZE)).unwrap()
}

/// Bounds of the model posed by clip `clip` at `time`, and that palette.
fn pose(asset: &GltfAsset, clip: usize, time: f32) -> ((Vec3, Vec3), Vec<Mat4>) {
    let mut poser = ModelPoser::new(asset, asset.skin_instances()[0].skin).unwrap();
    let palette = poser.palette(clip, time, Playback::Once).unwrap().to_vec();
    let bounds = posed(asset, &palette)
        .0
        .iter()
        .fold((Vec3::MAX, Vec3::MIN), |(a, b), &p| (a.min(p), b.max(p)));
    (bounds, palette)
}

/// Silhouette mean against the background colour of the top-left pixel.
fn silhouette(image: &image::RgbaImage, name: &str) -> [f32; 3] {
    image
        .save(std::env::temp_dir().join(format!("sierra_gltf_albedo_{name}.png")))
        .ok();
    let clear = image.get_pixel(0, 0).0;
    let rgba = Rgba8 {
        width: image.width(),
        height: image.height(),
        pixels: image.as_raw(),
    };
    let (mean, count) = silhouette_mean(rgba, [clear[0], clear[1], clear[2]]).unwrap();
    assert!(count > 400, "{name}: only {count} pixels drawn");
    mean
}

fn assert_matches(expected: [f32; 3], got: [f32; 3], what: &str) {
    eprintln!("{what}: silhouette {got:?}, texels {expected:?}");
    assert!(
        expected
            .iter()
            .zip(got)
            .all(|(e, g)| (e - g).abs() <= TOLERANCE),
        "{what}: silhouette mean {got:?} is not the covered texels' mean {expected:?}"
    );
}

/// A copy of the GLB at `source` whose materials name no base colour texture (the negative
/// control: geometry, skin and factors unchanged, texture unbound), written into `dir`.
fn without_base_colour_texture(source: &Path, dir: &Path, name: &str) -> std::path::PathBuf {
    let bytes = std::fs::read(source).unwrap();
    let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap()) as usize;
    // GLB (glTF 2.0 §4.4): 12-byte header, JSON chunk (length, type, data), BIN chunk.
    let json_len = u32_at(12);
    let mut json: serde_json::Value = serde_json::from_slice(&bytes[20..20 + json_len]).unwrap();
    for m in json["materials"].as_array_mut().unwrap() {
        m["pbrMetallicRoughness"]
            .as_object_mut()
            .unwrap()
            .remove("baseColorTexture")
            .unwrap();
    }
    let mut text = serde_json::to_vec(&json).unwrap();
    while !text.len().is_multiple_of(4) {
        text.push(b' ');
    }
    let rest = &bytes[20 + json_len..];
    let mut out = Vec::new();
    out.extend_from_slice(&bytes[0..8]);
    out.extend_from_slice(&((12 + 8 + text.len() + rest.len()) as u32).to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(&bytes[16..20]);
    out.extend_from_slice(&text);
    out.extend_from_slice(rest);
    let path = dir.join(format!("untextured_{name}"));
    std::fs::write(&path, out).unwrap();
    path
}

#[test]
fn view_draws_skinned_models_with_their_base_colour_texture() {
    for (relative, name, clip) in MODELS {
        let Some((path, asset)) = load(relative) else {
            return;
        };
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        output_ok(
            Command::new(env!("CARGO_BIN_EXE_sierra"))
                .arg("view")
                .arg(&path)
                .args(["--clip", clip, "--frames", "1"])
                .args(["--size", &format!("{SIZE}x{SIZE}"), "--albedo", "--out"])
                .arg(&out),
        );
        let image = image::open(out.join("frame_0000.png")).unwrap().to_rgba8();
        let clip_index = asset
            .find_clip(&sierra_gltf::ClipSelector::parse(clip))
            .unwrap();
        // `view` frames the bounds over the whole clip: 32 evenly spaced poses and the frame's.
        let duration = asset.clips[clip_index].duration;
        let (mut lo, mut hi) = (Vec3::MAX, Vec3::MIN);
        for i in 0..32 {
            let ((l, h), _) = pose(&asset, clip_index, duration * i as f32 / 31.0);
            (lo, hi) = (lo.min(l), hi.max(h));
        }
        let (_, palette) = pose(&asset, clip_index, 0.0);
        let camera = view_camera(lo, hi);
        let want = expected(&asset, &palette, &camera);
        assert_matches(want, silhouette(&image, &format!("view_{name}")), name);
    }
}

/// `sierra view`'s camera for posed bounds `lo..hi` (a square image).
fn view_camera(lo: Vec3, hi: Vec3) -> Camera {
    let radius = ((hi - lo).length() * 0.5).max(1e-3);
    sierra::cli::view::view_camera((lo + hi) * 0.5, radius, 1.0)
}

/// A level with `component` on an object at the origin, seen by a camera framing `lo..hi`.
fn level(component: &str, lo: Vec3, hi: Vec3) -> String {
    let centre = (lo + hi) * 0.5;
    let radius = (hi - lo).length() * 0.5;
    let eye = centre + Vec3::new(0.8, 0.3, 1.0).normalize() * radius * 2.4;
    let camera = camera_json(eye, centre, 40.0, radius * 0.05, radius * 10.0);
    format!(
        r#"{{
  {camera},
  "clearColor": [1, 0, 1],
  "objects": [{{"name": "Model", "components": [{component}]}}]
}}"#
    )
}

/// Renders two ticks of the level at `path` unlit; the image and the runner.
fn render_level(ctx: &GpuContext, path: &Path) -> (image::RgbaImage, FrameRunner) {
    let mut game = Game::load(path, DEFAULT_TICK_HZ).unwrap();
    game.debug_view = DebugView::UnlitAlbedo;
    let mut headless = HeadlessRenderer::new(ctx, SIZE, SIZE).unwrap();
    let mut runner = FrameRunner::new(ctx, &mut headless.renderer, game).unwrap();
    runner.headless_frame(ctx, &mut headless).unwrap();
    let (image, _) = runner.headless_frame(ctx, &mut headless).unwrap();
    (image, runner)
}

/// The character's palette and the frame's camera after `render_level`.
fn character_expectation(asset: &GltfAsset, runner: &FrameRunner) -> [f32; 3] {
    let palette = &runner.game().gameplay.poses[0].palette;
    expected(asset, palette, &runner.frame().camera)
}

/// The single crowd member's palette (its clip at its own time) and the frame's camera.
fn crowd_expectation(asset: &GltfAsset, runner: &FrameRunner) -> [f32; 3] {
    let member = runner.game().world.crowds.placed[0][0];
    let time = member.time_offset + member.speed * runner.frame().crowds.time;
    let mut poser = ModelPoser::new(asset, asset.skin_instances()[0].skin).unwrap();
    let palette: Vec<Mat4> = poser
        .palette(member.clip as usize, time, Playback::Loop)
        .unwrap()
        .iter()
        .map(|m| member.model * *m)
        .collect();
    expected(asset, &palette, &runner.frame().camera)
}

#[test]
fn level_characters_and_crowds_draw_skinned_models_with_their_base_colour_texture() {
    let ctx = GpuContext::headless().unwrap();
    for (relative, name, clip) in MODELS {
        let Some((path, asset)) = load(relative) else {
            return;
        };
        let dir = tempfile::tempdir().unwrap();
        std::fs::copy(&path, dir.path().join(name)).unwrap();
        let untextured = without_base_colour_texture(&path, dir.path(), name);
        let untextured = untextured.file_name().unwrap().to_str().unwrap();
        let clip_index = asset
            .find_clip(&sierra_gltf::ClipSelector::parse(clip))
            .unwrap();
        let clip_name = &asset.clips[clip_index].name;
        let ((lo, hi), _) = pose(&asset, clip_index, 0.0);
        for (kind, model, textured) in [
            ("character", name, true),
            ("crowd", name, true),
            ("character", untextured, false),
            ("crowd", untextured, false),
        ] {
            let component = match kind {
                "character" => {
                    format!(r#"{{"type": "Character", "model": "{model}", "clip": "{clip_name}"}}"#)
                }
                // Untinted: the member shows the model's own colours, which are compared here.
                _ => format!(
                    r#"{{"type": "Crowd", "model": "{model}", "count": 1, "clips": ["{clip_name}"], "tints": false}}"#
                ),
            };
            let file = dir.path().join(format!("{kind}_{textured}.json"));
            std::fs::write(&file, level(&component, lo, hi)).unwrap();
            let (image, runner) = render_level(&ctx, &file);
            let want = match kind {
                "character" => character_expectation(&asset, &runner),
                _ => crowd_expectation(&asset, &runner),
            };
            let what = format!("{name} as a level {kind} (textured: {textured})");
            let got = silhouette(&image, &format!("{kind}_{textured}_{name}"));
            if textured {
                assert_matches(want, got, &what);
            } else {
                let close = want
                    .iter()
                    .zip(got)
                    .all(|(e, g)| (e - g).abs() <= TOLERANCE);
                assert!(!close, "{what}: matches without its texture: {got:?}");
            }
        }
    }
}
