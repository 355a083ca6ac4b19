//! glTF extensions on minimal files built here (issue #19): Sierra's own extension check
//! (a required unknown extension is refused naming it, an optional one is ignored with one
//! warning), `EXT_meshopt_compression` views with each filter (OCTAHEDRAL, QUATERNION,
//! EXPONENTIAL) and index codec, decoded within the budgets, `KHR_mesh_quantization`
//! attributes, `KHR_texture_transform`, `texCoord` 1, samplers and emissive strength, each
//! against a control without the feature.

use std::path::Path;

use glam::{Quat, Vec2, Vec3};
use serde_json::{json, Value};
use sierra_gltf::{
    Budgets, ChannelData, Error, Filter, GltfAsset, ImportOptions, Resolver, TextureTransform, Wrap,
};
use sierra_testkit::glb::merge;

/// A GLB of `json` (its `buffers[0].byteLength` set here) and binary chunk `bin`.
fn glb(mut json: Value, bin: &[u8]) -> Vec<u8> {
    if let Some(b) = json["buffers"].get_mut(0) {
        b["byteLength"] = json!(bin.len().next_multiple_of(4));
    }
    sierra_testkit::glb::glb(&serde_json::to_vec(&json).unwrap(), bin)
}

fn import_with(bytes: &[u8], budgets: Budgets) -> Result<GltfAsset, Error> {
    GltfAsset::from_bytes(
        bytes,
        Path::new("built.glb"),
        &Resolver::detached(budgets),
        ImportOptions::default(),
    )
}

fn import(bytes: &[u8]) -> Result<GltfAsset, Error> {
    import_with(bytes, Budgets::DEFAULT)
}

fn bytes_of<T: bytemuck::Pod>(v: &[T]) -> Vec<u8> {
    bytemuck::cast_slice(v).to_vec()
}

/// A 2×1 PNG (red, green).
fn png() -> Vec<u8> {
    let img = image::RgbaImage::from_raw(2, 1, vec![255, 0, 0, 255, 0, 255, 0, 255]).unwrap();
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

// ---------------------------------------------------------------------------------------------
// The extension check.

fn with_extensions(used: &[&str], required: &[&str]) -> Vec<u8> {
    let mut json = json!({"asset": {"version": "2.0"}, "nodes": [{"name": "n"}]});
    if !used.is_empty() {
        json["extensionsUsed"] = json!(used);
    }
    if !required.is_empty() {
        json["extensionsRequired"] = json!(required);
    }
    serde_json::to_vec(&json).unwrap()
}

#[test]
fn a_required_unknown_extension_is_refused_naming_it() {
    for name in ["EXT_sierra_never_heard_of", "KHR_draco_mesh_compression"] {
        let err = import(&with_extensions(&[name], &[name])).expect_err(name);
        assert!(matches!(err, Error::UnsupportedExtension { .. }), "{err:?}");
        let msg = err.to_string();
        assert!(msg.contains(name) && msg.contains("built.glb"), "{msg}");
        assert!(
            msg.contains("EXT_meshopt_compression"),
            "lists the supported: {msg}"
        );
    }
    // Controls: the supported extensions, required, load; so does the unknown one when only used.
    let supported: Vec<&str> = sierra_gltf::SUPPORTED_EXTENSIONS
        .iter()
        .map(|(n, _)| *n)
        .collect();
    import(&with_extensions(&supported, &supported)).unwrap();
    import(&with_extensions(&["EXT_sierra_never_heard_of"], &[])).unwrap();
}

#[test]
fn an_optional_unknown_extension_is_ignored_with_one_warning_naming_it() {
    let name = "EXT_sierra_optional";
    let mut json: Value = serde_json::from_slice(&with_extensions(
        &[name, "KHR_texture_transform", name],
        &[],
    ))
    .unwrap();
    json["nodes"][0]["extensions"] = json!({ name: {"anything": [1, 2]} });
    let asset = import(&serde_json::to_vec(&json).unwrap()).unwrap();
    let about: Vec<&String> = asset.warnings.iter().filter(|w| w.contains(name)).collect();
    assert_eq!(about.len(), 1, "{:?}", asset.warnings);
    assert!(about[0].contains("built.glb"), "{}", about[0]);
    // Control: a supported extension draws no warning.
    let asset = import(&with_extensions(&["KHR_texture_transform"], &[])).unwrap();
    assert!(asset.warnings.is_empty(), "{:?}", asset.warnings);
}

// ---------------------------------------------------------------------------------------------
// EXT_meshopt_compression.

const POSITIONS: [[f32; 3]; 4] = [
    [0.0, 0.0, 0.0],
    [1.5, 0.0, -0.25],
    [0.0, 2.75, 0.125],
    [-3.0, 1.0, 10.0],
];
const TIMES: [f32; 3] = [0.0, 0.5, 1.0];

fn normals() -> Vec<Vec3> {
    [
        Vec3::Y,
        Vec3::new(1.0, 1.0, 0.0),
        Vec3::new(-0.3, 0.2, 0.9),
        Vec3::NEG_Z,
    ]
    .map(Vec3::normalize)
    .to_vec()
}

fn rotations() -> Vec<Quat> {
    vec![
        Quat::IDENTITY,
        Quat::from_rotation_y(1.0),
        Quat::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), -2.0),
    ]
}

