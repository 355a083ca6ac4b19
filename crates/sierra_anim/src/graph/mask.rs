//! Joint masks and the per-joint-weighted override blend (an upper-body layer).
//!
//! [`blend_masked`] is the scalar reference: it calls the public [`crate::blend_poses`]
//! once per joint. When the crate's blending gains per-joint weights (SoA rewrite), this
//! function is what it must reproduce.

use crate::error::check_len;
use crate::{blend_poses, AnimError, BlendLayer, Skeleton, Transform};

/// `[joint_count]` weights: 1 on the subtrees of `include` (a joint and its descendants),
/// then 0 on the subtrees of `exclude`, 0 elsewhere. Joint indices are runtime (parents-first)
/// indices of `skeleton`; out-of-range ones are ignored.
pub fn joint_mask(skeleton: &Skeleton, include: &[usize], exclude: &[usize]) -> Vec<f32> {
    let n = skeleton.joint_count();
    let mut mask = vec![0.0; n];
    for (list, value) in [(include, 1.0), (exclude, 0.0)] {
        for &j in list.iter().filter(|&&j| j < n) {
            let end = (j + skeleton.subtree_len(j)).min(n);
            mask[j..end].fill(value);
        }
    }
    mask
}

/// Blends `layer` over `base` in place with per-joint weight `w_j = weight · mask[j]`
/// (`mask` `None`: 1 for every joint), clamped to `[0, 1]`:
/// `w_j = 0` leaves `base[j]` bit-equal, `w_j = 1` copies `layer[j]`, otherwise
/// `base[j] = blend_poses([(base[j], 1 − w_j), (layer[j], w_j)])` (nlerp, see [`blend_poses`]).
///
/// Errors: [`AnimError::BufferSize`] when `layer`, `rest` or `mask` differ in length from `base`.
pub fn blend_masked(
    base: &mut [Transform],
    layer: &[Transform],
    mask: Option<&[f32]>,
    weight: f32,
    rest: &[Transform],
) -> Result<(), AnimError> {
    check_lengths(base.len(), layer.len(), mask, rest.len())?;
    for j in 0..base.len() {
        let w = (weight * mask.map_or(1.0, |m| m[j])).clamp(0.0, 1.0);
        if w <= 0.0 || !w.is_finite() {
            continue;
        }
        if w >= 1.0 {
            base[j] = layer[j];
            continue;
        }
        let below = [base[j]];
        blend_poses(
            &[
                BlendLayer::new(&below, 1.0 - w),
                BlendLayer::new(&layer[j..j + 1], w),
            ],
            &rest[j..j + 1],
            std::slice::from_mut(&mut base[j]),
        )?;
    }
    Ok(())
}

pub(crate) fn check_lengths(
    n: usize,
    layer: usize,
    mask: Option<&[f32]>,
    rest: usize,
) -> Result<(), AnimError> {
    for (what, len) in [
        ("layer pose", layer),
        ("joint mask", mask.map_or(n, <[f32]>::len)),
        ("rest pose", rest),
    ] {
        check_len(what, n, len)?;
    }
    Ok(())
}
