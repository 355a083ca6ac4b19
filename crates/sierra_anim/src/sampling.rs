//! Sampling a clip at a time into a local pose (keyframe interpolation).
//!
//! Interpolation follows glTF 2.0 §3.11 and Appendix C: STEP holds the previous
//! key, LINEAR lerps vectors and slerps rotations along the shortest arc,
//! CUBICSPLINE evaluates the Hermite spline
//! `p(u) = (2u³−3u²+1)·v_k + Δt(u³−2u²+u)·b_k + (−2u³+3u²)·v_k+1 + Δt(u³−u²)·a_k+1`
//! with `b_k` the out-tangent of key `k`, `a_k+1` the in-tangent of key `k+1`,
//! `Δt` the key interval (rotations re-normalised). Before the first key a
//! channel holds its first value, after the last key its last value.

use glam::{Quat, Vec3A};

use crate::error::check_len;
use crate::track::{TrackHeader, TrackSet};
use crate::{AnimError, Clip, Interpolation, Transform};

/// How a clip's time is mapped into its key range.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum Playback {
    /// One-shot: time is clamped to `[0, duration]`.
    #[default]
    Once,
    /// Loop with period = duration (the last key time): time wraps modulo the duration.
    Loop,
    /// Loop with a period longer than the duration: between the last key
    /// (`duration`) and `period` every channel interpolates from its last value
    /// back to its first, as seed document 000 interpolates the last frame to the first.
    /// A period not greater than the duration behaves as [`Playback::Loop`].
    LoopWithPeriod(f32),
}

impl Playback {
    /// Maps `time` (seconds) to clip-local time and the optional wrap segment `(start, period)`.
    #[inline]
    pub fn local_time(self, time: f32, duration: f32) -> (f32, Option<(f32, f32)>) {
        let time = if time.is_finite() { time } else { 0.0 };
        match self {
            Playback::Once => (time.clamp(0.0, duration), None),
            Playback::LoopWithPeriod(p) if p > duration && p.is_finite() => {
                (time.rem_euclid(p), Some((duration, p)))
            }
            Playback::Loop | Playback::LoopWithPeriod(_) => {
                if duration > 0.0 {
                    (time.rem_euclid(duration), None)
                } else {
                    (0.0, None)
                }
            }
        }
    }
}

/// Per-clip sampling cache (ozz's `SamplingJob::Context`): one cursor per track
/// remembering the key found last time, so sampling forward in time costs
/// O(joints) instead of O(joints · log keys).
///
/// Allocated once for the largest skeleton it will serve; it resets itself when
/// used with a different clip.
#[derive(Clone, Debug, Default)]
pub struct SamplingContext {
    clip_id: u64,
    cursors: Vec<u32>,
    /// Cursors of the clip's uniform SoA channels (translation, rotation, scale).
    pub(crate) channel_cursors: [u32; 3],
    /// Decoded keys of the last compressed clip sampled with this context.
    pub(crate) compressed: crate::sampling_compressed::CompressedCache,
}

impl SamplingContext {
    /// A context for clips of up to `max_joints` joints.
    pub fn new(max_joints: usize) -> Self {
        Self {
            clip_id: 0,
            cursors: vec![0; 3 * max_joints],
            channel_cursors: [0; 3],
            compressed: Default::default(),
        }
    }

    pub(crate) fn bind(&mut self, clip: &Clip) {
        let needed = 3 * clip.joint_count();
        if self.clip_id != clip.id || self.cursors.len() < needed {
            if self.cursors.len() < needed {
                // Only on first use with a larger clip; steady state never allocates.
                self.cursors.resize(needed, 0);
            }
            self.cursors.fill(0);
            self.channel_cursors = [0; 3];
            self.clip_id = clip.id;
        }
    }
}

