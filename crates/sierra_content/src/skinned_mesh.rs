//! glTF primitives as the skinning pass's [`SkinnedMeshData`].

use glam::{Vec3, Vec4};
use sierra_gltf::ImportedPrimitive;
use sierra_render::compute::skinning::{smooth_normals, MorphTarget, SkinnedMeshData};
use sierra_render::Result;

use crate::gltf_model::primitive_mesh;

/// A glTF primitive as a [`SkinnedMeshData`] for a skin of `joint_count`
/// joints: smooth normals when the file has none (Fox), MikkTSpace tangents
/// when absent (as [`primitive_mesh`]).
///
/// # Errors
/// [`sierra_render::RenderError::InvalidInput`] when the primitive has no skin influences
/// (a mesh without a skin drawn skinned) or uses joints beyond `joint_count`.
pub fn skinned_primitive_mesh(
    primitive: &ImportedPrimitive,
    joint_count: usize,
) -> Result<SkinnedMeshData> {
    if primitive.joints.is_empty() || primitive.weights.len() != primitive.joints.len() {
        return Err(sierra_render::RenderError::InvalidInput(
            "primitive has no JOINTS_0/WEIGHTS_0: it cannot be drawn skinned".into(),
        ));
    }
    let mut source = primitive.clone();
    if source.indices.is_empty() {
        source.indices = (0..source.positions.len() as u32).collect();
    }
    if source.normals.len() != source.positions.len() {
        let positions: Vec<[f32; 3]> = source.positions.iter().map(|p| p.to_array()).collect();
        source.normals = smooth_normals(&positions, &source.indices)
            .into_iter()
            .map(Vec3::from)
            .collect();
    }
    let mesh = primitive_mesh(&source);
    let data = SkinnedMeshData {
        mesh,
        joints: source.joints.iter().map(|j| j.map(u32::from)).collect(),
        weights: source.weights.iter().map(|w| w.to_array()).collect(),
        joint_count: u32::try_from(joint_count).unwrap_or(u32::MAX),
        morph_targets: morph_targets(source.morph_targets),
    };
    data.validate()?;
    Ok(data)
}

/// An unskinned glTF primitive (e.g. a morph-only mesh such as AnimatedMorphCube) as a
/// [`SkinnedMeshData`] with one joint: every vertex follows palette entry 0 with weight 1, so
/// the skinning pass morphs it on the GPU and `palette[0]` places it (pass the node's world
/// matrix). Normals and tangents as [`skinned_primitive_mesh`].
///
/// # Errors
/// [`sierra_render::RenderError::InvalidInput`] when the mesh data or its morph targets are
/// inconsistent.
pub fn rigid_primitive_mesh(primitive: &ImportedPrimitive) -> Result<SkinnedMeshData> {
    let mut source = primitive.clone();
    let n = source.positions.len();
    source.joints = vec![[0; 4]; n];
    source.weights = vec![Vec4::X; n];
    skinned_primitive_mesh(&source, 1)
}

/// glTF morph targets (§3.7.2.2) as the renderer's: the same per-vertex deltas.
pub fn morph_targets(targets: Vec<sierra_gltf::MorphTarget>) -> Vec<MorphTarget> {
    targets
        .into_iter()
        .map(|t| MorphTarget {
            positions: t.positions,
            normals: t.normals,
            tangents: t.tangents,
        })
        .collect()
}
