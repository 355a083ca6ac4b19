use std::path::Path;

use glam::Vec3;
use kira::Frame;

use crate::clip::Clip;
use crate::component::AudioLoop;
use crate::error::Error;
use crate::spatial::Listener;
use crate::synth::pan_gains;

/// One looping clip in the offline mix.
#[derive(Debug, Clone)]
struct Voice {
    clip: Clip,
    /// Gain and pan at the start of the next block.
    gain: f32,
    pan: f32,
    /// Gain and pan reached at the end of the next block (set by `set_gain_and_pan`).
    target: (f32, f32),
    /// Read position in the clip, source frames (fractional when resampling).
    position: f64,
    /// Source frames per output frame.
    step: f64,
}

/// Renders looping clips to a buffer without a sound device: the same loops, gains and pans the
/// live [`AudioEngine`](crate::AudioEngine) plays (same equal-power pan law as kira), for tests and
/// for writing the mix to WAV.
///
/// Output frames are at the mixer's sample rate; clips at another rate are resampled by linear
/// interpolation (clips at the same rate are copied sample for sample). Successive calls to
/// [`render`](Self::render) continue where the last one stopped.
#[derive(Debug, Clone)]
pub struct OfflineMixer {
    sample_rate: u32,
    voices: Vec<Voice>,
}

impl OfflineMixer {
    /// An empty mix at `sample_rate` Hz.
    pub fn new(sample_rate: u32) -> Self {
        Self {
            sample_rate: sample_rate.max(1),
            voices: Vec::new(),
        }
    }

    /// The mix of a level's loops, each emitted at its node's world position, heard by
    /// `listener`, at `sample_rate` Hz; voice `i` is loop `i`.
    ///
    /// # Errors
    /// Those of [`SoundSource::load`](crate::SoundSource::load) (files relative to `asset_root`).
    pub fn from_loops(
        loops: &[(AudioLoop, Vec3)],
        asset_root: &Path,
        listener: &Listener,
        sample_rate: u32,
    ) -> Result<Self, Error> {
        let mut mixer = Self::new(sample_rate);
        for (audio_loop, position) in loops {
            let (gain, pan) = audio_loop.gain_and_pan(listener, *position);
            mixer.add_loop(audio_loop.source.load(asset_root)?, gain, pan);
        }
        Ok(mixer)
    }

    /// Output sample rate, Hz.
    pub fn sample_rate(&self) -> u32 {
        self.sample_rate
    }

    /// Adds `clip`, looping from its start, with linear `gain` and `pan` in [-1 (left), 1 (right)];
    /// returns the voice index.
    pub fn add_loop(&mut self, clip: Clip, gain: f32, pan: f32) -> usize {
        let step = f64::from(clip.sample_rate) / f64::from(self.sample_rate);
        self.voices.push(Voice {
            clip,
            gain,
            pan,
            target: (gain, pan),
            position: 0.0,
            step,
        });
        self.voices.len() - 1
    }

    /// Changes the gain and pan of voice `voice` (ignored if out of range). The next
    /// [`render`](Self::render) ramps the left and right gains linearly from the old values
    /// to the new ones over its block (no zipper noise when a listener moves tick by tick).
    pub fn set_gain_and_pan(&mut self, voice: usize, gain: f32, pan: f32) {
        if let Some(v) = self.voices.get_mut(voice) {
            v.target = (gain, pan);
        }
    }

    /// Overwrites `out` with the next `out.len()` frames of the mix.
    pub fn render(&mut self, out: &mut [Frame]) {
        out.fill(Frame::ZERO);
        let n = out.len().max(1) as f32;
        for voice in &mut self.voices {
            let frames = &voice.clip.frames;
            let len = frames.len();
            let channel_gains = |gain: f32, pan: f32| {
                let (l, r) = pan_gains(pan);
                (l * gain, r * gain)
            };
            let (l0, r0) = channel_gains(voice.gain, voice.pan);
            let (l1, r1) = channel_gains(voice.target.0, voice.target.1);
            (voice.gain, voice.pan) = voice.target;
            if len == 0 {
                continue;
            }
            for (k, o) in out.iter_mut().enumerate() {
                let t = (k + 1) as f32 / n;
                let (gl, gr) = (l0 + (l1 - l0) * t, r0 + (r1 - r0) * t);
                let i = voice.position as usize;
                let frac = (voice.position - i as f64) as f32;
                // The frame after the last is the first: the loop wraps without a seam.
                let a = frames[i % len];
                let b = frames[(i + 1) % len];
                let s = a + (b - a) * frac;
                o.left += s.left * gl;
                o.right += s.right * gr;
                voice.position = (voice.position + voice.step) % len as f64;
            }
        }
    }

