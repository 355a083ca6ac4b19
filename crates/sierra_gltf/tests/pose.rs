//! `sierra pose` output (the library function behind it) on Fox `Walk` against
//! an independent computation from the raw glTF JSON and spec formulas.

mod common;

use common::RawGltf;
use glam::Mat4;
use sierra_gltf::{pose, ClipSelector, GltfAsset, ImportOptions};

fn mat(v: &serde_json::Value) -> Mat4 {
    let f: Vec<f32> = sierra_testkit::json::f32_array(v);
    assert_eq!(f.len(), 16);
    Mat4::from_cols_slice(&f)
}

#[test]
fn fox_walk_at_half_second_matches_independent_computation() {
    let Some(path) = sierra_testkit::shared_asset("gltf/Fox/Fox.glb") else {
        return;
    };
    let asset = GltfAsset::load_with(&path, ImportOptions::ANIMATION_ONLY).unwrap();
    let report = pose::pose(&asset, &ClipSelector::parse("Walk"), 0.5, 0).unwrap();
    let json = report.to_json();
    let raw = RawGltf::load(&path);
    let anim = raw.animation_index("Walk");
    let world = raw.world_matrices(Some(anim), 0.5);
    let skin = &raw.json["skins"][0];
    let joints: Vec<usize> = skin["joints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j.as_u64().unwrap() as usize)
        .collect();
    let ibms = raw.accessor(skin["inverseBindMatrices"].as_u64().unwrap() as usize);
    let mesh_node = raw.json["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .position(|n| n["skin"] == 0)
        .unwrap();
    let inv_mesh = world[mesh_node].inverse();
    let parents = raw.parents();

    assert_eq!(json["clip"], "Walk");
    assert!((json["time"].as_f64().unwrap() - 0.5).abs() < 1e-6);
    let last_key = {
        let s = &raw.json["animations"][anim]["samplers"][0];
        *raw.accessor(s["input"].as_u64().unwrap() as usize)
            .last()
            .unwrap()
    };
    assert!((json["duration"].as_f64().unwrap() as f32 - last_key).abs() < 1e-6);
    assert_eq!(json["skin"], 0);
    let out = json["joints"].as_array().unwrap();
    assert_eq!(out.len(), joints.len());
    for (i, (j, &node)) in out.iter().zip(&joints).enumerate() {
        assert_eq!(j["index"], i);
        assert_eq!(j["node"], node);
        assert_eq!(j["name"], raw.json["nodes"][node]["name"]);
        // Nearest ancestor that is a joint of this skin.
        let mut p = parents[node];
        while let Some(a) = p.filter(|a| !joints.contains(a)) {
            p = parents[a];
        }
        let expected_parent = p.map(|a| joints.iter().position(|&x| x == a).unwrap());
        assert_eq!(
            j["parent"].as_u64().map(|x| x as usize),
            expected_parent,
            "joint {i}"
        );
        common::assert_mat_close(
            &mat(&j["world"]),
            &world[node],
            1e-4,
            &format!("world of joint {i}"),
        );
        let ibm = Mat4::from_cols_slice(&ibms[i * 16..i * 16 + 16]);
        common::assert_mat_close(
            &mat(&j["skin"]),
            &(inv_mesh * world[node] * ibm),
            1e-4,
            &format!("skin of joint {i}"),
        );
    }
    // The pose differs from the rest pose (the clip really applied).
    let rest = raw.world_matrices(None, 0.0);
    assert!(joints
        .iter()
        .any(|&n| (rest[n].w_axis - world[n].w_axis).length() > 1e-2));
}

#[test]
fn clip_by_index_time_clamped_and_list() {
    let Some(path) = sierra_testkit::shared_asset("gltf/Fox/Fox.glb") else {
        return;
    };
    let asset = GltfAsset::load_with(&path, ImportOptions::ANIMATION_ONLY).unwrap();
    let by_index = pose::pose(&asset, &ClipSelector::parse("1"), 99.0, 0).unwrap();
    assert_eq!(by_index.clip, "Walk");
    assert_eq!(by_index.time, by_index.duration);
    let list = pose::list_json(&asset);
    assert_eq!(list["skins"][0]["joints"], 24);
    let names: Vec<_> = list["clips"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(names, ["Survey", "Walk", "Run"]);
}
