//! Forward kinematics: local transforms to model-space matrices, from array-of-structures
//! poses ([`local_to_model`], the scalar reference) or structure-of-arrays poses
//! ([`local_to_model_soa`]: eight local matrices at a time, then the hierarchy); both give the
//! same bits.

use glam::{Mat4, Vec4};

use crate::error::check_len;
use crate::lane::{trs_to_affine, Trs};
use crate::simd::{dispatch, SimdLevel, LANES};
use crate::soa::{check_blocks, SoaTransform};
use crate::{AnimError, Skeleton, Transform, NO_PARENT};

fn check(skeleton: &Skeleton, local: usize, model: &[Mat4]) -> Result<(), AnimError> {
    let n = skeleton.joint_count();
    check_len("local pose", n, local)?;
    check_len("model-space output", n, model.len())
}

/// `parent · L` for the affine local matrix `L` given as columns `l = [x; 3, y; 3, z; 3, t; 3]`
/// (bottom row `0 0 0 1`): 12 multiply-adds of columns instead of 16 (any `parent`, affine
/// or not, gives the exact 4×4 product).
#[inline(always)]
pub(crate) fn mul_affine(parent: &Mat4, l: &[f32; 12]) -> Mat4 {
    let (px, py, pz, pw) = (parent.x_axis, parent.y_axis, parent.z_axis, parent.w_axis);
    let col =
        |a: f32, b: f32, c: f32| px * Vec4::splat(a) + py * Vec4::splat(b) + pz * Vec4::splat(c);
    Mat4::from_cols(
        col(l[0], l[1], l[2]),
        col(l[3], l[4], l[5]),
        col(l[6], l[7], l[8]),
        col(l[9], l[10], l[11]) + pw,
    )
}

/// [`mul_affine`] with `l` lane `i` of SoA columns `m` (read in place: no copy).
#[inline(always)]
fn mul_affine_lane(parent: &Mat4, m: &[crate::simd::F8; 12], i: usize) -> Mat4 {
    let (px, py, pz, pw) = (parent.x_axis, parent.y_axis, parent.z_axis, parent.w_axis);
    let l = |k: usize| Vec4::splat(m[k].0[i]);
    Mat4::from_cols(
        px * l(0) + py * l(1) + pz * l(2),
        px * l(3) + py * l(4) + pz * l(5),
        px * l(6) + py * l(7) + pz * l(8),
        px * l(9) + py * l(10) + pz * l(11) + pw,
    )
}

#[inline(always)]
fn model_of(parents: &[u16], model: &[Mat4], root: &Mat4, j: usize, l: &[f32; 12]) -> Mat4 {
    let p = parents[j];
    let parent = if p == NO_PARENT {
        root
    } else {
        &model[p as usize]
    };
    mul_affine(parent, l)
}

/// Local-to-model: `model[j] = model[parent(j)] · local[j].to_matrix()`, with `root` (e.g.
/// the character's world transform, or identity) as the parent of root joints. One linear
/// pass thanks to the parents-first joint order; affine 3×4 products (see `mul_affine`).
///
/// `local`: `[joint_count]` local transforms; `model`: `[joint_count]` column-major
/// model-space matrices (output). Errors: [`AnimError::BufferSize`].
pub fn local_to_model(
    skeleton: &Skeleton,
    local: &[Transform],
    root: Mat4,
    model: &mut [Mat4],
) -> Result<(), AnimError> {
    local_to_model_from(skeleton, local, root, 0, model)
}

/// Like [`local_to_model`] but recomputes only joints `from..` (all joints after `from` in
/// the parents-first order, which contains `from`'s whole subtree); joints before `from`
/// must already be up to date in `model`. The IK hook of [`crate::CharacterJob`] uses it
/// after editing the local rotations of a chain.
pub fn local_to_model_from(
    skeleton: &Skeleton,
    local: &[Transform],
    root: Mat4,
    from: usize,
    model: &mut [Mat4],
) -> Result<(), AnimError> {
    check(skeleton, local.len(), model)?;
    let parents = skeleton.parents();
    for j in from..parents.len() {
        let l = trs_to_affine(&Trs::from(&local[j]));
        model[j] = model_of(parents, model, &root, j, &l);
    }
    Ok(())
}

/// SoA [`local_to_model`]: local matrices of eight joints at a time from `local`
/// (`[soa_blocks(joint_count)]`), then the hierarchy joint by joint; the same bits as
/// [`local_to_model`] on the same pose. Errors: [`AnimError::BufferSize`].
pub fn local_to_model_soa(
    skeleton: &Skeleton,
    local: &[SoaTransform],
    root: Mat4,
    model: &mut [Mat4],
) -> Result<(), AnimError> {
    local_to_model_soa_with(SimdLevel::detect(), skeleton, local, root, model)
}

/// [`local_to_model_soa`] with a chosen instruction set (lowered to what this CPU supports).
///
/// Errors: as [`local_to_model_soa`].
pub fn local_to_model_soa_with(
    level: SimdLevel,
    skeleton: &Skeleton,
    local: &[SoaTransform],
    root: Mat4,
    model: &mut [Mat4],
) -> Result<(), AnimError> {
    check(skeleton, model.len(), model)?;
    check_blocks("SoA local pose", skeleton.joint_count(), local.len())?;
    l2m_soa_dispatch(level, skeleton.parents(), local, &root, model);
    Ok(())
}

dispatch! {
    fn l2m_soa_dispatch(parents: &[u16], local: &[SoaTransform], root: &Mat4, model: &mut [Mat4]) => l2m_soa_kernel
}

#[inline(always)]
fn l2m_soa_kernel(parents: &[u16], local: &[SoaTransform], root: &Mat4, model: &mut [Mat4]) {
    let n = parents.len();
    for (b, block) in local.iter().enumerate() {
        let m = trs_to_affine(&Trs::from(block));
        for i in 0..LANES.min(n - b * LANES) {
            let j = b * LANES + i;
            let p = parents[j];
            let parent = if p == NO_PARENT {
                root
            } else {
                &model[p as usize]
            };
            model[j] = mul_affine_lane(parent, &m, i);
        }
    }
}
