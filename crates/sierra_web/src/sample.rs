//! The sample model Sierra makes itself for the page and its tests (no `../shared` needed): a
//! unit cube with a checker texture, as a `.gltf` with a separate `.bin` buffer and `.png`
//! image, so a load fetches three files through the served-folder rules. A twin whose image
//! URI climbs out of the served folder (`../secret.png`) checks the refusal.

use std::path::PathBuf;

use glam::Vec3;

/// The sample's main file, inside the served folder.
pub const BOX: &str = "models/box.gltf";
/// The built-in mannequin (skinned, animated: `sierra_gltf::builtin::mannequin`) as a GLB,
/// for the clip picker and GPU skinning.
pub const MANNEQUIN: &str = "models/mannequin.glb";
/// The twin whose image lies outside the served folder.
pub const ESCAPING_BOX: &str = "models/escape.gltf";
/// The image URI the twin uses.
pub const ESCAPING_URI: &str = "../../secret.png";

/// Side of the checker image, pixels; squares are [`CHECKER_SQUARE`] pixels.
const CHECKER_SIZE: u32 = 64;
const CHECKER_SQUARE: u32 = 16;

/// Every file of the sample (path inside the served folder, bytes): `models/box.gltf`,
/// `models/box.bin`, `models/checker.png`, `models/escape.gltf` and `models/mannequin.glb`.
///
/// # Panics
/// Never for these fixed inputs (PNG encoding of a fixed in-memory image).
pub fn files() -> Vec<(PathBuf, Vec<u8>)> {
    let (bin, layout) = geometry();
    vec![
        (
            PathBuf::from(BOX),
            gltf_json(&layout, "checker.png").into_bytes(),
        ),
        (PathBuf::from("models/box.bin"), bin),
        (PathBuf::from("models/checker.png"), checker_png()),
        (
            PathBuf::from(ESCAPING_BOX),
            gltf_json(&layout, ESCAPING_URI).into_bytes(),
        ),
        (
            PathBuf::from(MANNEQUIN),
            sierra_gltf::builtin::mannequin::glb(),
        ),
    ]
}

/// Byte offsets and lengths of the buffer's four views and the vertex count.
struct Layout {
    views: [(usize, usize); 4],
    vertices: usize,
    indices: usize,
}

/// The cube's buffer: positions, normals, UVs (24 vertices, 4 per face so each face has its
/// own normal and UVs 0..1), then 36 `u16` indices (counter-clockwise seen from outside).
fn geometry() -> (Vec<u8>, Layout) {
    let faces = [
        Vec3::X,
        Vec3::NEG_X,
        Vec3::Y,
        Vec3::NEG_Y,
        Vec3::Z,
        Vec3::NEG_Z,
    ];
    let (mut pos, mut nrm, mut uv, mut idx) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for n in faces {
        // Two axes spanning the face, right-handed with the normal (u × v = n).
        let u = if n.y.abs() > 0.5 {
            Vec3::X
        } else {
            Vec3::Y.cross(n)
        };
        let v = n.cross(u);
        let base = pos.len() as u16;
        for (su, sv) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            pos.push((n + u * su + v * sv) * 0.5);
            nrm.push(n);
            uv.push([(su + 1.0) * 0.5, (1.0 - sv) * 0.5]);
        }
        idx.extend([base, base + 1, base + 2, base, base + 2, base + 3]);
    }
    let mut bin = Vec::new();
    let mut views = [(0, 0); 4];
    let mut push = |bytes: &[u8], slot: usize, bin: &mut Vec<u8>| {
        views[slot] = (bin.len(), bytes.len());
        bin.extend_from_slice(bytes);
        while !bin.len().is_multiple_of(4) {
            bin.push(0);
        }
    };
    let f32s = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    push(
        &f32s(&pos.iter().flat_map(|p| p.to_array()).collect::<Vec<_>>()),
        0,
        &mut bin,
    );
    push(
        &f32s(&nrm.iter().flat_map(|p| p.to_array()).collect::<Vec<_>>()),
        1,
        &mut bin,
    );
    push(&f32s(&uv.concat()), 2, &mut bin);
    push(
        &idx.iter().flat_map(|i| i.to_le_bytes()).collect::<Vec<_>>(),
        3,
        &mut bin,
    );
    let layout = Layout {
        views,
        vertices: pos.len(),
        indices: idx.len(),
    };
    (bin, layout)
}

