//! Issue #44's lenient glTF inputs, each refused with a message naming the file and the place:
//! a skin listing a joint twice, a vertex bound to a joint beyond the skin's count (also when
//! only the animation is read, as `sierra pose` does), image bytes that are not what their
//! `mimeType` says, and the joint count reported for a skin too large for 16-bit indices.
//! Every file is built here, so the tests need no shared samples; each has a negative control.

mod common;

use std::path::Path;

use common::base64_encode;
use serde_json::{json, Value};
use sierra_gltf::{Error, GltfAsset, ImportOptions};

const ALL: ImportOptions = ImportOptions {
    images: true,
    meshes: true,
};

fn import(doc: &Value, name: &str, options: ImportOptions) -> Result<GltfAsset, Error> {
    let bytes = serde_json::to_vec(doc).unwrap();
    GltfAsset::from_bytes(&bytes, Path::new(name), &Default::default(), options)
}

/// A skinned triangle: `root` → `j0` → `j1`, a `mesh` node bound to skin 0 (`joints` =
/// nodes 1, 2), every vertex weighted fully to joint `joint`.
fn skinned_triangle(joint: u8) -> Value {
    let mut buffer = Vec::new();
    for p in [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]] {
        buffer.extend(p.iter().flat_map(|c| c.to_le_bytes()));
    }
    for _ in 0..3 {
        buffer.extend([joint, 0, 0, 0]);
    }
    for _ in 0..3 {
        buffer.extend([1.0f32, 0.0, 0.0, 0.0].iter().flat_map(|c| c.to_le_bytes()));
    }
    json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0, 3]}],
        "nodes": [
            {"name": "root", "children": [1]},
            {"name": "j0", "children": [2]},
            {"name": "j1", "translation": [0.0, 1.0, 0.0]},
            {"name": "mesh", "mesh": 0, "skin": 0}
        ],
        "skins": [{"joints": [1, 2]}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}}]}],
        "buffers": [{
            "byteLength": buffer.len(),
            "uri": format!("data:application/octet-stream;base64,{}", base64_encode(&buffer))
        }],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": 36},
            {"buffer": 0, "byteOffset": 36, "byteLength": 12},
            {"buffer": 0, "byteOffset": 48, "byteLength": 48}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
             "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0]},
            {"bufferView": 1, "componentType": 5121, "count": 3, "type": "VEC4"},
            {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC4"}
        ]
    })
}

#[test]
fn a_skin_listing_the_same_joint_twice_is_refused_naming_skin_and_joint() {
    let mut doc = skinned_triangle(0);
    doc["skins"][0]["joints"] = json!([1, 2, 1]);
    let msg = import(&doc, "twice.gltf", ALL).unwrap_err().to_string();
    assert_eq!(
        msg,
        "twice.gltf: skin 0: joints[2] is node 1, already listed as joints[0]; a skin's joints must be unique"
    );
    // Negative control: the same file with unique joints loads, with both joints.
    let asset = import(&skinned_triangle(0), "unique.gltf", ALL).unwrap();
    assert_eq!(asset.skins[0].skin.joints.len(), 2);
}

#[test]
fn a_joint_index_beyond_the_skin_is_refused_also_when_only_animation_is_read() {
    // The skin has 2 joints (0 and 1); index 2 is one past the end.
    let doc = skinned_triangle(2);
    for options in [ALL, ImportOptions::ANIMATION_ONLY] {
        let err = import(&doc, "beyond.gltf", options).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("beyond.gltf")
                && msg.contains("joint index 2")
                && msg.contains("2 joints"),
            "{msg}"
        );
        assert!(
            matches!(
                err,
                Error::JointIndexOutOfRange {
                    joint: 2,
                    skin: 0,
                    node: 3,
                    ..
                }
            ),
            "{err:?}"
        );
    }
    // Negative control: the last valid index loads either way.
    for options in [ALL, ImportOptions::ANIMATION_ONLY] {
        import(&skinned_triangle(1), "last.gltf", options).unwrap();
    }
}