    /// Renders the next `seconds` of the mix into a new buffer.
    pub fn render_seconds(&mut self, seconds: f64) -> Vec<Frame> {
        let n = (seconds.max(0.0) * f64::from(self.sample_rate)).round() as usize;
        let mut out = vec![Frame::ZERO; n];
        self.render(&mut out);
        out
    }
}

/// Root mean square of both channels of `frames`.
pub fn rms(frames: &[Frame]) -> f32 {
    if frames.is_empty() {
        return 0.0;
    }
    let sum: f64 = frames
        .iter()
        .map(|f| f64::from(f.left).powi(2) + f64::from(f.right).powi(2))
        .sum();
    (sum / (2 * frames.len()) as f64).sqrt() as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ramp(sample_rate: u32, n: usize) -> Clip {
        Clip::new(
            sample_rate,
            (0..n)
                .map(|i| Frame::from_mono(i as f32))
                .collect::<Vec<_>>(),
        )
    }

    #[test]
    fn same_rate_loops_sample_for_sample() {
        let mut m = OfflineMixer::new(100);
        m.add_loop(ramp(100, 4), 1.0, 0.0);
        let out = m.render_seconds(0.1);
        let left: Vec<f32> = out.iter().map(|f| f.left).collect();
        assert_eq!(left, [0.0, 1.0, 2.0, 3.0, 0.0, 1.0, 2.0, 3.0, 0.0, 1.0]);
        // Continues where it stopped.
        assert_eq!(
            m.render_seconds(0.02)
                .iter()
                .map(|f| f.left)
                .collect::<Vec<_>>(),
            [2.0, 3.0]
        );
    }

    #[test]
    fn other_rates_are_interpolated_and_voices_add_with_gain_and_pan() {
        let mut m = OfflineMixer::new(200);
        m.add_loop(ramp(100, 8), 1.0, 0.0);
        let left: Vec<f32> = m.render_seconds(0.02).iter().map(|f| f.left).collect();
        assert_eq!(left, [0.0, 0.5, 1.0, 1.5]);

        let mut m = OfflineMixer::new(10);
        let ones = Clip::new(10, vec![Frame::from_mono(1.0); 3]);
        m.add_loop(ones.clone(), 0.5, -1.0);
        m.add_loop(ones, 0.25, 0.0);
        let f = m.render_seconds(0.1)[0];
        assert!((f.left - (0.5 * 2f32.sqrt() + 0.25)).abs() < 1e-6, "{f:?}");
        assert!((f.right - 0.25).abs() < 1e-6, "{f:?}");
    }

    #[test]
    fn gain_changes_ramp_over_the_next_block_then_hold() {
        let mut m = OfflineMixer::new(4);
        let v = m.add_loop(Clip::new(4, vec![Frame::from_mono(1.0); 4]), 0.0, 0.0);
        m.set_gain_and_pan(v, 1.0, 0.0);
        let centre = 1.0; // pan 0: unity in both ears, as kira
        let left: Vec<f32> = m
            .render_seconds(1.0)
            .iter()
            .map(|f| f.left / centre)
            .collect();
        for (got, want) in left.iter().zip([0.25, 0.5, 0.75, 1.0]) {
            assert!((got - want).abs() < 1e-6, "{left:?}");
        }
        let held: Vec<f32> = m
            .render_seconds(0.5)
            .iter()
            .map(|f| f.left / centre)
            .collect();
        assert!(held.iter().all(|g| (g - 1.0).abs() < 1e-6), "{held:?}");
    }

    #[test]
    fn rms_of_a_full_scale_square_is_one() {
        let sq: Vec<Frame> = (0..10)
            .map(|i| Frame::from_mono(if i % 2 == 0 { 1.0 } else { -1.0 }))
            .collect();
        assert!((rms(&sq) - 1.0).abs() < 1e-6);
        assert_eq!(rms(&[]), 0.0);
    }
}
