//! Level objects whose `mesh` is a glTF file are drawn with the file's materials, and an
//! `Animator` plays the file's node animation: BoxAnimated's inner box rises as its
//! translation channel says (top edge of the silhouette vs the channel's keys interpolated
//! here), AnimatedCube turns as its rotation channel says (silhouette width vs the projected
//! width of a cube turned by the keys' angle); both placed in one level are drawn and their
//! moving nodes' pixel centroids follow the projected node positions the keys give. Skinned
//! and morphed files (RiggedSimple, CesiumMan, AnimatedMorphCube) play their skins and morph
//! weights with an Animator (silhouette extent vs the vertices posed on the CPU by the view's
//! animation job). Without an Animator nothing moves.

#[path = "common/level_json.rs"]
mod level_json;

use std::path::{Path, PathBuf};

use glam::{Quat, Vec3};
use image::GenericImageView;
use level_json::{camera_json, vec3_json};
use sierra::frame_runner::FrameRunner;
use sierra::game::Game;
use sierra_gltf::ChannelData;
use sierra_render::{GpuContext, HeadlessRenderer};

const SIZE: u32 = 128;
const TICK_HZ: f64 = 60.0;

/// Copies the sample model folder `name` into `dir`.
fn copy_model(name: &str, dir: &Path) -> Option<()> {
    let source = sierra_testkit::shared_asset(&format!("gltf/{name}"))?;
    for entry in std::fs::read_dir(source).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
    }
    Some(())
}

/// A level with one object drawing `mesh` (with `components`), seen from +Z at `distance`
/// metres with a `fov`-degree view of `target`, on a black background.
fn level(
    dir: &Path,
    mesh: &str,
    components: &str,
    target: Vec3,
    distance: f32,
    fov: f32,
) -> PathBuf {
    let camera = camera_json(target + Vec3::Z * distance, target, fov, 0.5, 200.0);
    let json = format!(
        r#"{{
  {camera},
  "clearColor": [0, 0, 0],
  "objects": [{{"name": "Model", "mesh": "{mesh}", "components": [{components}]}}]
}}"#
    );
    let path = dir.join(format!("level_{}.json", components.len()));
    std::fs::write(&path, json).unwrap();
    path
}

/// Images of the level after each of `ticks` (counted from load).
fn render(ctx: &GpuContext, path: &Path, ticks: &[usize]) -> Vec<image::RgbaImage> {
    render_as(ctx, path, ticks, sierra_render::DebugView::Lit, SIZE)
}

/// [`render`] with `debug_view` (unlit albedo: each material one flat colour), `size`² pixels.
fn render_as(
    ctx: &GpuContext,
    path: &Path,
    ticks: &[usize],
    debug_view: sierra_render::DebugView,
    size: u32,
) -> Vec<image::RgbaImage> {
    let mut game = Game::load(path, TICK_HZ).unwrap();
    game.debug_view = debug_view;
    let mut headless = HeadlessRenderer::new(ctx, size, size).unwrap();
    let mut runner = FrameRunner::new(ctx, &mut headless.renderer, game).unwrap();
    let mut images = Vec::new();
    let mut done = 0;
    for &t in ticks {
        while done < t {
            let (image, _) = runner.headless_frame(ctx, &mut headless).unwrap();
            done += 1;
            if done == t {
                images.push(image);
            }
        }
    }
    images
}

fn lit(p: &image::Rgba<u8>) -> bool {
    p.0[..3].iter().any(|&c| c > 4)
}

/// First and last image rows and columns with a drawn pixel.
fn extent(image: &image::RgbaImage) -> Option<(u32, u32, u32, u32)> {
    let mut e: Option<(u32, u32, u32, u32)> = None;
    for (x, y, p) in image.enumerate_pixels() {
        if lit(p) {
            e = Some(match e {
                None => (x, x, y, y),
                Some((x0, x1, y0, y1)) => (x0.min(x), x1.max(x), y0.min(y), y1.max(y)),
            });
        }
    }
    e
}