/// Finds the key interval holding `t`: returns `(k, u)` with `u` in `[0, 1)` the
/// fraction from key `k` to key `k + 1`; `u == 0` means exactly key `k` (also
/// used for the clamped ends).
#[inline(always)]
pub(crate) fn locate(times: &[f32], t: f32, cursor: &mut u32) -> (usize, f32) {
    let n = times.len();
    if n < 2 || t <= times[0] {
        return (0, 0.0);
    }
    if t >= times[n - 1] {
        return (n - 1, 0.0);
    }
    let mut k = (*cursor as usize).min(n - 2);
    if times[k] <= t {
        let mut steps = 0;
        while times[k + 1] <= t {
            k += 1;
            steps += 1;
            if steps == 4 {
                k = times.partition_point(|&x| x <= t) - 1;
                break;
            }
        }
    } else {
        k = times.partition_point(|&x| x <= t) - 1;
    }
    *cursor = k as u32;
    let (t0, t1) = (times[k], times[k + 1]);
    (k, (t - t0) / (t1 - t0))
}

/// The key interval found for the last track sampled in this pass: tracks that
/// share their key times (deduplicated by the clip builder) reuse it, so a clip
/// whose channels share one input array (most exported clips) searches once per pass.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Memo {
    times: u32,
    keys: u32,
    k: u32,
    u: f32,
}

impl Memo {
    pub(crate) const NONE: Self = Self {
        times: u32::MAX,
        keys: 0,
        k: 0,
        u: 0.0,
    };
}

#[inline(always)]
fn locate_memo(
    times: &[f32],
    h: TrackHeader,
    t: f32,
    cursor: &mut u32,
    memo: &mut Memo,
) -> (usize, f32) {
    if memo.times == h.times && memo.keys == h.keys {
        *cursor = memo.k;
        return (memo.k as usize, memo.u);
    }
    let (k, u) = locate(times, t, cursor);
    *memo = Memo {
        times: h.times,
        keys: h.keys,
        k: k as u32,
        u,
    };
    (k, u)
}

#[inline(always)]
fn hermite_weights(u: f32, dt: f32) -> [f32; 4] {
    let u2 = u * u;
    let u3 = u2 * u;
    [
        2.0 * u3 - 3.0 * u2 + 1.0,
        dt * (u3 - 2.0 * u2 + u),
        -2.0 * u3 + 3.0 * u2,
        dt * (u3 - u2),
    ]
}

/// A keyframe value type: what differs between translation/scale (`Vec3A`) and rotation
/// (`Quat`) tracks when sampling. Everything else (one-key tracks, the wrap segment, key search,
/// STEP, the cubic-spline layout `[in-tangent, value, out-tangent]` per key) is shared by
/// [`sample_track`].
trait Keyframe: Copy {
    /// Per-key-pair data for LINEAR interpolation: none for vectors, the precomputed slerp
    /// constants for rotations (`[value_count]`, indexed like the values).
    type Segments: ?Sized;
    /// LINEAR between keys `a` (at index `segment` of the set's values) and `b`.
    fn linear(segments: &Self::Segments, segment: usize, a: Self, b: Self, u: f32) -> Self;
    /// The wrap segment of [`Playback::LoopWithPeriod`]: from the last value back to the first.
    fn wrap(last: Self, first: Self, u: f32) -> Self;
    /// CUBICSPLINE: `v·w0 + b·w1 + v1·w2 + a·w3` (see the module docs).
    fn hermite(v: Self, b: Self, v1: Self, a: Self, w: [f32; 4]) -> Self;
}

impl Keyframe for Vec3A {
    type Segments = ();
    #[inline(always)]
    fn linear(_: &(), _: usize, a: Self, b: Self, u: f32) -> Self {
        a.lerp(b, u)
    }
    #[inline(always)]
    fn wrap(last: Self, first: Self, u: f32) -> Self {
        last.lerp(first, u)
    }
    #[inline(always)]
    fn hermite(v: Self, b: Self, v1: Self, a: Self, w: [f32; 4]) -> Self {
        v * w[0] + b * w[1] + v1 * w[2] + a * w[3]
    }
}