/// Appends `data` to `bin` (4-byte aligned) and returns a view whose bytes are meshopt-encoded
/// there, decoding to `count × stride` bytes at `fallback_offset` of buffer 1 (the fallback).
struct Packer {
    bin: Vec<u8>,
    views: Vec<Value>,
    fallback_len: usize,
}

impl Packer {
    fn add(
        &mut self,
        encoded: &[u8],
        count: usize,
        stride: usize,
        mode: &str,
        filter: &str,
    ) -> usize {
        let offset = self.bin.len();
        self.bin.extend(encoded);
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let length = count * stride;
        let mut view = json!({
            "buffer": 1, "byteOffset": self.fallback_len, "byteLength": length,
            "extensions": {"EXT_meshopt_compression": {
                "buffer": 0, "byteOffset": offset, "byteLength": encoded.len(),
                "byteStride": stride, "count": count, "mode": mode, "filter": filter}}
        });
        if mode == "ATTRIBUTES" {
            view["byteStride"] = json!(stride);
        }
        self.fallback_len += length.next_multiple_of(4);
        self.views.push(view);
        self.views.len() - 1
    }
}

/// A triangle pair whose positions (EXPONENTIAL), normals (OCTAHEDRAL, 8-bit), indices
/// (TRIANGLES) and rotation keys (QUATERNION) are meshopt-compressed in buffer 0, decoding into
/// fallback buffer 1, which has no data.
fn meshopt_file() -> Vec<u8> {
    let mut p = Packer {
        bin: Vec::new(),
        views: Vec::new(),
        fallback_len: 0,
    };
    let exp = meshopt::encode_filter_exp(&POSITIONS, 20, meshopt::EncodeExpMode::Separate);
    let pos = p.add(
        &meshopt::encode_vertex_buffer(&exp).unwrap(),
        4,
        12,
        "ATTRIBUTES",
        "EXPONENTIAL",
    );
    let n4: Vec<[f32; 4]> = normals().iter().map(|n| [n.x, n.y, n.z, 0.0]).collect();
    let oct = meshopt::encode_filter_oct::<i8>(&n4, 8);
    let nrm = p.add(
        &meshopt::encode_vertex_buffer(&oct).unwrap(),
        4,
        4,
        "ATTRIBUTES",
        "OCTAHEDRAL",
    );
    let indices = [0u32, 1, 2, 0, 2, 3];
    let idx = p.add(
        &meshopt::encode_index_buffer(&indices, 4).unwrap(),
        6,
        2,
        "TRIANGLES",
        "NONE",
    );
    let times: Vec<[f32; 1]> = TIMES.iter().map(|&t| [t]).collect();
    let time = p.add(
        &meshopt::encode_vertex_buffer(&times).unwrap(),
        3,
        4,
        "ATTRIBUTES",
        "NONE",
    );
    let q4: Vec<[f32; 4]> = rotations().iter().map(|q| q.to_array()).collect();
    let quat = meshopt::encode_filter_quat(&q4, 16);
    let rot = p.add(
        &meshopt::encode_vertex_buffer(&quat).unwrap(),
        3,
        8,
        "ATTRIBUTES",
        "QUATERNION",
    );
    let json = json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["EXT_meshopt_compression", "KHR_mesh_quantization"],
        "extensionsRequired": ["EXT_meshopt_compression", "KHR_mesh_quantization"],
        "buffers": [{"byteLength": 0},
                    {"byteLength": p.fallback_len, "extensions": {"EXT_meshopt_compression": {"fallback": true}}}],
        "bufferViews": p.views,
        "accessors": [
            {"bufferView": pos, "componentType": 5126, "count": 4, "type": "VEC3",
             "min": [-3.0, 0.0, -0.25], "max": [1.5, 2.75, 10.0]},
            {"bufferView": nrm, "componentType": 5120, "normalized": true, "count": 4, "type": "VEC3"},
            {"bufferView": idx, "componentType": 5123, "count": 6, "type": "SCALAR"},
            {"bufferView": time, "componentType": 5126, "count": 3, "type": "SCALAR", "min": [0.0], "max": [1.0]},
            {"bufferView": rot, "componentType": 5122, "normalized": true, "count": 3, "type": "VEC4"}
        ],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1}, "indices": 2}]}],
        "nodes": [{"mesh": 0}],
        "scenes": [{"nodes": [0]}],
        "animations": [{"samplers": [{"input": 3, "output": 4}],
                        "channels": [{"sampler": 0, "target": {"node": 0, "path": "rotation"}}]}]
    });
    glb(json, &p.bin)
}