/// Linear interpolation of `times`/`values` at `t` (clamped), as glTF LINEAR samplers do.
fn lerp_keys<T: Copy>(times: &[f32], values: &[T], t: f32, mix: impl Fn(T, T, f32) -> T) -> T {
    let k = times.iter().rposition(|&k| k <= t).unwrap_or(0);
    if k + 1 >= times.len() {
        return values[k];
    }
    let u = ((t - times[k]) / (times[k + 1] - times[k])).clamp(0.0, 1.0);
    mix(values[k], values[k + 1], u)
}

/// Seconds of game time rendered after `ticks` ticks (the first tick advances the animators too).
fn seconds(ticks: usize) -> f32 {
    (ticks as f64 / TICK_HZ) as f32
}

/// BoxAnimated's (copied into `dir`) node 0 translation track: the inner box's rise.
fn box_animated_rise(dir: &Path) -> sierra_anim::RawTrack<Vec3> {
    let asset = sierra_gltf::GltfAsset::load(dir.join("BoxAnimated.glb")).unwrap();
    asset.clips[0]
        .channels
        .iter()
        .find_map(|c| match &c.data {
            ChannelData::Translation(t) if c.node == 0 => Some(t.clone()),
            _ => None,
        })
        .unwrap()
}

#[test]
fn box_animated_rises_as_its_translation_channel_says() {
    let dir = tempfile::tempdir().unwrap();
    if copy_model("BoxAnimated", dir.path()).is_none() {
        return;
    }
    let track = box_animated_rise(dir.path());
    let ctx = GpuContext::headless().unwrap();
    // Looking at (0, 1.5, 0) from 12 m with a 30° view: metres → pixels on the z = 0 plane.
    let (target, distance, fov) = (Vec3::new(0.0, 1.5, 0.0), 12.0, 30f32);
    let animated = level(
        dir.path(),
        "BoxAnimated.glb",
        r#"{"type": "Animator"}"#,
        target,
        distance,
        fov,
    );
    let still = level(dir.path(), "BoxAnimated.glb", "", target, distance, fov);
    // Before the rotation channel starts (1.25 s) the inner box is upright: its top is
    // 0.5 m above node 0's translation.
    let ticks = [6, 36, 72];
    let images = render(&ctx, &animated, &ticks);
    let rest = render(&ctx, &still, &[72]);
    let pixels_per_metre = SIZE as f32 / 2.0 / (distance * (fov.to_radians() / 2.0).tan());
    let row_of = |y: f32| SIZE as f32 / 2.0 - (y - target.y) * pixels_per_metre;
    for (image, &t) in images.iter().zip(&ticks) {
        let rise = lerp_keys(&track.times, &track.values, seconds(t), Vec3::lerp).y;
        let (_, _, top, _) = extent(image).unwrap();
        let expected = row_of(rise + 0.5);
        // The box's near face (0.335 m closer than z = 0) projects slightly larger.
        assert!(
            (top as f32 - expected).abs() <= 3.0,
            "tick {t}: top row {top}, the channel puts it at {expected:.1} (rise {rise:.3} m)"
        );
    }
    let (_, _, rest_top, _) = extent(&rest[0]).unwrap();
    let (_, _, last_top, _) = extent(&images[2]).unwrap();
    assert!(
        last_top + 5 < rest_top,
        "with an Animator the box rises above its rest pose"
    );
    // Drawn at all: the level without the object is empty.
    assert!(images[0].pixels().any(lit));
}

