//! Raw (editable) animation clips as importers produce them, and their builder
//! ([`Clip::build`]): validated against a skeleton and laid out for the runtime.

use std::collections::HashMap;

use glam::{Quat, Vec3, Vec3A};

use crate::clip::{next_clip_id, Clip, MorphTrack};
use crate::track::{Interpolation, TrackSet};
use crate::{AnimError, Skeleton};

/// One raw keyframed channel.
///
/// `times` are seconds, finite and strictly increasing. `values` has one
/// element per key, or three per key for [`Interpolation::CubicSpline`]
/// laid out as glTF stores them: `[in_tangent_k, value_k, out_tangent_k]` for each key `k`.
/// An empty track means "not animated": the builder uses the skeleton's rest value.
#[derive(Clone, Debug, PartialEq)]
pub struct RawTrack<T> {
    /// Interpolation between keys.
    pub interpolation: Interpolation,
    /// Key times in seconds.
    pub times: Vec<f32>,
    /// Key values (×3 for cubic splines).
    pub values: Vec<T>,
}

impl<T> Default for RawTrack<T> {
    fn default() -> Self {
        Self {
            interpolation: Interpolation::Linear,
            times: Vec::new(),
            values: Vec::new(),
        }
    }
}

impl<T> RawTrack<T> {
    /// Whether the track has no keys.
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }
}

/// The three transform channels of one joint in a [`RawClip`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawJointTrack {
    /// Runtime skeleton joint index the channels animate.
    pub joint: usize,
    /// Translation keys (metres).
    pub translation: RawTrack<Vec3>,
    /// Rotation keys (unit quaternions; normalised by the builder).
    pub rotation: RawTrack<Quat>,
    /// Scale keys.
    pub scale: RawTrack<Vec3>,
}

/// Morph-target weights of one mesh instance (glTF `weights` channel).
///
/// `values` holds `weight_count` floats per key (×3 for cubic splines, in the
/// glTF order `[in_tangents.., values.., out_tangents..]` per key).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawMorphTrack {
    /// Opaque target id chosen by the importer (the glTF node index).
    pub target: usize,
    /// Number of morph targets (weights per key).
    pub weight_count: usize,
    /// Interpolation between keys.
    pub interpolation: Interpolation,
    /// Key times in seconds.
    pub times: Vec<f32>,
    /// Weights, key-major.
    pub values: Vec<f32>,
}

/// An editable clip as importers produce it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawClip {
    /// Clip name (glTF animation name, or `""`).
    pub name: String,
    /// Clip length in seconds; `None`: the latest key time. A longer value keeps
    /// the clip's length when some of its channels are not bound (glTF clips that
    /// also animate nodes outside a skin's skeleton).
    pub duration: Option<f32>,
    /// Joint channels; joints without an entry keep their rest pose.
    pub tracks: Vec<RawJointTrack>,
    /// Morph weight channels.
    pub morph_tracks: Vec<RawMorphTrack>,
}

fn validate_track<T>(
    clip: &str,
    joint: usize,
    channel: &'static str,
    track: &RawTrack<T>,
    finite: impl Fn(usize, &T) -> bool,
) -> Result<(), AnimError> {
    let err = |reason: String| AnimError::InvalidTrack {
        clip: clip.to_owned(),
        joint,
        channel,
        reason,
    };
    validate_times(&track.times).map_err(err)?;
    let per_key = if track.interpolation == Interpolation::CubicSpline {
        3
    } else {
        1
    };
    if track.values.len() != track.times.len() * per_key {
        return Err(err(format!(
            "{} values for {} keys ({per_key} per key expected)",
            track.values.len(),
            track.times.len()
        )));
    }
    if let Some(i) = track
        .values
        .iter()
        .enumerate()
        .position(|(i, v)| !finite(i, v))
    {
        return Err(err(format!("value {i} is not finite (or a zero rotation)")));
    }
    Ok(())
}

fn validate_times(times: &[f32]) -> Result<(), String> {
    if let Some(i) = times.iter().position(|t| !t.is_finite()) {
        return Err(format!("key time {i} is not finite ({})", times[i]));
    }
    if let Some(i) = times.windows(2).position(|w| w[1] <= w[0]) {
        return Err(format!(
            "key times not strictly increasing: time[{}] = {} <= time[{}] = {}",
            i + 1,
            times[i + 1],
            i,
            times[i]
        ));
    }
    Ok(())
}

