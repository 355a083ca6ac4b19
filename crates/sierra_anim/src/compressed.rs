//! Compressed clips: quantised keys that the runtime samples directly.
//!
//! A [`CompressedClip`] stores, per joint and channel kind (translation, rotation, scale), one
//! track that is either *constant* (one `f32` value) or *animated*: keys at the times of a
//! shared time group (`f32` key times, stored once per distinct time array, so STEP keys
//! switch at their exact times), each key bit-packed at the track's own bit width:
//!
//! - rotations: *smallest three* — the 2-bit index of the largest `|component|`, made positive
//!   and dropped (rebuilt as `√(1 − Σ others²)`, well conditioned since it is ≥ ½), and the
//!   other three on `bits` bits each over the track's own per-slot `[min, max]` range (or over
//!   the fixed range `[−1/√2, 1/√2]` when that is smaller in total: tracks with few keys);
//! - translations and scales: three components on `bits` bits each over the track's own
//!   per-component `[min, max]` range.
//!
//! Bit widths (1–24) are chosen per track from the error each key may add at ACL's virtual
//! vertices: a translation error moves the joint's whole subtree (times the parent's scale), a
//! rotation or scale error moves each vertex of the subtree by up to its distance from the
//! joint. The builder then measures the clip as ACL does ([`crate::compress::max_vertex_error`])
//! and halves the budget until the measured error is within the tolerance.
//!
//! STEP tracks stay STEP (keys switch at their exact times; values quantised like any key).
//! CUBICSPLINE tracks are resampled at build time: each key interval is split into `m` equal
//! pieces (`m` = 1, 2, 4 … 64, the least that keeps the linear interpolation of the spline
//! within the budget at ¼, ½ and ¾ of every piece) and stored as LINEAR keys, so the runtime interpolates only linearly.
//! Morph weight tracks are kept as they are (`f32`).
//!
//! Sampling ([`crate::sample_compressed_soa`], or a [`crate::ClipLayer`] of a
//! [`crate::CharacterJob`]) keeps the two keys around the current time of every track decoded
//! in the [`crate::SamplingContext`]; a track is decoded again only when the time leaves that
//! interval (one check per time group per sample).

use std::collections::HashMap;

use glam::{Mat4, Quat, Vec3, Vec3A, Vec4};

use crate::clip::{MorphTrack, TrackHeader, TrackSet};
use crate::{AnimError, Clip, Interpolation, Skeleton};

/// `CTrack::group` of a constant track.
pub(crate) const CONSTANT: u32 = u32::MAX;

/// One compressed track (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CTrack {
    /// Time group index, or [`CONSTANT`].
    pub group: u32,
    /// STEP (hold the key) rather than LINEAR.
    pub step: bool,
    /// Bits per quantised component.
    pub bits: u8,
    /// Bit offset of key 0 in [`CompressedClip::data`].
    pub offset: u32,
    /// Constant: the value (`x y z` or `x y z w`); animated: the range minimum per component/slot.
    pub min: [f32; 4],
    /// Animated: the decoded step per component/slot (`extent / (2^bits − 1)`).
    pub quantum: [f32; 3],
    /// Animated: `min`/`quantum` stored (24 bytes); `false` for rotations quantised over the
    /// fixed smallest-three range `[−1/√2, 1/√2]` (cheaper for tracks with few keys).
    pub ranged: bool,
}

/// Key times shared by animated tracks: `times[first..first + keys]` of the clip.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct TimeGroup {
    pub first: u32,
    pub keys: u32,
}

/// A clip with quantised keys, sampled without decompressing it (see the module docs).
///
/// Built from a [`Clip`] and its [`Skeleton`] by [`CompressedClip::compress`]; sampled by
/// [`crate::sample_compressed_soa`] and by [`crate::CharacterJob`] layers. Immutable.
#[derive(Clone, Debug, PartialEq)]
pub struct CompressedClip {
    pub(crate) id: u64,
    name: String,
    duration: f32,
    joint_count: usize,
    /// Distinct key-time arrays, concatenated (seconds).
    pub(crate) times: Vec<f32>,
    pub(crate) groups: Vec<TimeGroup>,
    /// Tracks of group `g`: `group_tracks[group_start[g]..group_start[g + 1]]` (indices into `tracks`).
    pub(crate) group_tracks: Vec<u32>,
    pub(crate) group_start: Vec<u32>,
    /// `[3 · joint_count]`: translations, then rotations, then scales, by joint.
    pub(crate) tracks: Vec<CTrack>,
    /// The bit-packed keys (little-endian bit order).
    pub(crate) data: Vec<u64>,
    morph_tracks: Vec<MorphTrack>,
    bits: u64,
}

