//! Morph targets on the GPU (glTF 2.0 §3.7.2.2), applied by the skinning compute pass before
//! skinning: AnimatedMorphCube and SimpleMorph at several times of their `weights` animation,
//! read back from the GPU, equal a CPU reference computed here from the imported deltas (then
//! placed by a non-uniformly scaled, rotated joint, so morphing after skinning would differ);
//! MorphPrimitivesTest renders with its mesh-level default weights, differently from unmorphed;
//! a skinned model (`SkinnedModel`) follows its clip's `weights` channel before skinning.
//! Images: `sierra_morph_*.png` in the temp directory.

// The renderer tests' helpers (GPU context, frames, HDR targets), shared rather than copied.
#[path = "../../sierra_render/tests/support/mod.rs"]
mod support;

use glam::{Mat4, Quat, Vec3, Vec4};
use sierra_anim::{sample_morph_weights, Playback};
use sierra_content::skinned_mesh::rigid_primitive_mesh;
use sierra_gltf::GltfAsset;
use sierra_render::compute::skinning::{skin_on_cpu_morphed, SkinnedDrawItem, Skinning};
use sierra_render::{FrameData, HeadlessRenderer, Material, RenderError};
use support::context;

/// The joint that places the morphed mesh: non-uniform scale and a rotation, so the order of
/// morphing and skinning matters.
fn joint() -> Mat4 {
    Mat4::from_scale_rotation_translation(
        Vec3::new(2.0, 0.5, 1.5),
        Quat::from_rotation_y(0.8) * Quat::from_rotation_x(-0.4),
        Vec3::new(0.3, -0.2, 0.1),
    )
}

/// `[target]` weights of `node`'s `weights` channel in clip 0 at `time` seconds.
fn sampled_weights(asset: &GltfAsset, node: usize, time: f32) -> Vec<f32> {
    let (skeleton, nodes) = asset.node_skeleton().unwrap();
    let clip = asset.build_clip(0, &skeleton, &nodes).unwrap();
    let track = clip
        .morph_tracks()
        .iter()
        .position(|t| t.target() == node)
        .expect("a weights channel on the mesh node");
    let mut weights = vec![0.0; clip.morph_tracks()[track].weight_count()];
    sample_morph_weights(&clip, track, time, Playback::Loop, &mut weights).unwrap();
    weights
}

/// GPU-morphed and skinned positions of every vertex of `asset`'s first mesh node's first
/// primitive at `times`, against `joint · (p + Σ wₖ Δₖ)` from the imported primitive.
fn check_against_cpu(asset: &GltfAsset, times: &[f32], name: &str) {
    let node = asset.nodes.iter().position(|n| n.mesh.is_some()).unwrap();
    let prim = &asset.meshes[asset.nodes[node].mesh.unwrap()].primitives[0];
    assert!(!prim.morph_targets.is_empty(), "{name} has morph targets");
    let ctx = context();
    let mut headless = HeadlessRenderer::new(&ctx, 16, 16).unwrap();
    let mut skinning = Skinning::new(&ctx).unwrap();
    let mesh = rigid_primitive_mesh(prim).unwrap();
    let handle = skinning
        .upload(&ctx, headless.renderer.meshes_mut(), &mesh, name)
        .unwrap();
    let palette = [joint()];
    let mut any_weight = false;
    for &t in times {
        let weights = sampled_weights(asset, node, t);
        any_weight |= weights.iter().any(|w| w.abs() > 0.05);
        skinning.set_morph_weights(&ctx, handle, &weights).unwrap();
        let draws = [SkinnedDrawItem {
            mesh: handle,
            model: Mat4::IDENTITY,
            palette_offset: 0,
            material: Material::default(),
        }];
        let mut out = Vec::new();
        skinning.skin(&ctx, &palette, &draws, &mut out).unwrap();
        let gpu_mesh = headless
            .renderer
            .mesh(skinning.output_mesh(handle).unwrap())
            .unwrap();
        let bytes = sierra_render::readback::read_buffer(&ctx, &gpu_mesh.vertex_buffer).unwrap();
        let floats: &[f32] = bytemuck::cast_slice(&bytes);
        let cpu = skin_on_cpu_morphed(&mesh, &weights, &palette);
        let mut worst = 0.0f32;
        for (v, p) in prim.positions.iter().enumerate() {
            let morphed = prim
                .morph_targets
                .iter()
                .zip(&weights)
                .fold(*p, |acc, (target, w)| acc + target.positions[v] * *w);
            let expected = joint().transform_point3(morphed);
            let gpu = Vec3::from_slice(&floats[v * 16..v * 16 + 3]);
            worst = worst.max((gpu - expected).length());
            assert!(
                (Vec3::from(cpu.positions[v]) - expected).length() < 1e-5,
                "{name} t={t} vertex {v}: CPU skin_on_cpu_morphed disagrees"
            );
            // Morphing after skinning would put the vertex elsewhere (scale is not uniform).
            let after = joint().transform_point3(*p)
                + prim
                    .morph_targets
                    .iter()
                    .zip(&weights)
                    .fold(Vec3::ZERO, |acc, (target, w)| {
                        acc + target.positions[v] * *w
                    });
            if (after - expected).length() > 1e-3 {
                assert!((gpu - after).length() > 1e-4);
            }
        }
        assert!(
            worst < 1e-4,
            "{name} t={t}: GPU is {worst} m off the CPU reference"
        );
        // Normals stay unit length after the deltas (renormalised).
        for v in 0..prim.positions.len() {
            let n = Vec3::from_slice(&floats[v * 16 + 3..v * 16 + 6]);
            assert!((n.length() - 1.0).abs() < 1e-3, "{name} t={t}: normal {n}");
        }
    }
    assert!(
        any_weight,
        "{name}: the sampled weights are all ~0, the test shows nothing"
    );
}

