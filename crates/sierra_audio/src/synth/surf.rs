//! Built-in surf: breaking waves on a beach, synthesised from filtered noise.
//!
//! Three noise bands follow slow envelopes per wave: a low rumble (< 180 Hz) that swells as the
//! wave approaches, a body band whose low-pass cutoff opens at the crash (the bright "crash"
//! turning into a darker wash), and a high fizz (> 2.5 kHz) of receding foam after it.
//! Everything is a periodic function of time and filtered circularly, so the loop is seamless.

use kira::Frame;

use super::dsp::{filter_circular, Biquad, SplitMix64};
use crate::clip::Clip;

/// Length of the surf loop, seconds.
pub const SURF_LOOP_SECONDS: f64 = 16.0;

/// A breaking wave inside the loop.
struct Wave {
    /// Time of the crash, seconds from the loop start.
    crash_s: f64,
    /// Relative size, 0..1.
    strength: f64,
}

/// Irregular spacing (7.2 s, 4.5 s, 4.3 s) and sizes so the loop does not sound like a metronome.
const WAVES: [Wave; 3] = [
    Wave {
        crash_s: 1.5,
        strength: 1.0,
    },
    Wave {
        crash_s: 8.7,
        strength: 0.75,
    },
    Wave {
        crash_s: 13.2,
        strength: 0.5,
    },
];

/// Envelopes of one wave at `d` seconds after its crash (negative before it): (loudness,
/// brightness, fizz), each in 0..1 and decaying to 0 far from the crash on both sides.
fn wave_shape(d: f64) -> (f64, f64, f64) {
    if d < 0.0 {
        // The swell approaching: a rumble growing over about a second.
        (0.35 * (d / 1.2).exp(), 0.1 * (d / 0.8).exp(), 0.0)
    } else {
        let attack = 1.0 - (-d / 0.12).exp();
        let loud = (0.35 + 0.65 * attack) * (-d / 2.4).exp();
        let bright = (0.1 + 0.9 * (1.0 - (-d / 0.08).exp())) * (-d / 0.9).exp();
        let fizz = (1.0 - (-d / 0.6).exp()) * (-d / 3.0).exp();
        (loud, bright, fizz)
    }
}

/// Sum of all waves' envelopes at time `t` (seconds), periodic with the loop length: each wave
/// contributes its images one and two periods away, so tails that cross the loop end continue
/// at its start (the shapes are below 1e-5 beyond two periods).
fn envelopes(t: f64) -> (f64, f64, f64) {
    let mut sum = (0.0, 0.0, 0.0);
    for wave in &WAVES {
        for image in -2..=2 {
            let d = t - wave.crash_s + f64::from(image) * SURF_LOOP_SECONDS;
            let (l, b, f) = wave_shape(d);
            sum.0 += wave.strength * l;
            sum.1 += wave.strength * b;
            sum.2 += wave.strength * f;
        }
    }
    sum
}

