//! Which glTF extensions Sierra reads, and the validation Sierra controls.
//!
//! The `gltf` crate's `Document::from_json` refuses a file whose `extensionsRequired` names an
//! extension outside the crate's own enabled list (so `KHR_mesh_quantization` and
//! `EXT_meshopt_compression` files failed). Sierra parses without that check, runs the crate's
//! structural validation, drops only its "unsupported required extension" findings, and checks
//! the extensions against [`SUPPORTED_EXTENSIONS`] itself: a required extension outside the list
//! is refused with [`Error::UnsupportedExtension`] naming it; a used (optional) one outside the
//! list is ignored with one warning naming it (glTF 2.0 §3.12 "Specifying Extensions").
//!
//! Extension objects the `gltf` crate does not model (`EXT_meshopt_compression`,
//! `KHR_texture_transform`) are read from the file's raw JSON ([`RawJson`]).

use std::path::Path;

use serde_json::Value;

use crate::{Error, Result};

/// The glTF extensions Sierra reads, each with what it does here.
pub const SUPPORTED_EXTENSIONS: &[(&str, &str)] = &[
    (
        "KHR_mesh_quantization",
        "8- and 16-bit (normalised or not) positions, normals, tangents, UVs and morph deltas",
    ),
    (
        "EXT_meshopt_compression",
        "buffer views decoded with meshoptimizer (vertex and index codecs; OCTAHEDRAL, QUATERNION and EXPONENTIAL filters)",
    ),
    (
        "KHR_texture_transform",
        "UV offset, rotation, scale and texCoord override",
    ),
    (
        "KHR_materials_emissive_strength",
        "multiplies the emissive factor",
    ),
];

/// The file's JSON as plain `serde_json` values, for extension objects the `gltf` crate drops.
pub(crate) struct RawJson(pub Value);

impl RawJson {
    /// The JSON of a `.gltf` or the JSON chunk of a `.glb` (`Value::Null` when unparsable: the
    /// `gltf` crate has already reported it by then).
    pub(crate) fn parse(bytes: &[u8]) -> Self {
        let json: &[u8] = if bytes.starts_with(b"glTF") {
            match gltf::binary::Glb::from_slice(bytes) {
                Ok(glb) => return Self(serde_json::from_slice(&glb.json).unwrap_or(Value::Null)),
                Err(_) => &[],
            }
        } else {
            bytes
        };
        Self(serde_json::from_slice(json).unwrap_or(Value::Null))
    }

    /// `extensions.NAME` of the object at `path` (keys and array indices), if present.
    pub(crate) fn extension(&self, path: &[PathPart], name: &str) -> Option<&Value> {
        let mut v = &self.0;
        for part in path {
            v = match part {
                PathPart::Key(k) => v.get(k)?,
                PathPart::Index(i) => v.get(i)?,
            };
        }
        v.get("extensions")?.get(name)
    }
}

/// One step of a JSON path.
pub(crate) enum PathPart<'a> {
    /// An object key.
    Key(&'a str),
    /// An array index.
    Index(usize),
}

fn supported(name: &str) -> bool {
    SUPPORTED_EXTENSIONS.iter().any(|(n, _)| *n == name)
}

/// Runs the `gltf` crate's validation of `root` except its required-extension check, then
/// Sierra's: returns one warning per used extension Sierra ignores.
///
/// # Errors
/// [`Error::Gltf`] (validation), [`Error::UnsupportedExtension`] (the first required extension
/// outside [`SUPPORTED_EXTENSIONS`]).
pub(crate) fn validate(file: &Path, root: &gltf::json::Root) -> Result<Vec<String>> {
    use gltf::json::validation::{Error as Invalid, Validate};
    let mut errors = Vec::new();
    root.validate(root, gltf::json::Path::new, &mut |path, error| {
        let path = path();
        let extension_check =
            error == Invalid::Unsupported && path.as_str().starts_with("extensionsRequired");
        if !extension_check {
            errors.push((path, error));
        }
    });
    if !errors.is_empty() {
        return Err(Error::Gltf {
            file: file.to_owned(),
            source: gltf::Error::Validation(errors),
        });
    }
    if let Some(name) = root.extensions_required.iter().find(|n| !supported(n)) {
        return Err(Error::UnsupportedExtension {
            file: file.to_owned(),
            extension: name.clone(),
            supported: SUPPORTED_EXTENSIONS
                .iter()
                .map(|(n, _)| (*n).to_owned())
                .collect(),
        });
    }
    let mut warnings = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for name in &root.extensions_used {
        if !supported(name) && !seen.contains(&name.as_str()) {
            seen.push(name);
            let msg = format!(
                "{}: ignoring optional glTF extension `{name}` (Sierra does not read it)",
                file.display()
            );
            log::warn!("{msg}");
            warnings.push(msg);
        }
    }
    Ok(warnings)
}