#[test]
fn animated_morph_cube_gpu_morph_matches_the_cpu_reference() {
    let Some(path) = sierra_testkit::shared_asset("gltf/AnimatedMorphCube/AnimatedMorphCube.glb")
    else {
        return;
    };
    let asset = GltfAsset::load(&path).unwrap();
    check_against_cpu(&asset, &[0.5, 1.3, 2.2, 3.7], "AnimatedMorphCube");
}

#[test]
fn simple_morph_gpu_morph_matches_the_cpu_reference() {
    let Some(path) = sierra_testkit::shared_asset("gltf/SimpleMorph/SimpleMorph.gltf") else {
        return;
    };
    let asset = GltfAsset::load(&path).unwrap();
    check_against_cpu(&asset, &[0.4, 1.5, 2.5, 3.3], "SimpleMorph");
}

#[test]
fn morph_primitives_test_renders_with_its_default_weights() {
    let Some(path) =
        sierra_testkit::shared_asset("gltf/MorphPrimitivesTest/MorphPrimitivesTest.glb")
    else {
        return;
    };
    let asset = GltfAsset::load(&path).unwrap();
    let ctx = context();
    let size = 96;
    let world = asset.rest_world_matrices();
    let render = |use_weights: bool| {
        let mut headless = HeadlessRenderer::new(&ctx, size, size).unwrap();
        let mut skinning = Skinning::new(&ctx).unwrap();
        let (mut palettes, mut draws) = (Vec::new(), Vec::new());
        let (mut lo, mut hi) = (Vec3::INFINITY, Vec3::NEG_INFINITY);
        for (n, node) in asset.nodes.iter().enumerate() {
            let Some(m) = node.mesh else { continue };
            let mesh = &asset.meshes[m];
            // Node weights override the mesh's defaults (glTF 2.0 §3.7.2.2).
            let weights = if node.weights.is_empty() {
                &mesh.weights
            } else {
                &node.weights
            };
            for (k, prim) in mesh.primitives.iter().enumerate() {
                let data = rigid_primitive_mesh(prim).unwrap();
                for p in &prim.positions {
                    let w = world[n].transform_point3(*p);
                    (lo, hi) = (lo.min(w), hi.max(w));
                }
                let h = skinning
                    .upload(
                        &ctx,
                        headless.renderer.meshes_mut(),
                        &data,
                        &format!("{n}.{k}"),
                    )
                    .unwrap();
                let zeros = vec![0.0; weights.len()];
                skinning
                    .set_morph_weights(&ctx, h, if use_weights { weights } else { &zeros })
                    .unwrap();
                draws.push(SkinnedDrawItem {
                    mesh: h,
                    model: Mat4::IDENTITY,
                    palette_offset: palettes.len() as u32,
                    material: Material {
                        base_color: Vec4::new(0.8, 0.5, 0.3, 1.0),
                        ..Material::default()
                    },
                });
                palettes.push(world[n]);
            }
        }
        // Low and from the side: the bumps (POSITION deltas along +Y, no normal deltas) show
        // in the silhouette.
        let camera = support::framing_camera(
            (lo, hi),
            Vec3::new(1.0, 0.25, 0.35),
            2.2,
            45f32.to_radians(),
        );
        let mut frame = FrameData {
            clear_color: Vec4::new(0.1, 0.1, 0.12, 1.0),
            ..FrameData::new(camera)
        };
        frame.post.shadow.enabled = false;
        skinning
            .skin(&ctx, &palettes, &draws, &mut frame.draws)
            .unwrap();
        // The highest morphed vertex of each primitive, read back from the GPU.
        let tops: Vec<f32> = draws
            .iter()
            .map(|d| {
                let mesh = headless
                    .renderer
                    .mesh(skinning.output_mesh(d.mesh).unwrap())
                    .unwrap();
                let bytes =
                    sierra_render::readback::read_buffer(&ctx, &mesh.vertex_buffer).unwrap();
                let floats: &[f32] = bytemuck::cast_slice(&bytes);
                floats
                    .chunks_exact(16)
                    .map(|v| v[1])
                    .fold(f32::NEG_INFINITY, f32::max)
            })
            .collect();
        (headless.render(&ctx, &frame).unwrap().0, tops)
    };
    let (morphed, tops) = render(true);
    let (flat, flat_tops) = render(false);
    // Each primitive's single target moves vertices up to 0.2 m along +Y; the mesh-level
    // default weight 0.5 applies to both primitives: 0.1 m bumps. Unmorphed, the plane is flat.
    assert_eq!(tops.len(), 2);
    for (top, flat_top) in tops.iter().zip(&flat_tops) {
        assert!((top - 0.1).abs() < 1e-5, "morphed top {top}");
        assert!(flat_top.abs() < 1e-6, "unmorphed top {flat_top}");
    }
    let dir = std::env::temp_dir();
    morphed.save(dir.join("sierra_morph_primitives.png")).ok();
    flat.save(dir.join("sierra_morph_primitives_unmorphed.png"))
        .ok();
    let background = *morphed.get_pixel(0, 0);
    let covered = morphed.pixels().filter(|p| **p != background).count();
    assert!(covered > 500, "only {covered} pixels covered");
    let differing = morphed
        .pixels()
        .zip(flat.pixels())
        .filter(|(a, b)| a.0.iter().zip(b.0).any(|(x, y)| x.abs_diff(y) > 8))
        .count();
    assert!(
        differing > 20,
        "weights 0.5 look like weights 0: {differing} pixels differ"
    );
}

