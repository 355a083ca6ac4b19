//! Models built in code, so demos and tests work from a fresh clone.

pub mod mannequin;

use std::path::Path;

use crate::{GltfAsset, Result};

/// Loads a model named as level files name them: `"builtin:mannequin"`, or a
/// path to a `.gltf`/`.glb` file. Errors: import errors naming the file.
pub fn load_model(name: &str) -> Result<GltfAsset> {
    load_model_in(name, None, crate::Budgets::DEFAULT)
}

/// The built-in model names (`builtin:NAME`).
pub const MODELS: &[&str] = &[mannequin::MODEL_NAME];

/// As [`load_model`], with the asset root (`None`: the model's folder) and budgets.
///
/// # Errors
/// [`crate::Error::UnknownBuiltin`] for a `builtin:` name that does not exist (listing the
/// built-ins), import errors naming the file.
pub fn load_model_in(
    name: &str,
    asset_root: Option<&Path>,
    budgets: crate::Budgets,
) -> Result<GltfAsset> {
    if name == mannequin::MODEL_NAME {
        mannequin::load()
    } else if name.starts_with("builtin:") {
        Err(crate::Error::UnknownBuiltin {
            name: name.to_owned(),
            available: MODELS.iter().map(|m| m.to_string()).collect(),
        })
    } else {
        GltfAsset::load_user_file(
            Path::new(name),
            asset_root,
            budgets,
            crate::ImportOptions::default(),
        )
    }
}
