//! The decoded keys of a [`CompressedClip`] that sampling reads ([`CompressedCache`], part of
//! the `SamplingContext`); the sampler reading them block by block is
//! `sampling_soa::CompressedSampler`.
//!
//! The context keeps, for every track, the two decoded keys around the time it
//! was last sampled at (eight joints per block, as the pose), with the key interval's start
//! `t0`, `1 / (t1 − t0)` (0 for STEP, constant and clamped tracks) and, for rotations, the slerp
//! constants. Sampling checks each time group's interval once; only the tracks of a group whose
//! interval the time left are decoded again (only the new second key when the time moved on by
//! one interval: the old second key becomes the first). Then every block is `lerp`/`slerp` of its two
//! cached keys at `u = (t − t0) / (t1 − t0)` — the arithmetic of the raw SoA sampler.

use crate::compressed::{CompressedClip, KIND_CONSTANT, KIND_IDENTITY, STEP};
use crate::simd::{F8, LANES};
use crate::slerp::SlerpSegment;
use crate::soa::soa_blocks;

/// The cached keys of eight tracks of one channel kind.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DecodedBlock<const C: usize> {
    pub(crate) a: [F8; C],
    pub(crate) b: [F8; C],
    pub(crate) t0: F8,
    pub(crate) inv_dt: F8,
    /// Rotations: slerp constants `theta, inv_sin, sign` from `a` to `b`.
    pub(crate) seg: [F8; 3],
}

impl<const C: usize> DecodedBlock<C> {
    const ZERO: Self = Self {
        a: [F8::ZERO; C],
        b: [F8::ZERO; C],
        t0: F8::ZERO,
        inv_dt: F8::ZERO,
        seg: [F8::ZERO; 3],
    };

    #[inline(always)]
    fn set(&mut self, lane: usize, a: [f32; C], b: [f32; C], t0: f32, inv_dt: f32) {
        for c in 0..C {
            self.a[c].0[lane] = a[c];
            self.b[c].0[lane] = b[c];
        }
        self.t0.0[lane] = t0;
        self.inv_dt.0[lane] = inv_dt;
    }
}

/// Which keys a time group's tracks hold.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Span {
    /// Nothing decoded yet.
    Invalid,
    /// Before the first key: key 0 held.
    Before,
    /// Between key `k` and `k + 1`.
    Between(u32),
    /// At or after the last key: the last key held.
    After,
    /// The wrap segment of [`Playback::LoopWithPeriod`]: last key → first key.
    Wrap,
}

#[derive(Clone, Copy, Debug)]
struct GroupState {
    span: Span,
    /// The span holds for `lo <= t < hi` (for [`Span::Wrap`], `lo` and `hi` are its start and period).
    lo: f32,
    hi: f32,
}

/// A group whose keys still hold.
const CLEAN: u8 = 0;
/// A group whose keys must be decoded.
const DIRTY: u8 = 1;
/// A group that moved on from key interval `k` to `k + 1`: only key `k + 2` is decoded.
const ADVANCED: u8 = 2;

/// The decoded keys of the compressed clip a context sampled last (part of the
/// `SamplingContext`).
#[derive(Clone, Debug, Default)]
pub(crate) struct CompressedCache {
    clip_id: u64,
    groups: Vec<GroupState>,
    /// Per group: [`CLEAN`], [`DIRTY`] or [`ADVANCED`] in this refresh.
    dirty: Vec<u8>,
    pub(crate) t: Vec<DecodedBlock<3>>,
    pub(crate) r: Vec<DecodedBlock<4>>,
    pub(crate) s: Vec<DecodedBlock<3>>,
}

impl CompressedCache {
    /// Resets the cache for `clip` (constant tracks decoded once here, padding lanes set).
    fn bind(&mut self, clip: &CompressedClip) {
        if self.clip_id == clip.id {
            return;
        }
        let n = clip.joint_count();
        let blocks = soa_blocks(n);
        // Only on first use with a larger clip (or more time groups) does this allocate.
        self.groups.clear();
        self.groups.resize(
            clip.groups.len(),
            GroupState {
                span: Span::Invalid,
                lo: 0.0,
                hi: 0.0,
            },
        );
        self.dirty.clear();
        self.dirty.resize(clip.groups.len(), CLEAN);
        for v in [&mut self.t, &mut self.s] {
            v.clear();
            v.resize(blocks, DecodedBlock::ZERO);
        }
        self.r.clear();
        self.r.resize(blocks, DecodedBlock::ZERO);
        for j in n..blocks * LANES {
            let (b, l) = (j / LANES, j % LANES);
            self.t[b].set(l, [0.0; 3], [0.0; 3], 0.0, 0.0);
            self.r[b].set(l, [0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 1.0], 0.0, 0.0);
            self.s[b].set(l, [1.0; 3], [1.0; 3], 0.0, 0.0);
        }
        let mut c = clip.constants.iter().copied();
        for (i, &kind) in clip.kinds.iter().enumerate() {
            let (b, l) = ((i % n) / LANES, (i % n) % LANES);
            let mut get = |identity: f32| {
                if kind == KIND_CONSTANT {
                    c.next().unwrap_or(identity)
                } else {
                    identity
                }
            };
            if kind != KIND_CONSTANT && kind != KIND_IDENTITY {
                continue;
            }
            match i / n {
                0 => {
                    let v = [get(0.0), get(0.0), get(0.0)];
                    self.t[b].set(l, v, v, 0.0, 0.0);
                }
                1 => {
                    let v = [get(0.0), get(0.0), get(0.0), get(1.0)];
                    self.r[b].set(l, v, v, 0.0, 0.0);
                }
                _ => {
                    let v = [get(1.0), get(1.0), get(1.0)];
                    self.s[b].set(l, v, v, 0.0, 0.0);
                }
            }
        }
        self.clip_id = clip.id;
    }