#[test]
fn meshopt_views_decode_with_every_filter_into_a_fallback_buffer_without_data() {
    let asset = import(&meshopt_file()).unwrap_or_else(|e| panic!("{e}"));
    let prim = &asset.meshes[0].primitives[0];
    assert_eq!(prim.indices, [0, 1, 2, 0, 2, 3]);
    for (got, want) in prim.positions.iter().zip(POSITIONS) {
        // 20-bit mantissas: relative error below 2^-19.
        let want = Vec3::from(want);
        assert!(
            (*got - want).abs().max_element() <= want.abs().max_element() * 4e-6,
            "{got} vs {want}"
        );
    }
    for (got, want) in prim.normals.iter().zip(normals()) {
        // 8-bit octahedral: within a couple of degrees.
        assert!(got.angle_between(want) < 0.03, "{got} vs {want}");
    }
    let ChannelData::Rotation(track) = &asset.clips[0].channels[0].data else {
        panic!("a rotation channel");
    };
    assert_eq!(track.times, TIMES);
    for (got, want) in track.values.iter().zip(rotations()) {
        assert!(got.angle_between(want) < 1e-3, "{got} vs {want}");
    }
}

#[test]
fn bad_meshopt_data_is_a_clean_error_and_decoded_bytes_count_against_the_budget() {
    let good = meshopt_file();
    // Controls above load; a corrupt stream (the encoded bytes zeroed) does not, and says why.
    let mut json: Value = serde_json::from_slice(
        &good[20..20 + u32::from_le_bytes(good[12..16].try_into().unwrap()) as usize],
    )
    .unwrap();
    let bin_at = 20 + u32::from_le_bytes(good[12..16].try_into().unwrap()) as usize + 8;
    let bin = good[bin_at..].to_vec();
    let mut zeroed = bin.clone();
    zeroed.iter_mut().for_each(|b| *b = 0);
    let err = import(&glb(json.clone(), &zeroed)).expect_err("corrupt");
    let msg = err.to_string();
    assert!(
        msg.contains("EXT_meshopt_compression") && msg.contains("buffer view"),
        "{msg}"
    );
    // A filter on a stride the spec forbids (QUATERNION needs 8 bytes) is refused before decoding.
    json["bufferViews"][4]["extensions"]["EXT_meshopt_compression"]["filter"] = json!("OCTAHEDRAL");
    json["bufferViews"][1]["extensions"]["EXT_meshopt_compression"]["filter"] = json!("QUATERNION");
    let msg = import(&glb(json, &bin))
        .expect_err("bad filter")
        .to_string();
    assert!(
        msg.contains("QUATERNION") && msg.contains("byteStride 4"),
        "{msg}"
    );
    // The decoded bytes are charged: a budget below them refuses the file, naming the budget.
    let tight = Budgets {
        gltf_decoded_bytes: 40,
        ..Budgets::DEFAULT
    };
    let msg = import_with(&good, tight)
        .expect_err("over budget")
        .to_string();
    assert!(msg.contains("EXT_meshopt_compression"), "{msg}");
    import_with(
        &good,
        Budgets {
            gltf_decoded_bytes: 4096,
            ..Budgets::DEFAULT
        },
    )
    .unwrap();
}

// ---------------------------------------------------------------------------------------------
// KHR_mesh_quantization, materials.

