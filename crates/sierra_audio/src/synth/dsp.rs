//! Small DSP building blocks for the procedural sounds: a seeded white-noise source and the
//! RBJ biquad filters, run circularly so the result is exactly periodic.

use std::f64::consts::PI;

/// SplitMix64 (Steele, Lea, Flood 2014, "Fast splittable pseudorandom number generators"):
/// a tiny seeded generator, so the built-in sounds are identical on every run and machine.
pub(crate) struct SplitMix64(u64);

impl SplitMix64 {
    pub(crate) fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in [lo, hi).
    pub(crate) fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// `len` samples of white noise, uniform in [-1, 1).
    pub(crate) fn white_noise(&mut self, len: usize) -> Vec<f64> {
        (0..len).map(|_| self.range(-1.0, 1.0)).collect()
    }
}

/// Normalised biquad coefficients (a0 = 1), transposed direct form II.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Biquad {
    b0: f64,
    b1: f64,
    b2: f64,
    a1: f64,
    a2: f64,
}

impl Biquad {
    /// Second-order low-pass at `cutoff_hz` with quality `q`
    /// (R. Bristow-Johnson, "Cookbook formulae for audio EQ biquad filter coefficients").
    pub(crate) fn low_pass(sample_rate: f64, cutoff_hz: f64, q: f64) -> Self {
        let (cos_w0, alpha) = Self::prewarp(sample_rate, cutoff_hz, q);
        let b1 = 1.0 - cos_w0;
        Self::normalised(
            b1 * 0.5,
            b1,
            b1 * 0.5,
            1.0 + alpha,
            -2.0 * cos_w0,
            1.0 - alpha,
        )
    }

    /// Second-order high-pass at `cutoff_hz` with quality `q` (same cookbook).
    pub(crate) fn high_pass(sample_rate: f64, cutoff_hz: f64, q: f64) -> Self {
        let (cos_w0, alpha) = Self::prewarp(sample_rate, cutoff_hz, q);
        let b1 = -(1.0 + cos_w0);
        Self::normalised(
            -b1 * 0.5,
            b1,
            -b1 * 0.5,
            1.0 + alpha,
            -2.0 * cos_w0,
            1.0 - alpha,
        )
    }

    fn prewarp(sample_rate: f64, cutoff_hz: f64, q: f64) -> (f64, f64) {
        let w0 = 2.0 * PI * cutoff_hz.clamp(1.0, 0.49 * sample_rate) / sample_rate;
        (w0.cos(), w0.sin() / (2.0 * q))
    }

    fn normalised(b0: f64, b1: f64, b2: f64, a0: f64, a1: f64, a2: f64) -> Self {
        Self {
            b0: b0 / a0,
            b1: b1 / a0,
            b2: b2 / a0,
            a1: a1 / a0,
            a2: a2 / a0,
        }
    }

    #[inline]
    fn step(&self, state: &mut [f64; 2], x: f64) -> f64 {
        let y = self.b0 * x + state[0];
        state[0] = self.b1 * x - self.a1 * y + state[1];
        state[1] = self.b2 * x - self.a2 * y;
        y
    }
}

/// Filters a periodic signal so that the output is periodic too: `coefficients(i)` gives the
/// (possibly time-varying, itself periodic) filter for sample `i`, and the filter runs over the
/// signal twice, keeping the second pass. After one period the filter has forgotten its zero
/// initial state (the impulse responses used here decay in milliseconds), so the state entering
/// sample 0 on the kept pass equals the state at the end of the period: no seam at the loop point.
pub(crate) fn filter_circular(
    input: &[f64],
    mut coefficients: impl FnMut(usize) -> Biquad,
) -> Vec<f64> {
    let mut state = [0.0; 2];
    let mut out = vec![0.0; input.len()];
    for pass in 0..2 {
        for (i, &x) in input.iter().enumerate() {
            let y = coefficients(i).step(&mut state, x);
            if pass == 1 {
                out[i] = y;
            }
        }
    }
    out
}

/// Equal-power stereo gains `(left, right)` for `pan` in [-1 (left), 1 (right)]; both 1 at the
/// centre, the law kira's `Frame::panned` uses.
pub(crate) fn pan_gains(pan: f32) -> (f32, f32) {
    if pan == 0.0 {
        // Exactly unity, as kira's centre special case (the formula gives 1 - 6e-8).
        return (1.0, 1.0);
    }
    let mix = (pan.clamp(-1.0, 1.0) + 1.0) * 0.5;
    let s = std::f32::consts::SQRT_2;
    ((1.0 - mix).sqrt() * s, mix.sqrt() * s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rms(x: &[f64]) -> f64 {
        (x.iter().map(|v| v * v).sum::<f64>() / x.len() as f64).sqrt()
    }

    fn sine(freq: f64, sample_rate: f64, len: usize) -> Vec<f64> {
        (0..len)
            .map(|i| (2.0 * PI * freq * i as f64 / sample_rate).sin())
            .collect()
    }

    #[test]
    fn low_pass_is_minus_3_db_at_cutoff_for_butterworth_q() {
        let sr = 44_100.0;
        // A whole number of cycles so the circular filter sees a periodic input.
        let f = 441.0;
        let lp = Biquad::low_pass(sr, f, std::f64::consts::FRAC_1_SQRT_2);
        let x = sine(f, sr, 4410);
        let y = filter_circular(&x, |_| lp);
        let gain = rms(&y) / rms(&x);
        assert!(
            (gain - std::f64::consts::FRAC_1_SQRT_2).abs() < 0.01,
            "{gain}"
        );
        // One decade above: 2nd order → about -40 dB.
        let x = sine(4410.0, sr, 4410);
        let y = filter_circular(&x, |_| lp);
        assert!(rms(&y) / rms(&x) < 0.015);
    }

    #[test]
    fn high_pass_blocks_low_and_passes_high() {
        let sr = 44_100.0;
        let hp = Biquad::high_pass(sr, 2000.0, 0.707);
        let low = sine(100.0, sr, 4410);
        let high = sine(10_000.0, sr, 4410);
        assert!(rms(&filter_circular(&low, |_| hp)) < 0.01);
        assert!((rms(&filter_circular(&high, |_| hp)) / rms(&high) - 1.0).abs() < 0.05);
    }

    #[test]
    fn circular_filtering_has_no_seam() {
        let x = SplitMix64::new(7).white_noise(20_000);
        let lp = Biquad::low_pass(44_100.0, 300.0, 0.707);
        let y = filter_circular(&x, |_| lp);
        // y is the second period of the filtered signal; the third period must equal it
        // (steady state reached, so the loop y, y, y, … is what an endless filter would output).
        let tripled: Vec<f64> = x.iter().chain(x.iter()).chain(x.iter()).copied().collect();
        let mut state = [0.0; 2];
        let z: Vec<f64> = tripled.iter().map(|&v| lp.step(&mut state, v)).collect();
        let tail = &z[2 * x.len()..];
        let max_diff = tail
            .iter()
            .zip(&y)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        assert!(max_diff < 1e-9, "{max_diff}");
    }

    #[test]
    fn pan_law_matches_kira() {
        for pan in [-1.0f32, -0.3, 0.0, 0.6, 1.0] {
            let (l, r) = pan_gains(pan);
            let f = kira::Frame::new(1.0, 1.0).panned(kira::Panning(pan));
            assert!(
                (f.left - l).abs() < 1e-6 && (f.right - r).abs() < 1e-6,
                "{pan}"
            );
        }
    }
}
