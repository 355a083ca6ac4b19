//! A skinned model ready to animate ([`CharacterModel`]): its import, skeleton, skin and clips.
//! The clip bindings, the animation graph and the characters playing it all read it.

use std::path::Path;

use sierra_anim::{Clip, Skeleton, Skin};
use sierra_gltf::GltfAsset;

use super::error::GameplayError;

/// A skinned model ready to animate: skin 0 of a glTF asset and every clip built for its skeleton.
#[derive(Debug)]
pub struct CharacterModel {
    /// The import (meshes, materials for the renderer).
    pub asset: GltfAsset,
    /// Runtime skeleton of skin 0 (parents first).
    pub skeleton: Skeleton,
    /// Skin 0 (joint indices, inverse bind matrices).
    pub skin: Skin,
    /// Every clip of the file, built for `skeleton`, in file order.
    pub clips: Vec<Clip>,
}

impl CharacterModel {
    /// Loads `model` (`"builtin:mannequin"` or a path relative to the level's folder, opened
    /// through `assets`: inside the asset root, within the budgets).
    ///
    /// Errors: [`GameplayError::Model`] (import error), [`GameplayError::NoSkin`].
    /// `file`/`json_path` name the level place for messages.
    pub fn load(
        model: &str,
        assets: &sierra_assets::Resolver,
        file: &Path,
        json_path: &str,
    ) -> Result<Self, GameplayError> {
        let at = || (file.to_owned(), json_path.to_owned());
        let asset = if model.starts_with("builtin:") {
            sierra_gltf::builtin::load_model(model)
        } else {
            GltfAsset::load_in(
                assets,
                Path::new(model),
                sierra_gltf::ImportOptions::default(),
            )
        }
        .map_err(|source| GameplayError::Model {
            file: at().0,
            json_path: at().1,
            source,
        })?;
        let Some(imported) = asset.skins.first() else {
            return Err(GameplayError::NoSkin {
                file: at().0,
                json_path: at().1,
                model: model.to_owned(),
            });
        };
        let skeleton = imported.skeleton.clone();
        let skin = imported.skin.clone();
        let clips = (0..asset.clips.len())
            .map(|c| asset.skin_clip(0, c))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|source| GameplayError::Model {
                file: at().0,
                json_path: at().1,
                source,
            })?;
        Ok(Self {
            asset,
            skeleton,
            skin,
            clips,
        })
    }

    /// Index of the clip called `name`: an exact match, else the first clip whose name
    /// matches ignoring ASCII case (`"walk"` finds `Walk`).
    pub fn clip_named(&self, name: &str) -> Option<usize> {
        let clips = &self.clips;
        clips.iter().position(|c| c.name() == name).or_else(|| {
            clips
                .iter()
                .position(|c| c.name().eq_ignore_ascii_case(name))
        })
    }

    /// [`CharacterModel::clip_named`]; when no clip has that name, a decimal `name` is an
    /// index (so unnamed clips can be chosen: `"0"`).
    pub fn clip_index(&self, name: &str) -> Option<usize> {
        self.clip_named(name)
            .or_else(|| name.parse::<usize>().ok().filter(|&i| i < self.clips.len()))
    }

    /// The clips as `index: "name"` (unnamed ones marked), for error messages.
    pub fn clip_names(&self) -> String {
        if self.clips.is_empty() {
            return "the model has no clips".into();
        }
        let names: Vec<String> = self
            .clips
            .iter()
            .enumerate()
            .map(|(i, c)| match c.name() {
                "" => format!("{i}: (unnamed)"),
                n => format!("{i}: {n:?}"),
            })
            .collect();
        names.join(", ")
    }
}
