//! Clips on real sample files against the glTF spec formulas, computed
//! independently in `common` from the raw file bytes.

mod common;

use common::RawGltf;
use glam::{Mat4, Vec4};
use sierra_anim::{
    local_to_model, sample_clip, sample_morph_weights, Playback, SamplingContext, Transform,
};
use sierra_gltf::{ChannelData, GltfAsset, ImportOptions};

/// Local transforms of every node of `asset` with clip `clip` at `t` (importer + runtime).
fn node_locals(asset: &GltfAsset, clip: usize, t: f32) -> Vec<Transform> {
    let (skel, nodes) = asset.node_skeleton().unwrap();
    let built = asset.build_clip(clip, &skel, &nodes).unwrap();
    let mut local = vec![Transform::IDENTITY; skel.joint_count()];
    sample_clip(
        &built,
        t,
        Playback::Once,
        &mut SamplingContext::new(skel.joint_count()),
        &mut local,
    )
    .unwrap();
    let mut by_node = vec![Transform::IDENTITY; nodes.len()];
    for (j, &n) in nodes.iter().enumerate() {
        by_node[n] = local[j];
    }
    by_node
}

fn key_times_and_midpoints(raw: &RawGltf, anim: usize) -> Vec<f32> {
    let s = &raw.json["animations"][anim]["samplers"][0];
    let input = raw.accessor(s["input"].as_u64().unwrap() as usize);
    let mut ts = vec![0.0];
    for w in input.windows(2) {
        ts.push(w[0]);
        ts.push(0.5 * (w[0] + w[1]));
        ts.push(w[0] + 0.25 * (w[1] - w[0]));
    }
    ts.push(*input.last().unwrap());
    ts.push(input.last().unwrap() + 1.0);
    ts
}

#[test]
fn interpolation_test_step_linear_cubicspline_match_spec_formulas() {
    let Some(path) = sierra_testkit::shared_asset("gltf/InterpolationTest/InterpolationTest.glb")
    else {
        return;
    };
    let raw = RawGltf::load(&path);
    let asset = GltfAsset::load_with(&path, ImportOptions::ANIMATION_ONLY).unwrap();
    assert_eq!(asset.clips.len(), 9);
    let mut kinds = std::collections::BTreeSet::new();
    for a in 0..asset.clips.len() {
        let ch = &raw.json["animations"][a]["channels"][0];
        let node = ch["target"]["node"].as_u64().unwrap() as usize;
        let path = ch["target"]["path"].as_str().unwrap().to_owned();
        kinds.insert((
            raw.json["animations"][a]["samplers"][0]["interpolation"]
                .as_str()
                .unwrap()
                .to_owned(),
            path.clone(),
        ));
        for t in key_times_and_midpoints(&raw, a) {
            let expected = raw.sample_channel(a, 0, t);
            let got = node_locals(&asset, a, t)[node];
            let ok = match path.as_str() {
                "translation" => {
                    (Vec4::from((got.translation, 0.0)) - expected)
                        .abs()
                        .max_element()
                        < 1e-5
                }
                "scale" => {
                    (Vec4::from((got.scale, 0.0)) - expected)
                        .abs()
                        .max_element()
                        < 1e-5
                }
                _ => Vec4::from(got.rotation).dot(expected).abs() > 1.0 - 1e-6,
            };
            assert!(
                ok,
                "{} ({path}) at t={t}: got {got:?}, spec {expected:?}",
                asset.clips[a].name
            );
        }
    }
    assert_eq!(
        kinds.len(),
        9,
        "all 3 interpolations × 3 paths covered: {kinds:?}"
    );
}

#[test]
fn morph_weights_match_spec_formulas() {
    for rel in [
        "gltf/AnimatedMorphCube/AnimatedMorphCube.glb",
        "gltf/SimpleMorph/SimpleMorph.gltf",
    ] {
        let Some(path) = sierra_testkit::shared_asset(rel) else {
            return;
        };
        let raw = RawGltf::load(&path);
        let asset = GltfAsset::load(&path).unwrap();
        let (skel, nodes) = asset.node_skeleton().unwrap();
        let clip = asset.build_clip(0, &skel, &nodes).unwrap();
        assert_eq!(clip.morph_tracks().len(), 1, "{rel}");
        let track = &clip.morph_tracks()[0];
        let mesh = asset.nodes[track.target()].mesh.unwrap();
        assert_eq!(
            track.weight_count(),
            asset.meshes[mesh].morph_target_count(),
            "{rel}"
        );
        let mut w = vec![0.0; track.weight_count()];
        let mut checked = 0;
        for t in key_times_and_midpoints(&raw, 0) {
            sample_morph_weights(&clip, 0, t, Playback::Once, &mut w).unwrap();
            let expected = raw.sample_sampler(0, 0, t);
            for (g, e) in w.iter().zip(&expected) {
                assert!((g - e).abs() < 1e-5, "{rel} t={t}: {w:?} vs {expected:?}");
            }
            checked += 1;
        }
        assert!(checked > 8);
    }
}