#[test]
fn animated_cube_turns_as_its_rotation_channel_says() {
    let dir = tempfile::tempdir().unwrap();
    if copy_model("AnimatedCube", dir.path()).is_none() {
        return;
    }
    let asset = sierra_gltf::GltfAsset::load(dir.path().join("AnimatedCube.gltf")).unwrap();
    let track = asset.clips[0]
        .channels
        .iter()
        .find_map(|c| match &c.data {
            ChannelData::Rotation(t) => Some(t.clone()),
            _ => None,
        })
        .unwrap();
    let ctx = GpuContext::headless().unwrap();
    // Far and narrow (nearly orthographic), level with the cube: the silhouette's width is
    // the cube's extent along x, 2 (|cos θ| + |sin θ|) for a turn θ about Y.
    let (target, distance, fov) = (Vec3::ZERO, 60.0, 6f32);
    let path = level(
        dir.path(),
        "AnimatedCube.gltf",
        r#"{"type": "Animator"}"#,
        target,
        distance,
        fov,
    );
    let ticks = [1, 8, 15, 30, 45];
    let images = render(&ctx, &path, &ticks);
    let pixels_per_metre = SIZE as f32 / 2.0 / (distance * (fov.to_radians() / 2.0).tan());
    for (image, &t) in images.iter().zip(&ticks) {
        let q = lerp_keys(&track.times, &track.values, seconds(t), Quat::slerp);
        let turned = q * Vec3::X;
        let width = 2.0 * (turned.x.abs() + turned.z.abs()) * pixels_per_metre;
        let (x0, x1, _, _) = extent(image).unwrap();
        let got = (x1 - x0 + 1) as f32;
        assert!(
            (got - width).abs() <= 0.04 * width + 2.0,
            "tick {t}: silhouette {got} px wide, the channel's turn gives {width:.1} px"
        );
    }
    assert_ne!(images[0], images[2], "the cube turns between frames");
}

#[test]
fn bad_animators_are_clear_errors_with_their_json_path() {
    let dir = tempfile::tempdir().unwrap();
    if copy_model("BoxAnimated", dir.path()).is_none() {
        return;
    }
    let write = |name: &str, mesh: &str, component: &str| {
        let json = format!(
            r#"{{"objects": [{{"name": "A"}}, {{"name": "B", "mesh": "{mesh}", "components": [{component}]}}]}}"#
        );
        let path = dir.path().join(name);
        std::fs::write(&path, json).unwrap();
        path
    };
    let cases = [
        (
            write(
                "clip.json",
                "BoxAnimated.glb",
                r#"{"type": "Animator", "clip": "Dance"}"#,
            ),
            "Dance",
        ),
        (
            write(
                "index.json",
                "BoxAnimated.glb",
                r#"{"type": "Animator", "clip": 3}"#,
            ),
            "3",
        ),
        (
            write("cube.json", "cube", r#"{"type": "Animator"}"#),
            ".gltf/.glb",
        ),
        (
            write(
                "speed.json",
                "BoxAnimated.glb",
                r#"{"type": "Animator", "speed": -1}"#,
            ),
            "speed",
        ),
    ];
    for (path, needle) in cases {
        let message = format!("{:#}", Game::load(&path, TICK_HZ).err().unwrap());
        assert!(
            message.contains("objects[1].components[0]") && message.contains(needle),
            "{}: {message}",
            path.display()
        );
    }
}

/// The checks of `sierra_content/tests/gltf_render.rs`, shared.
#[path = "../../sierra_content/tests/gltf_checks/mod.rs"]
mod gltf_checks;

/// A level placing `file` (in `dir`) by `mesh` under the view and sun the glTF checks expect
/// for its bounds `lo..hi` ([`gltf_checks::view`]).
fn checks_level(dir: &Path, file: &str, lo: Vec3, hi: Vec3) -> PathBuf {
    let (eye, centre, near, far) = gltf_checks::view(lo, hi);
    let camera = camera_json(eye, centre, 45.0, near, far);
    let (sun, clear) = (
        vec3_json(gltf_checks::SUN_DIRECTION),
        vec3_json(gltf_checks::CLEAR),
    );
    let ambient = vec3_json(Vec3::splat(gltf_checks::AMBIENT));
    let json = format!(
        r#"{{
  {camera},
  "sun": {{"direction": {sun}, "intensity": 1, "ambient": {ambient}}},
  "clearColor": {clear},
  "objects": [{{"name": "Model", "mesh": "{file}"}}]
}}"#
    );
    let path = dir.join("checks_level.json");
    std::fs::write(&path, json).unwrap();
    path
}

