//! Additive layers: a pose's difference from a reference pose, added onto another pose.
//!
//! [`apply_additive`] is the scalar reference (the crate's blending has no additive mode
//! yet); the formulas are ozz-animation's additive blending (delta = reference⁻¹ · pose,
//! applied as base · delta^w) written per channel.

use glam::{Quat, Vec3A, Vec4};

use super::mask::check_lengths;
use crate::{AnimError, Transform};

/// Adds `additive`'s difference from `reference` onto `base`, in place, per joint with
/// weight `w_j = weight · mask[j]` (`mask` `None`: 1) clamped to `[0, 1]`:
///
/// - translation: `t = t_base + w · (t_add − t_ref)`
/// - rotation: `q = q_base · nlerp(1, q_ref⁻¹ · q_add, w)` (delta taken on the shortest arc)
/// - scale: `s = s_base · (1 + w · (s_add / s_ref − 1))` (a zero reference scale counts as 1)
///
/// A joint whose additive transform equals its reference exactly, or whose `w_j` is 0, is
/// left bit-equal: an additive layer of the reference (rest) pose is the identity.
///
/// Errors: [`AnimError::BufferSize`] when a length differs from `base`'s.
pub fn apply_additive(
    base: &mut [Transform],
    additive: &[Transform],
    reference: &[Transform],
    mask: Option<&[f32]>,
    weight: f32,
) -> Result<(), AnimError> {
    check_lengths(base.len(), additive.len(), mask, reference.len())?;
    for (j, b) in base.iter_mut().enumerate() {
        let w = (weight * mask.map_or(1.0, |m| m[j])).clamp(0.0, 1.0);
        let (a, r) = (&additive[j], &reference[j]);
        if w <= 0.0 || !w.is_finite() || a == r {
            continue;
        }
        b.translation += (a.translation - r.translation) * w;
        let mut delta = Vec4::from(r.rotation.conjugate() * a.rotation);
        if delta.w < 0.0 {
            delta = -delta;
        }
        let partial = (Vec4::W * (1.0 - w) + delta * w).normalize();
        b.rotation = (b.rotation * Quat::from_vec4(partial)).normalize();
        let ref_scale = Vec3A::select(r.scale.cmpeq(Vec3A::ZERO), Vec3A::ONE, r.scale);
        b.scale *= Vec3A::ONE + (a.scale / ref_scale - Vec3A::ONE) * w;
    }
    Ok(())
}
