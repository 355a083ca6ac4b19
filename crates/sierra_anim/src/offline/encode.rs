//! The encoder of [`CompressedClip`]s (offline work: allocates freely, runs the scalar sampler
//! many times): per-track bit widths from the error each key may add at ACL's virtual
//! vertices, then the budget halved until the clip measured as ACL measures it
//! ([`super::compress::max_vertex_error`]) is within the tolerance. The format and its
//! decoder are the runtime's (see [`crate::CompressedClip`]).

use std::collections::HashMap;

use glam::{Mat4, Quat, Vec3, Vec3A, Vec4};

use super::compress::CompressionSettings;
use crate::clip::Clip;
use crate::compressed::{
    read_bits, CTrack, CompressedClip, TimeGroup, KIND_ANIMATED, KIND_CONSTANT, KIND_IDENTITY,
    LOSSLESS, RANGED, STEP,
};
use crate::error::check_len;
use crate::track::{Interpolation, TrackHeader, TrackSet};
use crate::{AnimError, Skeleton};

/// `Wide::group` of a constant track.
const CONSTANT: u32 = u32::MAX;

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

/// One track as the encoder produces it (before packing, see [`CompressedClip::encode`]).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Wide {
    /// Equal to the identity within the budget.
    identity: bool,
    /// Time group index, or [`CONSTANT`].
    pub group: u32,
    /// STEP (hold the key) rather than LINEAR.
    pub step: bool,
    /// Bits per quantised component.
    pub bits: u8,
    /// Bit offset of key 0 in the encoder's stream, and the keys' length in bits.
    pub offset: u32,
    pub len: u32,
    /// Constant: the value (`x y z` or `x y z w`); animated: the range minimum per component/slot.
    pub min: [f32; 4],
    /// Animated: the decoded step per component/slot (`extent / (2^bits − 1)`).
    pub quantum: [f32; 3],
    /// Animated: `min`/`quantum` stored (24 bytes); `false` for rotations quantised over the
    /// fixed smallest-three range `[−1/√2, 1/√2]` (cheaper for tracks with few keys).
    pub ranged: bool,
}

impl Wide {
    /// A constant track holding `value` (`x y z 0` or `x y z w`); `identity` when that value
    /// equals the identity within the budget.
    fn constant(identity: bool, value: [f32; 4]) -> Self {
        Self {
            identity,
            group: CONSTANT,
            step: true,
            bits: 0,
            offset: 0,
            len: 0,
            min: value,
            quantum: [0.0; 3],
            ranged: false,
        }
    }
}