/// Bounds of `file` in `dir` as the static model path computes them.
fn model_bounds(ctx: &GpuContext, dir: &Path, file: &str) -> (Vec3, Vec3) {
    let asset = sierra_gltf::GltfAsset::load(dir.join(file)).unwrap();
    let mut scratch = HeadlessRenderer::new(ctx, 4, 4).unwrap();
    let model = sierra_content::upload_gltf(ctx, &mut scratch.renderer, &asset).unwrap();
    (model.bounds_min, model.bounds_max)
}

/// The sample models of `sierra_content/tests/gltf_render.rs` placed in a level render the same
/// image as drawn directly by `upload_gltf` (same camera, sun and clear colour).
#[test]
fn sample_models_placed_in_a_level_render_as_the_static_model_path_draws_them() {
    use sierra_render::{Camera, FrameData, Sun};
    let ctx = GpuContext::headless().unwrap();
    for (folder, file) in [
        ("NormalTangentTest", "NormalTangentTest.glb"),
        ("NormalTangentMirrorTest", "NormalTangentMirrorTest.glb"),
        ("NegativeScaleTest", "NegativeScaleTest.glb"),
        ("AnimatedCube", "AnimatedCube.gltf"),
        ("CesiumMan", "CesiumMan.glb"),
        ("Fox", "Fox.glb"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        if copy_model(folder, dir.path()).is_none() {
            return;
        }
        let asset = sierra_gltf::GltfAsset::load(dir.path().join(file)).unwrap();
        let mut direct = HeadlessRenderer::new(&ctx, SIZE, SIZE).unwrap();
        let model = sierra_content::upload_gltf(&ctx, &mut direct.renderer, &asset).unwrap();
        let (eye, centre, near, far) = gltf_checks::view(model.bounds_min, model.bounds_max);
        let frame = FrameData {
            camera: Camera::look_at(eye, centre, Vec3::Y, 45f32.to_radians(), 1.0, near, far),
            sun: Sun {
                direction: gltf_checks::SUN_DIRECTION,
                color: Vec3::ONE,
                intensity: 1.0,
                ambient: Vec3::splat(gltf_checks::AMBIENT),
            },
            draws: model.draws.clone(),
            clear_color: gltf_checks::CLEAR.extend(1.0),
            ..FrameData::new(Camera::look_at(eye, centre, Vec3::Y, 1.0, 1.0, near, far))
        };
        let (want, _) = direct.render(&ctx, &frame).unwrap();
        let path = checks_level(dir.path(), file, model.bounds_min, model.bounds_max);
        let got = render(&ctx, &path, &[1]).remove(0);
        got.save(std::env::temp_dir().join(format!("sierra_level_gltf_{folder}.png")))
            .ok();
        let diff = sierra_testkit::image_diff::ImageDiff::of(got.as_raw(), want.as_raw());
        assert!(diff.matches_golden(), "{folder} in a level: {diff:?}");
    }
}

/// Level-placed variants of `sierra_content/tests/gltf_render.rs`: NormalTangentTest,
/// NormalTangentMirrorTest, NegativeScaleTest and the textured models placed in a level by
/// `mesh` pass the same pixel checks as when drawn directly.
#[test]
fn gltf_render_checks_hold_for_models_placed_in_a_level() {
    type Check = fn(&image::RgbaImage, &str);
    let checks: [(&str, &str, Check); 6] = [
        ("NormalTangentTest", "NormalTangentTest.glb", |i, _| {
            gltf_checks::check_normal_tangent(i)
        }),
        (
            "NormalTangentMirrorTest",
            "NormalTangentMirrorTest.glb",
            |i, _| gltf_checks::check_normal_tangent_mirror(i),
        ),
        ("NegativeScaleTest", "NegativeScaleTest.glb", |i, _| {
            gltf_checks::check_negative_scale(i)
        }),
        (
            "AnimatedCube",
            "AnimatedCube.gltf",
            gltf_checks::check_textured,
        ),
        ("CesiumMan", "CesiumMan.glb", gltf_checks::check_textured),
        ("Fox", "Fox.glb", gltf_checks::check_textured),
    ];
    let ctx = GpuContext::headless().unwrap();
    for (folder, file, check) in checks {
        let dir = tempfile::tempdir().unwrap();
        if copy_model(folder, dir.path()).is_none() {
            return;
        }
        let (lo, hi) = model_bounds(&ctx, dir.path(), file);
        let path = checks_level(dir.path(), file, lo, hi);
        let lit = sierra_render::DebugView::Lit;
        let image = render_as(&ctx, &path, &[1], lit, gltf_checks::SIZE).remove(0);
        image
            .save(std::env::temp_dir().join(format!("sierra_level_checks_{folder}.png")))
            .ok();
        check(&image, folder);
    }
}

/// Pixel position (x right, y down, pixel corners at integers) of world point `p` seen by the
/// camera of [`level`] (`target`, `distance`, `fov`) in a `SIZE`² image.
fn project(p: Vec3, target: Vec3, distance: f32, fov: f32) -> (f32, f32) {
    let camera = sierra_render::Camera::look_at(
        target + Vec3::Z * distance,
        target,
        Vec3::Y,
        fov.to_radians(),
        1.0,
        0.5,
        200.0,
    );
    let ndc = camera.view_proj().project_point3(p);
    (
        (ndc.x * 0.5 + 0.5) * SIZE as f32,
        (0.5 - ndc.y * 0.5) * SIZE as f32,
    )
}

/// Pixel bounds `(x0, x1, y0, y1)` of `points` seen as [`project`] does.
fn projected_extent(points: &[[f32; 3]], target: Vec3, distance: f32, fov: f32) -> [f32; 4] {
    let mut e = [f32::MAX, f32::MIN, f32::MAX, f32::MIN];
    for &p in points {
        let (x, y) = project(Vec3::from(p), target, distance, fov);
        e = [e[0].min(x), e[1].max(x), e[2].min(y), e[3].max(y)];
    }
    e
}

/// Largest difference, pixels, between an image's drawn extent and `expected`.
fn extent_error(image: &image::RgbaImage, expected: [f32; 4]) -> f32 {
    let (x0, x1, y0, y1) = extent(image).expect("something is drawn");
    // Pixel centres: a drawn column x covers [x, x + 1).
    let got = [x0 as f32, x1 as f32 + 1.0, y0 as f32, y1 as f32 + 1.0];
    got.iter()
        .zip(&expected)
        .map(|(g, e)| (g - e).abs())
        .fold(0.0, f32::max)
}

/// Vertices of every primitive of `asset`'s first skinned mesh node posed by clip 0 at `time`
/// through the animation job (`ModelPoser`, the path `sierra view` and characters use), or
/// without a time as the static path draws a skinned mesh: its bind-pose vertices placed by its
/// node's rest world matrix.
fn skinned_vertices(asset: &sierra_gltf::GltfAsset, time: Option<f32>) -> Vec<[f32; 3]> {
    let inst = asset.skin_instances()[0];
    let joints = asset.skin(inst.skin).unwrap().joint_count();
    let mut poser = sierra_content::ModelPoser::new(asset, inst.skin).unwrap();
    let palette = match time {
        Some(t) => poser
            .palette(0, t, sierra_anim::Playback::Loop)
            .unwrap()
            .to_vec(),
        None => vec![asset.rest_world_matrices()[inst.node]; joints],
    };
    let mut out = Vec::new();
    for prim in &asset.meshes[inst.mesh].primitives {
        let mesh = sierra_content::skinned_mesh::skinned_primitive_mesh(prim, joints).unwrap();
        out.extend(
            sierra_render::compute::skinning::skin_on_cpu_morphed(&mesh, &[], &palette).positions,
        );
    }
    out
}

/// Vertices of `asset`'s morphed node `node` (no skin) with clip 0's weights at `time` (the
/// mesh's default weights for `None`), placed by the node's rest world matrix.
fn morphed_vertices(
    asset: &sierra_gltf::GltfAsset,
    node: usize,
    time: Option<f32>,
) -> Vec<[f32; 3]> {
    let mesh = &asset.meshes[asset.nodes[node].mesh.unwrap()];
    let world = asset.rest_world_matrices()[node];
    let clips = sierra_content::poser::NodeClips::new(asset).unwrap();
    let mut weights = Vec::new();
    match time {
        Some(t) => sierra_content::poser::node_morph_weights(
            clips.clip(0).unwrap(),
            node,
            &mesh.weights,
            t,
            sierra_anim::Playback::Loop,
            &mut weights,
        )
        .unwrap(),
        None => weights.clone_from(&mesh.weights),
    }
    let mut out = Vec::new();
    for prim in &mesh.primitives {
        let data = sierra_content::skinned_mesh::rigid_primitive_mesh(prim).unwrap();
        out.extend(
            sierra_render::compute::skinning::skin_on_cpu_morphed(&data, &weights, &[world])
                .positions,
        );
    }
    out
}

/// A camera on +Z framing `points` (their bounding sphere, `room` times larger to move in).
fn framing(points: &[[f32; 3]], room: f32) -> (Vec3, f32, f32) {
    let (lo, hi) = points.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), &p| {
        (lo.min(Vec3::from(p)), hi.max(Vec3::from(p)))
    });
    let fov = 40f32;
    let radius = (hi - lo).length() * 0.5;
    (
        (lo + hi) * 0.5,
        radius * room / (fov.to_radians() / 2.0).tan() + radius,
        fov,
    )
}