/// The glTF JSON of the cube, its base colour texture at `image_uri`; turned 30° about +Y
/// and tipped 20° about +X so three faces and their texture show.
fn gltf_json(l: &Layout, image_uri: &str) -> String {
    let rotation = glam::Quat::from_rotation_y(30f32.to_radians())
        * glam::Quat::from_rotation_x(20f32.to_radians());
    let bytes: usize = l.views[3].0 + l.views[3].1;
    let view = |(offset, length): (usize, usize), target: u32| serde_json::json!({"buffer": 0, "byteOffset": offset, "byteLength": length, "target": target});
    serde_json::json!({
        "asset": {"version": "2.0", "generator": "sierra_web sample"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0, "rotation": rotation.to_array()}],
        "meshes": [{"primitives": [{
            "attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2},
            "indices": 3, "material": 0}]}],
        "materials": [{"pbrMetallicRoughness": {
            "baseColorTexture": {"index": 0}, "metallicFactor": 0.0, "roughnessFactor": 0.8}}],
        "textures": [{"source": 0, "sampler": 0}],
        "samplers": [{"magFilter": 9729, "minFilter": 9987, "wrapS": 10497, "wrapT": 10497}],
        "images": [{"uri": image_uri}],
        "buffers": [{"uri": "box.bin", "byteLength": bytes}],
        "bufferViews": [
            view(l.views[0], 34962), view(l.views[1], 34962), view(l.views[2], 34962),
            view(l.views[3], 34963)],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": l.vertices, "type": "VEC3",
             "min": [-0.5, -0.5, -0.5], "max": [0.5, 0.5, 0.5]},
            {"bufferView": 1, "componentType": 5126, "count": l.vertices, "type": "VEC3"},
            {"bufferView": 2, "componentType": 5126, "count": l.vertices, "type": "VEC2"},
            {"bufferView": 3, "componentType": 5123, "count": l.indices, "type": "SCALAR"}]
    })
    .to_string()
}

/// A 64 × 64 PNG of 16-pixel squares, orange and slate blue.
fn checker_png() -> Vec<u8> {
    let image = image::RgbaImage::from_fn(CHECKER_SIZE, CHECKER_SIZE, |x, y| {
        if (x / CHECKER_SQUARE + y / CHECKER_SQUARE).is_multiple_of(2) {
            image::Rgba([230, 140, 40, 255])
        } else {
            image::Rgba([60, 80, 150, 255])
        }
    });
    let mut png = Vec::new();
    image::DynamicImage::ImageRgba8(image)
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .expect("encoding a fixed 64x64 image as PNG");
    png
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_imports_with_its_texture() {
        let dir = tempfile::tempdir().unwrap();
        for (path, bytes) in files() {
            let p = dir.path().join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, bytes).unwrap();
        }
        let asset = sierra_gltf::GltfAsset::load(dir.path().join(BOX)).unwrap();
        let prim = &asset.meshes[0].primitives[0];
        assert_eq!(prim.positions.len(), 24);
        assert_eq!(asset.images.len(), 1);
        assert_eq!(asset.images[0].width, 64);
        // Each face's normal is the cross product of its first triangle's edges (outward).
        let tri = |i: usize| prim.positions[prim.indices[i] as usize];
        for f in 0..6 {
            let (a, b, c) = (tri(6 * f), tri(6 * f + 1), tri(6 * f + 2));
            let n = (b - a).cross(c - a).normalize();
            assert!(n.dot(a * 2.0) > 0.99, "face {f}: normal {n} points inward");
        }
        // The twin's image leaves the model folder's root: refused, naming the URI.
        let e = sierra_gltf::GltfAsset::load(dir.path().join(ESCAPING_BOX)).unwrap_err();
        assert!(e.to_string().contains("outside"), "{e}");
    }
}