impl Clip {
    /// Validates `raw` against `skeleton` and builds the runtime clip.
    ///
    /// Errors ([`AnimError::InvalidTrack`]): a joint index out of range, the same
    /// joint twice, non-finite or non-increasing key times, non-finite values, a
    /// value count that does not match the key count.
    pub fn build(raw: &RawClip, skeleton: &Skeleton) -> Result<Self, AnimError> {
        let n = skeleton.joint_count();
        let mut by_joint: Vec<Option<&RawJointTrack>> = vec![None; n];
        for t in &raw.tracks {
            let bad = |reason: String| AnimError::InvalidTrack {
                clip: raw.name.clone(),
                joint: t.joint,
                channel: "translation",
                reason,
            };
            if t.joint >= n {
                return Err(bad(format!(
                    "joint index out of range (skeleton has {n} joints)"
                )));
            }
            if by_joint[t.joint].is_some() {
                return Err(bad("joint animated by two tracks".into()));
            }
            validate_track(&raw.name, t.joint, "translation", &t.translation, |_, v| {
                v.is_finite()
            })?;
            let cubic = t.rotation.interpolation == Interpolation::CubicSpline;
            // Cubic tangents may be zero; key values must be rotations.
            validate_track(&raw.name, t.joint, "rotation", &t.rotation, |i, v| {
                v.is_finite() && ((cubic && i % 3 != 1) || v.length_squared() > 1e-12)
            })?;
            validate_track(&raw.name, t.joint, "scale", &t.scale, |_, v| v.is_finite())?;
            by_joint[t.joint] = Some(t);
        }
        let mut duration = 0.0f32;
        let (mut seen_t, mut seen_r, mut seen_s) = (HashMap::new(), HashMap::new(), HashMap::new());
        let mut translations = TrackSet::with_joints(n);
        let mut rotations = TrackSet::with_joints(n);
        let mut scales = TrackSet::with_joints(n);
        for (j, rest) in skeleton.rest_pose().iter().enumerate() {
            let empty = RawJointTrack::default();
            let t = by_joint[j].unwrap_or(&empty);
            for times in [&t.translation.times, &t.rotation.times, &t.scale.times] {
                if let Some(&last) = times.last() {
                    duration = duration.max(last);
                }
            }
            if t.translation.is_empty() {
                translations.push(
                    &mut seen_t,
                    Interpolation::Step,
                    &[0.0],
                    std::iter::once(rest.translation),
                );
            } else {
                let tr = &t.translation;
                translations.push(
                    &mut seen_t,
                    tr.interpolation,
                    &tr.times,
                    tr.values.iter().map(|&v| Vec3A::from(v)),
                );
            }
            if t.rotation.is_empty() {
                rotations.push(
                    &mut seen_r,
                    Interpolation::Step,
                    &[0.0],
                    std::iter::once(rest.rotation),
                );
            } else {
                let r = &t.rotation;
                // Cubic tangents are derivatives, not rotations: normalise values only.
                let cubic = r.interpolation == Interpolation::CubicSpline;
                rotations.push(
                    &mut seen_r,
                    r.interpolation,
                    &r.times,
                    r.values.iter().enumerate().map(|(i, &q)| {
                        if cubic && i % 3 != 1 {
                            q
                        } else {
                            q.normalize()
                        }
                    }),
                );
            }
            if t.scale.is_empty() {
                scales.push(
                    &mut seen_s,
                    Interpolation::Step,
                    &[0.0],
                    std::iter::once(rest.scale),
                );
            } else {
                let s = &t.scale;
                scales.push(
                    &mut seen_s,
                    s.interpolation,
                    &s.times,
                    s.values.iter().map(|&v| Vec3A::from(v)),
                );
            }
        }
        let mut morph_tracks = Vec::with_capacity(raw.morph_tracks.len());
        for m in &raw.morph_tracks {
            let err = |reason: String| AnimError::InvalidTrack {
                clip: raw.name.clone(),
                joint: m.target,
                channel: "weights",
                reason,
            };
            validate_times(&m.times).map_err(err)?;
            let per_key = m.weight_count
                * if m.interpolation == Interpolation::CubicSpline {
                    3
                } else {
                    1
                };
            if m.weight_count == 0 || m.values.len() != m.times.len() * per_key {
                return Err(err(format!(
                    "{} weights for {} keys of {} targets",
                    m.values.len(),
                    m.times.len(),
                    m.weight_count
                )));
            }
            if let Some(i) = m.values.iter().position(|v| !v.is_finite()) {
                return Err(err(format!("weight {i} is not finite")));
            }
            if let Some(&last) = m.times.last() {
                duration = duration.max(last);
            }
            morph_tracks.push(MorphTrack {
                target: m.target,
                weight_count: m.weight_count,
                interpolation: m.interpolation,
                times: m.times.clone(),
                values: m.values.clone(),
            });
        }
        let mut slerp = vec![crate::slerp::SlerpSegment::default(); rotations.values.len()];
        for h in &rotations.headers {
            if h.interpolation == Interpolation::Linear {
                let v = h.values as usize;
                for k in 0..(h.keys as usize).saturating_sub(1) {
                    slerp[v + k] = crate::slerp::SlerpSegment::new(
                        rotations.values[v + k],
                        rotations.values[v + k + 1],
                    );
                }
            }
        }
        if let Some(d) = raw.duration.filter(|d| d.is_finite()) {
            duration = duration.max(d);
        }
        let soa = crate::clip_soa::ClipSoa::build(&translations, &rotations, &slerp, &scales);
        Ok(Self {
            soa,
            id: next_clip_id(),
            name: raw.name.clone(),
            duration,
            translations,
            rotations,
            slerp,
            scales,
            morph_tracks,
        })
    }
}