impl Keyframe for Quat {
    type Segments = [crate::slerp::SlerpSegment];
    /// Shortest-arc slerp with constants precomputed per key pair (see `slerp.rs`).
    #[inline(always)]
    fn linear(segments: &Self::Segments, segment: usize, a: Self, b: Self, u: f32) -> Self {
        segments[segment].interpolate(a, b, u)
    }
    #[inline(always)]
    fn wrap(last: Self, first: Self, u: f32) -> Self {
        last.slerp(first, u)
    }
    #[inline(always)]
    fn hermite(v: Self, b: Self, v1: Self, a: Self, w: [f32; 4]) -> Self {
        let v = glam::Vec4::from(v) * w[0]
            + glam::Vec4::from(b) * w[1]
            + glam::Vec4::from(v1) * w[2]
            + glam::Vec4::from(a) * w[3];
        Quat::from_vec4(v).normalize()
    }
}

/// Samples one track (header `h` of `set`) at clip-local time `t`.
#[inline(always)]
fn sample_track<V: Keyframe>(
    set: &TrackSet<V>,
    segments: &V::Segments,
    h: TrackHeader,
    t: f32,
    wrap: Option<(f32, f32)>,
    cursor: &mut u32,
    memo: &mut Memo,
) -> V {
    let cubic = h.interpolation == Interpolation::CubicSpline;
    // One key (un-animated joints): constant, whatever the time or wrap.
    if h.keys == 1 {
        return set.values[h.values as usize + cubic as usize];
    }
    let times = &set.times[h.times as usize..(h.times + h.keys) as usize];
    let values = &set.values[h.values as usize..];
    let value = |k: usize| if cubic { values[3 * k + 1] } else { values[k] };
    if let Some((start, period)) = wrap {
        if t > start {
            let u = (t - start) / (period - start);
            let last = value(times.len() - 1);
            return if h.interpolation == Interpolation::Step {
                last
            } else {
                V::wrap(last, value(0), u)
            };
        }
    }
    let (k, u) = locate_memo(times, h, t, cursor, memo);
    if u == 0.0 {
        return value(k);
    }
    match h.interpolation {
        Interpolation::Step => values[k],
        Interpolation::Linear => {
            V::linear(segments, h.values as usize + k, values[k], values[k + 1], u)
        }
        Interpolation::CubicSpline => {
            let w = hermite_weights(u, times[k + 1] - times[k]);
            V::hermite(
                values[3 * k + 1],
                values[3 * k + 2],
                values[3 * k + 4],
                values[3 * k + 3],
                w,
            )
        }
    }
}

/// Samples every joint of `clip` at `time` seconds into `output`
/// (`[clip.joint_count()]` local transforms), mapping time with `playback`.
///
/// `context` caches key cursors between calls (see [`SamplingContext`]).
/// Errors: [`AnimError::BufferSize`] when `output` has the wrong length.
pub fn sample_clip(
    clip: &Clip,
    time: f32,
    playback: Playback,
    context: &mut SamplingContext,
    output: &mut [Transform],
) -> Result<(), AnimError> {
    check_len("sampling output pose", clip.joint_count(), output.len())?;
    let mut sampler = JointSampler::new(clip, time, playback, context);
    for (j, out) in output.iter_mut().enumerate() {
        *out = sampler.joint(j);
    }
    Ok(())
}

/// Samples one clip joint by joint (used by [`sample_clip`] and by the fused
/// sample-and-blend path of [`crate::CharacterJob`]). Joints must be `< clip.joint_count()`.
pub(crate) struct JointSampler<'a> {
    clip: &'a Clip,
    t: f32,
    wrap: Option<(f32, f32)>,
    cursors: &'a mut [u32],
    n: usize,
    memo: [Memo; 3],
}

