use std::collections::HashMap;
use std::fmt;
use std::path::Path;

use glam::Vec3;
use kira::sound::static_sound::StaticSoundHandle;
use kira::{AudioManager, Decibels, DefaultBackend, Panning, Tween};

use crate::clip::Clip;
use crate::component::AudioLoop;
use crate::device;
use crate::error::Error;
use crate::source::SoundSource;
use crate::spatial::Listener;

/// How to start the [`AudioEngine`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AudioOptions {
    /// Do not open a sound device at all (the CLI's `--mute`).
    pub mute: bool,
}

/// What the engine does with sound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AudioStatus {
    /// Playing on the default output device.
    Playing,
    /// No usable output device; loops are loaded and tracked but nothing is heard.
    Silent {
        /// Why the device could not be opened.
        reason: String,
    },
    /// Turned off by [`AudioOptions::mute`].
    Muted,
}

impl fmt::Display for AudioStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AudioStatus::Playing => f.write_str("audio: playing"),
            AudioStatus::Silent { reason } => {
                write!(f, "audio: no sound device ({reason}); running silently")
            }
            AudioStatus::Muted => f.write_str("audio: muted"),
        }
    }
}

/// A playing loop: its component, where it is (world metres) and kira's handle when audible.
struct Emitter {
    component: AudioLoop,
    position: Vec3,
    handle: Option<StaticSoundHandle>,
}

/// Live playback of a level's [`AudioLoop`]s on the default sound device (kira, through cpal).
///
/// Never fails to start: without a device it runs silently and logs why once (at creation,
/// `log::warn!`; [`status`](Self::status) tells the application too). Sounds are still loaded
/// when silent or muted, so a missing or broken file is reported the same on every machine.
pub struct AudioEngine {
    manager: Option<AudioManager<DefaultBackend>>,
    status: AudioStatus,
    emitters: Vec<Emitter>,
    /// Loaded clips by source: a sound used by several loops is synthesised or decoded once.
    clips: HashMap<SoundSource, Clip>,
}

/// Short ramp for volume and pan changes, so listener movement does not produce zipper noise.
const PARAMETER_TWEEN_MS: u64 = 50;

fn decibels(gain: f32) -> Decibels {
    if gain <= 1e-3 {
        Decibels::SILENCE
    } else {
        Decibels(20.0 * gain.log10())
    }
}

impl AudioEngine {
    /// Opens the default sound device unless `options.mute`; falls back to silence when there is
    /// no device.
    pub fn new(options: AudioOptions) -> Self {
        let (manager, status) = if options.mute {
            (None, AudioStatus::Muted)
        } else {
            match device::open_default() {
                Ok(manager) => (Some(manager), AudioStatus::Playing),
                Err(reason) => (None, AudioStatus::Silent { reason }),
            }
        };
        if let AudioStatus::Silent { .. } = status {
            log::warn!("{status}");
        }
        Self {
            manager,
            status,
            emitters: Vec::new(),
            clips: HashMap::new(),
        }
    }

    /// Whether sound is heard, and why not.
    pub fn status(&self) -> &AudioStatus {
        &self.status
    }

    /// Number of loops started (audible or not).
    pub fn loop_count(&self) -> usize {
        self.emitters.len()
    }

    /// Starts every loop of a level (files relative to `asset_root`), each emitted at its
    /// node's world position, heard by `listener`. Loop `i` gets emitter index `i` when the
    /// engine had none before.
    ///
    /// # Errors
    /// The first loop that cannot be loaded ([`SoundSource::load`]) or played; loops before it
    /// keep playing.
    pub fn start_level(
        &mut self,
        loops: &[(AudioLoop, Vec3)],
        asset_root: &Path,
        listener: &Listener,
    ) -> Result<(), Error> {
        for (audio_loop, position) in loops {
            self.play_loop(audio_loop.clone(), *position, asset_root, listener)?;
        }
        Ok(())
    }