/// A level object whose `mesh` is a skinned or morphed file plays its skin / morph weights with
/// an `Animator`: at each tick the silhouette's extent is the projection of the vertices posed
/// (or morphed) on the CPU by the view's animation job at that time; without the `Animator`
/// the model keeps its bind pose (and the posed extents are far enough from it that the
/// comparison tells them apart).
#[test]
fn skinned_and_morphed_models_in_a_level_play_with_an_animator() {
    let ctx = GpuContext::headless().unwrap();
    type Vertices = fn(&sierra_gltf::GltfAsset, Option<f32>) -> Vec<[f32; 3]>;
    // (folder, file, posed vertices, ticks, framing room).
    let cases: [(&str, &str, Vertices, [usize; 3], f32); 3] = [
        (
            "RiggedSimple",
            "RiggedSimple.glb",
            skinned_vertices,
            [20, 60, 100],
            1.6,
        ),
        (
            "CesiumMan",
            "CesiumMan.glb",
            skinned_vertices,
            [10, 40, 70],
            1.6,
        ),
        (
            "AnimatedMorphCube",
            "AnimatedMorphCube.glb",
            |a, t| {
                let node = (0..a.nodes.len())
                    .find(|&n| a.nodes[n].mesh.is_some())
                    .unwrap();
                morphed_vertices(a, node, t)
            },
            [63, 126, 189],
            1.05,
        ),
    ];
    for (folder, file, vertices, ticks, room) in cases {
        let dir = tempfile::tempdir().unwrap();
        if copy_model(folder, dir.path()).is_none() {
            return;
        }
        let asset = sierra_gltf::GltfAsset::load(dir.path().join(file)).unwrap();
        // The object is placed off the origin and scaled: palettes carry its placement.
        let placement = {
            let model = vertices(&asset, None);
            let (lo, hi) = model.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), &p| {
                (lo.min(Vec3::from(p)), hi.max(Vec3::from(p)))
            });
            glam::Affine3A::from_scale_rotation_translation(
                Vec3::splat(1.5),
                Quat::IDENTITY,
                Vec3::new(0.4 * (hi.x - lo.x), -0.2 * (hi.y - lo.y), 0.0),
            )
        };
        let vertices = |time: Option<f32>| -> Vec<[f32; 3]> {
            let points = vertices(&asset, time).into_iter().map(Vec3::from);
            points
                .map(|p| placement.transform_point3(p).to_array())
                .collect()
        };
        let rest = vertices(None);
        let (target, distance, fov) = framing(&rest, room);
        let place = |path: PathBuf| {
            let (t, s) = (placement.translation, 1.5);
            let json = std::fs::read_to_string(&path).unwrap().replace(
                r#""mesh":"#,
                &format!(
                    r#""position": [{}, {}, {}], "scale": {s}, "mesh":"#,
                    t.x, t.y, t.z
                ),
            );
            std::fs::write(&path, json).unwrap();
            path
        };
        let animated = place(level(
            dir.path(),
            file,
            r#"{"type": "Animator"}"#,
            target,
            distance,
            fov,
        ));
        let still = place(level(dir.path(), file, "", target, distance, fov));
        let images = render(&ctx, &animated, &ticks);
        let bind = render(&ctx, &still, &[ticks[2]]).remove(0);
        let rest_extent = projected_extent(&rest, target, distance, fov);
        let mut moved = 0.0f32;
        for (image, &t) in images.iter().zip(&ticks) {
            image
                .save(std::env::temp_dir().join(format!("sierra_level_skin_{folder}_{t}.png")))
                .ok();
            let posed = projected_extent(&vertices(Some(seconds(t))), target, distance, fov);
            let error = extent_error(image, posed);
            assert!(
                error <= 2.5,
                "{folder} tick {t}: silhouette {:?} vs posed {posed:?} ({error:.1} px off)",
                extent(image)
            );
            moved = moved.max(
                posed
                    .iter()
                    .zip(&rest_extent)
                    .map(|(a, b)| (a - b).abs())
                    .fold(0.0, f32::max),
            );
        }
        assert!(
            moved > 6.0,
            "{folder}: the clip moves the extent only {moved:.1} px"
        );
        let error = extent_error(&bind, rest_extent);
        assert!(
            error <= 2.5,
            "{folder} without an Animator: silhouette {:?} vs bind pose {rest_extent:?}",
            extent(&bind)
        );
    }
}

