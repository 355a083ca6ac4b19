//! What `sierra pose` prints: one skin's joints at one time of one clip, and the
//! `--list` summary. Library functions so tests call them directly.

use glam::Mat4;
use serde_json::{json, Value};
use sierra_anim::{
    local_to_model, sample_clip, Clip, Playback, SamplingContext, Skeleton, Transform,
};

use crate::{ClipSelector, GltfAsset, Result};

/// One joint of a [`PoseReport`].
#[derive(Clone, Debug, PartialEq)]
pub struct JointPose {
    /// Index in the skin's `joints` array.
    pub index: usize,
    /// Node name.
    pub name: String,
    /// glTF node index.
    pub node: usize,
    /// Index (in the skin's `joints` array) of the nearest ancestor that is a joint of the same skin.
    pub parent: Option<usize>,
    /// Global transform of the joint node in the glTF scene (column-major).
    pub world: Mat4,
    /// glTF joint matrix: `inverse(global of the first node using the skin) × world × inverse bind matrix`
    /// (the identity stands for that inverse when the node's global transform is singular,
    /// e.g. scaled by 0, with a warning naming the node).
    pub skin: Mat4,
}

/// A skin posed by one clip at one time.
#[derive(Clone, Debug, PartialEq)]
pub struct PoseReport {
    /// Clip name.
    pub clip: String,
    /// Sample time in seconds, clamped to `[0, duration]`.
    pub time: f32,
    /// Clip duration (latest key time) in seconds.
    pub duration: f32,
    /// Skin index.
    pub skin: usize,
    /// Joints in the order of the skin's `joints` array.
    pub joints: Vec<JointPose>,
}

/// Poses skin `skin` of `asset` with only clip `clip` applied at `time` seconds
/// (clamped to the clip, one-shot). Errors: unknown clip or skin, and clip building errors.
pub fn pose(asset: &GltfAsset, clip: &ClipSelector, time: f32, skin: usize) -> Result<PoseReport> {
    pose_with(asset, clip, time, skin, |skeleton, built, t| {
        posed_model(asset, built, skeleton, t)
    })
}

/// The report of skin `skin` posed by clip `clip` at `time` seconds (clamped to
/// `[0, duration]`, 0 when not finite, one-shot), with `model_of(skeleton, clip, time)`
/// giving the `[joint]` model matrices of a skeleton: [`pose`] samples and composes them
/// directly; `sierra pose` runs the animation job. Both the skin's skeleton and the whole
/// node tree (for the mesh node, which may sit outside the skin) are posed, then [`report`].
///
/// # Errors
/// Unknown clip or skin, clip building errors, and those of `model_of`.
pub fn pose_with<E: From<crate::Error>>(
    asset: &GltfAsset,
    clip: &ClipSelector,
    time: f32,
    skin: usize,
    mut model_of: impl FnMut(&Skeleton, &Clip, f32) -> std::result::Result<Vec<Mat4>, E>,
) -> std::result::Result<PoseReport, E> {
    let clip_index = asset.find_clip(clip)?;
    let s = asset.skin(skin)?;
    let built = asset.skin_clip(skin, clip_index)?;
    let duration = built.duration();
    let time = if time.is_finite() {
        time.clamp(0.0, duration)
    } else {
        0.0
    };
    let model = model_of(&s.skeleton, &built, time)?;
    // The mesh node may sit outside the skin's skeleton: pose the whole node tree for it.
    let (nodes_skel, node_of_joint) = asset.node_skeleton()?;
    let node_clip = asset.build_clip(clip_index, &nodes_skel, &node_of_joint)?;
    let node_model = model_of(&nodes_skel, &node_clip, time)?;
    Ok(report(
        asset,
        skin,
        clip_index,
        (time, duration),
        &model,
        (&node_model, &node_of_joint),
    )?)
}

