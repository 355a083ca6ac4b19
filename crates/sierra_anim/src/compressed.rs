//! Compressed clips: quantised keys that the runtime samples directly. This module is the
//! format and its decoder; the encoder ([`CompressedClip::compress`]) is offline work, in
//! [`crate::offline::encode`].
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
//! joint. The encoder ([`crate::offline`]) then measures the clip as ACL does
//! ([`crate::offline::compress::max_vertex_error`])
//! and halves the budget until the measured error is within the tolerance.
//!
//! STEP tracks stay STEP (keys switch at their exact times; values quantised like any key).
//! CUBICSPLINE tracks are resampled at build time: each key interval is split into `m` equal
//! pieces (`m` = 1, 2, 4 … 64, the least that keeps the linear interpolation of the spline
//! within the budget at ¼, ½ and ¾ of every piece) and stored as LINEAR keys, so the runtime interpolates only linearly.
//! Morph weight tracks are kept as they are (`f32`).
//!
//! Sampling ([`crate::sample_clip_soa`], or a [`crate::ClipLayer`] of a
//! [`crate::CharacterJob`]) keeps the two keys around the current time of every track decoded
//! in the [`crate::SamplingContext`]; a track is decoded again only when the time leaves that
//! interval (one check per time group per sample).

use crate::clip::MorphTrack;

/// [`CompressedClip::kinds`]: a track equal to the identity (translation 0, rotation identity,
/// scale 1) within its budget: nothing stored.
pub(crate) const KIND_IDENTITY: u8 = 0;
/// A constant track: its value in [`CompressedClip::constants`] (3 or 4 `f32`).
pub(crate) const KIND_CONSTANT: u8 = 1;
/// An animated track: a [`CTrack`].
pub(crate) const KIND_ANIMATED: u8 = 2;
/// [`CTrack::flags`]: STEP interpolation (hold the key).
pub(crate) const STEP: u8 = 1;
/// [`CTrack::flags`]: the range (`min[3]`, `quantum[3]` as `f32` bits) precedes the keys.
pub(crate) const RANGED: u8 = 2;

/// One animated track as stored (8 bytes); its time group is implied by its position (the
/// tracks are sorted by group, see [`CompressedClip::group_start`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CTrack {
    /// Bit offset in [`CompressedClip::data`] of the range (when [`RANGED`]), then key 0.
    pub offset: u32,
    /// Bits 0–23: the track index `kind · joint_count + joint` (kind 0/1/2 = translation,
    /// rotation, scale); bits 24–29: bits per quantised component ([`LOSSLESS`]: raw `f32`);
    /// bits 30–31: [`STEP`], [`RANGED`].
    pub packed: u32,
}

impl CTrack {
    #[inline(always)]
    pub(crate) fn track(&self) -> usize {
        (self.packed & 0xff_ffff) as usize
    }
    #[inline(always)]
    pub(crate) fn bits(&self) -> u8 {
        ((self.packed >> 24) & 63) as u8
    }
    #[inline(always)]
    pub(crate) fn flags(&self) -> u8 {
        (self.packed >> 30) as u8
    }
}

/// Key times shared by animated tracks: `times[first..first + keys]` of the clip.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct TimeGroup {
    pub first: u32,
    pub keys: u32,
}

/// A clip with quantised keys, sampled without decompressing it (see the module docs).
///
/// Built from a [`crate::Clip`] and its [`crate::Skeleton`] by [`CompressedClip::compress`]; sampled by
/// [`crate::sample_clip_soa`] and by [`crate::CharacterJob`] layers. Immutable.
#[derive(Clone, Debug, PartialEq)]
pub struct CompressedClip {
    pub(crate) id: u64,
    pub(crate) name: String,
    pub(crate) duration: f32,
    pub(crate) joint_count: usize,
    /// Distinct key-time arrays, concatenated (seconds).
    pub(crate) times: Vec<f32>,
    pub(crate) groups: Vec<TimeGroup>,
    /// Tracks of group `g`: `tracks[group_start[g]..group_start[g + 1]]`.
    pub(crate) group_start: Vec<u32>,
    /// `[3 · joint_count]` (translations, then rotations, then scales, by joint): `KIND_*`.
    pub(crate) kinds: Vec<u8>,
    /// Values of the constant tracks, in track order (3 or 4 `f32` each).
    pub(crate) constants: Vec<f32>,
    /// The animated tracks, by time group, then in track order.
    pub(crate) tracks: Vec<CTrack>,
    /// Ranges and bit-packed keys of the animated tracks (little-endian bit order).
    pub(crate) data: Vec<u64>,
    pub(crate) morph_tracks: Vec<MorphTrack>,
}