/// Options of [`CompressedClip::compress`].
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

/// Appends bits to a `u64` stream.
#[derive(Default)]
struct BitWriter {
    words: Vec<u64>,
    len: u64,
}

impl BitWriter {
    fn push(&mut self, value: u32, bits: u32) {
        debug_assert!(bits <= 32 && (bits == 32 || value >> bits == 0));
        let (w, s) = ((self.len / 64) as usize, self.len % 64);
        if w >= self.words.len() {
            self.words.push(0);
        }
        self.words[w] |= (value as u64) << s;
        if s + bits as u64 > 64 {
            self.words.push((value as u64) >> (64 - s));
        }
        self.len += bits as u64;
    }
}

/// `bits` bits at bit `offset` of `data` (`bits <= 32`).
#[inline(always)]
fn read_bits(data: &[u64], offset: u64, bits: u32) -> u32 {
    let (w, s) = ((offset / 64) as usize, offset % 64);
    let mut v = data[w] >> s;
    if s + bits as u64 > 64 {
        v |= data[w + 1] << (64 - s);
    }
    (v & ((1u64 << bits) - 1)) as u32
}

impl CompressedClip {
    /// Clip name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Clip length in seconds (as the raw clip's).
    pub fn duration(&self) -> f32 {
        self.duration
    }

    /// Number of joints of the skeleton the clip was built for.
    pub fn joint_count(&self) -> usize {
        self.joint_count
    }

    /// Morph weight tracks (kept uncompressed).
    pub fn morph_tracks(&self) -> &[MorphTrack] {
        &self.morph_tracks
    }

    /// Bytes of the joint tracks: key times (4 per key per distinct time array, 8 per time
    /// group), 8-byte track headers, 12/16-byte constants, 24-byte ranges of animated tracks,
    /// and the packed keys rounded up to bytes (morph tracks not counted, as in
    /// [`crate::compress::raw_bytes`]).
    pub fn byte_size(&self) -> usize {
        let n = self.joint_count;
        let tracks: usize = self
            .tracks
            .iter()
            .enumerate()
            .map(|(i, t)| {
                8 + if t.group != CONSTANT {
                    if t.ranged {
                        24
                    } else {
                        0
                    }
                } else if (n..2 * n).contains(&i) {
                    16
                } else {
                    12
                }
            })
            .sum();
        4 * self.times.len() + 8 * self.groups.len() + tracks + self.bits.div_ceil(8) as usize
    }

    /// Number of animated (non-constant) tracks.
    pub fn animated_track_count(&self) -> usize {
        self.tracks.iter().filter(|t| t.group != CONSTANT).count()
    }

    /// Key `key` of translation/scale track `t` (`x y z`).
    #[inline(always)]
    pub(crate) fn decode_vec(&self, t: &CTrack, key: usize) -> [f32; 3] {
        if t.group == CONSTANT {
            return [t.min[0], t.min[1], t.min[2]];
        }
        let bits = t.bits as u32;
        let base = t.offset as u64 + key as u64 * 3 * bits as u64;
        let mut out = [0.0; 3];
        for (c, o) in out.iter_mut().enumerate() {
            let u = read_bits(&self.data, base + c as u64 * bits as u64, bits);
            *o = if t.bits == LOSSLESS {
                f32::from_bits(u)
            } else {
                t.min[c] + u as f32 * t.quantum[c]
            };
        }
        out
    }

