//! Models built in code, so demos and tests work from a fresh clone.

pub mod mannequin;

use std::path::Path;

use crate::{GltfAsset, Result};

/// Loads a model named as level files name them: `"builtin:mannequin"`, or a
/// path to a `.gltf`/`.glb` file. Errors: import errors naming the file.
pub fn load_model(name: &str) -> Result<GltfAsset> {
    if name == mannequin::MODEL_NAME {
        mannequin::load()
    } else {
        GltfAsset::load(Path::new(name))
    }
}