/// `bits` bits at bit `offset` of `data` (`bits <= 32`).
#[inline(always)]
pub(crate) fn read_bits(data: &[u64], offset: u64, bits: u32) -> u32 {
    let (w, s) = ((offset / 64) as usize, offset % 64);
    let mut v = data[w] >> s;
    if bits == 0 {
        return 0;
    }
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

    /// Bytes of the joint tracks as held in memory: key times (4 per key per distinct time
    /// array) and time groups (12 each), one kind byte per track, constants (12/16 bytes;
    /// nothing for identity tracks), 8-byte headers of animated tracks, and the packed ranges and keys in
    /// whole `u64` words (morph tracks not counted, as in [`crate::offline::compress::raw_bytes`]).
    pub fn byte_size(&self) -> usize {
        4 * self.times.len()
            + 8 * self.groups.len()
            + 4 * self.group_start.len()
            + self.kinds.len()
            + 4 * self.constants.len()
            + std::mem::size_of::<CTrack>() * self.tracks.len()
            + 8 * self.data.len()
    }

    /// Number of animated (non-constant) tracks.
    pub fn animated_track_count(&self) -> usize {
        self.tracks.len()
    }

    /// Bit offset of key 0 of `t`, and its range (`min`, `quantum` per component/slot).
    #[inline(always)]
    fn layout(&self, t: &CTrack, rotation: bool) -> (u64, [f32; 3], [f32; 3]) {
        let off = t.offset as u64;
        if t.flags() & RANGED != 0 {
            let f = |i: u64| f32::from_bits(read_bits(&self.data, off + 32 * i, 32));
            (off + 192, [f(0), f(1), f(2)], [f(3), f(4), f(5)])
        } else if rotation && t.bits() != LOSSLESS {
            let full = std::f32::consts::SQRT_2;
            let q = full / ((1u32 << t.bits()) - 1) as f32;
            (off, [-0.5 * full; 3], [q; 3])
        } else {
            (off, [0.0; 3], [0.0; 3])
        }
    }

    /// Key `key` of translation/scale track `t` (`x y z`).
    #[inline(always)]
    pub(crate) fn decode_vec(&self, t: &CTrack, key: usize) -> [f32; 3] {
        let (off, min, quantum) = self.layout(t, false);
        let bits = t.bits() as u32;
        let base = off + key as u64 * 3 * bits as u64;
        let mut out = [0.0; 3];
        for (c, o) in out.iter_mut().enumerate() {
            let u = read_bits(&self.data, base + c as u64 * bits as u64, bits);
            *o = if t.bits() == LOSSLESS {
                f32::from_bits(u)
            } else {
                min[c] + u as f32 * quantum[c]
            };
        }
        out
    }

    /// Key `key` of rotation track `t` (`x y z w`, unit length).
    #[inline(always)]
    pub(crate) fn decode_rot(&self, t: &CTrack, key: usize) -> [f32; 4] {
        let (off, min, quantum) = self.layout(t, true);
        let bits = t.bits() as u32;
        if t.bits() == LOSSLESS {
            let base = off + key as u64 * 128;
            return [0, 1, 2, 3].map(|c| f32::from_bits(read_bits(&self.data, base + c * 32, 32)));
        }
        let base = off + key as u64 * (2 + 3 * bits as u64);
        let largest = read_bits(&self.data, base, 2) as usize;
        let mut rest = [0.0f32; 3];
        for (c, o) in rest.iter_mut().enumerate() {
            let u = read_bits(&self.data, base + 2 + c as u64 * bits as u64, bits);
            *o = min[c] + u as f32 * quantum[c];
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
                // Three values for the three slots besides `largest` (< 4).
                r.next().copied().unwrap_or(0.0)
            };
        }
        let inv = 1.0 / (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
        q.map(|x| x * inv)
    }
}

/// `CTrack::bits` of a track stored as raw `f32` bits (3 or 4 components, no smallest three):
/// where 20 bits are not enough (deep hierarchies far from the origin), so that the error
/// stays at what `f32` keys give.
pub(crate) const LOSSLESS: u8 = 32;
