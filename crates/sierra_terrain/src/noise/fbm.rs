//! Fractional Brownian motion (fBm) over improved Perlin noise, as the thesis (seed 002) defines
//! it in Annex F.3:
//!
//! ```text
//! float fbm(float2 punto, float H, float lagunaridad, float octavas) {
//!     float value = 0, sum = 0, freq = 1, amp = 1;
//!     for (float i = 0; i < octavas; i++) {
//!         value = noise(punto * freq); sum += value * amp; freq *= lagunaridad; amp *= H;
//!     }
//!     return sum;
//! }
//! ```
//!
//! `H` is called `gain` here (amplitude factor per octave) and `lagunaridad` is `lacunarity`
//! (frequency factor per octave). The loop starts at `freq = amp = 1` and is evaluated in the
//! float type `T` in exactly this order (`sum = sum + value·amp`, then `freq = freq·lacunarity`,
//! then `amp = amp·gain`), which `noise.wgsl` repeats on the GPU.
//!
//! **Fractional octaves.** The thesis's loop with a non-integer `octavas` (e.g. 5.5) runs
//! `ceil(octavas)` full octaves. We instead follow Musgrave's fBm (Texturing & Modeling, 3rd ed.,
//! ch. 16), which the thesis cites as its guide: `floor(octaves)` full octaves, then the next
//! octave weighted by the fractional part, `sum += (noise·amp)·frac`. This makes the result
//! continuous in `octaves`; for integer counts both definitions are identical.
//!
//! Ridged (`Σ amp·(1 − |n|)²`) and billowed (`Σ amp·|n|`) variants use the same loop.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::perlin::{perlin2, perlin3, NoiseFloat, Permutation};
use super::perlin2d::noise2d;
use crate::error::{finite, Error};

/// Largest accepted fBm octave count.
pub const MAX_OCTAVES: u32 = 32;

/// Which per-octave signal the fBm sums.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FbmKind {
    /// `noise` itself (the thesis's fBm), range about [−Σamp, Σamp].
    #[default]
    Standard,
    /// `(1 − |noise|)²`: sharp crests where the noise crosses zero (mountain ridges).
    Ridged,
    /// `|noise|`: rounded, puffy shapes (clouds, hills).
    Billow,
}

/// fBm parameters as written in level files and on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct FbmParams {
    /// Number of octaves, in (0, 32]; fractional values weight the last octave (see module docs).
    pub octaves: f64,
    /// Frequency factor between successive octaves (thesis: *lagunaridad*), usually 2.
    pub lacunarity: f64,
    /// Amplitude factor between successive octaves (thesis: *H*), usually 0.5.
    pub gain: f64,
}

impl Default for FbmParams {
    fn default() -> Self {
        Self {
            octaves: 6.0,
            lacunarity: 2.0,
            gain: 0.5,
        }
    }
}

/// Validated fBm: build with [`Fbm::new`], evaluate with [`Fbm::fbm2`] / [`Fbm::fbm3`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fbm {
    params: FbmParams,
    full_octaves: u32,
    fraction: f64,
    kind: FbmKind,
}

impl Fbm {
    /// Validates the parameters.
    ///
    /// # Errors
    /// [`Error::Octaves`] when `octaves` is not in (0, 32] (NaN included);
    /// [`Error::NonFinite`] when `lacunarity` or `gain` is NaN or infinite.
    pub fn new(params: FbmParams) -> Result<Self, Error> {
        if !(params.octaves > 0.0 && params.octaves <= f64::from(MAX_OCTAVES)) {
            return Err(Error::Octaves {
                value: params.octaves,
                max: MAX_OCTAVES,
            });
        }
        finite("lacunarity", params.lacunarity)?;
        finite("gain", params.gain)?;
        let full_octaves = params.octaves.floor() as u32;
        Ok(Self {
            params,
            full_octaves,
            fraction: params.octaves - f64::from(full_octaves),
            kind: FbmKind::Standard,
        })
    }

    /// The same parameters summing another per-octave signal.
    pub fn with_kind(mut self, kind: FbmKind) -> Self {
        self.kind = kind;
        self
    }

    /// The validated parameters.
    pub fn params(&self) -> FbmParams {
        self.params
    }

    /// The per-octave signal.
    pub fn kind(&self) -> FbmKind {
        self.kind
    }

    /// Number of full octaves (`floor(octaves)`).
    pub fn full_octaves(&self) -> u32 {
        self.full_octaves
    }

    /// Weight of the last, partial octave (`octaves − floor(octaves)`, 0 for integer counts).
    pub fn fraction(&self) -> f64 {
        self.fraction
    }

    /// Sum of the octave amplitudes `Σ |amp|` (fraction included): a bound on `|fbm|` since
    /// `|noise| <= 1`. Used to normalise heights.
    pub fn amplitude_bound(&self) -> f64 {
        let mut amp = 1.0f64;
        let mut sum = 0.0;
        for _ in 0..self.full_octaves {
            sum += amp.abs();
            amp *= self.params.gain;
        }
        sum + amp.abs() * self.fraction
    }

