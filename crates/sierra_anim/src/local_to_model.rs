//! Forward kinematics: local transforms to model-space matrices.

use glam::{Affine3A, Mat4};

use crate::{AnimError, Skeleton, Transform, NO_PARENT};

fn check(skeleton: &Skeleton, local: &[Transform], model: &[Mat4]) -> Result<(), AnimError> {
    let n = skeleton.joint_count();
    if local.len() != n {
        return Err(AnimError::BufferSize {
            what: "local pose",
            expected: n,
            actual: local.len(),
        });
    }
    if model.len() != n {
        return Err(AnimError::BufferSize {
            what: "model-space output",
            expected: n,
            actual: model.len(),
        });
    }
    Ok(())
}

/// Local-to-model: `model[j] = model[parent(j)] * local[j].to_matrix()`, with
/// `root` (e.g. the character's world transform, or identity) as the parent of
/// root joints. One linear pass thanks to the parents-first joint order.
///
/// `local`: `[joint_count]` local transforms; `model`: `[joint_count]`
/// column-major model-space matrices (output).
/// Errors: [`AnimError::BufferSize`].
pub fn local_to_model(
    skeleton: &Skeleton,
    local: &[Transform],
    root: Mat4,
    model: &mut [Mat4],
) -> Result<(), AnimError> {
    local_to_model_from(skeleton, local, root, 0, model)
}

/// Like [`local_to_model`] but recomputes only joints `from..` (all joints after
/// `from` in the parents-first order, which contains `from`'s whole subtree);
/// joints before `from` must already be up to date in `model`. The IK hook of
/// [`crate::CharacterJob`] uses it after editing the local rotations of a chain.
pub fn local_to_model_from(
    skeleton: &Skeleton,
    local: &[Transform],
    root: Mat4,
    from: usize,
    model: &mut [Mat4],
) -> Result<(), AnimError> {
    check(skeleton, local, model)?;
    let parents = skeleton.parents();
    // Model matrices of a skeleton are affine (bottom row 0 0 0 1): multiply the
    // 3×4 parts only (12 SIMD multiply-adds instead of 16), storing full Mat4s.
    for j in from..parents.len() {
        let t = &local[j];
        let l = Affine3A::from_scale_rotation_translation(
            t.scale.into(),
            t.rotation,
            t.translation.into(),
        );
        let p = parents[j];
        model[j] = if p == NO_PARENT {
            root * Mat4::from(l)
        } else {
            Mat4::from(Affine3A::from_mat4(model[p as usize]) * l)
        };
    }
    Ok(())
}
