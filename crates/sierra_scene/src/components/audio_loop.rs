//! `AudioLoop`: a looping ambient sound that starts with the level (seed 002's sea and gulls).
//!
//! Plain level data: the game (`crates/sierra/src/game_audio.rs`) turns it into
//! `sierra_audio::AudioLoop`, which synthesises, decodes and plays it. The scene crate does
//! not depend on the audio crate (no sound-device libraries in a level loader).

use std::fmt;
use std::path::PathBuf;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The procedural sounds a level may name as `"builtin:NAME"` (synthesised by
/// `sierra_audio::Builtin`; the game's test `every_builtin_sound_converts` keeps both lists equal).
pub const BUILTIN_SOUNDS: &[&str] = &["surf", "gulls"];

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
    pub source: SoundRef,
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
    pub fn ambient(source: SoundRef) -> Self {
        Self {
            source,
            volume: 1.0,
            spatial: false,
            ref_distance: ten(),
        }
    }
}

/// Where a looping sound comes from. In JSON it is one string: `"builtin:NAME"` or a path.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum SoundRef {
    /// `"builtin:NAME"`, NAME one of [`BUILTIN_SOUNDS`] (stored without the prefix).
    Builtin(String),
    /// A `.wav`/`.ogg` file as written in the level, relative to the level's folder;
    /// [`crate::level::load_level`] has checked that it exists inside the asset root.
    File(PathBuf),
}

/// What a source string may be, for error messages.
fn valid_sources() -> String {
    let builtins: Vec<String> = BUILTIN_SOUNDS
        .iter()
        .map(|n| format!("builtin:{n}"))
        .collect();
    format!(
        "{}, or a relative path ending in .wav or .ogg",
        builtins.join(", ")
    )
}

impl SoundRef {
    /// Parses a level's `source` string.
    ///
    /// # Errors
    /// A message listing the valid sources for `builtin:<unknown>` or a path that is not
    /// `.wav`/`.ogg`.
    pub fn parse(source: &str) -> Result<Self, String> {
        if let Some(name) = source.strip_prefix("builtin:") {
            return if BUILTIN_SOUNDS.contains(&name) {
                Ok(Self::Builtin(name.to_owned()))
            } else {
                Err(format!(
                    "unknown built-in sound {name:?}; valid: {}",
                    valid_sources()
                ))
            };
        }
        let path = PathBuf::from(source);
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match extension.as_deref() {
            Some("wav" | "ogg") => Ok(Self::File(path)),
            _ => Err(format!(
                "audio source {source:?} is not a supported file; valid: {}",
                valid_sources()
            )),
        }
    }
}

impl TryFrom<String> for SoundRef {
    type Error = String;

    fn try_from(source: String) -> Result<Self, String> {
        Self::parse(&source)
    }
}

impl From<SoundRef> for String {
    fn from(source: SoundRef) -> String {
        source.to_string()
    }
}

impl fmt::Display for SoundRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SoundRef::Builtin(name) => write!(f, "builtin:{name}"),
            SoundRef::File(p) => write!(f, "{}", p.display()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_json() {
        let c: AudioLoop = serde_json::from_str(
            r#"{"source": "builtin:surf", "volume": 0.8, "spatial": true, "refDistance": 5}"#,
        )
        .unwrap();
        assert_eq!(c.source, SoundRef::Builtin("surf".into()));
        assert_eq!(c.volume, 0.8);
        assert!(c.spatial);
        assert_eq!(c.ref_distance, 5.0);
        let d: AudioLoop = serde_json::from_str(r#"{"source": "sea.ogg"}"#).unwrap();
        assert_eq!(d, AudioLoop::ambient(SoundRef::File("sea.ogg".into())));
        let back: AudioLoop = serde_json::from_value(serde_json::to_value(&c).unwrap()).unwrap();
        assert_eq!(back, c);
        assert_eq!(
            serde_json::to_value(&c).unwrap()["source"],
            serde_json::json!("builtin:surf")
        );
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
        assert!(e.contains("whale") && e.contains("builtin:gulls"), "{e}");
        let e = serde_json::from_str::<AudioLoop>(r#"{"source": "sea.mp3"}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("sea.mp3") && e.contains(".ogg"), "{e}");
        let e = serde_json::from_str::<AudioLoop>(
            r#"{"source": "builtin:surf", "position": [1, 2, 3]}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("position") && e.contains("spatial"), "{e}");
    }
}