    /// Key `key` of rotation track `t` (`x y z w`, unit length).
    #[inline(always)]
    pub(crate) fn decode_rot(&self, t: &CTrack, key: usize) -> [f32; 4] {
        if t.group == CONSTANT {
            return t.min;
        }
        let bits = t.bits as u32;
        if t.bits == LOSSLESS {
            let base = t.offset as u64 + key as u64 * 128;
            return [0, 1, 2, 3].map(|c| f32::from_bits(read_bits(&self.data, base + c * 32, 32)));
        }
        let base = t.offset as u64 + key as u64 * (2 + 3 * bits as u64);
        let largest = read_bits(&self.data, base, 2) as usize;
        let mut rest = [0.0f32; 3];
        for (c, o) in rest.iter_mut().enumerate() {
            let u = read_bits(&self.data, base + 2 + c as u64 * bits as u64, bits);
            *o = t.min[c] + u as f32 * t.quantum[c];
        }
        let big = (1.0 - (rest[0] * rest[0] + rest[1] * rest[1] + rest[2] * rest[2]))
            .max(0.0)
            .sqrt();
        let mut q = [0.0f32; 4];
        let mut r = rest.iter();
        for (i, v) in q.iter_mut().enumerate() {
            *v = if i == largest {
                big
            } else {
                *r.next().unwrap()
            };
        }
        let inv = 1.0 / (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
        q.map(|x| x * inv)
    }

    /// Compresses `clip` (built for `skeleton`) so that its virtual-vertex error stays within
    /// `settings.tolerance` (see the module docs). Offline work: allocates freely, runs the
    /// scalar sampler many times.
    ///
    /// Errors: [`AnimError::BufferSize`] when the clip was not built for `skeleton`.
    pub fn compress(
        clip: &Clip,
        skeleton: &Skeleton,
        settings: &CompressionSettings,
    ) -> Result<Self, AnimError> {
        let n = skeleton.joint_count();
        if clip.joint_count() != n {
            return Err(AnimError::BufferSize {
                what: "clip joints",
                expected: n,
                actual: clip.joint_count(),
            });
        }
        let bounds = JointBounds::measure(clip, skeleton, settings)?;
        let world = settings.world_scale.abs().max(f32::MIN_POSITIVE);
        let mut budget = settings.tolerance / world;
        let mut best = None;
        for _ in 0..16 {
            let c = Self::encode(clip, &bounds, budget);
            let err = crate::compress::max_vertex_error(skeleton, clip, &c, settings);
            best = Some(c);
            if err <= 0.9 * settings.tolerance {
                break;
            }
            budget *= 0.8;
        }
        Ok(best.expect("at least one attempt"))
    }

    fn encode(clip: &Clip, bounds: &JointBounds, budget: f32) -> Self {
        let n = clip.joint_count();
        let mut enc = Encoder::default();
        let mut tracks = Vec::with_capacity(3 * n);
        let sqrt3 = 3f32.sqrt();
        for j in 0..n {
            let delta = budget / (sqrt3 * bounds.parent_scale[j]);
            tracks.push(enc.vec_track(
                &clip.translations,
                j,
                delta,
                budget,
                bounds.parent_scale[j],
            ));
        }
        for j in 0..n {
            let reach = bounds.reach[j];
            let delta = budget / (8.0 * reach);
            tracks.push(enc.rot_track(&clip.rotations, j, delta, budget, reach));
        }
        for j in 0..n {
            let reach = bounds.reach[j] / bounds.min_scale[j];
            let delta = budget / (sqrt3 * reach);
            tracks.push(enc.vec_track(&clip.scales, j, delta, budget, reach));
        }
        let groups: Vec<TimeGroup> = enc.groups;
        let mut group_start = vec![0u32; groups.len() + 1];
        for t in tracks.iter().filter(|t: &&CTrack| t.group != CONSTANT) {
            group_start[t.group as usize + 1] += 1;
        }
        for g in 0..groups.len() {
            group_start[g + 1] += group_start[g];
        }
        let mut fill = group_start.clone();
        let mut group_tracks = vec![0u32; group_start[groups.len()] as usize];
        for (i, t) in tracks
            .iter()
            .enumerate()
            .filter(|(_, t)| t.group != CONSTANT)
        {
            let g = t.group as usize;
            group_tracks[fill[g] as usize] = i as u32;
            fill[g] += 1;
        }
        Self {
            id: crate::clip::next_clip_id(),
            name: clip.name().to_owned(),
            duration: clip.duration(),
            joint_count: n,
            times: enc.times,
            groups,
            group_tracks,
            group_start,
            tracks,
            data: enc.bits.words,
            morph_tracks: clip.morph_tracks.clone(),
            bits: enc.bits.len,
        }
    }
}

/// Per joint, over the clip's sample times: how far its subtree's virtual vertices reach from
/// it (model units), the largest scale of its parent's model matrix, and its smallest |local
/// scale| component.
struct JointBounds {
    reach: Vec<f32>,
    parent_scale: Vec<f32>,
    min_scale: Vec<f32>,
}

impl JointBounds {
    fn measure(
        clip: &Clip,
        skeleton: &Skeleton,
        settings: &CompressionSettings,
    ) -> Result<Self, AnimError> {
        let n = skeleton.joint_count();
        let mut out = Self {
            reach: vec![0.0; n],
            parent_scale: vec![1.0; n],
            min_scale: vec![f32::MAX; n],
        };
        let mut ctx = crate::SamplingContext::new(n);
        let mut local = vec![crate::Transform::IDENTITY; n];
        let mut model = vec![Mat4::IDENTITY; n];
        let max_col = |m: &Mat4| {
            m.x_axis
                .truncate()
                .length()
                .max(m.y_axis.truncate().length())
                .max(m.z_axis.truncate().length())
        };
        for t in crate::compress::sample_times(clip) {
            crate::sample_clip(clip, t, crate::Playback::Once, &mut ctx, &mut local)?;
            crate::local_to_model(skeleton, &local, Mat4::IDENTITY, &mut model)?;
            for j in 0..n {
                let p = model[j].w_axis.truncate();
                let mut reach = 0.0f32;
                for d in j..j + skeleton.subtree_len(j) {
                    let dist = if skeleton.parent(d).is_none() {
                        settings.root_vertex_distance
                    } else {
                        settings.vertex_distance
                    };
                    let pd = model[d].w_axis.truncate();
                    reach = reach.max((pd - p).length() + dist * max_col(&model[d]));
                }
                out.reach[j] = out.reach[j].max(reach);
                if let Some(parent) = skeleton.parent(j) {
                    out.parent_scale[j] = out.parent_scale[j].max(max_col(&model[parent]));
                }
                let s = local[j].scale.abs().min_element();
                out.min_scale[j] = out.min_scale[j].min(s);
            }
        }
        for j in 0..n {
            out.reach[j] = out.reach[j].max(1e-6);
            out.parent_scale[j] = out.parent_scale[j].max(1e-6);
            out.min_scale[j] = out.min_scale[j].clamp(1e-6, 1.0);
        }
        Ok(out)
    }
}

/// Keys of one track ready to quantise: times, values (`[f32; 4]`, vectors use 3), STEP.
struct Keys {
    times: Vec<f32>,
    values: Vec<[f32; 4]>,
    step: bool,
}

#[derive(Default)]
struct Encoder {
    times: Vec<f32>,
    groups: Vec<TimeGroup>,
    seen: HashMap<Vec<u32>, u32>,
    bits: BitWriter,
}

/// Smallest bit count `b` (1..=20) with `extent / (2^b − 1) / 2 <= delta`, else [`LOSSLESS`].
fn bits_for(extent: f32, delta: f32) -> u8 {
    for b in 1..=20u8 {
        if extent / ((1u32 << b) - 1) as f32 * 0.5 <= delta {
            return b;
        }
    }
    LOSSLESS
}

/// `CTrack::bits` of a track stored as raw `f32` bits (3 or 4 components, no smallest three):
/// where 20 bits are not enough (deep hierarchies far from the origin), so that the error
/// stays at what `f32` keys give.
pub(crate) const LOSSLESS: u8 = 32;

fn quantize(x: f32, min: f32, quantum: f32, bits: u8) -> u32 {
    if quantum <= 0.0 {
        return 0;
    }
    (((x - min) / quantum).round().max(0.0) as u32).min((1u32 << bits) - 1)
}

/// The value of a CUBICSPLINE track (`[in, value, out]` per key) at `t`.
fn hermite_at(times: &[f32], values: &[Vec4], t: f32, rotation: bool) -> Vec4 {
    let n = times.len();
    if t <= times[0] {
        return values[1];
    }
    if t >= times[n - 1] {
        return values[3 * (n - 1) + 1];
    }
    let k = times.partition_point(|&x| x <= t) - 1;
    let dt = times[k + 1] - times[k];
    let u = (t - times[k]) / dt;
    let (u2, u3) = (u * u, u * u * u);
    let v = values[3 * k + 1] * (2.0 * u3 - 3.0 * u2 + 1.0)
        + values[3 * k + 2] * (dt * (u3 - 2.0 * u2 + u))
        + values[3 * k + 4] * (-2.0 * u3 + 3.0 * u2)
        + values[3 * k + 3] * (dt * (u3 - u2));
    if rotation {
        v.normalize()
    } else {
        v
    }
}

/// The distance (model units) that replacing `exact` by `approx` moves a vertex `reach` away.
fn key_error(exact: Vec4, approx: Vec4, rotation: bool, reach: f32) -> f32 {
    if rotation {
        let d = exact.dot(approx).abs().min(1.0);
        2.0 * d.acos() * reach
    } else {
        (exact - approx).truncate().length() * reach
    }
}

/// A key value as four lanes (vectors get `w = 0`).
trait ToVec4 {
    fn to_vec4(self) -> Vec4;
}

impl ToVec4 for Vec3A {
    fn to_vec4(self) -> Vec4 {
        self.extend(0.0)
    }
}

impl ToVec4 for Quat {
    fn to_vec4(self) -> Vec4 {
        Vec4::from(self)
    }
}

/// The keys of track `h` of `set`; CUBICSPLINE resampled to LINEAR within `budget` (see the
/// module docs), `reach` converting a value error into a vertex distance.
fn track_keys<V: Copy + ToVec4>(
    set: &TrackSet<V>,
    h: TrackHeader,
    budget: f32,
    reach: f32,
    rotation: bool,
) -> Keys {
    let times = &set.times[h.times as usize..][..h.keys as usize];
    let cubic = h.interpolation == Interpolation::CubicSpline;
    let per = if cubic { 3 } else { 1 };
    let values: Vec<Vec4> = set.values[h.values as usize..][..h.keys as usize * per]
        .iter()
        .map(|&v| v.to_vec4())
        .collect();
    if !cubic || h.keys < 2 {
        return Keys {
            times: times.to_vec(),
            values: values
                .iter()
                .skip(if cubic { 1 } else { 0 })
                .step_by(per)
                .map(|v| v.to_array())
                .collect(),
            step: h.interpolation == Interpolation::Step || h.keys < 2,
        };
    }
    let mut m = 1;
    while m < 64 {
        // Checked at ¼, ½ and ¾ of every piece (a symmetric piece meets its chord at ½).
        let ok = times.windows(2).all(|w| {
            (0..m).all(|i| {
                let at = |f: f32| w[0] + (w[1] - w[0]) * f;
                let a = hermite_at(times, &values, at(i as f32 / m as f32), rotation);
                let b = hermite_at(times, &values, at((i + 1) as f32 / m as f32), rotation);
                [0.25f32, 0.5, 0.75].iter().all(|&f| {
                    let exact = hermite_at(times, &values, at((i as f32 + f) / m as f32), rotation);
                    let approx = if rotation {
                        let b = if a.dot(b) < 0.0 { -b } else { b };
                        (a * (1.0 - f) + b * f).normalize()
                    } else {
                        a * (1.0 - f) + b * f
                    };
                    key_error(exact, approx, rotation, reach) <= 0.5 * budget
                })
            })
        });
        if ok {
            break;
        }
        m *= 2;
    }
    let mut out = Keys {
        times: Vec::new(),
        values: Vec::new(),
        step: false,
    };
    for w in times.windows(2) {
        for i in 0..m {
            let t = w[0] + (w[1] - w[0]) * (i as f32 / m as f32);
            if out.times.last().is_none_or(|&l| t > l) {
                out.times.push(t);
                out.values
                    .push(hermite_at(times, &values, t, rotation).to_array());
            }
        }
    }
    let last = times[times.len() - 1];
    out.times.push(last);
    out.values
        .push(hermite_at(times, &values, last, rotation).to_array());
    out
}

impl Encoder {
    fn group(&mut self, times: &[f32]) -> u32 {
        let bits: Vec<u32> = times.iter().map(|t| t.to_bits()).collect();
        let next = self.groups.len() as u32;
        let g = *self.seen.entry(bits).or_insert(next);
        if g == next {
            self.groups.push(TimeGroup {
                first: self.times.len() as u32,
                keys: times.len() as u32,
            });
            self.times.extend_from_slice(times);
        }
        g
    }