impl<'a> JointSampler<'a> {
    #[inline(always)]
    pub(crate) fn new(
        clip: &'a Clip,
        time: f32,
        playback: Playback,
        context: &'a mut SamplingContext,
    ) -> Self {
        context.bind(clip);
        let n = clip.joint_count();
        let (t, wrap) = playback.local_time(time, clip.duration());
        Self {
            clip,
            t,
            wrap,
            cursors: &mut context.cursors[..3 * n],
            n,
            memo: [Memo::NONE; 3],
        }
    }

    #[inline(always)]
    pub(crate) fn joint(&mut self, j: usize) -> Transform {
        Transform {
            translation: self.translation(j),
            rotation: self.rotation(j),
            scale: self.scale(j),
        }
    }

    #[inline(always)]
    pub(crate) fn translation(&mut self, j: usize) -> Vec3A {
        let c = self.clip;
        self.track(&c.translations, &(), 0, j)
    }

    #[inline(always)]
    pub(crate) fn rotation(&mut self, j: usize) -> Quat {
        let c = self.clip;
        self.track(&c.rotations, &c.slerp, 1, j)
    }

    #[inline(always)]
    pub(crate) fn scale(&mut self, j: usize) -> Vec3A {
        let c = self.clip;
        self.track(&c.scales, &(), 2, j)
    }

    /// Joint `j`'s track of `set`, channel `channel` (0 translation, 1 rotation, 2 scale:
    /// the index of its cursors, `cursors[channel · n + j]`, and of its memo).
    #[inline(always)]
    fn track<V: Keyframe>(
        &mut self,
        set: &TrackSet<V>,
        segments: &V::Segments,
        channel: usize,
        j: usize,
    ) -> V {
        sample_track(
            set,
            segments,
            set.headers[j],
            self.t,
            self.wrap,
            &mut self.cursors[channel * self.n + j],
            &mut self.memo[channel],
        )
    }
}

/// Samples morph track `track` of `clip` at `time` into `weights`
/// (`[track.weight_count()]` floats), with the same interpolation rules as joints.
///
/// Errors: [`AnimError::BufferSize`] when `track` is out of range or `weights` has the wrong length.
pub fn sample_morph_weights(
    clip: &Clip,
    track: usize,
    time: f32,
    playback: Playback,
    weights: &mut [f32],
) -> Result<(), AnimError> {
    let Some(m) = clip.morph_tracks.get(track) else {
        return Err(AnimError::BufferSize {
            what: "morph track index",
            expected: clip.morph_tracks.len(),
            actual: track,
        });
    };
    let w = m.weight_count;
    check_len("morph weights", w, weights.len())?;
    let (t, wrap) = playback.local_time(time, clip.duration());
    let cubic = m.interpolation == Interpolation::CubicSpline;
    let stride = if cubic { 3 * w } else { w };
    let value = |k: usize, i: usize| {
        if cubic {
            m.values[k * stride + w + i]
        } else {
            m.values[k * stride + i]
        }
    };
    let last = m.times.len() - 1;
    if let Some((start, period)) = wrap {
        if t > start {
            let u = (t - start) / (period - start);
            for (i, out) in weights.iter_mut().enumerate() {
                let a = value(last, i);
                *out = if m.interpolation == Interpolation::Step {
                    a
                } else {
                    a + (value(0, i) - a) * u
                };
            }
            return Ok(());
        }
    }
    let mut cursor = 0;
    let (k, u) = locate(&m.times, t, &mut cursor);
    for (i, out) in weights.iter_mut().enumerate() {
        *out = if u == 0.0 {
            value(k, i)
        } else {
            match m.interpolation {
                Interpolation::Step => value(k, i),
                Interpolation::Linear => value(k, i) + (value(k + 1, i) - value(k, i)) * u,
                Interpolation::CubicSpline => {
                    let h = hermite_weights(u, m.times[k + 1] - m.times[k]);
                    let b = m.values[k * stride + 2 * w + i];
                    let a = m.values[(k + 1) * stride + i];
                    value(k, i) * h[0] + b * h[1] + value(k + 1, i) * h[2] + a * h[3]
                }
            }
        };
    }
    Ok(())
}