    #[inline(always)]
    fn signal<T: NoiseFloat>(&self, n: T) -> T {
        match self.kind {
            FbmKind::Standard => n,
            FbmKind::Ridged => {
                let r = T::ONE - abs(n);
                r * r
            }
            FbmKind::Billow => abs(n),
        }
    }

    #[inline(always)]
    fn sum<T: NoiseFloat>(&self, mut octave: impl FnMut(T) -> T) -> T {
        let lacunarity = T::from_f64(self.params.lacunarity);
        let gain = T::from_f64(self.params.gain);
        let (mut sum, mut freq, mut amp) = (T::ZERO, T::ONE, T::ONE);
        for _ in 0..self.full_octaves {
            sum = sum + self.signal(octave(freq)) * amp;
            freq = freq * lacunarity;
            amp = amp * gain;
        }
        if self.fraction > 0.0 {
            sum = sum + self.signal(octave(freq)) * amp * T::from_f64(self.fraction);
        }
        sum
    }

    /// fBm of 2D noise ([`perlin2`], i.e. `perlin3(x, y, 0)`) at `(x, y)`.
    #[inline]
    pub fn fbm2<T: NoiseFloat>(&self, perm: &Permutation, x: T, y: T) -> T {
        self.sum(|f| perlin2(perm, x * f, y * f))
    }

    /// fBm of true 2D noise ([`noise2d`], Gustavson's planar gradients) at `(x, y)`.
    #[inline]
    pub fn fbm2d<T: NoiseFloat>(&self, perm: &Permutation, x: T, y: T) -> T {
        self.sum(|f| noise2d(perm, x * f, y * f))
    }

    /// fBm of 3D noise at `(x, y, z)`.
    #[inline]
    pub fn fbm3<T: NoiseFloat>(&self, perm: &Permutation, x: T, y: T, z: T) -> T {
        self.sum(|f| perlin3(perm, x * f, y * f, z * f))
    }
}

#[inline(always)]
fn abs<T: NoiseFloat>(v: T) -> T {
    if v < T::ZERO {
        -v
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(octaves: f64) -> FbmParams {
        FbmParams {
            octaves,
            lacunarity: 2.0,
            gain: 0.5,
        }
    }

    #[test]
    #[allow(clippy::approx_constant)] // (3.14, 42, 7) is Perlin's published test point, not π.
    fn one_octave_is_the_noise() {
        let p = Permutation::reference();
        let f = Fbm::new(params(1.0)).unwrap();
        assert_eq!(f.fbm3(&p, 3.14f64, 42.0, 7.0), perlin3(&p, 3.14, 42.0, 7.0));
    }

    #[test]
    fn matches_the_thesis_loop() {
        let p = Permutation::reference();
        let f = Fbm::new(FbmParams {
            octaves: 5.0,
            lacunarity: 2.1,
            gain: 0.6,
        })
        .unwrap();
        let (x, y) = (1.37f64, -8.21f64);
        // Annex F, transcribed.
        let (mut sum, mut freq, mut amp) = (0.0f64, 1.0f64, 1.0f64);
        let mut i = 0.0;
        while i < 5.0 {
            let value = perlin2(&p, x * freq, y * freq);
            sum += value * amp;
            freq *= 2.1;
            amp *= 0.6;
            i += 1.0;
        }
        assert_eq!(f.fbm2(&p, x, y), sum);
    }

    #[test]
    fn fractional_octaves_are_continuous() {
        let p = Permutation::reference();
        let a = Fbm::new(params(3.0)).unwrap().fbm2(&p, 0.3f64, 0.7);
        let b = Fbm::new(params(3.0 + 1e-9)).unwrap().fbm2(&p, 0.3f64, 0.7);
        let c = Fbm::new(params(4.0)).unwrap().fbm2(&p, 0.3f64, 0.7);
        let half = Fbm::new(params(3.5)).unwrap().fbm2(&p, 0.3f64, 0.7);
        assert!((a - b).abs() < 1e-9);
        assert!((half - (a + c) / 2.0).abs() < 1e-12);
    }

    #[test]
    fn bad_parameters_are_errors() {
        for o in [0.0, -1.0, 32.5, f64::NAN, f64::INFINITY] {
            assert!(
                matches!(Fbm::new(params(o)), Err(Error::Octaves { .. })),
                "{o}"
            );
        }
        assert!(Fbm::new(params(32.0)).is_ok());
        let mut bad = params(4.0);
        bad.lacunarity = f64::NAN;
        assert!(matches!(Fbm::new(bad), Err(Error::NonFinite { .. })));
        bad.lacunarity = 2.0;
        bad.gain = f64::NEG_INFINITY;
        assert!(matches!(Fbm::new(bad), Err(Error::NonFinite { .. })));
    }
}