/// Componentwise `(min, max − min)` of `points` (at least one).
fn min_extent(points: impl Iterator<Item = Vec3>) -> (Vec3, Vec3) {
    let (min, max) = points.fold(
        (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
        |(lo, hi), p| (lo.min(p), hi.max(p)),
    );
    (min, max - min)
}

/// The decoded step per component, `extent / (2^bits − 1)` (`extent` itself for
/// [`LOSSLESS`] tracks, which store raw `f32` bits and never use it).
fn quantum_of(extent: Vec3, bits: u8) -> [f32; 3] {
    let steps = if bits == LOSSLESS {
        1.0
    } else {
        ((1u32 << bits) - 1) as f32
    };
    (extent / steps).to_array()
}

impl CompressedClip {
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
        check_len("clip joints", n, clip.joint_count())?;
        let bounds = JointBounds::measure(clip, skeleton, settings)?;
        let world = settings.world_scale.abs().max(f32::MIN_POSITIVE);
        let mut budget = settings.tolerance / world;
        let mut extra = vec![0i8; 3 * n];
        let error = |c: &Self| super::compress::max_vertex_error(skeleton, clip, c, settings);
        let mut best = Self::encode(clip, &bounds, budget, &extra);
        for _ in 0..16 {
            if error(&best) <= 0.9 * settings.tolerance {
                break;
            }
            budget *= 0.8;
            best = Self::encode(clip, &bounds, budget, &extra);
        }
        // Then one bit less per animated track, largest tracks first, while the measured error
        // stays within 95 % of the tolerance (ACL's per-track search, one pass).
        let mut order: Vec<(usize, u64)> = Vec::new();
        for (g, group) in best.groups.iter().enumerate() {
            let tracks = best.group_start[g] as usize..best.group_start[g + 1] as usize;
            for t in &best.tracks[tracks] {
                if t.bits() > 1 && t.bits() != LOSSLESS {
                    order.push((t.track(), group.keys as u64 * t.bits() as u64));
                }
            }
        }
        order.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        for (track, _) in order {
            extra[track] -= 1;
            let c = Self::encode(clip, &bounds, budget, &extra);
            if c.byte_size() < best.byte_size() && error(&c) <= 0.95 * settings.tolerance {
                best = c;
            } else {
                extra[track] += 1;
            }
        }
        Ok(best)
    }

    /// The clip at `budget` (model units per track) with per-track bit adjustments `extra`
    /// (`[3 · joint_count]`), packed (see the type docs).
    #[allow(clippy::needless_range_loop)] // `j` indexes the bounds, `extra` and the clip alike
    fn encode(clip: &Clip, bounds: &JointBounds, budget: f32, extra: &[i8]) -> Self {
        let n = clip.joint_count();
        let mut enc = Encoder::default();
        let mut tracks = Vec::with_capacity(3 * n);
        let sqrt3 = 3f32.sqrt();
        for j in 0..n {
            let delta = budget / (sqrt3 * bounds.parent_scale[j]);
            let set = &clip.translations;
            let keys = track_keys(set, set.headers[j], budget, bounds.parent_scale[j], false);
            tracks.push(enc.vec_track(keys, (delta, extra[j]), 0.0));
        }
        for j in 0..n {
            let reach = bounds.reach[j];
            let delta = budget / (8.0 * reach);
            let set = &clip.rotations;
            let keys = track_keys(set, set.headers[j], budget, reach, true);
            tracks.push(enc.rot_track(keys, (delta, extra[n + j])));
        }
        for j in 0..n {
            let reach = bounds.reach[j] / bounds.min_scale[j];
            let delta = budget / (sqrt3 * reach);
            let keys = track_keys(&clip.scales, clip.scales.headers[j], budget, reach, false);
            tracks.push(enc.vec_track(keys, (delta, extra[2 * n + j]), 1.0));
        }
        // Pack: kinds, constants, animated headers with their range and keys re-laid
        // contiguously (range first).
        let mut kinds = Vec::with_capacity(tracks.len());
        let mut constants = Vec::new();
        let mut packed = Vec::new();
        let mut out = BitWriter::default();
        for (i, w) in tracks.iter().enumerate() {
            if w.identity {
                kinds.push(KIND_IDENTITY);
            } else if w.group == CONSTANT {
                kinds.push(KIND_CONSTANT);
                let c = if (n..2 * n).contains(&i) { 4 } else { 3 };
                constants.extend_from_slice(&w.min[..c]);
            } else {
                kinds.push(KIND_ANIMATED);
                let offset = out.len as u32;
                if w.ranged {
                    for v in w.min[..3].iter().chain(&w.quantum) {
                        out.push(v.to_bits(), 32);
                    }
                }
                let mut at = w.offset as u64;
                let end = at + w.len as u64;
                while at < end {
                    let b = (end - at).min(32) as u32;
                    out.push(read_bits(&enc.bits.words, at, b), b);
                    at += b as u64;
                }
                let flags = if w.step { STEP } else { 0 } | if w.ranged { RANGED } else { 0 };
                packed.push((
                    w.group,
                    CTrack {
                        offset,
                        packed: i as u32 | (w.bits as u32) << 24 | (flags as u32) << 30,
                    },
                ));
            }
        }
        let groups: Vec<TimeGroup> = enc.groups;
        packed.sort_by_key(|(g, _)| *g);
        let mut group_start = vec![0u32; groups.len() + 1];
        for (g, _) in &packed {
            group_start[*g as usize + 1] += 1;
        }
        for g in 0..groups.len() {
            group_start[g + 1] += group_start[g];
        }
        let packed: Vec<CTrack> = packed.into_iter().map(|(_, t)| t).collect();
        Self {
            id: crate::clip::next_clip_id(),
            name: clip.name().to_owned(),
            duration: clip.duration(),
            joint_count: n,
            times: enc.times,
            groups,
            group_start,
            kinds,
            constants,
            tracks: packed,
            data: out.words,
            morph_tracks: clip.morph_tracks.clone(),
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
        for t in crate::offline::compress::sample_times(clip) {
            crate::sample_clip(clip, t, crate::Playback::Once, &mut ctx, &mut local)?;
            crate::local_to_model(skeleton, &local, Mat4::IDENTITY, &mut model)?;
            for j in 0..n {
                let p = model[j].w_axis.truncate();
                let mut reach = 0.0f32;
                for (d, md) in model
                    .iter()
                    .enumerate()
                    .skip(j)
                    .take(skeleton.subtree_len(j))
                {
                    let dist = if skeleton.parent(d).is_none() {
                        settings.root_vertex_distance
                    } else {
                        settings.vertex_distance
                    };
                    let pd = md.w_axis.truncate();
                    reach = reach.max((pd - p).length() + dist * max_col(md));
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

/// `bits` moved by `extra` within 1..=20 ([`LOSSLESS`] stays).
fn adjust(bits: u8, extra: i8) -> u8 {
    if bits == LOSSLESS {
        bits
    } else {
        (bits as i32 + extra as i32).clamp(1, 20) as u8
    }
}

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

    /// The animated track whose keys were pushed to the bit stream from bit `offset` on,
    /// with `bits` per component over the range `min` + `quantum` steps.
    fn animated(
        &mut self,
        keys: &Keys,
        bits: u8,
        offset: u32,
        min: [f32; 3],
        quantum: [f32; 3],
        ranged: bool,
    ) -> Wide {
        Wide {
            identity: false,
            group: self.group(&keys.times),
            step: keys.step,
            bits,
            offset,
            len: self.bits.len as u32 - offset,
            min: [min[0], min[1], min[2], 0.0],
            quantum,
            ranged,
        }
    }

    /// A translation or scale track from its kept `keys`, each component within `delta` of
    /// the clip (`extra` bits added); constant tracks within `delta` of `identity` are identity.
    fn vec_track(&mut self, keys: Keys, (delta, extra): (f32, i8), identity: f32) -> Wide {
        let v: Vec<Vec3> = keys
            .values
            .iter()
            .map(|a| Vec3::new(a[0], a[1], a[2]))
            .collect();
        let (min, extent) = min_extent(v.iter().copied());
        if v.len() == 1 || extent.max_element() <= 2.0 * delta {
            let c = if v.len() == 1 {
                v[0]
            } else {
                min + extent * 0.5
            };
            let is_identity = v
                .iter()
                .all(|x| (*x - Vec3::splat(identity)).abs().max_element() <= delta);
            return Wide::constant(is_identity, c.extend(0.0).to_array());
        }
        let bits = adjust(bits_for(extent.max_element(), delta), extra);
        let quantum = quantum_of(extent, bits);
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
        self.animated(&keys, bits, offset, min, quantum, bits != LOSSLESS)
    }

    /// A rotation track from its kept `keys` (smallest-three), each component within `delta`.
    fn rot_track(&mut self, keys: Keys, (delta, extra): (f32, i8)) -> Wide {
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
            let is_identity = q.iter().all(|&k| {
                let k = if k.w < 0.0 { -k } else { k };
                (k - Vec4::W).abs().max_element() <= delta
            });
            return Wide::constant(is_identity, q0.to_array());
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
                let mut r = [0.0; 3];
                for (x, (_, v)) in r
                    .iter_mut()
                    .zip(a.iter().enumerate().filter(|(i, _)| *i != largest))
                {
                    *x = *v;
                }
                (largest as u32, Vec3::from_array(r))
            })
            .collect();
        let (min, extent) = min_extent(three.iter().map(|t| t.1));
        let bits = adjust(bits_for(extent.max_element(), delta), extra);
        // Or over the fixed range, when the 24 bytes of range cost more than the bits they save.
        let full = std::f32::consts::SQRT_2;
        let bits_full = adjust(bits_for(full, delta), extra);
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
        let quantum = quantum_of(extent, bits);
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
        self.animated(&keys, bits, offset, min, quantum, ranged)
    }
}
