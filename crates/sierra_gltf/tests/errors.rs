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
        &Default::default(),
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
    let Some(mut raw) = RawGltf::shared("gltf/CesiumMan/CesiumMan.glb") else {
        return;
    };
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
    let Some(mut raw) = RawGltf::shared("gltf/SimpleSkin/SimpleSkin.gltf") else {
        return;
    };
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
    let input = raw.index_at("/animations/0/samplers/0/input");
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
    let wa = raw.first_primitive_attribute("WEIGHTS_0");
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
    let Some(mut raw) = RawGltf::shared("gltf/Fox/Fox.glb") else {
        return;
    };
    let walk = raw.animation_index("Walk");
    let output = raw.index_at(&format!("/animations/{walk}/samplers/0/output"));
    raw.edit_f32_accessor(output, |v| v[5] = f32::NAN);
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
    let Some(mut raw) = RawGltf::shared("gltf/Fox/Fox.glb") else {
        return;
    };
    let input = raw.index_at("/animations/2/samplers/0/input");
    raw.edit_f32_accessor(input, |v| v.swap(3, 4));
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

/// Every numeric field of small real files set to edge values (0, 1, type limits, 2^62 …),
/// and every object key removed in turn: the importer must return (`Ok` or an error naming
/// the file), never panic. Byte-level corruption (above) mostly breaks the JSON or the GLB
/// framing; this reaches the counts, offsets, strides and indices behind them.
#[test]
fn json_field_corruptions_never_panic() {
    const EDGE: [u64; 12] = [
        0,
        1,
        2,
        7,
        255,
        65_535,
        65_536,
        2_147_483_647,
        4_294_967_295,
        4_294_967_296,
        1 << 53,
        1 << 62,
    ];
    fn leaves(v: &serde_json::Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, c) in m {
                    path.push(k.clone());
                    out.push(path.clone());
                    leaves(c, path, out);
                    path.pop();
                }
            }
            serde_json::Value::Array(a) => {
                for (i, c) in a.iter().enumerate() {
                    path.push(i.to_string());
                    leaves(c, path, out);
                    path.pop();
                }
            }
            serde_json::Value::Number(_) => out.push(path.clone()),
            _ => {}
        }
    }
    fn at<'v>(v: &'v mut serde_json::Value, path: &[String]) -> &'v mut serde_json::Value {
        path.iter().fold(v, |v, k| match v {
            serde_json::Value::Array(a) => &mut a[k.parse::<usize>().unwrap()],
            _ => &mut v[k.as_str()],
        })
    }
    fn json_at<'v>(v: &'v serde_json::Value, path: &[String]) -> Option<&'v serde_json::Value> {
        path.iter().try_fold(v, |v, k| match v {
            serde_json::Value::Array(a) => a.get(k.parse::<usize>().ok()?),
            _ => v.get(k.as_str()),
        })
    }
    let mut panics = Vec::new();
    let mut imports = 0;
    for asset in [
        "gltf/SimpleSkin/SimpleSkin.gltf",
        "gltf/SimpleSparseAccessor/SimpleSparseAccessor.gltf",
        "gltf/SimpleMorph/SimpleMorph.gltf",
        "gltf/AnimatedTriangle/AnimatedTriangle.gltf",
    ] {
        let Some(path) = sierra_testkit::shared_asset(asset) else {
            return;
        };
        let json: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let mut paths = Vec::new();
        leaves(&json, &mut Vec::new(), &mut paths);
        let mut variants: Vec<(String, serde_json::Value)> = Vec::new();
        for p in &paths {
            if json_at(&json, p).is_some_and(|v| v.is_number()) {
                for e in EDGE {
                    let mut v = json.clone();
                    *at(&mut v, p) = e.into();
                    variants.push((format!("{} = {e}", p.join("/")), v));
                }
            } else {
                // An object key: drop it.
                let mut v = json.clone();
                let (key, parent) = p.split_last().unwrap();
                if let Some(m) = at(&mut v, parent).as_object_mut() {
                    m.remove(key);
                }
                variants.push((format!("{} removed", p.join("/")), v));
            }
        }
        for (what, v) in variants {
            let bytes = serde_json::to_vec(&v).unwrap();
            imports += 1;
            let result = std::panic::catch_unwind(|| import(&bytes, "mutated.gltf"));
            match result {
                Err(_) => panics.push(format!("{asset}: {what}")),
                Ok(Err(e)) => assert!(e.to_string().contains("mutated.gltf"), "{e}"),
                Ok(Ok(_)) => {}
            }
        }
    }
    assert!(imports > 1000, "only {imports} variants");
    assert!(
        panics.is_empty(),
        "{} panics:\n{}",
        panics.len(),
        panics.join("\n")
    );
}

