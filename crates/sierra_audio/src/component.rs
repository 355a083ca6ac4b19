//! `AudioLoop`: the level component of a looping ambient sound (seed 002's sea and gulls).

use glam::Vec3;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::source::SoundSource;
use crate::spatial::{gain_and_pan, Listener};

/// A sound that starts with the level and loops until the level ends.
///
/// JSON: `{"type": "AudioLoop", "source": "builtin:surf", "volume": 0.8, "position": [0, 0, -30]}`.
/// Without `position` the sound is ambient (same gain in both ears); with it, gain falls with the
/// distance to the listener beyond `refDistance` and pan follows the listener's right axis
/// (`sierra_audio::gain_and_pan`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AudioLoop {
    /// `"builtin:surf"`, `"builtin:gulls"`, or a `.wav`/`.ogg` path relative to the level's
    /// asset root.
    #[schemars(with = "String")]
    pub source: SoundSource,
    /// Linear amplitude gain, 0..1 typical (default 1).
    #[serde(default = "one")]
    pub volume: f32,
    /// World position of the emitter in metres; absent for an ambient sound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<[f32; 3]>")]
    pub position: Option<Vec3>,
    /// Distance in metres within which a positioned sound plays at full `volume`; beyond it the
    /// gain halves with each doubling of distance (default 10).
    #[serde(default = "ten")]
    pub ref_distance: f32,
}

fn one() -> f32 {
    1.0
}

fn ten() -> f32 {
    10.0
}

impl AudioLoop {
    /// An ambient loop of `source` at full volume.
    pub fn ambient(source: SoundSource) -> Self {
        Self {
            source,
            volume: 1.0,
            position: None,
            ref_distance: ten(),
        }
    }

    /// Linear gain and pan in [-1, 1] of this loop heard by `listener`: `volume` and centre for
    /// an ambient loop, `volume` times [`gain_and_pan`](crate::gain_and_pan) for a positioned one.
    pub fn gain_and_pan(&self, listener: &Listener) -> (f32, f32) {
        match self.position {
            None => (self.volume, 0.0),
            Some(position) => {
                let (gain, pan) = gain_and_pan(listener, position, self.ref_distance);
                (self.volume * gain, pan)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Builtin;

    #[test]
    fn parses_the_documented_json() {
        let c: AudioLoop = serde_json::from_str(
            r#"{"source": "builtin:surf", "volume": 0.8, "position": [0, 0, -30], "refDistance": 5}"#,
        )
        .unwrap();
        assert_eq!(c.source, SoundSource::Builtin(Builtin::Surf));
        assert_eq!(c.volume, 0.8);
        assert_eq!(c.position, Some(Vec3::new(0.0, 0.0, -30.0)));
        assert_eq!(c.ref_distance, 5.0);
        let d: AudioLoop = serde_json::from_str(r#"{"source": "sea.ogg"}"#).unwrap();
        assert_eq!(d, AudioLoop::ambient(SoundSource::File("sea.ogg".into())));
        let back: AudioLoop = serde_json::from_value(serde_json::to_value(&c).unwrap()).unwrap();
        assert_eq!(back, c);
    }

    #[test]
    fn wrong_fields_and_sources_are_errors() {
        let e = serde_json::from_str::<AudioLoop>(r#"{"source": "builtin:surf", "loudness": 1}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("loudness"), "{e}");
        let e = serde_json::from_str::<AudioLoop>(r#"{"source": "builtin:whale"}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("builtin:gulls"), "lists valid sources: {e}");
    }
}
