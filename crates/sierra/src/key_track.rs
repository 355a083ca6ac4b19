//! Scripted key events for the window (`sierra demo --input TRACK.json` with a window): the
//! same file shape as the player's input track ([`crate::gameplay::input`]), but each press is
//! turned into a physical key-down at `tick` and a key-up `ticks` later, fed through the window's
//! keyboard handler, so a track exercises exactly what a person at the keyboard would.
//!
//! ```json
//! {"presses": [{"key": "C", "tick": 10}, {"key": "W", "tick": 20, "ticks": 30},
//!              {"key": "forward", "tick": 40, "ticks": 60}, {"key": "F12", "tick": 90}]}
//! ```
//! `key` is a letter `A`–`Z`, a digit `0`–`9`, `F1`–`F12`, `Space`, `Enter`, `Tab`, `Escape`,
//! `ArrowUp|Down|Left|Right`, or one of the player's game keys (`forward`, `back`, `left`,
//! `right` → the arrow keys, `jump` → Space). Ticks are the game's fixed ticks.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use winit::keyboard::KeyCode;

/// One key event of a track: `code` goes down (`down == true`) or up at game tick `tick`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyEvent {
    /// Game tick at which the event is delivered (before that tick runs).
    pub tick: u64,
    /// Physical key.
    pub code: KeyCode,
    /// Pressed (true) or released.
    pub down: bool,
}