/// A count near 2^62 used to wrap `count × stride` in the bounds check, pass it, then index
/// past the buffer view (release builds do not check overflow).
#[test]
fn huge_accessor_count_is_an_error() {
    let Some(path) =
        sierra_testkit::shared_asset("gltf/SimpleSparseAccessor/SimpleSparseAccessor.gltf")
    else {
        return;
    };
    let mut json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    json["accessors"][0]["count"] = (1u64 << 62).into();
    let err = expect_err(
        &serde_json::to_vec(&json).unwrap(),
        "huge-count.gltf",
        &["accessor 0", "overrun"],
    );
    assert!(matches!(err, Error::Accessor { accessor: 0, .. }), "{err}");

    // Sparse count: `count × index size` wrapped the same way.
    let mut json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    json["accessors"][1]["sparse"]["count"] = (1u64 << 63).into();
    let err = expect_err(
        &serde_json::to_vec(&json).unwrap(),
        "huge-sparse.gltf",
        &["accessor 1", "sparse block"],
    );
    assert!(matches!(err, Error::Accessor { accessor: 1, .. }), "{err}");
}

/// A 60 000-node parent chain (legal glTF, near the 65 534-node limit of the node skeleton)
/// imports and gives its world matrices without overflowing a test thread's 2 MiB stack
/// (`rest_world_matrices` recurses once per level).
#[test]
fn deep_node_chain_does_not_overflow_the_stack() {
    const N: usize = 60_000;
    let nodes: Vec<serde_json::Value> = (0..N)
        .map(|i| {
            if i + 1 < N {
                json!({"translation": [0.0, 1.0, 0.0], "children": [i + 1]})
            } else {
                json!({"translation": [0.0, 1.0, 0.0]})
            }
        })
        .collect();
    let doc = json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": nodes,
    });
    let asset = import(&serde_json::to_vec(&doc).unwrap(), "chain.gltf").expect("valid chain");
    let world = asset.rest_world_matrices();
    assert_eq!(world.len(), N);
    // Node i sits i + 1 metres up (exact in f32).
    assert_eq!(world[N - 1].w_axis.y, N as f32);
    assert_eq!(world[0].w_axis.y, 1.0);
}

/// gltf 1.4.1 panics on two out-of-range references (its primitive validation hook indexes
/// `accessors` with POSITION unchecked; animation channel target nodes are never validated
/// and `target().node()` unwraps). The importer reports both as validation errors.
#[test]
fn references_gltf_does_not_validate_are_errors() {
    let Some(path) = sierra_testkit::shared_asset("gltf/SimpleSkin/SimpleSkin.gltf") else {
        return;
    };
    let original: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();

    let mut json = original.clone();
    json["meshes"][0]["primitives"][0]["attributes"]["POSITION"] = 99.into();
    let err = expect_err(
        &serde_json::to_vec(&json).unwrap(),
        "bad-position.gltf",
        &[
            "meshes[0].primitives[0].attributes[\"POSITION\"]",
            "out of bounds",
        ],
    );
    assert!(matches!(err, Error::Gltf { .. }), "{err}");

    let mut json = original;
    json["animations"][0]["channels"][0]["target"]["node"] = 99.into();
    let err = expect_err(
        &serde_json::to_vec(&json).unwrap(),
        "bad-target.gltf",
        &["animations[0].channels[0].target.node", "out of bounds"],
    );
    assert!(matches!(err, Error::Gltf { .. }), "{err}");
}

/// A sparse accessor without a buffer view is zeros plus substitutions: its count is bounded
/// by the importer (an absurd count used to abort the process allocating petabytes).
#[test]
fn viewless_sparse_accessor_count_is_bounded() {
    let Some(path) =
        sierra_testkit::shared_asset("gltf/SimpleSparseAccessor/SimpleSparseAccessor.gltf")
    else {
        return;
    };
    let mut json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let accessor = json["accessors"][1].as_object_mut().unwrap();
    accessor.remove("bufferView");
    accessor.remove("byteOffset");
    // Without a view the valid file decodes: 14 zero positions with 3 substituted.
    let bytes = serde_json::to_vec(&json).unwrap();
    let asset = import(&bytes, "viewless.gltf").expect("view-less sparse accessor");
    let positions = &asset.meshes[0].primitives[0].positions;
    assert_eq!(positions.len(), 14);
    assert_eq!(
        positions.iter().filter(|p| **p != glam::Vec3::ZERO).count(),
        3
    );

    json["accessors"][1]["count"] = (1u64 << 40).into();
    let err = expect_err(
        &serde_json::to_vec(&json).unwrap(),
        "viewless-huge.gltf",
        &["accessor 1", "without a buffer view", "limit"],
    );
    assert!(matches!(err, Error::Accessor { accessor: 1, .. }), "{err}");
}