#[test]
fn bad_morph_weights_are_clear_errors() {
    let Some(path) = sierra_testkit::shared_asset("gltf/SimpleMorph/SimpleMorph.gltf") else {
        return;
    };
    let asset = GltfAsset::load(&path).unwrap();
    let ctx = context();
    let mut headless = HeadlessRenderer::new(&ctx, 16, 16).unwrap();
    let mut skinning = Skinning::new(&ctx).unwrap();
    let mesh = rigid_primitive_mesh(&asset.meshes[0].primitives[0]).unwrap();
    let h = skinning
        .upload(&ctx, headless.renderer.meshes_mut(), &mesh, "m")
        .unwrap();
    for (weights, words) in [
        (vec![0.5], "2 morph targets but 1 weights"),
        (vec![0.5, f32::NAN], "is NaN"),
    ] {
        match skinning.set_morph_weights(&ctx, h, &weights) {
            Err(RenderError::InvalidInput(m)) => assert!(m.contains(words), "{m}"),
            other => panic!("{weights:?}: {other:?}"),
        }
    }
    // Deltas that do not match the vertex count are refused at upload.
    let mut broken = mesh.clone();
    broken.morph_targets[1].positions.pop();
    match skinning.upload(&ctx, headless.renderer.meshes_mut(), &broken, "broken") {
        Err(RenderError::InvalidInput(m)) => assert!(m.contains("morph target 1"), "{m}"),
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("uploaded mismatched morph deltas"),
    }
}