fn encoded(format: image::ImageFormat) -> Vec<u8> {
    let img = image::RgbImage::from_pixel(2, 2, image::Rgb([200, 100, 50]));
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, format).unwrap();
    out.into_inner()
}

/// A document whose image 0 is `bytes`: in a data URI declaring `mime`, or (`in_view`) in a
/// buffer view with `mimeType` = `mime`.
fn with_image(bytes: &[u8], mime: &str, in_view: bool) -> Value {
    let mut doc = json!({"asset": {"version": "2.0"}, "scenes": [{"nodes": []}]});
    if in_view {
        doc["buffers"] = json!([{
            "byteLength": bytes.len(),
            "uri": format!("data:application/octet-stream;base64,{}", base64_encode(bytes))
        }]);
        doc["bufferViews"] = json!([{"buffer": 0, "byteLength": bytes.len()}]);
        doc["images"] = json!([{"bufferView": 0, "mimeType": mime}]);
    } else {
        doc["images"] = json!([{"uri": format!("data:{mime};base64,{}", base64_encode(bytes))}]);
    }
    doc
}

#[test]
fn png_bytes_labelled_jpeg_are_refused_naming_the_image() {
    let (png, jpeg) = (
        encoded(image::ImageFormat::Png),
        encoded(image::ImageFormat::Jpeg),
    );
    for in_view in [false, true] {
        let msg = import(&with_image(&png, "image/jpeg", in_view), "label.gltf", ALL)
            .unwrap_err()
            .to_string();
        assert_eq!(
            msg,
            "label.gltf: image 0: mimeType is `image/jpeg` but the bytes are a PNG image"
        );
        let msg = import(&with_image(&jpeg, "image/png", in_view), "label.gltf", ALL)
            .unwrap_err()
            .to_string();
        assert_eq!(
            msg,
            "label.gltf: image 0: mimeType is `image/png` but the bytes are a JPEG image"
        );
        // Negative control: each labelled as what it is decodes, 2×2.
        for (bytes, mime) in [(&png, "image/png"), (&jpeg, "image/jpeg")] {
            let asset = import(&with_image(bytes, mime, in_view), "ok.gltf", ALL).unwrap();
            assert_eq!((asset.images[0].width, asset.images[0].height), (2, 2));
        }
    }
}

/// `joints` joint nodes, all children of one non-joint `root`.
fn flat_skin(joints: usize) -> Value {
    let mut nodes = vec![json!({"name": "root", "children": (1..=joints).collect::<Vec<_>>()})];
    nodes.extend((0..joints).map(|i| json!({"name": format!("j{i}")})));
    json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": nodes,
        "skins": [{"joints": (1..=joints).collect::<Vec<_>>()}]
    })
}

#[test]
fn a_skin_too_large_for_16_bit_indices_reports_its_own_joint_count() {
    // 65,534 joints + the root ancestor = a 65,535-joint skeleton, one over the limit. The
    // message used to say "skeleton has 65535 joints" of a skin that lists 65,534.
    let msg = import(
        &flat_skin(65_534),
        "big.gltf",
        ImportOptions::ANIMATION_ONLY,
    )
    .unwrap_err()
    .to_string();
    assert_eq!(
        msg,
        "big.gltf: skin 0 lists 65534 joints, and with their 1 non-joint ancestor node(s) its \
         skeleton has 65535 joints; at most 65534 are supported (joint indices are 16-bit and \
         65535 marks a root)"
    );
    // Negative control: one joint fewer fits exactly.
    let asset = import(
        &flat_skin(65_533),
        "fits.gltf",
        ImportOptions::ANIMATION_ONLY,
    )
    .unwrap();
    assert_eq!(asset.skins[0].skeleton.joint_count(), 65_534);
}
