//! Which files a glTF needs besides itself, found before anything is fetched: every external
//! URI of its buffers and images, joined to the model's folder and checked by
//! [`sierra_assets::served_path`], so a URL leaving the served folder is refused with a
//! message and never requested.

use std::path::{Path, PathBuf};

use sierra_assets::{decode_uri, served_path, UriTarget};

/// The served paths of the files `bytes` (the model at `model`, a served path: a `.gltf`'s
/// JSON or a `.glb`, whose JSON chunk is read) references, in order, without duplicates;
/// `data:` URIs need no file.
///
/// # Errors
/// A message naming the model, the reference (`images[0].uri`) and why, for JSON that does
/// not parse, a malformed URI or one that leaves the served folder.
pub fn referenced_files(model: &Path, bytes: &[u8]) -> Result<Vec<PathBuf>, String> {
    let json = glb_json(bytes).unwrap_or(bytes);
    let doc: serde_json::Value = serde_json::from_slice(json)
        .map_err(|e| format!("{}: not glTF JSON: {e}", model.display()))?;
    let folder = model.parent().unwrap_or(Path::new(""));
    let mut files = Vec::new();
    for list in ["buffers", "images"] {
        let items = doc.get(list).and_then(|v| v.as_array());
        for (i, item) in items.into_iter().flatten().enumerate() {
            let Some(uri) = item.get("uri").and_then(|u| u.as_str()) else {
                continue;
            };
            let place = format!("{}: {list}[{i}].uri", model.display());
            let target = decode_uri(uri, u64::MAX).map_err(|e| format!("{place}: {e}"))?;
            let UriTarget::Relative(relative) = target else {
                continue;
            };
            let joined = folder.join(&relative);
            let path = served_path(&joined.to_string_lossy())
                .map_err(|e| format!("{place}: `{uri}` from {}: {e}", folder.display()))?;
            if !files.contains(&path) {
                files.push(path);
            }
        }
    }
    Ok(files)
}

/// The JSON chunk of a GLB container (glTF 2.0 §4.4: 12-byte header, then the first chunk's
/// length and type `JSON`), or `None` when `bytes` is not a GLB.
fn glb_json(bytes: &[u8]) -> Option<&[u8]> {
    let word = |at: usize| {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    };
    if bytes.get(..4) != Some(b"glTF") || bytes.get(16..20) != Some(b"JSON") {
        return None;
    }
    bytes.get(20..20 + word(12)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample;

    fn file(name: &str) -> Vec<u8> {
        sample::files()
            .into_iter()
            .find(|(p, _)| p == Path::new(name))
            .unwrap()
            .1
    }

    #[test]
    fn the_box_needs_its_buffer_and_image() {
        let found = referenced_files(Path::new(sample::BOX), &file(sample::BOX)).unwrap();
        assert_eq!(
            found,
            [
                PathBuf::from("models/box.bin"),
                PathBuf::from("models/checker.png")
            ]
        );
    }

    #[test]
    fn a_reference_leaving_the_served_folder_is_refused_naming_it() {
        let e = referenced_files(Path::new(sample::ESCAPING_BOX), &file(sample::ESCAPING_BOX))
            .unwrap_err();
        assert!(e.contains("images[0].uri"), "{e}");
        assert!(e.contains(sample::ESCAPING_URI), "{e}");
        assert!(e.contains("climbs out of the served folder"), "{e}");
        // Negative control: one level up from `models/` stays inside.
        let inside = br#"{"images": [{"uri": "../shared.png"}]}"#;
        let ok = referenced_files(Path::new("models/m.gltf"), inside).unwrap();
        assert_eq!(ok, [PathBuf::from("shared.png")]);
    }

    #[test]
    fn glb_json_chunk_is_read() {
        let json = br#"{"buffers": [{"uri": "x.bin"}]} "#;
        let mut glb = b"glTF".to_vec();
        glb.extend(2u32.to_le_bytes());
        glb.extend(((20 + json.len()) as u32).to_le_bytes());
        glb.extend((json.len() as u32).to_le_bytes());
        glb.extend(b"JSON");
        glb.extend(json);
        let found = referenced_files(Path::new("a/m.glb"), &glb).unwrap();
        assert_eq!(found, [PathBuf::from("a/x.bin")]);
    }
}