/// The report of skin `skin` once its skeleton is posed: `model` is `[skeleton joint]` the
/// skin skeleton's model matrices and `nodes` the whole node tree's (`asset.node_skeleton()`
/// order) with the node of each of its joints, both for clip `clip_index` at `time_duration.0`
/// seconds (the clip lasting `time_duration.1`). Shared by [`pose`] and every other path that
/// poses a skin (`sierra pose` runs the animation job), so the report means the same whatever
/// computed the matrices: joint parents within the skin, world matrices, and skinning matrices
/// `inverse(mesh node global) × world × inverse bind` (glTF 2.0 §3.7.3).
///
/// # Errors
/// An unknown skin.
pub fn report(
    asset: &GltfAsset,
    skin: usize,
    clip_index: usize,
    (time, duration): (f32, f32),
    model: &[Mat4],
    (node_model, node_of_joint): (&[Mat4], &[usize]),
) -> Result<PoseReport> {
    let s = asset.skin(skin)?;
    let mesh_node = s
        .users
        .first()
        .copied()
        .or_else(|| asset.nodes.iter().position(|n| n.skin == Some(skin)));
    let inverse_mesh_global = mesh_node
        .and_then(|n| Some((n, node_of_joint.iter().position(|&x| x == n)?)))
        .map_or(Mat4::IDENTITY, |(n, j)| {
            invert_or_identity(asset, n, &node_model[j])
        });
    let joints = s
        .joint_nodes
        .iter()
        .enumerate()
        .map(|(i, &node)| {
            let world = model[s.skin.joints[i] as usize];
            let mut parent = asset.nodes[node].parent;
            while let Some(p) = parent {
                if s.joint_nodes.contains(&p) {
                    break;
                }
                parent = asset.nodes[p].parent;
            }
            JointPose {
                index: i,
                name: asset.nodes[node].name.clone(),
                node,
                parent: parent.and_then(|p| s.joint_nodes.iter().position(|&x| x == p)),
                world,
                skin: inverse_mesh_global * world * s.skin.inverse_bind_matrices[i],
            }
        })
        .collect();
    Ok(PoseReport {
        clip: asset.clips[clip_index].name.clone(),
        time,
        duration,
        skin,
        joints,
    })
}

/// `m⁻¹`, or the identity (with a warning naming the node) when `m` is singular (a mesh node
/// scaled by 0 along an axis): its inverse does not exist, and glTF ignores a skinned mesh
/// node's transform anyway (§3.7.3.3), so the joint matrices stay finite.
fn invert_or_identity(asset: &GltfAsset, node: usize, m: &Mat4) -> Mat4 {
    let inverse = m.inverse();
    if m.determinant().abs() > f32::MIN_POSITIVE && inverse.is_finite() {
        return inverse;
    }
    log::warn!(
        "{}: node {node} (`{}`), the skinned mesh node, has a singular global transform (a zero scale); its inverse is taken as the identity",
        asset.path.display(),
        asset.nodes[node].name
    );
    Mat4::IDENTITY
}

fn posed_model(
    asset: &GltfAsset,
    clip: &Clip,
    skeleton: &Skeleton,
    time: f32,
) -> Result<Vec<Mat4>> {
    let n = skeleton.joint_count();
    let mut local = vec![Transform::IDENTITY; n];
    let mut model = vec![Mat4::IDENTITY; n];
    let anim = |source| crate::Error::Anim {
        file: asset.path.clone(),
        context: "posing".into(),
        source,
    };
    sample_clip(
        clip,
        time,
        Playback::Once,
        &mut SamplingContext::new(n),
        &mut local,
    )
    .map_err(anim)?;
    local_to_model(skeleton, &local, Mat4::IDENTITY, &mut model).map_err(anim)?;
    Ok(model)
}

impl PoseReport {
    /// The JSON printed by `sierra pose`:
    /// `{"clip", "time", "duration", "skin", "joints": [{"index", "name", "node", "parent", "world": [16], "skin": [16]}]}`
    /// with matrices as 16 floats, column-major.
    pub fn to_json(&self) -> Value {
        json!({
            "clip": self.clip,
            "time": self.time,
            "duration": self.duration,
            "skin": self.skin,
            "joints": self.joints.iter().map(|j| json!({
                "index": j.index,
                "name": j.name,
                "node": j.node,
                "parent": j.parent,
                "world": j.world.to_cols_array().to_vec(),
                "skin": j.skin.to_cols_array().to_vec(),
            })).collect::<Vec<_>>(),
        })
    }
}

/// The JSON printed by `sierra pose MODEL --list`:
/// `{"skins": [{"index", "name", "joints"}], "clips": [{"index", "name", "duration", "channels"}]}`
/// (`joints` = joint count, `duration` in seconds).
pub fn list_json(asset: &GltfAsset) -> Value {
    json!({
        "skins": asset.skins.iter().enumerate().map(|(i, s)| json!({
            "index": i, "name": s.name, "joints": s.joint_count(),
        })).collect::<Vec<_>>(),
        "clips": asset.clips.iter().enumerate().map(|(i, c)| json!({
            "index": i, "name": c.name, "duration": c.duration, "channels": c.channels.len(),
        })).collect::<Vec<_>>(),
    })
}