/// A one-triangle skinned mesh with one morph target (vertex 2 moves +1 m along z) whose
/// weight a LINEAR `weights` channel animates 0 → 1 over 1 s, and one joint 2 m up
/// (identity inverse bind matrix): written as `.gltf` + `.bin` into `dir`.
fn write_skinned_morph_gltf(dir: &std::path::Path) -> std::path::PathBuf {
    fn f32s(bin: &mut Vec<u8>, v: &[f32]) {
        bin.extend(v.iter().flat_map(|x| x.to_le_bytes()));
    }
    let mut bin: Vec<u8> = Vec::new();
    f32s(&mut bin, &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]); // 0: POSITION, 36 bytes
    bin.extend_from_slice(&[0u8; 12]); // 36: JOINTS_0 (u8 x4), 12 bytes
    let weights = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0];
    f32s(&mut bin, &weights); // 48: WEIGHTS_0
    f32s(&mut bin, &[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]); // 96: target deltas
    f32s(&mut bin, &Mat4::IDENTITY.to_cols_array()); // 132: inverse bind matrix
    f32s(&mut bin, &[0.0, 1.0]); // 196: key times
    f32s(&mut bin, &[0.0, 1.0]); // 204: weights per key
    assert_eq!(bin.len(), 212);
    std::fs::write(dir.join("morph_skin.bin"), &bin).unwrap();
    let json = r#"{
  "asset": {"version": "2.0"},
  "scene": 0,
  "scenes": [{"nodes": [0, 1]}],
  "nodes": [{"name": "mesh", "mesh": 0, "skin": 0}, {"name": "joint", "translation": [0, 2, 0]}],
  "skins": [{"joints": [1], "inverseBindMatrices": 4}],
  "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2},
                              "targets": [{"POSITION": 3}]}], "weights": [0.0]}],
  "animations": [{"name": "grow", "channels": [{"sampler": 0, "target": {"node": 0, "path": "weights"}}],
                  "samplers": [{"input": 5, "output": 6, "interpolation": "LINEAR"}]}],
  "buffers": [{"uri": "morph_skin.bin", "byteLength": 212}],
  "bufferViews": [
    {"buffer": 0, "byteOffset": 0, "byteLength": 36},
    {"buffer": 0, "byteOffset": 36, "byteLength": 12},
    {"buffer": 0, "byteOffset": 48, "byteLength": 48},
    {"buffer": 0, "byteOffset": 96, "byteLength": 36},
    {"buffer": 0, "byteOffset": 132, "byteLength": 64},
    {"buffer": 0, "byteOffset": 196, "byteLength": 8},
    {"buffer": 0, "byteOffset": 204, "byteLength": 8}
  ],
  "accessors": [
    {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
    {"bufferView": 1, "componentType": 5121, "count": 3, "type": "VEC4"},
    {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC4"},
    {"bufferView": 3, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [0, 0, 1]},
    {"bufferView": 4, "componentType": 5126, "count": 1, "type": "MAT4"},
    {"bufferView": 5, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
    {"bufferView": 6, "componentType": 5126, "count": 2, "type": "SCALAR"}
  ]
}"#;
    let path = dir.join("morph_skin.gltf");
    std::fs::write(&path, json).unwrap();
    path
}

#[test]
fn skinned_model_follows_the_clips_weights_channel_before_skinning() {
    let dir = std::env::temp_dir().join(format!("sierra_morph_skin_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let asset = GltfAsset::load(write_skinned_morph_gltf(&dir)).unwrap();
    let ctx = context();
    let mut headless = HeadlessRenderer::new(&ctx, 16, 16).unwrap();
    let mut model =
        sierra_content::SkinnedModel::upload(&ctx, &mut headless.renderer, &asset).unwrap();
    let handle = model.meshes().next().unwrap();
    let mut poser = sierra_content::ModelPoser::new(&asset, 0).unwrap();
    for t in [0.25f32, 0.75] {
        // The frame path: palettes, draws and morph weights in the frame, skinned by the renderer.
        let mut frame = support::frame(support::square_camera(
            Vec3::new(0.0, 2.0, 6.0),
            Vec3::Y,
            1.0,
            50.0,
        ));
        model.morph_weights(0, t, &mut frame.skinned).unwrap();
        let skinned = &mut frame.skinned;
        let palette = poser.palette(0, t, Playback::Loop).unwrap();
        model
            .draw_with_palette(
                0,
                palette,
                Mat4::IDENTITY,
                &mut skinned.palettes,
                &mut skinned.draws,
            )
            .unwrap();
        headless.render(&ctx, &frame).unwrap();
        let skinning = headless.renderer.skinning().unwrap();
        let mesh = headless
            .renderer
            .mesh(skinning.output_mesh(handle).unwrap())
            .unwrap();
        let bytes = sierra_render::readback::read_buffer(&ctx, &mesh.vertex_buffer).unwrap();
        let floats: &[f32] = bytemuck::cast_slice(&bytes);
        // Vertex 2: (0, 1, 0) morphed by weight t to (0, 1, t), then skinned by the joint 2 m up.
        let v2 = Vec3::from_slice(&floats[32..35]);
        assert!((v2 - Vec3::new(0.0, 3.0, t)).length() < 1e-5, "t={t}: {v2}");
        let v0 = Vec3::from_slice(&floats[0..3]);
        assert!(
            (v0 - Vec3::new(0.0, 2.0, 0.0)).length() < 1e-5,
            "t={t}: {v0}"
        );
    }
    let mut skinned = sierra_render::SkinnedFrame::default();
    assert!(model.morph_weights(7, 0.0, &mut skinned).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}
