//! Skins and skinning palettes.

use glam::Mat4;

use crate::error::check_len;
use crate::{AnimError, Skeleton};

/// A skin: which skeleton joints deform a mesh, with their inverse bind matrices
/// (glTF 2.0 §3.7.3). Vertex `JOINTS_0` values index [`Skin::joints`].
#[derive(Clone, Debug, PartialEq)]
pub struct Skin {
    /// `[skin_joint_count]` runtime skeleton joint index of each skin joint, in
    /// the order of the glTF skin's `joints` array.
    pub joints: Vec<u16>,
    /// `[skin_joint_count]` column-major inverse bind matrices (identity when the file has none).
    pub inverse_bind_matrices: Vec<Mat4>,
}

impl Skin {
    /// Number of skin joints (palette length).
    pub fn joint_count(&self) -> usize {
        self.joints.len()
    }

    /// Checks that every joint exists in `skeleton` and that both arrays have the same length.
    pub fn validate(&self, skeleton: &Skeleton) -> Result<(), AnimError> {
        let bind = self.inverse_bind_matrices.len();
        check_len("inverse bind matrices", self.joints.len(), bind)?;
        let count = skeleton.joint_count();
        match self.joints.iter().position(|&j| j as usize >= count) {
            Some(i) => Err(AnimError::SkinJointOutOfRange {
                skin_joint: i,
                joint: self.joints[i] as usize,
                count,
            }),
            None => Ok(()),
        }
    }
}

/// Skinning palette: `palette[i] = model[skin.joints[i]] * skin.inverse_bind_matrices[i]`.
///
/// `model`: `[skeleton joint_count]` model-space matrices from [`crate::local_to_model`];
/// `palette`: `[skin.joint_count()]` column-major `Mat4` (output), what linear
/// blend skinning multiplies bind-pose vertices by.
/// Errors: [`AnimError::BufferSize`], [`AnimError::SkinJointOutOfRange`].
pub fn skinning_palette(
    skin: &Skin,
    model: &[Mat4],
    palette: &mut [Mat4],
) -> Result<(), AnimError> {
    joint_matrices(skin, model, Mat4::IDENTITY, palette)
}

/// The glTF joint matrix (glTF 2.0 §3.7.3.3):
/// `inverse_mesh_global * model[skin.joints[i]] * inverse_bind_matrices[i]`, with
/// `inverse_mesh_global` the inverse global transform of the node that uses the
/// skin (identity gives [`skinning_palette`]). Output `[skin.joint_count()]`.
pub fn joint_matrices(
    skin: &Skin,
    model: &[Mat4],
    inverse_mesh_global: Mat4,
    out: &mut [Mat4],
) -> Result<(), AnimError> {
    if out.len() != skin.joints.len() || skin.inverse_bind_matrices.len() != skin.joints.len() {
        return Err(AnimError::BufferSize {
            what: "skinning palette",
            expected: skin.joints.len(),
            actual: out.len(),
        });
    }
    let identity = inverse_mesh_global == Mat4::IDENTITY;
    for (i, ((o, &j), ibm)) in out
        .iter_mut()
        .zip(&skin.joints)
        .zip(&skin.inverse_bind_matrices)
        .enumerate()
    {
        let Some(m) = model.get(j as usize) else {
            return Err(AnimError::SkinJointOutOfRange {
                skin_joint: i,
                joint: j as usize,
                count: model.len(),
            });
        };
        *o = if identity {
            *m * *ibm
        } else {
            inverse_mesh_global * *m * *ibm
        };
    }
    Ok(())
}
