//! Clip sizes and the error of a compressed clip, measured as ACL measures it.
//!
//! [`raw_bytes`] is what a raw [`Clip`] stores for its joint tracks; a
//! [`crate::CompressedClip`] reports its own ([`crate::CompressedClip::byte_size`]).
//!
//! Error ([`max_vertex_error`]): the distance, in model space and metres (times the model's
//! world scale), between virtual vertices carried by each joint in the raw clip and in another
//! clip played through the runtime ([`crate::CharacterJob`]) — 3 cm from each joint along its
//! three local axes (1 m for root joints), sampled at every key time and at ¼, ½ and ¾ of every
//! key interval (ACL's "virtual vertex" error metric, Frechette, *Animation Compression
//! Library*, docs/error_metrics.md).

use glam::{Mat4, Vec3};

use crate::{
    local_to_model, sample_clip, CharacterJob, CharacterPose, Clip, ClipLayer, ClipSource,
    Playback, SamplingContext, Skeleton, Transform,
};

/// Options of [`CompressedClip::compress`](crate::CompressedClip::compress) and of the error
/// it is measured with ([`max_vertex_error`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CompressionSettings {
    /// Largest virtual-vertex error allowed, metres in world space (ACL's default: 0.1 mm).
    pub tolerance: f32,
    /// World units per model unit (the scale of the model's root in the world).
    pub world_scale: f32,
    /// Virtual vertex distance from each joint, model units (ACL: 3 cm).
    pub vertex_distance: f32,
    /// Virtual vertex distance from root joints, model units (ACL: 1 m).
    pub root_vertex_distance: f32,
}

impl Default for CompressionSettings {
    fn default() -> Self {
        Self {
            tolerance: 1e-4,
            world_scale: 1.0,
            vertex_distance: 0.03,
            root_vertex_distance: 1.0,
        }
    }
}

/// Bytes of a clip's joint tracks as [`Clip`] stores them: key times (4 bytes per key per
/// distinct time array), 16-byte values, the 12-byte slerp constants per rotation key, and a
/// 16-byte header per track (the SoA copy of uniform channels and morph tracks not counted).
pub fn raw_bytes(clip: &Clip) -> usize {
    clip.translations.times.len() * 4
        + clip.rotations.times.len() * 4
        + clip.scales.times.len() * 4
        + clip.translations.values.len() * 16
        + clip.rotations.values.len() * (16 + 12)
        + clip.scales.values.len() * 16
        + 16 * (clip.translations.headers.len()
            + clip.rotations.headers.len()
            + clip.scales.headers.len())
}

/// Every key time of `clip`'s joint tracks and ¼, ½, ¾ of every interval between them,
/// increasing (`[0.0]` for a clip without keys).
pub fn sample_times(clip: &Clip) -> Vec<f32> {
    let mut keys: Vec<f32> = clip
        .translations
        .times
        .iter()
        .chain(&clip.rotations.times)
        .chain(&clip.scales.times)
        .copied()
        .filter(|t| t.is_finite())
        .collect();
    keys.sort_by(f32::total_cmp);
    keys.dedup();
    let mut times = keys.clone();
    for w in keys.windows(2) {
        for f in [0.25, 0.5, 0.75] {
            times.push(w[0] + (w[1] - w[0]) * f);
        }
    }
    times.sort_by(f32::total_cmp);
    times.dedup();
    if times.is_empty() {
        times.push(0.0);
    }
    times
}

/// The largest virtual-vertex distance (metres: model units times `settings.world_scale`)
/// between `raw` sampled by the scalar reference ([`sample_clip`], [`local_to_model`]) and
/// `other` played by [`CharacterJob`], at [`sample_times`] of `raw` (see the module docs;
/// vertex distances from `settings`). Infinity when a clip does not fit `skeleton`.
pub fn max_vertex_error<C: ClipSource + ?Sized>(
    skeleton: &Skeleton,
    raw: &Clip,
    other: &C,
    settings: &CompressionSettings,
) -> f32 {
    let n = skeleton.joint_count();
    let mut ca = SamplingContext::new(n);
    let mut la = vec![Transform::IDENTITY; n];
    let mut ma = vec![Mat4::IDENTITY; n];
    let mut pose = CharacterPose::new(skeleton, 0, 1);
    let mut worst = 0.0f32;
    for t in sample_times(raw) {
        let layers = [ClipLayer::single(other, t, Playback::Once)];
        let job = CharacterJob::new(skeleton, None, &layers);
        if sample_clip(raw, t, Playback::Once, &mut ca, &mut la).is_err()
            || local_to_model(skeleton, &la, Mat4::IDENTITY, &mut ma).is_err()
            || job.run(&mut pose).is_err()
        {
            return f32::INFINITY;
        }
        for (j, (a, b)) in ma.iter().zip(&pose.model).enumerate() {
            let d = if skeleton.parent(j).is_none() {
                settings.root_vertex_distance
            } else {
                settings.vertex_distance
            };
            for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
                let p = axis * d;
                let e = (a.transform_point3(p) - b.transform_point3(p)).length();
                worst = worst.max(e * settings.world_scale.abs());
            }
        }
    }
    worst
}
