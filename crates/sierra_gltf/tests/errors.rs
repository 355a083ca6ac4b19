//! Bad input gives clear errors naming the file and the accessor/node index,
//! never a panic. Broken files are built here from real ones.

mod common;

use std::path::Path;

use common::RawGltf;
use serde_json::json;
use sierra_gltf::{ClipSelector, Error, GltfAsset, ImportOptions};

fn import(bytes: &[u8], name: &str) -> Result<GltfAsset, Error> {
    GltfAsset::from_bytes(
        bytes,
        Path::new(name),
        None,
        ImportOptions {
            images: false,
            meshes: true,
        },
    )
}

fn expect_err(bytes: &[u8], name: &str, needles: &[&str]) -> Error {
    let err = import(bytes, name).expect_err("must fail");
    let msg = err.to_string();
    assert!(msg.contains(name), "message names the file: {msg}");
    for n in needles {
        assert!(msg.contains(n), "message {msg:?} should contain {n:?}");
    }
    eprintln!("{msg}");
    err
}

#[test]
fn joint_index_out_of_range() {
    let Some(path) = sierra_testkit::shared_asset("gltf/CesiumMan/CesiumMan.glb") else {
        return;
    };
    let mut raw = RawGltf::load(&path);
    let attrs = raw.json["meshes"][0]["primitives"][0]["attributes"].clone();
    let (ja, wa) = (
        attrs["JOINTS_0"].as_u64().unwrap() as usize,
        attrs["WEIGHTS_0"].as_u64().unwrap() as usize,
    );
    let ct = raw.json["accessors"][ja]["componentType"].as_u64().unwrap();
    let mut j = raw.accessor(ja);
    let w = raw.accessor(wa);
    let v = (0..w.len() / 4).find(|&v| w[v * 4] > 0.0).unwrap();
    j[v * 4] = 19.0; // the skin has 19 joints: 0..=18
    let bytes: Vec<u8> = j
        .iter()
        .flat_map(|&x| {
            if ct == 5121 {
                vec![x as u8]
            } else {
                (x as u16).to_le_bytes().to_vec()
            }
        })
        .collect();
    raw.write_accessor(ja, &bytes);
    let err = expect_err(
        &raw.to_glb(),
        "bad-joint.glb",
        &[&format!("accessor {ja}"), "joint index 19", "19 joints"],
    );
    assert!(matches!(err, Error::JointIndexOutOfRange { vertex, .. } if vertex == v));
}

#[test]
fn skin_joint_not_in_scene() {
    let Some(path) = sierra_testkit::shared_asset("gltf/SimpleSkin/SimpleSkin.gltf") else {
        return;
    };
    let mut raw = RawGltf::load(&path);
    let nodes = raw.json["nodes"].as_array_mut().unwrap();
    nodes.push(json!({"name": "orphan", "translation": [0.0, 2.0, 0.0]}));
    let orphan = nodes.len() - 1;
    raw.json["skins"][0]["joints"]
        .as_array_mut()
        .unwrap()
        .push(orphan.into());
    let err = expect_err(
        &raw.to_gltf(),
        "orphan-joint.gltf",
        &[&format!("node {orphan}"), "skin 0", "not in scene"],
    );
    assert!(matches!(err, Error::SkinJointNotInScene { node, .. } if node == orphan));
}

