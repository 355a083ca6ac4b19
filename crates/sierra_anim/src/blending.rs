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
            *o = blend2(pa, pb, wa, wb);
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

/// Blends two transforms with normalised weights `wa + wb = 1`; the lighter
/// layer's rotation is flipped into the heavier one's hemisphere, so weight 0/1
/// returns the input quaternion itself, not its negation.
#[inline(always)]
pub(crate) fn blend2(pa: &Transform, pb: &Transform, wa: f32, wb: f32) -> Transform {
    let qa = Vec4::from(pa.rotation);
    let qb = Vec4::from(pb.rotation);
    let flip = if qa.dot(qb) < 0.0 { -1.0 } else { 1.0 };
    let (sa, sb) = if wa >= wb {
        (wa, wb * flip)
    } else {
        (wa * flip, wb)
    };
    Transform {
        translation: pa.translation * wa + pb.translation * wb,
        rotation: Quat::from_vec4(fast_normalize(qa * sa + qb * sb)),
        scale: pa.scale * wa + pb.scale * wb,
    }
}

/// `v / |v|` with the SSE reciprocal square root refined by one Newton–Raphson
/// step (relative error ~1e-7, the precision of `f32`), avoiding `sqrtps` + `divps`.
#[inline(always)]
fn fast_normalize(v: Vec4) -> Vec4 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_cvtss_f32, _mm_rsqrt_ss, _mm_set_ss};
        let d = v.length_squared();
        // SAFETY: SSE is part of the x86_64 baseline, so these intrinsics always exist.
        let y = unsafe { _mm_cvtss_f32(_mm_rsqrt_ss(_mm_set_ss(d))) };
        let y = y * (1.5 - 0.5 * d * y * y);
        v * y
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        v.normalize()
    }
}
