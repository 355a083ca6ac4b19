//! Skins, vertex influences and sparse accessors, on real files and on copies
//! of them modified in the test.

mod common;

use std::path::Path;

use common::{assert_mat_close, RawGltf};
use glam::{Mat4, Vec3, Vec4};
use sierra_anim::{
    local_to_model, sample_clip, skinning_palette, Playback, SamplingContext, Transform,
};
use sierra_gltf::{GltfAsset, ImportOptions};

fn load_bytes(bytes: &[u8], name: &str) -> GltfAsset {
    GltfAsset::from_bytes(
        bytes,
        Path::new(name),
        &Default::default(),
        ImportOptions {
            images: false,
            meshes: true,
        },
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// Model-space matrices of skin `skin`'s skeleton posed by clip 0 at `t` (played once).
fn skeleton_models(asset: &GltfAsset, skin: usize, t: f32) -> Vec<Mat4> {
    let skeleton = &asset.skins[skin].skeleton;
    let n = skeleton.joint_count();
    let clip = asset.skin_clip(skin, 0).unwrap();
    let mut local = vec![Transform::IDENTITY; n];
    let mut model = vec![Mat4::IDENTITY; n];
    sample_clip(
        &clip,
        t,
        Playback::Once,
        &mut SamplingContext::new(n),
        &mut local,
    )
    .unwrap();
    local_to_model(skeleton, &local, Mat4::IDENTITY, &mut model).unwrap();
    model
}

/// Palette of skin 0 with clip 0 at `t`.
fn palette(asset: &GltfAsset, t: f32) -> Vec<Mat4> {
    let s = &asset.skins[0];
    let model = skeleton_models(asset, 0, t);
    let mut pal = vec![Mat4::IDENTITY; s.joint_count()];
    skinning_palette(&s.skin, &model, &mut pal).unwrap();
    pal
}

/// Linear-blend-skinned positions of mesh 0 primitive 0.
fn skinned_positions(asset: &GltfAsset, pal: &[Mat4]) -> Vec<Vec3> {
    let p = &asset.meshes[0].primitives[0];
    p.positions
        .iter()
        .zip(&p.joints)
        .zip(&p.weights)
        .map(|((&v, j), w)| {
            (0..4)
                .map(|k| pal[j[k] as usize].transform_point3(v) * w[k])
                .sum()
        })
        .collect()
}

#[test]
fn cesium_man_with_reversed_joints_poses_identically() {
    let Some(path) = sierra_testkit::shared_asset("gltf/CesiumMan/CesiumMan.glb") else {
        return;
    };
    let original = GltfAsset::load_with(
        &path,
        ImportOptions {
            images: false,
            meshes: true,
        },
    )
    .unwrap();
    let mut raw = RawGltf::load(&path);
    let n = raw.json["skins"][0]["joints"].as_array().unwrap().len();
    // Reverse the joints array.
    let joints: Vec<_> = raw.json["skins"][0]["joints"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .cloned()
        .collect();
    raw.json["skins"][0]["joints"] = joints.into();
    // Reorder the inverse bind matrices to match.
    let ibm_acc = raw.index_at("/skins/0/inverseBindMatrices");
    let ibms = raw.accessor(ibm_acc);
    let reversed: Vec<u8> = ibms
        .chunks(16)
        .rev()
        .flatten()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    raw.write_accessor(ibm_acc, &reversed);
    // Remap JOINTS_0: new index = n - 1 - old.
    let j_acc = raw.first_primitive_attribute("JOINTS_0");
    let ct = raw.json["accessors"][j_acc]["componentType"]
        .as_u64()
        .unwrap();
    let remapped: Vec<u8> = raw
        .accessor(j_acc)
        .iter()
        .flat_map(|&j| {
            let r = (n - 1 - j as usize) as u16;
            if ct == 5121 {
                vec![r as u8]
            } else {
                r.to_le_bytes().to_vec()
            }
        })
        .collect();
    raw.write_accessor(j_acc, &remapped);
    let modified = load_bytes(&raw.to_glb(), "CesiumMan-reversed.glb");
    assert_eq!(
        modified.skins[0]
            .joint_nodes
            .iter()
            .rev()
            .copied()
            .collect::<Vec<_>>(),
        original.skins[0].joint_nodes
    );
    for t in [0.0, 0.3, 1.1, 2.0] {
        let (pa, pb) = (palette(&original, t), palette(&modified, t));
        for i in 0..n {
            assert_mat_close(&pa[i], &pb[n - 1 - i], 1e-5, "palette");
        }
        let (va, vb) = (
            skinned_positions(&original, &pa),
            skinned_positions(&modified, &pb),
        );
        for (a, b) in va.iter().zip(&vb) {
            assert!((*a - *b).length() < 1e-4, "t={t}: {a} vs {b}");
        }
    }
}

#[test]
fn simple_skin_without_inverse_bind_matrices_uses_identity() {
    let Some(mut raw) = RawGltf::shared("gltf/SimpleSkin/SimpleSkin.gltf") else {
        return;
    };
    assert!(raw.json["skins"][0]["inverseBindMatrices"].is_u64());
    raw.json["skins"][0]
        .as_object_mut()
        .unwrap()
        .remove("inverseBindMatrices");
    let asset = load_bytes(&raw.to_gltf(), "SimpleSkin-no-ibm.gltf");
    assert_eq!(
        asset.skins[0].skin.inverse_bind_matrices,
        vec![Mat4::IDENTITY; 2]
    );
    // With identity IBMs the palette is the joints' model matrices: joint 1 sits at y = 1.
    let pal = palette(&asset, 0.0);
    assert!(
        (pal[1].w_axis - Vec4::new(0.0, 1.0, 0.0, 1.0)).length() < 1e-6,
        "{:?}",
        pal[1]
    );
}

#[test]
fn eight_influences_keep_the_four_largest_renormalised() {
    let Some(mut raw) = RawGltf::shared("gltf/CesiumMan/CesiumMan.glb") else {
        return;
    };
    let attrs = raw.json["meshes"][0]["primitives"][0]["attributes"].clone();
    let j0 = raw.accessor(attrs["JOINTS_0"].as_u64().unwrap() as usize);
    let w0 = raw.accessor(attrs["WEIGHTS_0"].as_u64().unwrap() as usize);
    let count = j0.len() / 4;
    // Second set: deterministic pseudo-random weights, some larger than set 0's.
    let mut j1 = Vec::with_capacity(count * 4);
    let mut w1 = Vec::with_capacity(count * 4);
    let mut seed = 12345u32;
    for _ in 0..count * 4 {
        seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
        j1.push((seed >> 16) as u16 % 19);
        w1.push(((seed >> 8) & 0xff) as f32 / 255.0 * 0.6);
    }
    let jb: Vec<u8> = j1.iter().flat_map(|j| j.to_le_bytes()).collect();
    let wb: Vec<u8> = w1.iter().flat_map(|w| w.to_le_bytes()).collect();
    let ja = raw.add_accessor(&jb, 5123, "VEC4", count, false);
    let wa = raw.add_accessor(&wb, 5126, "VEC4", count, false);
    raw.json["meshes"][0]["primitives"][0]["attributes"]["JOINTS_1"] = ja.into();
    raw.json["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_1"] = wa.into();
    let asset = load_bytes(&raw.to_glb(), "CesiumMan-8-influences.glb");
    let p = &asset.meshes[0].primitives[0];
    assert_eq!(p.joints.len(), count);
    let mut differs = 0;
    for v in 0..count {
        let mut all: Vec<(u16, f32)> = (0..4)
            .map(|k| (j0[v * 4 + k] as u16, w0[v * 4 + k]))
            .chain((0..4).map(|k| (j1[v * 4 + k], w1[v * 4 + k])))
            .collect();
        all.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap());
        let sum: f32 = all[..4].iter().map(|x| x.1).sum();
        for k in 0..4 {
            assert!(
                (p.weights[v][k] - all[k].1 / sum).abs() < 1e-6,
                "vertex {v}"
            );
            if all[k].1 > 0.0 && all[k].1 != all.get(k + 1).map_or(-1.0, |x| x.1) {
                assert_eq!(p.joints[v][k], all[k].0, "vertex {v} slot {k}");
            }
        }
        assert!((p.weights[v].element_sum() - 1.0).abs() < 1e-5);
        if all[..4].iter().any(|x| {
            x.1 > 0.0 && (0..4).all(|k| j0[v * 4 + k] as u16 != x.0 || w0[v * 4 + k] != x.1)
        }) {
            differs += 1;
        }
    }
    assert!(
        differs > count / 2,
        "the added set must change most vertices ({differs}/{count})"
    );
}

#[test]
fn zero_weight_vertices_bind_to_joint_zero_and_warn_once() {
    let Some(mut raw) = RawGltf::shared("gltf/CesiumMan/CesiumMan.glb") else {
        return;
    };
    let wacc = raw.first_primitive_attribute("WEIGHTS_0");
    raw.edit_f32_accessor(wacc, |w| w[0..8].fill(0.0)); // vertices 0 and 1
    let asset = load_bytes(&raw.to_glb(), "CesiumMan-zero-weights.glb");
    let p = &asset.meshes[0].primitives[0];
    assert_eq!(p.weights[0], Vec4::X);
    assert_eq!(p.joints[1], [0; 4]);
    assert_eq!(asset.warnings.len(), 1, "{:?}", asset.warnings);
    assert!(asset.warnings[0].contains("2 vertices"));
}

#[test]
fn simple_sparse_accessor_reads_sparse_values() {
    let Some(path) =
        sierra_testkit::shared_asset("gltf/SimpleSparseAccessor/SimpleSparseAccessor.gltf")
    else {
        return;
    };
    let raw = RawGltf::load(&path);
    let asset = GltfAsset::load(&path).unwrap();
    let pos_acc = raw.first_primitive_attribute("POSITION");
    let acc = &raw.json["accessors"][pos_acc];
    let sparse = &acc["sparse"];
    assert!(sparse.is_object());
    // Expected: base view values, then substitute sparse entries (spec §3.6.2.3), decoded here by hand.
    let mut expected = raw.accessor(pos_acc);
    let count = sparse["count"].as_u64().unwrap() as usize;
    let view = |v: &serde_json::Value| {
        let bv = &raw.json["bufferViews"][v["bufferView"].as_u64().unwrap() as usize];
        let b = &raw.buffers[bv["buffer"].as_u64().unwrap() as usize];
        let o = bv["byteOffset"].as_u64().unwrap_or(0) as usize
            + v["byteOffset"].as_u64().unwrap_or(0) as usize;
        b[o..].to_vec()
    };
    let ib = view(&sparse["indices"]);
    let vb = view(&sparse["values"]);
    assert_eq!(sparse["indices"]["componentType"], 5123);
    for k in 0..count {
        let i = u16::from_le_bytes([ib[2 * k], ib[2 * k + 1]]) as usize;
        for c in 0..3 {
            expected[i * 3 + c] =
                f32::from_le_bytes(vb[(k * 3 + c) * 4..(k * 3 + c) * 4 + 4].try_into().unwrap());
        }
    }
    let got: Vec<f32> = asset.meshes[0].primitives[0]
        .positions
        .iter()
        .flat_map(|v| v.to_array())
        .collect();
    assert_eq!(got, expected);
    assert_ne!(
        got,
        raw.accessor(pos_acc),
        "the sparse block must change some positions"
    );
}

#[test]
fn recursive_skeletons_one_instance_per_node_and_animated_ancestors_honoured() {
    let Some(path) = sierra_testkit::shared_asset("gltf/RecursiveSkeletons/RecursiveSkeletons.glb")
    else {
        return;
    };
    let raw = RawGltf::load(&path);
    let asset = GltfAsset::load_with(
        &path,
        ImportOptions {
            images: false,
            meshes: true,
        },
    )
    .unwrap();
    let instances = asset.skin_instances();
    assert_eq!(instances.len(), 84);
    let mut skins: Vec<usize> = instances.iter().map(|i| i.skin).collect();
    skins.sort();
    skins.dedup();
    assert_eq!(
        skins.len(),
        84,
        "every skinned node has its own skin instance"
    );
    assert!(instances.iter().all(|i| i.mesh == 0));
    // Nodes animated by the clip.
    let animated: std::collections::HashSet<usize> =
        asset.clips[0].channels.iter().map(|c| c.node).collect();
    let mut with_animated_ancestor = 0;
    for t in [0.0f32, 0.5, 1.0, 1.7, 2.0] {
        let expected = raw.world_matrices(Some(0), t);
        for (s, skin) in asset.skins.iter().enumerate() {
            let model = skeleton_models(&asset, s, t);
            for (i, &node) in skin.joint_nodes.iter().enumerate() {
                let world = model[skin.skin.joints[i] as usize];
                let scale = expected[node].w_axis.truncate().length().max(1.0);
                assert_mat_close(
                    &world,
                    &expected[node],
                    2e-5 * scale,
                    &format!("skin {s} joint {i} t {t}"),
                );
            }
            if t == 0.0 {
                let root = skin.joint_nodes[0];
                let mut p = asset.nodes[root].parent;
                while let Some(a) = p {
                    if animated.contains(&a) && !skin.joint_nodes.contains(&a) {
                        with_animated_ancestor += 1;
                        break;
                    }
                    p = asset.nodes[a].parent;
                }
            }
        }
    }
    assert!(
        with_animated_ancestor >= 40,
        "{with_animated_ancestor} skins have animated non-joint ancestors"
    );
}
