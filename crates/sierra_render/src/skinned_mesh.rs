//! [`SkinnedMeshData`]: a skinned mesh on the CPU (bind pose, four influences per vertex, morph
//! targets), the input of GPU skinning ([`crate::compute::skinning`]), posed bounds
//! ([`crate::compute::skinned_bounds`]) and crowds ([`crate::passes::crowd`]). Plain data: a leaf module.

use glam::Vec3;

use crate::error::{RenderError, Result};
use crate::mesh::MeshData;

/// One morph target (glTF 2.0 §3.7.2.2): per-vertex deltas added with the target's weight
/// before skinning.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MorphTarget {
    /// `[vertex]` position deltas, metres.
    pub positions: Vec<Vec3>,
    /// `[vertex]` normal deltas (empty: none).
    pub normals: Vec<Vec3>,
    /// `[vertex]` tangent xyz deltas (empty: none).
    pub tangents: Vec<Vec3>,
}

/// A skinned mesh on the CPU: bind-pose geometry plus 4 influences per vertex.
///
/// `joints[v]` index the skin's palette (the glTF skin's `joints` array order),
/// `weights[v]` sum to 1; both have `mesh.positions.len()` entries.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SkinnedMeshData {
    /// Bind-pose mesh (normals required, as [`MeshData`]).
    pub mesh: MeshData,
    /// `[vertex]` four palette indices.
    pub joints: Vec<[u32; 4]>,
    /// `[vertex]` four weights.
    pub weights: Vec<[f32; 4]>,
    /// Palette length the mesh expects (the skin's joint count).
    pub joint_count: u32,
    /// `[target]` morph targets: position (metres), normal and tangent deltas per vertex, each
    /// present array `[vertex]` long (normals/tangents may be empty: no delta). Empty: no morphing.
    pub morph_targets: Vec<MorphTarget>,
}

impl SkinnedMeshData {
    /// Checks the mesh, the influence lengths and that every joint index is `< joint_count`.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] naming the first problem.
    pub fn validate(&self) -> Result<()> {
        self.mesh.validate()?;
        let n = self.mesh.positions.len();
        if self.joints.len() != n || self.weights.len() != n {
            return Err(RenderError::InvalidInput(format!(
                "skinned mesh has {n} vertices but {} joint and {} weight sets (a mesh without a skin cannot be drawn skinned)",
                self.joints.len(),
                self.weights.len()
            )));
        }
        let n_targets = self.morph_targets.len();
        if let Some((t, target)) = self.morph_targets.iter().enumerate().find(|(_, m)| {
            m.positions.len() != n
                || !(m.normals.is_empty() || m.normals.len() == n)
                || !(m.tangents.is_empty() || m.tangents.len() == n)
        }) {
            return Err(RenderError::InvalidInput(format!(
                "morph target {t} of {n_targets} has {} position, {} normal and {} tangent deltas, but the mesh has {n} vertices",
                target.positions.len(),
                target.normals.len(),
                target.tangents.len()
            )));
        }
        if self.joint_count == 0 {
            return Err(RenderError::InvalidInput(
                "skinned mesh has a skin with 0 joints".into(),
            ));
        }
        if let Some((v, j)) = self
            .joints
            .iter()
            .enumerate()
            .find(|(_, j)| j.iter().any(|&k| k >= self.joint_count))
        {
            return Err(RenderError::InvalidInput(format!(
                "skinned mesh vertex {v} uses joints {j:?}, but the skin has {} joints",
                self.joint_count
            )));
        }
        Ok(())
    }
}
