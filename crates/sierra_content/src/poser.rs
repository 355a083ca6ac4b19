//! Posing a glTF model outside the game: [`ModelPoser`] runs the animation job
//! (`sierra_anim::CharacterJob`, the one path from (clip, time) to a skinning palette, the one
//! gameplay uses) for one skin, and [`node_morph_weights`] samples a mesh node's morph weights.
//!
//! `sierra_gltf::pose` stays the independent raw-glTF reference the tests compare against
//! (`tests/poser.rs`: same matrices for every shared sample model with a skin).

use glam::Mat4;
use sierra_anim::{
    sample_morph_weights, AnimError, CharacterJob, CharacterPose, Clip, ClipLayer, Playback,
    Skeleton, Skin,
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
        let layers = [ClipLayer::single(clip, time, playback)];
        CharacterJob::new(&self.skeleton, Some(&self.skin), &layers)
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
    /// The node hierarchy as a skeleton (one joint per node, parents first).
    skeleton: Skeleton,
    /// `[joint]` glTF node.
    nodes: Vec<usize>,
    /// Every clip of the model, built for `skeleton`.
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
        Ok(Self {
            skeleton,
            nodes,
            clips,
        })
    }

    /// Clip `clip` (`None` when out of range).
    pub fn clip(&self, clip: usize) -> Option<&Clip> {
        self.clips.get(clip)
    }
}

/// World matrices of every glTF node of a model under one of its clips: the node hierarchy as a
/// skeleton (`GltfAsset::node_skeleton`, one joint per node), each clip built for it, sampled
/// (`sierra_anim::sample_clip`) and composed parents first (`sierra_anim::local_to_model`). The
/// path from (clip, time) to node transforms for models animated without a skin (BoxAnimated,
/// AnimatedCube): `sierra view` places their meshes with it.
pub struct NodePoser {
    clips: NodeClips,
    context: sierra_anim::SamplingContext,
    local: Vec<sierra_anim::Transform>,
    model: Vec<Mat4>,
    /// `[glTF node]` world matrix.
    world: Vec<Mat4>,
}

impl NodePoser {
    /// Builds every clip of `asset` for its node hierarchy.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] with `sierra_gltf`'s message when the hierarchy or a clip
    /// cannot be built.
    pub fn new(asset: &GltfAsset) -> Result<Self> {
        let clips = NodeClips::new(asset)?;
        let joints = clips.skeleton.joint_count();
        Ok(Self {
            context: sierra_anim::SamplingContext::new(joints),
            local: vec![sierra_anim::Transform::default(); joints],
            model: vec![Mat4::IDENTITY; joints],
            world: asset.rest_world_matrices(),
            clips,
        })
    }

    /// `[glTF node]` world matrices (column-major, the file's scene space) under clip `clip`
    /// at `time` seconds mapped by `playback`.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] for a clip index out of range or a sampling error.
    pub fn world(&mut self, clip: usize, time: f32, playback: Playback) -> Result<&[Mat4]> {
        let NodeClips {
            skeleton,
            nodes,
            clips,
        } = &self.clips;
        let Some(c) = clips.get(clip) else {
            return Err(RenderError::InvalidInput(format!(
                "clip index {clip} out of range ({} clips)",
                clips.len()
            )));
        };
        sierra_anim::sample_clip(c, time, playback, &mut self.context, &mut self.local)
            .map_err(invalid)?;
        sierra_anim::local_to_model(skeleton, &self.local, Mat4::IDENTITY, &mut self.model)
            .map_err(invalid)?;
        for (&node, m) in nodes.iter().zip(&self.model) {
            if let Some(w) = self.world.get_mut(node) {
                *w = *m;
            }
        }
        Ok(&self.world)
    }
}
