//! A clip's keys in structure-of-arrays blocks, for [`crate::sample_clip_soa`].
//!
//! A channel kind (translation, rotation or scale) is *uniform* when every joint's track of
//! that kind either has one key or shares one key-time array with the others, with LINEAR or
//! STEP interpolation (most exported clips: one sampler input per clip). Its keys are then
//! stored key-major, `[key][block]`, eight joints per block, with one-key tracks repeated at
//! every key; sampling locates the key interval once and interpolates whole blocks from two
//! contiguous key blocks. Other channels (cubic splines, tracks keyed at different times)
//! are sampled lane by lane with the scalar code.

use glam::{Quat, Vec3A};

use crate::simd::{F8, LANES};
use crate::slerp::SlerpSegment;
use crate::soa::soa_blocks;
use crate::track::Interpolation;
use crate::track::{TrackHeader, TrackSet};

/// One uniform channel kind: `C` components per key.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SoaChannel<const C: usize> {
    /// Shared key times (`[0.0]` when every track has one key).
    pub times: Vec<f32>,
    /// `[times.len()][blocks]` key values.
    pub keys: Vec<[F8; C]>,
    /// Rotations only: `[times.len()][blocks]` slerp constants `theta, inv_sin, sign` from key `k` to `k + 1`.
    pub segments: Vec<[F8; 3]>,
    /// `[blocks]`: 1 for lanes that interpolate (LINEAR), 0 for lanes that hold a key (one key, STEP).
    pub interpolate: Vec<F8>,
}

/// The SoA keys of a clip's three channel kinds (`None`: not uniform).
#[derive(Clone, Debug, PartialEq, Default)]
pub(crate) struct ClipSoa {
    pub translations: Option<SoaChannel<3>>,
    pub rotations: Option<SoaChannel<4>>,
    pub scales: Option<SoaChannel<3>>,
}

/// The shared times of a uniform channel: `Some(header)` of its multi-key tracks
/// (`keys == 1` when there is none), `None` when not uniform.
fn shared_times(headers: &[TrackHeader]) -> Option<TrackHeader> {
    let mut shared: Option<TrackHeader> = None;
    for h in headers.iter().filter(|h| h.keys > 1) {
        if h.interpolation == Interpolation::CubicSpline {
            return None;
        }
        match shared {
            Some(s) if s.times != h.times || s.keys != h.keys => return None,
            Some(_) => {}
            None => shared = Some(*h),
        }
    }
    Some(shared.unwrap_or(TrackHeader {
        times: 0,
        values: 0,
        keys: 1,
        interpolation: Interpolation::Step,
    }))
}

fn build_channel<V: Copy, const C: usize>(
    set: &TrackSet<V>,
    components: impl Fn(V) -> [f32; C],
    pad: [f32; C],
    segment: impl Fn(&TrackHeader, usize) -> [f32; 3],
) -> Option<SoaChannel<C>> {
    let shared = shared_times(&set.headers)?;
    let n = set.headers.len();
    let blocks = soa_blocks(n);
    let keys = shared.keys as usize;
    let times = if keys > 1 {
        set.times[shared.times as usize..][..keys].to_vec()
    } else {
        vec![0.0]
    };
    let mut out = SoaChannel {
        times,
        keys: vec![[F8::ZERO; C]; keys * blocks],
        segments: Vec::new(),
        interpolate: vec![F8::ZERO; blocks],
    };
    let mut segments = vec![[F8::ZERO; 3]; keys * blocks];
    for k in 0..keys {
        for b in 0..blocks {
            let key = &mut out.keys[k * blocks + b];
            for i in 0..LANES {
                let j = b * LANES + i;
                let (value, seg) = match set.headers.get(j) {
                    Some(h) if h.keys > 1 => {
                        (components(set.values[h.values as usize + k]), segment(h, k))
                    }
                    Some(h) => (components(set.values[h.values as usize]), [0.0; 3]),
                    None => (pad, [0.0; 3]),
                };
                for (c, v) in key.iter_mut().zip(value) {
                    c.0[i] = v;
                }
                for (c, v) in segments[k * blocks + b].iter_mut().zip(seg) {
                    c.0[i] = v;
                }
                if k == 0 {
                    let linear = set
                        .headers
                        .get(j)
                        .is_some_and(|h| h.keys > 1 && h.interpolation == Interpolation::Linear);
                    out.interpolate[b].0[i] = if linear { 1.0 } else { 0.0 };
                }
            }
        }
    }
    out.segments = segments;
    Some(out)
}

impl ClipSoa {
    pub(crate) fn build(
        translations: &TrackSet<Vec3A>,
        rotations: &TrackSet<Quat>,
        slerp: &[SlerpSegment],
        scales: &TrackSet<Vec3A>,
    ) -> Self {
        let vec3 = |v: Vec3A| v.to_array();
        let none = |_: &TrackHeader, _: usize| [0.0; 3];
        let mut t = build_channel(translations, vec3, [0.0; 3], none);
        let mut s = build_channel(scales, vec3, [1.0; 3], none);
        for c in [&mut t, &mut s].into_iter().flatten() {
            c.segments = Vec::new();
        }
        let keys = |h: &TrackHeader| h.keys as usize;
        let r = build_channel(
            rotations,
            |q: Quat| q.to_array(),
            [0.0, 0.0, 0.0, 1.0],
            |h, k| {
                if k + 1 < keys(h) {
                    slerp[h.values as usize + k].constants()
                } else {
                    [0.0; 3]
                }
            },
        );
        Self {
            translations: t,
            rotations: r,
            scales: s,
        }
    }
}