#[test]
fn wrong_accessor_component_type() {
    let Some(path) = sierra_testkit::shared_asset("gltf/Fox/Fox.glb") else {
        return;
    };
    let mut raw = RawGltf::load(&path);
    // Animation input (key times) must be FLOAT; make it UNSIGNED_INT (same byte size).
    let input = raw.json["animations"][0]["samplers"][0]["input"]
        .as_u64()
        .unwrap() as usize;
    raw.json["accessors"][input]["componentType"] = 5125.into();
    raw.json["accessors"][input]
        .as_object_mut()
        .unwrap()
        .remove("min");
    raw.json["accessors"][input]
        .as_object_mut()
        .unwrap()
        .remove("max");
    expect_err(
        &raw.to_glb(),
        "uint-times.glb",
        &[&format!("accessor {input}"), "UNSIGNED_INT"],
    );

    // WEIGHTS_0 as UNSIGNED_INT (not allowed by the spec).
    let mut raw = RawGltf::load(&path);
    let wa = raw.json["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_0"]
        .as_u64()
        .unwrap() as usize;
    raw.json["accessors"][wa]["componentType"] = 5125.into();
    let err = import(&raw.to_glb(), "uint-weights.glb").expect_err("must fail");
    let msg = err.to_string();
    assert!(
        msg.contains("uint-weights.glb")
            && (msg.contains(&format!("accessor {wa}"))
                || msg.contains(&format!("accessors[{wa}]"))),
        "{msg}"
    );
}

#[test]
fn nan_keyframes() {
    let Some(path) = sierra_testkit::shared_asset("gltf/Fox/Fox.glb") else {
        return;
    };
    let mut raw = RawGltf::load(&path);
    let walk = raw.animation_index("Walk");
    let output = raw.json["animations"][walk]["samplers"][0]["output"]
        .as_u64()
        .unwrap() as usize;
    let mut v = raw.accessor(output);
    v[5] = f32::NAN;
    let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
    raw.write_accessor(output, &bytes);
    let err = expect_err(
        &raw.to_glb(),
        "nan.glb",
        &[
            &format!("animation {walk}"),
            &format!("accessor {output}"),
            "NaN",
        ],
    );
    assert!(matches!(err, Error::Keyframes { .. }));
}

#[test]
fn key_times_not_increasing() {
    let Some(path) = sierra_testkit::shared_asset("gltf/Fox/Fox.glb") else {
        return;
    };
    let mut raw = RawGltf::load(&path);
    let input = raw.json["animations"][2]["samplers"][0]["input"]
        .as_u64()
        .unwrap() as usize;
    let mut v = raw.accessor(input);
    v.swap(3, 4);
    let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
    raw.write_accessor(input, &bytes);
    expect_err(
        &raw.to_glb(),
        "times.glb",
        &[
            &format!("accessor {input}"),
            "not strictly increasing",
            "animation 2",
        ],
    );
}

#[test]
fn truncated_glb() {
    let Some(path) = sierra_testkit::shared_asset("gltf/Fox/Fox.glb") else {
        return;
    };
    let bytes = std::fs::read(&path).unwrap();
    for cut in [10, 100, bytes.len() / 2, bytes.len() - 1] {
        let msg = import(&bytes[..cut], "truncated.glb")
            .expect_err("truncated")
            .to_string();
        assert!(msg.contains("truncated.glb"), "{msg}");
    }
}

#[test]
fn unknown_clip_name() {
    let Some(path) = sierra_testkit::shared_asset("gltf/Fox/Fox.glb") else {
        return;
    };
    let asset = GltfAsset::load_with(&path, ImportOptions::ANIMATION_ONLY).unwrap();
    let msg = asset
        .find_clip(&ClipSelector::parse("Gallop"))
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains("Fox.glb") && msg.contains("Gallop") && msg.contains("1: Walk"),
        "{msg}"
    );
    assert!(asset.find_clip(&ClipSelector::parse("3")).is_err());
    assert!(sierra_gltf::pose::pose(&asset, &ClipSelector::parse("Walk"), 0.0, 1).is_err());
}

#[test]
fn corrupted_bytes_never_panic() {
    let Some(path) = sierra_testkit::shared_asset("gltf/CesiumMan/CesiumMan.glb") else {
        return;
    };
    let bytes = std::fs::read(&path).unwrap();
    let mut seed = 7u32;
    for _ in 0..300 {
        let mut b = bytes.clone();
        for _ in 0..8 {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            let i = seed as usize % b.len();
            b[i] = (seed >> 24) as u8;
        }
        let _ = import(&b, "fuzzed.glb");
    }
}