    /// Loads and starts one loop emitted at `position` (world metres); returns its emitter
    /// index for [`AudioEngine::set_position`].
    ///
    /// # Errors
    /// [`SoundSource::load`]'s errors; [`Error::Play`] when the mixer refuses the sound.
    pub fn play_loop(
        &mut self,
        component: AudioLoop,
        position: Vec3,
        asset_root: &Path,
        listener: &Listener,
    ) -> Result<usize, Error> {
        let clip = match self.clips.get(&component.source) {
            Some(clip) => clip.clone(),
            None => {
                let clip = component.source.load(asset_root)?;
                self.clips.insert(component.source.clone(), clip.clone());
                clip
            }
        };
        let handle = match &mut self.manager {
            Some(manager) => {
                let (gain, pan) = component.gain_and_pan(listener, position);
                let data = clip
                    .looping_sound_data()
                    .volume(decibels(gain))
                    .panning(Panning(pan));
                Some(manager.play(data).map_err(|e| Error::Play {
                    source_str: component.source.to_string(),
                    message: e.to_string(),
                })?)
            }
            None => None,
        };
        self.emitters.push(Emitter {
            component,
            position,
            handle,
        });
        Ok(self.emitters.len() - 1)
    }

    /// Moves emitter `index` to `position` (world metres; ignored if out of range). Heard from
    /// the next [`set_listener`](Self::set_listener).
    pub fn set_position(&mut self, index: usize, position: Vec3) {
        if let Some(e) = self.emitters.get_mut(index) {
            e.position = position;
        }
    }

    /// Updates the gain and pan of spatial loops for the listener and the emitters' current
    /// positions (the game calls it every tick, with the camera as listener).
    pub fn set_listener(&mut self, listener: &Listener) {
        let tween = Tween {
            duration: std::time::Duration::from_millis(PARAMETER_TWEEN_MS),
            ..Tween::default()
        };
        for emitter in &mut self.emitters {
            if !emitter.component.spatial {
                continue;
            }
            let (gain, pan) = emitter.component.gain_and_pan(listener, emitter.position);
            if let Some(handle) = &mut emitter.handle {
                handle.set_volume(decibels(gain), tween);
                handle.set_panning(Panning(pan), tween);
            }
        }
    }

    /// Stops every loop (fading out over a few milliseconds), e.g. when the level ends.
    pub fn stop_all(&mut self) {
        for emitter in &mut self.emitters {
            if let Some(handle) = &mut emitter.handle {
                handle.stop(Tween::default());
            }
        }
        self.emitters.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gain_to_decibels() {
        assert_eq!(decibels(1.0), Decibels(0.0));
        assert!((decibels(0.5).0 + 6.0206).abs() < 1e-3);
        assert_eq!(decibels(0.0), Decibels::SILENCE);
    }

    #[test]
    fn muted_engine_loads_but_plays_nothing() {
        let mut engine = AudioEngine::new(AudioOptions { mute: true });
        assert_eq!(engine.status(), &AudioStatus::Muted);
        let surf = (
            AudioLoop::ambient(SoundSource::parse("builtin:surf").unwrap()),
            Vec3::ZERO,
        );
        engine
            .start_level(&[surf.clone(), surf], Path::new("."), &Listener::default())
            .unwrap();
        assert_eq!(engine.loop_count(), 2);
        assert_eq!(
            engine.clips.len(),
            1,
            "one synthesis for two loops of the same source"
        );
        let missing = AudioLoop::ambient(SoundSource::parse("missing.wav").unwrap());
        let e = engine.play_loop(
            missing,
            Vec3::ZERO,
            Path::new("/nonexistent-root"),
            &Listener::default(),
        );
        assert!(e.unwrap_err().to_string().contains("missing.wav"));
        engine.stop_all();
        assert_eq!(engine.loop_count(), 0);
    }
}