/// A quad (4 vertices) with quantised attributes and one textured material; `material` is
/// merged into the material's JSON, `sampler` is the texture's sampler.
fn quad(material: Value, sampler: Value) -> Vec<u8> {
    let mut bin = Vec::new();
    // POSITION: u16, not normalised (the node's scale dequantises).
    bin.extend(bytes_of(&[
        [0u16, 0, 0, 0],
        [100, 0, 0, 0],
        [100, 0, 100, 0],
        [0, 0, 100, 0],
    ]));
    // NORMAL: i8 normalised, padded to 4 bytes; 127 = +1.
    bin.extend(bytes_of(&[[0i8, 127, 0, 0]; 4]));
    // TEXCOORD_0: u8 normalised; TEXCOORD_1: i16 unnormalised.
    bin.extend(bytes_of(&[[0u8, 0, 255, 0], [255, 255, 0, 255]]));
    bin.extend(bytes_of(&[[2i16, 4], [6, 8], [10, 12], [14, 16]]));
    // COLOR_0: u8 normalised RGBA.
    bin.extend(bytes_of(&[[255u8, 128, 0, 255]; 4]));
    let png = png();
    let png_len = png.len();
    bin.extend(png);
    let mut mat = json!({"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}});
    merge(&mut mat, material);
    let json = json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_mesh_quantization", "KHR_texture_transform", "KHR_materials_emissive_strength"],
        "extensionsRequired": ["KHR_mesh_quantization"],
        "buffers": [{"byteLength": 0}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": 32, "byteStride": 8},
            {"buffer": 0, "byteOffset": 32, "byteLength": 16, "byteStride": 4},
            {"buffer": 0, "byteOffset": 48, "byteLength": 8},
            {"buffer": 0, "byteOffset": 56, "byteLength": 16},
            {"buffer": 0, "byteOffset": 72, "byteLength": 16},
            {"buffer": 0, "byteOffset": 88, "byteLength": png_len}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5123, "count": 4, "type": "VEC3", "min": [0, 0, 0], "max": [100, 0, 100]},
            {"bufferView": 1, "componentType": 5120, "normalized": true, "count": 4, "type": "VEC3"},
            {"bufferView": 2, "componentType": 5121, "normalized": true, "count": 4, "type": "VEC2"},
            {"bufferView": 3, "componentType": 5122, "count": 4, "type": "VEC2"},
            {"bufferView": 4, "componentType": 5121, "normalized": true, "count": 4, "type": "VEC4"}
        ],
        "images": [{"bufferView": 5, "mimeType": "image/png"}],
        "samplers": [sampler],
        "textures": [{"source": 0, "sampler": 0}],
        "materials": [mat],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2, "TEXCOORD_1": 3, "COLOR_0": 4}, "material": 0}]}],
        "nodes": [{"mesh": 0, "scale": [0.01, 0.01, 0.01]}],
        "scenes": [{"nodes": [0]}]
    });
    glb(json, &bin)
}

