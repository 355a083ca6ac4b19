//! The key layout clips share: how values between keys are computed ([`Interpolation`]) and
//! the flat per-channel storage of every joint's track ([`TrackSet`], [`TrackHeader`]). Raw
//! clips, built clips, their SoA copy and the compressed format all read these.

use std::collections::HashMap;

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

/// One joint's track inside a [`TrackSet`]: where its key times and values start, its key
/// count and interpolation.
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
    pub(crate) fn with_joints(n: usize) -> Self {
        Self {
            headers: Vec::with_capacity(n),
            times: Vec::new(),
            values: Vec::new(),
        }
    }

    /// Appends one joint's track. Identical key-time arrays are stored once
    /// (`seen` maps their bits to an offset), so tracks keyed at the same times
    /// share them and sampling locates the key interval once for all of them.
    pub(crate) fn push(
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