    fn vec_track(
        &mut self,
        set: &TrackSet<Vec3A>,
        j: usize,
        delta: f32,
        budget: f32,
        reach: f32,
    ) -> CTrack {
        let keys = track_keys(set, set.headers[j], budget, reach, false);
        let v: Vec<Vec3> = keys
            .values
            .iter()
            .map(|a| Vec3::new(a[0], a[1], a[2]))
            .collect();
        let min = v.iter().fold(Vec3::splat(f32::MAX), |a, &b| a.min(b));
        let max = v.iter().fold(Vec3::splat(f32::MIN), |a, &b| a.max(b));
        let extent = max - min;
        if v.len() == 1 || extent.max_element() <= 2.0 * delta {
            let c = if v.len() == 1 {
                v[0]
            } else {
                min + extent * 0.5
            };
            return CTrack {
                group: CONSTANT,
                step: true,
                bits: 0,
                offset: 0,
                min: [c.x, c.y, c.z, 0.0],
                quantum: [0.0; 3],
                ranged: false,
            };
        }
        let bits = bits_for(extent.max_element(), delta);
        let steps = if bits == LOSSLESS {
            1.0
        } else {
            ((1u32 << bits) - 1) as f32
        };
        let quantum = (extent / steps).to_array();
        let offset = self.bits.len as u32;
        let min = min.to_array();
        for x in &v {
            for c in 0..3 {
                let u = if bits == LOSSLESS {
                    x[c].to_bits()
                } else {
                    quantize(x[c], min[c], quantum[c], bits)
                };
                self.bits.push(u, bits as u32);
            }
        }
        CTrack {
            group: self.group(&keys.times),
            step: keys.step,
            bits,
            offset,
            min: [min[0], min[1], min[2], 0.0],
            quantum,
            ranged: bits != LOSSLESS,
        }
    }

