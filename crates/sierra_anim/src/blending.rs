//! Weighted blending of local poses (crossfades, layered clips).

use glam::{Quat, Vec4};

use crate::{AnimError, Transform};

/// One input of [`blend_poses`]: a local pose and its weight (>= 0).
#[derive(Clone, Copy, Debug)]
pub struct BlendLayer<'a> {
    /// `[joint_count]` local transforms.
    pub pose: &'a [Transform],
    /// Non-negative weight; weights are normalised by their sum.
    pub weight: f32,
}

/// Blends `layers` into `output` (`[joint_count]` local transforms).
///
/// Translation and scale: weighted mean. Rotation: normalised weighted sum of
/// quaternions (nlerp), each flipped into the hemisphere of the first weighted
/// layer's rotation so `q` and `−q` blend as the same rotation (the approach of
/// ozz-animation's `BlendingJob`). When the weights sum to (nearly) zero the
/// `rest_pose` is returned, so a pose is always defined.
///
/// Errors: [`AnimError::BufferSize`] when a pose length differs from `output`.
pub fn blend_poses(
    layers: &[BlendLayer<'_>],
    rest_pose: &[Transform],
    output: &mut [Transform],
) -> Result<(), AnimError> {
    let n = output.len();
    for (what, len) in std::iter::once(("blend rest pose", rest_pose.len()))
        .chain(layers.iter().map(|l| ("blend layer pose", l.pose.len())))
    {
        if len != n {
            return Err(AnimError::BufferSize {
                what,
                expected: n,
                actual: len,
            });
        }
    }
    let total: f32 = layers.iter().map(|l| l.weight.max(0.0)).sum();
    if !(total > 1e-6) || !total.is_finite() {
        output.copy_from_slice(rest_pose);
        return Ok(());
    }
    let inv = 1.0 / total;
    // Two layers (a crossfade) is the hot case: one fused pass.
    if let [a, b] = layers {
        let wa = a.weight.max(0.0) * inv;
        let wb = b.weight.max(0.0) * inv;
        for ((o, pa), pb) in output.iter_mut().zip(a.pose).zip(b.pose) {
            let qa = Vec4::from(pa.rotation);
            let qb = Vec4::from(pb.rotation);
            // Flip the lighter layer into the heavier one's hemisphere, so weight
            // 0/1 returns the input quaternion itself, not its negation.
            let flip = if qa.dot(qb) < 0.0 { -1.0 } else { 1.0 };
            let (sa, sb) = if wa >= wb {
                (wa, wb * flip)
            } else {
                (wa * flip, wb)
            };
            *o = Transform {
                translation: pa.translation * wa + pb.translation * wb,
                rotation: Quat::from_vec4((qa * sa + qb * sb).normalize()),
                scale: pa.scale * wa + pb.scale * wb,
            };
        }
        return Ok(());
    }
    for (j, o) in output.iter_mut().enumerate() {
        let mut t = glam::Vec3A::ZERO;
        let mut s = glam::Vec3A::ZERO;
        let mut q = Vec4::ZERO;
        let mut reference: Option<Vec4> = None;
        for l in layers {
            let w = l.weight.max(0.0) * inv;
            if w == 0.0 {
                continue;
            }
            let p = &l.pose[j];
            let r = Vec4::from(p.rotation);
            let refq = *reference.get_or_insert(r);
            t += p.translation * w;
            s += p.scale * w;
            q += if refq.dot(r) < 0.0 { -r * w } else { r * w };
        }
        *o = Transform {
            translation: t,
            rotation: Quat::from_vec4(q.normalize()),
            scale: s,
        };
    }
    Ok(())
}