/// Centroid (pixel centres at +0.5) of the pixels of `image` in columns `columns` that `select`
/// picks, and their count.
fn centroid(
    image: &image::RgbaImage,
    columns: std::ops::Range<u32>,
    select: impl Fn(&image::Rgba<u8>) -> bool,
) -> ((f32, f32), usize) {
    let (mut sx, mut sy, mut n) = (0.0, 0.0, 0);
    for (x, y, p) in image.enumerate_pixels() {
        if columns.contains(&x) && select(p) {
            (sx, sy, n) = (sx + x as f32 + 0.5, sy + y as f32 + 0.5, n + 1);
        }
    }
    ((sx / n.max(1) as f32, sy / n.max(1) as f32), n)
}

/// BoxAnimated and AnimatedCube placed side by side in one level by `mesh`, each with an
/// `Animator`: the level draws them (its pixels differ from the same level without them), and
/// at several times the centroid of each moving node's pixels is the projection of that node's
/// position as the clip's keys place it (BoxAnimated's inner box: the object's position plus
/// node 0's translation, keys interpolated here, seen once it has risen clear of the outer box;
/// AnimatedCube turns about its own centre, which stays put while its frames change). Unlit
/// albedo tells BoxAnimated's pink inner box from its blue outer box.
#[test]
fn box_animated_and_animated_cube_in_one_level_move_as_their_clips_say() {
    let dir = tempfile::tempdir().unwrap();
    if copy_model("BoxAnimated", dir.path()).is_none()
        || copy_model("AnimatedCube", dir.path()).is_none()
    {
        return;
    }
    let rise = box_animated_rise(dir.path());
    // Far and narrow: nearly orthographic, so a box's silhouette centroid is its centre.
    let (target, distance, fov) = (Vec3::new(0.0, 1.75, 0.0), 40.0, 10f32);
    let (box_at, cube_at) = (Vec3::new(-2.0, 0.0, 0.0), Vec3::new(2.0, 1.75, 0.0));
    let camera = format!(
        r#"{}, "clearColor": [0, 0, 0]"#,
        camera_json(target + Vec3::Z * distance, target, fov, 0.5, 200.0)
    );
    let placed = format!(
        r#"{{{camera}, "objects": [
  {{"name": "Box", "mesh": "BoxAnimated.glb", "position": [{}, {}, 0], "components": [{{"type": "Animator"}}]}},
  {{"name": "Cube", "mesh": "AnimatedCube.gltf", "position": [{}, {}, 0], "components": [{{"type": "Animator"}}]}}
]}}"#,
        box_at.x, box_at.y, cube_at.x, cube_at.y
    );
    let (with, without) = (
        dir.path().join("with.json"),
        dir.path().join("without.json"),
    );
    std::fs::write(&with, placed).unwrap();
    std::fs::write(&without, format!(r#"{{{camera}, "objects": []}}"#)).unwrap();
    let ctx = GpuContext::headless().unwrap();
    // 0.75 s and 1.1 s rising, 1.8 s turning at the top, 3.0 s coming down: always clear of
    // the outer box (rise > 1 m).
    let ticks = [45, 66, 108, 180];
    let albedo = sierra_render::DebugView::UnlitAlbedo;
    let images = render_as(&ctx, &with, &ticks, albedo, SIZE);
    let empty = render_as(&ctx, &without, &[ticks[0]], albedo, SIZE).remove(0);
    assert_ne!(images[0], empty, "the placed models are drawn");
    // The inner material's base colour (0.8, 0.416, 0.795) in sRGB.
    let pink = |p: &image::Rgba<u8>| {
        let want = [231i32, 172, 230];
        p.0[..3]
            .iter()
            .zip(want)
            .all(|(&c, w)| (i32::from(c) - w).abs() <= 12)
    };
    let half = SIZE / 2;
    let mut cube_views = Vec::new();
    for (image, &t) in images.iter().zip(&ticks) {
        image
            .save(std::env::temp_dir().join(format!("sierra_level_two_models_{t}.png")))
            .ok();
        let up = lerp_keys(&rise.times, &rise.values, seconds(t), Vec3::lerp);
        assert!(
            up.y > 1.05,
            "tick {t}: the inner box is clear of the outer one"
        );
        let want = project(box_at + up, target, distance, fov);
        let (got, n) = centroid(image, 0..half, pink);
        assert!(
            n > 30 && (got.0 - want.0).abs() <= 1.0 && (got.1 - want.1).abs() <= 1.0,
            "tick {t}: inner box centroid {got:?} ({n} px), its node projects to {want:?}"
        );
        let want = project(cube_at, target, distance, fov);
        let (got, n) = centroid(image, half..SIZE, lit);
        assert!(
            n > 30 && (got.0 - want.0).abs() <= 1.0 && (got.1 - want.1).abs() <= 1.0,
            "tick {t}: AnimatedCube centroid {got:?} ({n} px), its node projects to {want:?}"
        );
        cube_views.push(image.view(half, 0, SIZE - half, SIZE).to_image());
    }
    assert!(
        cube_views.windows(2).any(|w| w[0] != w[1]),
        "AnimatedCube's frames change as it turns"
    );
}
