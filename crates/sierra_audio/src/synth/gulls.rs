//! Built-in gulls: calls of a few gulls near and far, synthesised as chirped harmonic tones.
//!
//! Each note is a "kyow": the fundamental starts low, rises quickly and falls slowly (a chirp of
//! roughly 0.75 → 1.1 → 0.95 times the bird's pitch), with a nasal stack of 8 harmonics, a fast
//! amplitude flutter for roughness, and short raised-cosine attack and release. A call is a
//! pattern of such notes (a long call: two long notes then a rapid series; an alarm "kek-kek-kek";
//! a single mew). Distant birds are quieter and lose upper harmonics (air absorbs highs).
//! Calls are written into a circular buffer, so a call crossing the loop end wraps to its start.

use std::f64::consts::{PI, TAU};

use super::dsp::{pan_gains, SplitMix64};
use super::surf::normalise;
use crate::clip::Clip;

/// Length of the gulls loop, seconds.
pub const GULLS_LOOP_SECONDS: f64 = 12.0;

/// Relative amplitudes of harmonics 1..=8 of a near gull.
const HARMONICS: [f64; 8] = [1.0, 0.9, 0.7, 0.5, 0.35, 0.22, 0.14, 0.08];

/// Note durations and the silence after each, seconds, per call pattern.
const LONG_CALL: &[(f64, f64)] = &[
    (0.38, 0.14),
    (0.32, 0.12),
    (0.13, 0.07),
    (0.12, 0.07),
    (0.12, 0.07),
    (0.11, 0.0),
];
const ALARM: &[(f64, f64)] = &[(0.09, 0.08), (0.09, 0.08), (0.09, 0.0)];
const MEW: &[(f64, f64)] = &[(0.55, 0.0)];
const PATTERNS: [&[(f64, f64)]; 3] = [LONG_CALL, ALARM, MEW];

/// Fundamental of note `u` ∈ [0, 1] of a bird whose pitch is `f0` Hz.
fn chirp(f0: f64, u: f64) -> f64 {
    f0 * (0.75 + 0.35 * (1.0 - (-u / 0.12).exp()) - 0.15 * u)
}

/// Amplitude envelope of a note of `duration` seconds at `t` seconds into it.
fn note_envelope(t: f64, duration: f64) -> f64 {
    let attack = 0.012;
    let release = 0.04f64.min(duration * 0.4);
    let rise = if t < attack {
        (0.5 * PI * t / attack).sin().powi(2)
    } else {
        1.0
    };
    let fall = if t > duration - release {
        (0.5 * PI * (duration - t) / release).sin().powi(2)
    } else {
        1.0
    };
    rise * fall * (1.0 - 0.3 * t / duration)
}

/// Adds one note into `out` (mono, circular) starting at sample `start`.
fn add_note(
    out: &mut [f64],
    sample_rate: f64,
    start: usize,
    duration: f64,
    f0: f64,
    distance: f64,
) {
    let len = out.len();
    let samples = (duration * sample_rate) as usize;
    let mut phase = 0.0f64;
    for n in 0..samples {
        let t = n as f64 / sample_rate;
        let f = chirp(f0, t / duration);
        phase = (phase + TAU * f / sample_rate) % TAU;
        let flutter = 1.0 + 0.25 * (TAU * 38.0 * t).sin();
        let mut tone = 0.0;
        let mut highs = 1.0;
        for (k, h) in HARMONICS.iter().enumerate() {
            tone += h * highs * ((k + 1) as f64 * phase).sin();
            // Each harmonic further up is damped more for a distant bird.
            highs *= 1.0 - 0.5 * distance;
        }
        out[(start + n) % len] += tone * flutter * note_envelope(t, duration);
    }
}

/// Synthesises the gulls loop at `sample_rate` Hz: [`GULLS_LOOP_SECONDS`] of stereo frames with
/// six calls from birds at different pitches, pans and distances; peak 0.4, deterministic.
pub fn gulls(sample_rate: u32) -> Clip {
    let sr = f64::from(sample_rate);
    let len = (GULLS_LOOP_SECONDS * sr).round() as usize;
    let mut rng = SplitMix64::new(0x6_0115);
    let mut channels = [vec![0.0; len], vec![0.0; len]];
    let mut mono = vec![0.0; len];
    let calls = 6;
    for call in 0..calls {
        // Spread the calls over the loop with jitter so the gaps vary between 1 and 3 s.
        let start_s = (call as f64 + rng.range(0.0, 0.8)) * GULLS_LOOP_SECONDS / calls as f64;
        let pattern = PATTERNS[(rng.next_u64() % PATTERNS.len() as u64) as usize];
        let pitch = rng.range(650.0, 950.0);
        let distance = rng.range(0.0, 1.0);
        let gain = 1.0 - 0.7 * distance;
        let pan = rng.range(-0.8, 0.8) as f32;

        mono.iter_mut().for_each(|v| *v = 0.0);
        let mut t = start_s;
        for &(duration, gap) in pattern {
            let f0 = pitch * rng.range(0.97, 1.03);
            add_note(&mut mono, sr, (t * sr) as usize, duration, f0, distance);
            t += duration + gap;
        }
        let (gl, gr) = pan_gains(pan);
        for (i, v) in mono.iter().enumerate() {
            channels[0][i] += v * gain * f64::from(gl);
            channels[1][i] += v * gain * f64::from(gr);
        }
    }
    // target RMS is unreachable for sparse calls: the peak limit sets the level.
    Clip::new(sample_rate, normalise(&channels, 1.0, 0.4))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chirp_rises_then_falls() {
        let f0 = 800.0;
        assert!(chirp(f0, 0.0) < chirp(f0, 0.3));
        assert!(chirp(f0, 0.3) > chirp(f0, 1.0));
        assert!((chirp(f0, 0.0) - 600.0).abs() < 1e-9);
    }

    #[test]
    fn note_envelope_starts_and_ends_at_zero() {
        assert_eq!(note_envelope(0.0, 0.3), 0.0);
        assert!(note_envelope(0.3, 0.3).abs() < 1e-12);
        assert!(note_envelope(0.1, 0.3) > 0.5);
    }

    #[test]
    fn gulls_have_calls_and_silences_with_tonal_energy() {
        let sr = 16_000;
        let clip = gulls(sr);
        let frame = sr as usize / 50; // 20 ms windows
        let energies: Vec<f32> = clip
            .frames
            .chunks(frame)
            .map(|w| {
                w.iter()
                    .map(|f| f.left * f.left + f.right * f.right)
                    .sum::<f32>()
            })
            .collect();
        let loud = energies.iter().filter(|&&e| e > 1.0).count();
        let silent = energies.iter().filter(|&&e| e < 1e-6).count();
        assert!(loud > 20, "calls present: {loud}");
        assert!(silent > energies.len() / 5, "gaps between calls: {silent}");
        // Tonal: zero-crossing rate of the loudest window matches a fundamental of 0.5–1.2 kHz.
        let (i, _) = energies
            .iter()
            .enumerate()
            .fold((0, 0.0), |m, (i, &e)| if e > m.1 { (i, e) } else { m });
        let w = &clip.frames[i * frame..(i + 1) * frame];
        let crossings = w
            .windows(2)
            .filter(|p| (p[0].left >= 0.0) != (p[1].left >= 0.0))
            .count();
        let hz = crossings as f32 / 2.0 / 0.02;
        assert!((400.0..3000.0).contains(&hz), "{hz} Hz");
    }
}
