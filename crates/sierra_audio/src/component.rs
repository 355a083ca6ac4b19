//! `AudioLoop`: the level component of a looping ambient sound (seed 002's sea and gulls).

use glam::Vec3;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::source::SoundSource;
use crate::spatial::{gain_and_pan, Listener};

/// A sound that starts with the level and loops until the level ends.
///
/// JSON: `{"type": "AudioLoop", "source": "builtin:gulls", "volume": 0.5, "spatial": true}`.
/// An ambient loop (`spatial` false, the default) has the same gain in both ears wherever the
/// listener is. A spatial loop is emitted from its node's world position, which the game reads
/// every tick (the loop moves with its node): gain falls with the distance to the listener beyond
/// `refDistance` and pan follows the listener's right axis (`sierra_audio::gain_and_pan`).
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
    /// Emitted from the node's world position (true) or heard the same everywhere (false,
    /// the default).
    #[serde(default)]
    pub spatial: bool,
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
            spatial: false,
            ref_distance: ten(),
        }
    }

    /// A spatial loop of `source` at full volume (emitted from its node's position).
    pub fn spatial(source: SoundSource) -> Self {
        Self {
            spatial: true,
            ..Self::ambient(source)
        }
    }

    /// Linear gain and pan in [-1, 1] of this loop, emitted at `position` (world metres, its
    /// node's) and heard by `listener`: `volume` and centre for an ambient loop, `volume` times
    /// [`gain_and_pan`](crate::gain_and_pan) for a spatial one.
    pub fn gain_and_pan(&self, listener: &Listener, position: Vec3) -> (f32, f32) {
        if self.spatial {
            let (gain, pan) = gain_and_pan(listener, position, self.ref_distance);
            (self.volume * gain, pan)
        } else {
            (self.volume, 0.0)
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
            r#"{"source": "builtin:surf", "volume": 0.8, "spatial": true, "refDistance": 5}"#,
        )
        .unwrap();
        assert_eq!(c.source, SoundSource::Builtin(Builtin::Surf));
        assert_eq!(c.volume, 0.8);
        assert!(c.spatial);
        assert_eq!(c.ref_distance, 5.0);
        // Spatial: quieter and to the right from 20 m to the right; ambient ignores the place.
        let right = Vec3::new(20.0, 0.0, 0.0);
        let (g, p) = c.gain_and_pan(&Listener::default(), right);
        assert!(
            (g - 0.8 * 0.25).abs() < 1e-6 && (p - 1.0).abs() < 1e-6,
            "{g} {p}"
        );
        let ambient = AudioLoop {
            spatial: false,
            ..c.clone()
        };
        assert_eq!(
            ambient.gain_and_pan(&Listener::default(), right),
            (0.8, 0.0)
        );
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
        // The place comes from the node: a hand-written position is refused.
        let e = serde_json::from_str::<AudioLoop>(
            r#"{"source": "builtin:surf", "position": [1, 2, 3]}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("position") && e.contains("spatial"), "{e}");
    }
}