#[test]
fn quantised_attributes_read_as_the_spec_scales_them() {
    let asset = import(&quad(json!({}), json!({}))).unwrap_or_else(|e| panic!("{e}"));
    let p = &asset.meshes[0].primitives[0];
    assert_eq!(
        p.positions[2],
        Vec3::new(100.0, 0.0, 100.0),
        "unnormalised u16"
    );
    assert_eq!(p.normals[0], Vec3::Y, "i8 127 = +1");
    assert_eq!(
        p.uvs,
        [
            Vec2::ZERO,
            Vec2::new(1.0, 0.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(0.0, 1.0)
        ]
    );
    assert_eq!(p.uvs1[3], Vec2::new(14.0, 16.0), "unnormalised i16");
    let c = p.colors[0];
    assert!(
        (c.x - 1.0).abs() < 1e-6 && (c.y - 128.0 / 255.0).abs() < 1e-6 && c.w == 1.0,
        "{c}"
    );
    // Control: no texture transform and texCoord 0, so the drawn UVs are TEXCOORD_0.
    assert_eq!(p.draw_uvs(), p.uvs.as_slice());
}

#[test]
fn texcoord_1_and_the_texture_transform_give_the_drawn_uvs() {
    let second = quad(
        json!({"pbrMetallicRoughness": {"baseColorTexture": {"texCoord": 1}}}),
        json!({}),
    );
    let asset = import(&second).unwrap();
    let p = &asset.meshes[0].primitives[0];
    assert_eq!(p.draw_uvs(), p.uvs1.as_slice());
    assert_ne!(p.draw_uvs(), p.uvs.as_slice(), "control: the sets differ");

    let (offset, rotation, scale) = (Vec2::new(0.25, -0.5), 0.5f32, Vec2::new(2.0, 3.0));
    let transformed = quad(
        json!({"pbrMetallicRoughness": {"baseColorTexture": {"extensions": {"KHR_texture_transform":
            {"offset": [0.25, -0.5], "rotation": 0.5, "scale": [2.0, 3.0], "texCoord": 1}}}}}),
        json!({}),
    );
    let asset = import(&transformed).unwrap();
    let t = asset.materials[0].base_color_texture.unwrap();
    assert_eq!(t.tex_coord, 1, "the extension's texCoord overrides");
    assert_eq!(
        t.transform,
        TextureTransform {
            offset,
            rotation,
            scale
        }
    );
    // The spec's matrices, T · R · S, with R = [cos sin; −sin cos] (rows), applied to TEXCOORD_1.
    let (s, c) = rotation.sin_cos();
    let m = glam::Mat3::from_translation(offset)
        * glam::Mat3::from_cols(Vec3::new(c, -s, 0.0), Vec3::new(s, c, 0.0), Vec3::Z)
        * glam::Mat3::from_scale(scale);
    let p = &asset.meshes[0].primitives[0];
    for (got, uv) in p.draw_uvs().iter().zip(&p.uvs1) {
        let want = m.transform_point2(*uv);
        assert!((*got - want).abs().max_element() < 1e-4, "{got} vs {want}");
    }
}

#[test]
fn samplers_and_emissive_strength_are_read() {
    let cases = [
        (
            json!({}),
            (
                Wrap::Repeat,
                Wrap::Repeat,
                Filter::Linear,
                Filter::Linear,
                Some(Filter::Linear),
            ),
        ),
        (
            json!({"wrapS": 33071, "wrapT": 33648, "magFilter": 9728, "minFilter": 9728}),
            (
                Wrap::ClampToEdge,
                Wrap::MirroredRepeat,
                Filter::Nearest,
                Filter::Nearest,
                None,
            ),
        ),
        (
            json!({"wrapS": 10497, "minFilter": 9729}),
            (
                Wrap::Repeat,
                Wrap::Repeat,
                Filter::Linear,
                Filter::Linear,
                None,
            ),
        ),
        (
            json!({"minFilter": 9984}),
            (
                Wrap::Repeat,
                Wrap::Repeat,
                Filter::Linear,
                Filter::Nearest,
                Some(Filter::Nearest),
            ),
        ),
        (
            json!({"minFilter": 9985}),
            (
                Wrap::Repeat,
                Wrap::Repeat,
                Filter::Linear,
                Filter::Linear,
                Some(Filter::Nearest),
            ),
        ),
        (
            json!({"minFilter": 9986}),
            (
                Wrap::Repeat,
                Wrap::Repeat,
                Filter::Linear,
                Filter::Nearest,
                Some(Filter::Linear),
            ),
        ),
        (
            json!({"minFilter": 9987}),
            (
                Wrap::Repeat,
                Wrap::Repeat,
                Filter::Linear,
                Filter::Linear,
                Some(Filter::Linear),
            ),
        ),
    ];
    for (sampler, want) in cases {
        let asset = import(&quad(json!({}), sampler.clone())).unwrap();
        let s = asset.materials[0].base_color_texture.unwrap().sampler;
        assert_eq!(
            (
                s.wrap_s,
                s.wrap_t,
                s.mag_filter,
                s.min_filter,
                s.mipmap_filter
            ),
            want,
            "{sampler}"
        );
    }
    let emissive = |strength: Option<f32>| {
        let mut m = json!({"emissiveFactor": [0.5, 0.25, 1.0]});
        if let Some(s) = strength {
            m["extensions"] = json!({"KHR_materials_emissive_strength": {"emissiveStrength": s}});
        }
        import(&quad(m, json!({}))).unwrap().materials[0].emissive_factor
    };
    assert_eq!(emissive(Some(4.0)), Vec3::new(2.0, 1.0, 4.0));
    assert_eq!(
        emissive(None),
        Vec3::new(0.5, 0.25, 1.0),
        "control: strength 1"
    );
}
