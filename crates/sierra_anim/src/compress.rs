//! Quantised clip keys and their error, measured as ACL measures it.
//!
//! Rotations: ACL's "drop w" with range reduction, 48 bits per key — `w` made non-negative and
//! dropped (rebuilt as `√(1 − x² − y² − z²)`), `x y z` on 16 bits each over the track's own
//! per-component `[min, max]` (24 bytes of range per track).
//! Translations and scales: 8 bits per component over the track's own `[min, max]` range when
//! that step is at most 20 µm, else 16 bits (24 bytes of range per animated track).
//! Key times are stored once per distinct time array (4 bytes per key), as in [`Clip`].
//!
//! Error ([`max_vertex_error`]): the distance, in model space and metres, between virtual
//! vertices carried by each joint in the raw and the quantised clip — 3 cm from each joint
//! along its three local axes (1 m for root joints), sampled at every key time and halfway
//! between keys (ACL's "virtual vertex" error metric, Frechette, *Animation Compression
//! Library*, docs/error_metrics.md).

use glam::{Mat4, Quat, Vec3, Vec3A};

use crate::clip::TrackSet;
use crate::{local_to_model, sample_clip, Clip, Playback, SamplingContext, Skeleton, Transform};

/// `steps + 1` levels per component over `[min, min + extent]` (encode then decode).
fn quantize_vec(v: Vec3A, min: Vec3A, extent: Vec3A, steps: f32) -> Vec3A {
    let q = |x: f32, m: f32, e: f32| {
        if e <= 0.0 {
            return m;
        }
        let u = ((x - m) / e * steps).round().clamp(0.0, steps);
        m + u / steps * e
    };
    Vec3A::new(
        q(v.x, min.x, extent.x),
        q(v.y, min.y, extent.y),
        q(v.z, min.z, extent.z),
    )
}

/// Bytes of a clip's joint keys as [`Clip`] stores them: key times (4 bytes per key per
/// distinct time array), 16-byte values, and the 12-byte slerp constants per rotation key.
pub fn raw_bytes(clip: &Clip) -> usize {
    clip.translations.times.len() * 4
        + clip.rotations.times.len() * 4
        + clip.scales.times.len() * 4
        + clip.translations.values.len() * 16
        + clip.rotations.values.len() * (16 + 12)
        + clip.scales.values.len() * 16
}

/// Bits per component of a translation/scale track of extent `extent` (see the module docs).
fn vec_bits(extent: Vec3A) -> u32 {
    if extent.max_element() / 255.0 <= 2e-5 {
        8
    } else {
        16
    }
}

fn quantize_set(set: &mut TrackSet<Vec3A>) -> usize {
    let mut bytes = 0;
    for h in set.headers.clone() {
        let per = if h.interpolation == crate::Interpolation::CubicSpline {
            3
        } else {
            1
        };
        let vals = &mut set.values[h.values as usize..][..h.keys as usize * per];
        if vals.len() == 1 {
            bytes += 6;
            continue;
        }
        let min = vals.iter().fold(Vec3A::splat(f32::MAX), |a, &b| a.min(b));
        let max = vals.iter().fold(Vec3A::splat(f32::MIN), |a, &b| a.max(b));
        let bits = vec_bits(max - min);
        let steps = ((1u32 << bits) - 1) as f32;
        for v in vals.iter_mut() {
            *v = quantize_vec(*v, min, max - min, steps);
        }
        bytes += 24 + vals.len() * 3 * bits as usize / 8;
    }
    bytes
}

fn quantize_rotations(set: &mut TrackSet<Quat>) -> usize {
    let mut bytes = 0;
    for h in set.headers.clone() {
        let per = if h.interpolation == crate::Interpolation::CubicSpline {
            3
        } else {
            1
        };
        let vals = &mut set.values[h.values as usize..][..h.keys as usize * per];
        if vals.len() == 1 {
            bytes += 6;
            continue;
        }
        let pos: Vec<Vec3A> = vals
            .iter()
            .map(|q| Vec3A::from(if q.w < 0.0 { -*q } else { *q }.xyz()))
            .collect();
        let min = pos.iter().fold(Vec3A::splat(f32::MAX), |a, &b| a.min(b));
        let max = pos.iter().fold(Vec3A::splat(f32::MIN), |a, &b| a.max(b));
        for (v, p) in vals.iter_mut().zip(&pos) {
            if v.length_squared() <= 1e-12 {
                continue; // a zero cubic tangent
            }
            let x = quantize_vec(*p, min, max - min, 65535.0);
            let w = (1.0 - x.length_squared()).max(0.0).sqrt();
            *v = Quat::from_xyzw(x.x, x.y, x.z, w).normalize();
        }
        bytes += 24 + vals.len() * 6;
    }
    bytes
}

/// `clip` with every key quantised as described in the module docs, decoded back to `f32`
/// (the same sampling code runs on it), and the quantised size in bytes (key times included
/// as [`raw_bytes`] counts them).
pub fn quantized_clip(clip: &Clip) -> (Clip, usize) {
    let mut c = clip.clone();
    let bytes = quantize_set(&mut c.translations)
        + quantize_set(&mut c.scales)
        + quantize_rotations(&mut c.rotations)
        + 4 * (c.translations.times.len() + c.rotations.times.len() + c.scales.times.len());
    c.rebuild_derived();
    (c, bytes)
}

/// The largest virtual-vertex distance (metres, model space, times `world_scale`) between
/// `raw` and `other` sampled at every key time and halfway between keys.
pub fn max_vertex_error(skeleton: &Skeleton, raw: &Clip, other: &Clip, world_scale: f32) -> f32 {
    let n = skeleton.joint_count();
    let mut times: Vec<f32> = raw
        .translations
        .times
        .iter()
        .chain(&raw.rotations.times)
        .chain(&raw.scales.times)
        .copied()
        .collect();
    times.sort_by(f32::total_cmp);
    times.dedup();
    let mids: Vec<f32> = times.windows(2).map(|w| 0.5 * (w[0] + w[1])).collect();
    times.extend(mids);
    let (mut ca, mut cb) = (SamplingContext::new(n), SamplingContext::new(n));
    let (mut la, mut lb) = (vec![Transform::IDENTITY; n], vec![Transform::IDENTITY; n]);
    let (mut ma, mut mb) = (vec![Mat4::IDENTITY; n], vec![Mat4::IDENTITY; n]);
    let mut worst = 0.0f32;
    for &t in &times {
        if sample_clip(raw, t, Playback::Once, &mut ca, &mut la).is_err()
            || sample_clip(other, t, Playback::Once, &mut cb, &mut lb).is_err()
            || local_to_model(skeleton, &la, Mat4::IDENTITY, &mut ma).is_err()
            || local_to_model(skeleton, &lb, Mat4::IDENTITY, &mut mb).is_err()
        {
            return f32::INFINITY;
        }
        for j in 0..n {
            let d = if skeleton.parent(j).is_none() {
                1.0
            } else {
                0.03
            };
            for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
                let p = axis * d;
                let e = (ma[j].transform_point3(p) - mb[j].transform_point3(p)).length();
                worst = worst.max(e * world_scale);
            }
        }
    }
    worst
}