/// A malformed key track.
#[derive(Debug, thiserror::Error)]
pub enum KeyTrackError {
    /// The file could not be read.
    #[error("{}: cannot read input track: {source}", file.display())]
    Io {
        /// The track file.
        file: PathBuf,
        /// OS error.
        source: std::io::Error,
    },
    /// Bad JSON or wrong field types.
    #[error("{}: at `{json_path}`: {message}", file.display())]
    Json {
        /// The track file.
        file: PathBuf,
        /// JSON path, e.g. `presses[2].tick`.
        json_path: String,
        /// What serde expected.
        message: String,
    },
    /// A key name the window does not know.
    #[error("{}: at `presses[{index}].key`: unknown key `{name}` (letters, digits, F1-F12, Space, Enter, Tab, Escape, ArrowUp/Down/Left/Right, forward/back/left/right/jump)", file.display())]
    UnknownKey {
        /// The track file.
        file: PathBuf,
        /// Index of the press.
        index: usize,
        /// The name given.
        name: String,
    },
    /// A press of zero ticks.
    #[error("{}: at `presses[{index}].ticks`: a press must last at least 1 tick", file.display())]
    ZeroTicks {
        /// The track file.
        file: PathBuf,
        /// Index of the press.
        index: usize,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Press {
    key: String,
    tick: u64,
    #[serde(default = "one")]
    ticks: u64,
}

fn one() -> u64 {
    1
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TrackFile {
    presses: Vec<Press>,
}

/// Key events sorted by tick (a release before a press at the same tick).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyTrack {
    /// The events, sorted by `(tick, down)`.
    pub events: Vec<KeyEvent>,
    next: usize,
}

impl KeyTrack {
    /// Reads a track file. Errors: [`KeyTrackError`] naming the file and JSON path.
    pub fn load(path: &Path) -> Result<Self, KeyTrackError> {
        let text = crate::read_user_text(path).map_err(|source| KeyTrackError::Io {
            file: path.to_owned(),
            source,
        })?;
        Self::from_json_str(&text, path)
    }

    /// Parses track JSON; `file` names it in errors.
    pub fn from_json_str(text: &str, file: &Path) -> Result<Self, KeyTrackError> {
        let de = &mut serde_json::Deserializer::from_str(text);
        let parsed: TrackFile =
            serde_path_to_error::deserialize(de).map_err(|e| KeyTrackError::Json {
                file: file.to_owned(),
                json_path: e.path().to_string(),
                message: e.into_inner().to_string(),
            })?;
        let mut events = Vec::with_capacity(parsed.presses.len() * 2);
        for (index, press) in parsed.presses.iter().enumerate() {
            let code = key_code(&press.key).ok_or_else(|| KeyTrackError::UnknownKey {
                file: file.to_owned(),
                index,
                name: press.key.clone(),
            })?;
            if press.ticks == 0 {
                return Err(KeyTrackError::ZeroTicks {
                    file: file.to_owned(),
                    index,
                });
            }
            events.push(KeyEvent {
                tick: press.tick,
                code,
                down: true,
            });
            let Some(release) = press.tick.checked_add(press.ticks) else {
                return Err(KeyTrackError::Json {
                    file: file.to_owned(),
                    json_path: format!("presses[{index}].ticks"),
                    message: format!(
                        "tick {} + ticks {} is past the last representable tick ({})",
                        press.tick,
                        press.ticks,
                        u64::MAX
                    ),
                });
            };
            events.push(KeyEvent {
                tick: release,
                code,
                down: false,
            });
        }
        events.sort_by_key(|e| (e.tick, e.down));
        Ok(Self { events, next: 0 })
    }

    /// The events due at or before `tick` not yet taken, in order.
    pub fn take_due(&mut self, tick: u64) -> &[KeyEvent] {
        let start = self.next;
        while self.next < self.events.len() && self.events[self.next].tick <= tick {
            self.next += 1;
        }
        &self.events[start..self.next]
    }

    /// Whether every event has been taken.
    pub fn finished(&self) -> bool {
        self.next >= self.events.len()
    }
}

/// The physical key a track names.
pub fn key_code(name: &str) -> Option<KeyCode> {
    use KeyCode as K;
    const LETTERS: [KeyCode; 26] = [
        K::KeyA,
        K::KeyB,
        K::KeyC,
        K::KeyD,
        K::KeyE,
        K::KeyF,
        K::KeyG,
        K::KeyH,
        K::KeyI,
        K::KeyJ,
        K::KeyK,
        K::KeyL,
        K::KeyM,
        K::KeyN,
        K::KeyO,
        K::KeyP,
        K::KeyQ,
        K::KeyR,
        K::KeyS,
        K::KeyT,
        K::KeyU,
        K::KeyV,
        K::KeyW,
        K::KeyX,
        K::KeyY,
        K::KeyZ,
    ];
    const DIGITS: [KeyCode; 10] = [
        K::Digit0,
        K::Digit1,
        K::Digit2,
        K::Digit3,
        K::Digit4,
        K::Digit5,
        K::Digit6,
        K::Digit7,
        K::Digit8,
        K::Digit9,
    ];
    const FUNCTION: [KeyCode; 12] = [
        K::F1,
        K::F2,
        K::F3,
        K::F4,
        K::F5,
        K::F6,
        K::F7,
        K::F8,
        K::F9,
        K::F10,
        K::F11,
        K::F12,
    ];
    let bytes = name.as_bytes();
    if bytes.len() == 1 {
        let c = bytes[0].to_ascii_uppercase();
        if c.is_ascii_uppercase() {
            return Some(LETTERS[usize::from(c - b'A')]);
        }
        if c.is_ascii_digit() {
            return Some(DIGITS[usize::from(c - b'0')]);
        }
    }
    if let Some(n) = name.strip_prefix('F').and_then(|n| n.parse::<usize>().ok()) {
        return FUNCTION.get(n.wrapping_sub(1)).copied();
    }
    Some(match name {
        "Space" | "jump" => K::Space,
        "Enter" => K::Enter,
        "Tab" => K::Tab,
        "Escape" => K::Escape,
        "ArrowUp" | "forward" => K::ArrowUp,
        "ArrowDown" | "back" => K::ArrowDown,
        "ArrowLeft" | "left" => K::ArrowLeft,
        "ArrowRight" | "right" => K::ArrowRight,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presses_become_sorted_down_up_pairs() {
        let text = r#"{"presses": [{"key": "W", "tick": 5, "ticks": 3}, {"key": "F12", "tick": 2},
            {"key": "jump", "tick": 8}]}"#;
        let mut track = KeyTrack::from_json_str(text, Path::new("t.json")).unwrap();
        let e = |tick, code, down| KeyEvent { tick, code, down };
        assert_eq!(
            track.events,
            vec![
                e(2, KeyCode::F12, true),
                e(3, KeyCode::F12, false),
                e(5, KeyCode::KeyW, true),
                e(8, KeyCode::KeyW, false),
                e(8, KeyCode::Space, true),
                e(9, KeyCode::Space, false),
            ]
        );
        assert_eq!(track.take_due(4).len(), 2);
        assert_eq!(track.take_due(4).len(), 0);
        assert_eq!(track.take_due(100).len(), 4);
        assert!(track.finished());
    }

    #[test]
    fn bad_key_and_zero_ticks_name_the_place() {
        let err = KeyTrack::from_json_str(
            r#"{"presses": [{"key": "W", "tick": 1}, {"key": "Hyper", "tick": 2}]}"#,
            Path::new("t.json"),
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("t.json") && err.contains("presses[1].key") && err.contains("Hyper"),
            "{err}"
        );
        let err = KeyTrack::from_json_str(
            r#"{"presses": [{"key": "W", "tick": 1, "ticks": 0}]}"#,
            Path::new("t.json"),
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("presses[0].ticks"), "{err}");
        let err = KeyTrack::from_json_str(
            r#"{"presses": [{"key": "W", "tick": -1}]}"#,
            Path::new("t.json"),
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("presses[0].tick"), "{err}");
    }
}