#[test]
fn bone_lengths_stay_what_the_clip_translations_say() {
    for rel in [
        "gltf/Fox/Fox.glb",
        "gltf/CesiumMan/CesiumMan.glb",
        "gltf/RiggedSimple/RiggedSimple.glb",
        "gltf/SimpleSkin/SimpleSkin.gltf",
    ] {
        let Some(path) = sierra_testkit::shared_asset(rel) else {
            return;
        };
        let asset = GltfAsset::load_with(&path, ImportOptions::ANIMATION_ONLY).unwrap();
        for (s, skin) in asset.skins.iter().enumerate() {
            let n = skin.skeleton.joint_count();
            for c in 0..asset.clips.len() {
                let clip = asset.skin_clip(s, c).unwrap();
                // The clip's own translation keys per node (independent of sampling):
                let keys: Vec<(usize, Vec<f32>, Vec<glam::Vec3>)> = asset.clips[c]
                    .channels
                    .iter()
                    .filter_map(|ch| match &ch.data {
                        ChannelData::Translation(t)
                            if t.interpolation != sierra_anim::Interpolation::CubicSpline =>
                        {
                            Some((ch.node, t.times.clone(), t.values.clone()))
                        }
                        _ => None,
                    })
                    .collect();
                let mut local = vec![Transform::IDENTITY; n];
                let mut model = vec![Mat4::IDENTITY; n];
                let mut ctx = SamplingContext::new(n);
                let mut checked = 0;
                for (node, times, values) in &keys {
                    let Some(j) = skin.skeleton_nodes.iter().position(|x| x == node) else {
                        continue;
                    };
                    let Some(p) = skin.skeleton.parent(j) else {
                        continue;
                    };
                    for (k, &t) in times.iter().enumerate().step_by(5) {
                        sample_clip(&clip, t, Playback::Once, &mut ctx, &mut local).unwrap();
                        local_to_model(&skin.skeleton, &local, Mat4::IDENTITY, &mut model).unwrap();
                        let bone = model[j].w_axis.truncate() - model[p].w_axis.truncate();
                        let expected = model[p].transform_vector3(values[k]);
                        assert!(
                            (bone.length() - expected.length()).abs()
                                < 1e-4 * (1.0 + expected.length()),
                            "{rel} clip {c} node {node} t {t}: {} vs {}",
                            bone.length(),
                            expected.length()
                        );
                        checked += 1;
                    }
                }
                // Un-animated bones keep their rest length at any time.
                sample_clip(
                    &clip,
                    clip.duration() * 0.37,
                    Playback::Once,
                    &mut ctx,
                    &mut local,
                )
                .unwrap();
                local_to_model(&skin.skeleton, &local, Mat4::IDENTITY, &mut model).unwrap();
                for j in 0..n {
                    if let Some(p) = skin.skeleton.parent(j) {
                        if !keys.iter().any(|k| k.0 == skin.skeleton_nodes[j]) {
                            let rest = model[p]
                                .transform_vector3(skin.skeleton.rest_pose()[j].translation.into())
                                .length();
                            let bone = (model[j].w_axis - model[p].w_axis).truncate().length();
                            assert!((bone - rest).abs() < 1e-4 * (1.0 + rest), "{rel} joint {j}");
                        }
                    }
                }
                let _ = checked;
            }
        }
    }
}

#[test]
fn shortest_path_on_animated_triangle_and_no_nan_on_180_degree_keys() {
    // AnimatedTriangle's last segment has keys with a negative dot product: the
    // shortest arc keeps turning the same way (rotation angle about +Z increases).
    let Some(path) = sierra_testkit::shared_asset("gltf/AnimatedTriangle/AnimatedTriangle.gltf")
    else {
        return;
    };
    let asset = GltfAsset::load(&path).unwrap();
    let raw = RawGltf::load(&path);
    for t in [0.8, 0.85, 0.9, 0.95, 1.0] {
        let got = node_locals(&asset, 0, t)[0].rotation;
        let exp = raw.sample_channel(0, 0, t).normalize();
        assert!(
            Vec4::from(got).dot(exp).abs() > 1.0 - 1e-6,
            "t={t} {got:?} {exp:?}"
        );
    }
    let Some(path) = sierra_testkit::shared_asset("gltf/AnimatedCube/AnimatedCube.gltf") else {
        return;
    };
    let asset = GltfAsset::load(&path).unwrap();
    for k in 0..=40 {
        assert!(node_locals(&asset, 0, k as f32 * 0.05)[0]
            .rotation
            .is_finite());
    }
}
