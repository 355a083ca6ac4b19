//! Raw (editable) and runtime (built) animation clips.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use glam::{Quat, Vec3, Vec3A};

use crate::{AnimError, Skeleton};

/// How values between two keys are computed (glTF 2.0 §3.11 "animation sampler interpolation").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Interpolation {
    /// Hold the value of the key at or before the time.
    Step,
    /// Lerp for vectors and weights; shortest-path slerp for rotations.
    #[default]
    Linear,
    /// Cubic Hermite spline; each key carries (in-tangent, value, out-tangent),
    /// tangents scaled by the key interval (glTF 2.0 Appendix C).
    CubicSpline,
}

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

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct TrackHeader {
    pub times: u32,
    pub values: u32,
    pub keys: u32,
    pub interpolation: Interpolation,
}

/// Flat storage of one channel kind for every joint: `headers[joint]` points into
/// `times` and `values`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TrackSet<T> {
    pub headers: Vec<TrackHeader>,
    pub times: Vec<f32>,
    pub values: Vec<T>,
}

impl<T: Copy> TrackSet<T> {
    fn with_joints(n: usize) -> Self {
        Self {
            headers: Vec::with_capacity(n),
            times: Vec::new(),
            values: Vec::new(),
        }
    }

    /// Appends one joint's track. Identical key-time arrays are stored once
    /// (`seen` maps their bits to an offset), so tracks keyed at the same times
    /// share them and sampling locates the key interval once for all of them.
    fn push(
        &mut self,
        seen: &mut HashMap<Vec<u32>, u32>,
        interpolation: Interpolation,
        times: &[f32],
        values: impl Iterator<Item = T>,
    ) {
        let bits: Vec<u32> = times.iter().map(|t| t.to_bits()).collect();
        let next = self.times.len() as u32;
        let offset = *seen.entry(bits).or_insert(next);
        if offset == next {
            self.times.extend_from_slice(times);
        }
        let header = TrackHeader {
            times: offset,
            values: self.values.len() as u32,
            keys: times.len() as u32,
            interpolation,
        };
        self.values.extend(values);
        self.headers.push(header);
    }
}

/// A built morph weight track (see [`RawMorphTrack`]).
#[derive(Clone, Debug, PartialEq)]
pub struct MorphTrack {
    pub(crate) target: usize,
    pub(crate) weight_count: usize,
    pub(crate) interpolation: Interpolation,
    pub(crate) times: Vec<f32>,
    pub(crate) values: Vec<f32>,
}

impl MorphTrack {
    /// The importer's target id (glTF node index).
    pub fn target(&self) -> usize {
        self.target
    }
    /// Weights per key (the mesh's morph target count).
    pub fn weight_count(&self) -> usize {
        self.weight_count
    }
}

/// Runtime clip bound to one [`Skeleton`]: every joint has a translation, a
/// rotation and a scale track (non-animated joints get a one-key track holding
/// their rest value), stored per channel kind in flat arrays.
///
/// `duration()` is the latest key time over all channels (glTF has no clip
/// length); channels that end earlier hold their last value.
#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    pub(crate) id: u64,
    name: String,
    duration: f32,
    pub(crate) translations: TrackSet<Vec3A>,
    pub(crate) rotations: TrackSet<Quat>,
    /// Parallel to `rotations.values`: slerp constants from key `k` to `k + 1` of LINEAR tracks.
    pub(crate) slerp: Vec<crate::slerp::SlerpSegment>,
    pub(crate) scales: TrackSet<Vec3A>,
    /// The same keys in SoA blocks where a channel kind is uniform (see `clip_soa.rs`).
    pub(crate) soa: crate::clip_soa::ClipSoa,
    pub(crate) morph_tracks: Vec<MorphTrack>,
}

static NEXT_CLIP_ID: AtomicU64 = AtomicU64::new(1);

/// A fresh id for a runtime clip (raw or compressed), so sampling contexts reset on a new clip.
pub(crate) fn next_clip_id() -> u64 {
    NEXT_CLIP_ID.fetch_add(1, Ordering::Relaxed)
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

    /// Clip name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Latest key time over all channels, in seconds.
    pub fn duration(&self) -> f32 {
        self.duration
    }

    /// Number of joints of the skeleton the clip was built for.
    pub fn joint_count(&self) -> usize {
        self.translations.headers.len()
    }

    /// Morph weight tracks (one per animated mesh instance).
    pub fn morph_tracks(&self) -> &[crate::clip::MorphTrack] {
        &self.morph_tracks
    }

    /// Total number of keys over all joint channels (a size measure).
    pub fn key_count(&self) -> usize {
        self.translations.times.len() + self.rotations.times.len() + self.scales.times.len()
    }
}