/// Synthesises the surf loop at `sample_rate` Hz: [`SURF_LOOP_SECONDS`] of stereo frames, RMS
/// about 0.12, peak at most 0.55 (room for the gulls on top), deterministic.
pub fn surf(sample_rate: u32) -> Clip {
    let sr = f64::from(sample_rate);
    let len = (SURF_LOOP_SECONDS * sr).round() as usize;
    // Envelopes and the body filter change slowly: evaluate them every 32 samples (0.7 ms at
    // 44.1 kHz, far below their fastest 80 ms time constant) and interpolate in between.
    const BLOCK: usize = 32;
    let blocks = len.div_ceil(BLOCK);
    // One entry past the end: the envelopes are periodic, so it equals entry 0 up to the
    // sub-sample rounding of the loop length.
    let env_blocks: Vec<(f64, f64, f64)> = (0..=blocks)
        .map(|b| envelopes((b * BLOCK) as f64 / sr))
        .collect();
    let env = |i: usize| {
        let (b, frac) = (i / BLOCK, (i % BLOCK) as f64 / BLOCK as f64);
        let (a, c) = (env_blocks[b], env_blocks[b + 1]);
        (
            a.0 + (c.0 - a.0) * frac,
            a.1 + (c.1 - a.1) * frac,
            a.2 + (c.2 - a.2) * frac,
        )
    };
    let rumble_lp = Biquad::low_pass(sr, 180.0, 0.7);
    let fizz_hp = Biquad::high_pass(sr, 2500.0, 0.7);
    let body_filters: Vec<Biquad> = env_blocks[..blocks]
        .iter()
        .map(|&(_, bright, _)| Biquad::low_pass(sr, (350.0 + 2800.0 * bright).min(6000.0), 0.8))
        .collect();

    let mut rng = SplitMix64::new(0x5EA_5EA);
    // A shared noise plus one per channel: partly correlated channels give a wide but centred sea.
    let common = rng.white_noise(len);
    let mut channels = [Vec::new(), Vec::new()];
    for channel in &mut channels {
        let mut noise = rng.white_noise(len);
        for (n, c) in noise.iter_mut().zip(&common) {
            *n = 0.75 * c + 0.66 * *n;
        }
        // Bands are added one at a time to keep the peak memory at a few loop-length buffers.
        let mut out = filter_circular(&noise, |_| rumble_lp);
        for (i, o) in out.iter_mut().enumerate() {
            *o *= 2.5 * (0.5 + 1.2 * env(i).0);
        }
        let body = filter_circular(&noise, |i| body_filters[i / BLOCK]);
        for (i, (o, b)) in out.iter_mut().zip(&body).enumerate() {
            *o += b * env(i).0;
        }
        drop(body);
        let fizz = filter_circular(&noise, |_| fizz_hp);
        for (i, (o, f)) in out.iter_mut().zip(&fizz).enumerate() {
            *o += 0.25 * f * env(i).2;
        }
        *channel = out;
    }
    Clip::new(sample_rate, normalise(&channels, 0.12, 0.55))
}

/// Interleaves two channels into frames scaled to `target_rms` unless that would exceed `peak`.
pub(crate) fn normalise(channels: &[Vec<f64>; 2], target_rms: f64, peak: f64) -> Vec<Frame> {
    let n = channels[0].len().max(1) as f64;
    let power: f64 = channels.iter().flatten().map(|v| v * v).sum::<f64>() / (2.0 * n);
    let max = channels
        .iter()
        .flatten()
        .fold(0.0f64, |m, v| m.max(v.abs()));
    let scale = if power > 0.0 {
        (target_rms / power.sqrt()).min(peak / max)
    } else {
        0.0
    };
    channels[0]
        .iter()
        .zip(&channels[1])
        .map(|(l, r)| Frame::new((l * scale) as f32, (r * scale) as f32))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelopes_are_periodic_and_peak_after_each_crash() {
        for t in [0.0, 0.7, 5.0, 15.9] {
            let (a, b) = (envelopes(t), envelopes(t + SURF_LOOP_SECONDS));
            assert!((a.0 - b.0).abs() < 1e-5 && (a.1 - b.1).abs() < 1e-5);
        }
        for wave in &WAVES {
            let before = envelopes(wave.crash_s - 0.5).0;
            let after = envelopes(wave.crash_s + 0.4).0;
            assert!(
                after > 1.5 * before,
                "crash at {}: {before} → {after}",
                wave.crash_s
            );
        }
    }

    #[test]
    fn surf_is_loud_where_waves_break_and_quiet_between() {
        let sr = 8000;
        let clip = surf(sr);
        let window_rms = |t: f64| {
            let start = (t * f64::from(sr)) as usize;
            let w = &clip.frames[start..start + sr as usize / 4];
            (w.iter().map(|f| f.left * f.left).sum::<f32>() / w.len() as f32).sqrt()
        };
        let crash = window_rms(WAVES[0].crash_s + 0.2);
        let lull = window_rms(WAVES[0].crash_s + 5.5);
        assert!(
            crash > 2.0 * lull,
            "swell envelope audible: {crash} vs {lull}"
        );
        assert!(lull > 0.01, "the sea never goes silent: {lull}");
    }
}