    /// Decodes animated track `i` (of `clip.tracks`, in time group `group`) for `span` into its lane;
    /// `start`/`period`: the wrap segment's.
    #[inline(always)]
    fn decode(
        &mut self,
        clip: &CompressedClip,
        i: usize,
        group: usize,
        span: Span,
        (start, period): (f32, f32),
        advance: bool,
    ) {
        let n = clip.joint_count();
        let t = &clip.tracks[i];
        let step = t.flags() & STEP != 0;
        let (kind, j) = (t.track() / n, t.track() % n);
        let (b, lane) = (j / LANES, j % LANES);
        let (ka, kb, t0, inv_dt) = {
            let g = clip.groups[group];
            let times = &clip.times[g.first as usize..][..g.keys as usize];
            let last = g.keys as usize - 1;
            match span {
                Span::Between(k) => {
                    let k = k as usize;
                    let inv = if step {
                        0.0
                    } else {
                        1.0 / (times[k + 1] - times[k])
                    };
                    (k, k + 1, times[k], inv)
                }
                Span::Wrap => {
                    let inv = if step { 0.0 } else { 1.0 / (period - start) };
                    (last, 0, start, inv)
                }
                Span::After => (last, last, 0.0, 0.0),
                Span::Before | Span::Invalid => (0, 0, 0.0, 0.0),
            }
        };
        match kind {
            1 => {
                let block = &mut self.r[b];
                // Moving on by one key: the old second key is the new first.
                let qa = if advance {
                    block.b.map(|c| c.0[lane])
                } else {
                    clip.decode_rot(t, ka)
                };
                let qb = if kb == ka { qa } else { clip.decode_rot(t, kb) };
                let seg = if inv_dt != 0.0 {
                    SlerpSegment::new(glam::Quat::from_array(qa), glam::Quat::from_array(qb))
                        .constants()
                } else {
                    [0.0; 3]
                };
                block.set(lane, qa, qb, t0, inv_dt);
                for (c, v) in block.seg.iter_mut().zip(seg) {
                    c.0[lane] = v;
                }
            }
            _ => {
                let set = if kind == 0 { &mut self.t } else { &mut self.s };
                let va = if advance {
                    set[b].b.map(|c| c.0[lane])
                } else {
                    clip.decode_vec(t, ka)
                };
                let vb = if kb == ka { va } else { clip.decode_vec(t, kb) };
                set[b].set(lane, va, vb, t0, inv_dt);
            }
        }
    }

    /// Brings every track's cached keys to clip-local time `t` (`wrap`: the wrap segment when
    /// `t` is in it).
    pub(crate) fn refresh(&mut self, clip: &CompressedClip, t: f32, wrap: Option<(f32, f32)>) {
        self.bind(clip);
        let mut any = false;
        for (g, (state, dirty)) in self.groups.iter_mut().zip(&mut self.dirty).enumerate() {
            *dirty = CLEAN;
            if let Some((start, period)) = wrap {
                if state.span != Span::Wrap || state.lo != start || state.hi != period {
                    *state = GroupState {
                        span: Span::Wrap,
                        lo: start,
                        hi: period,
                    };
                    *dirty = DIRTY;
                }
            } else if state.span == Span::Wrap || !(state.lo <= t && t < state.hi) {
                let group = clip.groups[g];
                let times = &clip.times[group.first as usize..][..group.keys as usize];
                let n = times.len();
                let old = state.span;
                *state = if t < times[0] {
                    GroupState {
                        span: Span::Before,
                        lo: f32::NEG_INFINITY,
                        hi: times[0],
                    }
                } else if t >= times[n - 1] {
                    GroupState {
                        span: Span::After,
                        lo: times[n - 1],
                        hi: f32::INFINITY,
                    }
                } else {
                    // Usually the next interval; else a binary search.
                    let k = match state.span {
                        Span::Between(k)
                            if (k as usize) + 2 < n
                                && times[k as usize + 1] <= t
                                && t < times[k as usize + 2] =>
                        {
                            k as usize + 1
                        }
                        _ => times.partition_point(|&x| x <= t) - 1,
                    };
                    GroupState {
                        span: Span::Between(k as u32),
                        lo: times[k],
                        hi: times[k + 1],
                    }
                };
                *dirty = match (old, state.span) {
                    (Span::Between(a), Span::Between(b)) if b == a + 1 => ADVANCED,
                    _ => DIRTY,
                };
            }
            any |= *dirty != CLEAN;
        }
        if !any {
            return;
        }
        for g in 0..self.groups.len() {
            if self.dirty[g] == CLEAN {
                continue;
            }
            let state = self.groups[g];
            for i in clip.group_start[g] as usize..clip.group_start[g + 1] as usize {
                let advance = self.dirty[g] == ADVANCED;
                self.decode(clip, i, g, state.span, (state.lo, state.hi), advance);
            }
        }
    }
}
