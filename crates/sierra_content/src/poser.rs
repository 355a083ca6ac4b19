//! Posing a glTF model outside the game: [`ModelPoser`] runs the animation job
//! (`sierra_anim::CharacterJob`, the one path from (clip, time) to a skinning palette, the one
//! gameplay uses) for one skin, and [`node_morph_weights`] samples a mesh node's morph weights.
//!
//! `sierra_gltf::pose` stays the independent raw-glTF reference the tests compare against
//! (`tests/poser.rs`: same matrices for every shared sample model with a skin).

use glam::Mat4;
use sierra_anim::{
    sample_morph_weights, AnimError, CharacterJob, CharacterPose, Clip, ClipLayer, NoHook,
    Playback, Skeleton, Skin,
};
use sierra_gltf::GltfAsset;
use sierra_render::{RenderError, Result};

fn invalid(e: impl std::fmt::Display) -> RenderError {
    RenderError::InvalidInput(e.to_string())
}

/// One skin of a glTF model with every clip built for its skeleton and the job's buffers
/// allocated once: [`ModelPoser::palette`] allocates nothing.
pub struct ModelPoser {
    skeleton: Skeleton,
    skin: Skin,
    /// `[clip]` in the asset's order, built for `skeleton`.
    clips: Vec<Clip>,
    pose: CharacterPose,
}

impl ModelPoser {
    /// Builds every clip of `asset` for skin `skin`'s skeleton (which holds every ancestor of
    /// the skin's joints, so model space is the glTF scene's world space).
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] with `sierra_gltf`'s message for an unknown skin or a clip
    /// that cannot be built.
    pub fn new(asset: &GltfAsset, skin: usize) -> Result<Self> {
        let imported = asset.skin(skin).map_err(invalid)?;
        let clips = (0..asset.clips.len())
            .map(|c| asset.skin_clip(skin, c).map_err(invalid))
            .collect::<Result<Vec<_>>>()?;
        Ok(Self {
            pose: CharacterPose::new(&imported.skeleton, imported.joint_count(), 1),
            skeleton: imported.skeleton.clone(),
            skin: imported.skin.clone(),
            clips,
        })
    }

    /// Number of clips (the asset's).
    pub fn clip_count(&self) -> usize {
        self.clips.len()
    }

    /// Clip `clip` as built for this skin (`None` when out of range).
    pub fn clip(&self, clip: usize) -> Option<&Clip> {
        self.clips.get(clip)
    }

    /// Palette length: the skin's joint count.
    pub fn joint_count(&self) -> usize {
        self.pose.palette.len()
    }

    /// The skinning palette of `clip` at `time` seconds (mapped by `playback`):
    /// `[skin joint]` column-major joint world matrix × inverse bind matrix (glTF §3.7.3.3; the
    /// skinned mesh node's own transform is not applied), from one `CharacterJob` run.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] for a clip index out of range or a job error.
    pub fn palette(&mut self, clip: usize, time: f32, playback: Playback) -> Result<&[Mat4]> {
        let Some(clip) = self.clips.get(clip) else {
            return Err(RenderError::InvalidInput(format!(
                "clip index {clip} out of range ({} clips)",
                self.clips.len()
            )));
        };
        let layers = [ClipLayer {
            clip,
            time,
            playback,
            weight: 1.0,
        }];
        CharacterJob {
            skeleton: &self.skeleton,
            skin: Some(&self.skin),
            layers: &layers,
            root: Mat4::IDENTITY,
            hook: &NoHook,
            character: 0,
        }
        .run(&mut self.pose)
        .map_err(invalid)?;
        Ok(&self.pose.palette)
    }
}

/// The morph weights of glTF node `node` under `clip` at `time` (mapped by `playback`) into
/// `out` (`[defaults.len()]`): the clip's `weights` track on that node when it has one with as
/// many weights as `defaults`, else `defaults` (the node's weights, else its mesh's, glTF
/// §3.7.2.2). Morph tracks target glTF nodes whatever skeleton the clip was built for. The one
/// morph-weight sampler of `sierra view` and [`crate::SkinnedModel::morph_weights`];
/// allocates nothing once `out` has grown.
///
/// # Errors
/// The sampler's [`AnimError`] (not expected for a track found this way).
pub fn node_morph_weights(
    clip: &Clip,
    node: usize,
    defaults: &[f32],
    time: f32,
    playback: Playback,
    out: &mut Vec<f32>,
) -> std::result::Result<(), AnimError> {
    out.clear();
    out.extend_from_slice(defaults);
    if let Some(track) = clip
        .morph_tracks()
        .iter()
        .position(|t| t.target() == node && t.weight_count() == out.len())
    {
        sample_morph_weights(clip, track, time, playback, out)?;
    }
    Ok(())
}

/// Every clip of a model built for its node hierarchy (one joint per glTF node), for the morph
/// weights of models without a skin (AnimatedMorphCube).
pub struct NodeClips {
    clips: Vec<Clip>,
}

impl NodeClips {
    /// Builds every clip of `asset` for `asset.node_skeleton()`.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] with `sierra_gltf`'s message when the hierarchy or a clip
    /// cannot be built.
    pub fn new(asset: &GltfAsset) -> Result<Self> {
        let (skeleton, nodes) = asset.node_skeleton().map_err(invalid)?;
        let clips = (0..asset.clips.len())
            .map(|c| asset.build_clip(c, &skeleton, &nodes).map_err(invalid))
            .collect::<Result<Vec<_>>>()?;
        Ok(Self { clips })
    }

    /// Clip `clip` (`None` when out of range).
    pub fn clip(&self, clip: usize) -> Option<&Clip> {
        self.clips.get(clip)
    }
}