    fn rot_track(
        &mut self,
        set: &TrackSet<Quat>,
        j: usize,
        delta: f32,
        budget: f32,
        reach: f32,
    ) -> CTrack {
        let keys = track_keys(set, set.headers[j], budget, reach, true);
        let q: Vec<Vec4> = keys
            .values
            .iter()
            .map(|a| Vec4::from_array(*a).normalize())
            .collect();
        let q0 = q[0];
        let constant = q.iter().all(|&k| {
            let k = if k.dot(q0) < 0.0 { -k } else { k };
            (k - q0).abs().max_element() <= delta
        });
        if constant {
            return CTrack {
                group: CONSTANT,
                step: true,
                bits: 0,
                offset: 0,
                min: q0.to_array(),
                quantum: [0.0; 3],
                ranged: false,
            };
        }
        // Smallest three: (index of the largest |component|, the other three with it positive).
        let three: Vec<(u32, Vec3)> = q
            .iter()
            .map(|&k| {
                let a = k.to_array();
                let largest = (0..4)
                    .max_by(|&x, &y| a[x].abs().total_cmp(&a[y].abs()))
                    .unwrap_or(3);
                let k = if a[largest] < 0.0 { -k } else { k };
                let a = k.to_array();
                let mut rest = a.iter().enumerate().filter(|(i, _)| *i != largest);
                let mut r = [0.0; 3];
                for x in &mut r {
                    *x = *rest.next().unwrap().1;
                }
                (largest as u32, Vec3::from_array(r))
            })
            .collect();
        let min = three.iter().fold(Vec3::splat(f32::MAX), |a, b| a.min(b.1));
        let max = three.iter().fold(Vec3::splat(f32::MIN), |a, b| a.max(b.1));
        let extent = max - min;
        let bits = bits_for(extent.max_element(), delta);
        // Or over the fixed range, when the 24 bytes of range cost more than the bits they save.
        let full = std::f32::consts::SQRT_2;
        let bits_full = bits_for(full, delta);
        let count = three.len();
        let cost = |b: u8| {
            if b == LOSSLESS {
                128
            } else {
                2 + 3 * b as usize
            }
        };
        let ranged = bits != LOSSLESS && 24 * 8 + count * cost(bits) < count * cost(bits_full);
        let (min, extent, bits) = if ranged {
            (min, extent, bits)
        } else {
            (Vec3::splat(-0.5 * full), Vec3::splat(full), bits_full)
        };
        let steps = if bits == LOSSLESS {
            1.0
        } else {
            ((1u32 << bits) - 1) as f32
        };
        let quantum = (extent / steps).to_array();
        let offset = self.bits.len as u32;
        let min = min.to_array();
        if bits == LOSSLESS {
            for k in &keys.values {
                for c in k {
                    self.bits.push(c.to_bits(), 32);
                }
            }
        }
        for (largest, r) in three.iter().filter(|_| bits != LOSSLESS) {
            self.bits.push(*largest, 2);
            for c in 0..3 {
                self.bits
                    .push(quantize(r[c], min[c], quantum[c], bits), bits as u32);
            }
        }
        CTrack {
            group: self.group(&keys.times),
            step: keys.step,
            bits,
            offset,
            min: [min[0], min[1], min[2], 0.0],
            quantum,
            ranged,
        }
    }
}
