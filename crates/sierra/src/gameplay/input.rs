//! Player input: which game keys are held this tick, from a window's keyboard or from a
//! scripted input track (`--input TRACK.json`) so headless runs and tests replay the same game.
//!
//! Track format (JSON):
//! ```json
//! {"presses": [{"key": "right", "tick": 10, "ticks": 60}, {"key": "jump", "tick": 40}]}
//! ```
//! A press holds `key` down from tick `tick` (inclusive, ticks counted from 0 like the game
//! clock before the tick runs) for `ticks` ticks (default 1).

use std::path::{Path, PathBuf};

use serde::Deserialize;

/// A game key (an action, not a physical key: the window maps WASD/arrows/space to these).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Key {
    /// Move along −Z (away from the default camera).
    Forward,
    /// Move along +Z.
    Back,
    /// Move along −X.
    Left,
    /// Move along +X.
    Right,
    /// Jump.
    Jump,
    /// Run instead of walk while held (with a move key).
    Run,
}

/// Number of [`Key`]s.
const KEYS: usize = 6;

/// Keys held during one tick (`down`) and those pressed this tick (`pressed`, for edges).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KeyState {
    down: [bool; KEYS],
    pressed: [bool; KEYS],
}

impl KeyState {
    /// Whether `key` is held.
    pub fn down(&self, key: Key) -> bool {
        self.down[key as usize]
    }

    /// Whether `key` went down this tick.
    pub fn pressed(&self, key: Key) -> bool {
        self.pressed[key as usize]
    }

    /// Sets `key` held or released (a window's key events); a release→hold marks `pressed`.
    pub fn set(&mut self, key: Key, down: bool) {
        if down && !self.down[key as usize] {
            self.pressed[key as usize] = true;
        }
        self.down[key as usize] = down;
    }

    /// Clears the `pressed` edges after a tick consumed them.
    pub fn end_tick(&mut self) {
        self.pressed = [false; KEYS];
    }

    /// Horizontal move direction from the held keys, world XZ (not normalised; zero when none).
    pub fn move_direction(&self) -> glam::Vec3 {
        let axis = |pos: Key, neg: Key| f32::from(self.down(pos)) - f32::from(self.down(neg));
        glam::Vec3::new(
            axis(Key::Right, Key::Left),
            0.0,
            axis(Key::Back, Key::Forward),
        )
    }

    /// The held keys' move direction for a camera looking along `view` (world): FORWARD goes
    /// along `view` projected on the ground, RIGHT along `view × Y`. Unit or zero. A `view`
    /// with no horizontal part (straight down) falls back to the world axes of
    /// [`Self::move_direction`] (FORWARD = −Z), which is also what a camera looking along −Z
    /// gives.
    pub fn move_direction_from(&self, view: glam::Vec3) -> glam::Vec3 {
        let keys = self.move_direction();
        let forward = view.with_y(0.0).normalize_or(glam::Vec3::NEG_Z);
        let right = forward.cross(glam::Vec3::Y);
        (right * keys.x - forward * keys.z).normalize_or_zero()
    }
}

/// The game key of a physical key: WASD or the arrow keys move, space jumps, shift runs.
#[cfg(feature = "window")]
pub fn key_of(code: winit::keyboard::KeyCode) -> Option<Key> {
    use winit::keyboard::KeyCode as K;
    Some(match code {
        K::KeyW | K::ArrowUp => Key::Forward,
        K::KeyS | K::ArrowDown => Key::Back,
        K::KeyA | K::ArrowLeft => Key::Left,
        K::KeyD | K::ArrowRight => Key::Right,
        K::Space => Key::Jump,
        K::ShiftLeft | K::ShiftRight => Key::Run,
        _ => return None,
    })
}

/// One timed key press of a track.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Press {
    /// The key.
    pub key: Key,
    /// First tick it is held.
    pub tick: u64,
    /// Ticks it stays held (≥ 1, default 1).
    #[serde(default = "one")]
    pub ticks: u64,
}

fn one() -> u64 {
    1
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TrackFile {
    presses: Vec<Press>,
}

/// A malformed input track.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The file could not be read.
    #[error("{}: cannot read input track: {source}", file.display())]
    Io {
        /// The track file.
        file: PathBuf,
        /// OS error.
        source: std::io::Error,
    },
    /// Bad JSON, unknown key name, unknown field, wrong type.
    #[error("{}:{line}:{column}: at `{json_path}`: {message} (valid keys: forward, back, left, right, jump, run)", file.display())]
    Json {
        /// The track file.
        file: PathBuf,
        /// JSON path, e.g. `presses[2].key`.
        json_path: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What serde expected.
        message: String,
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

/// A scripted input track: timed presses replayed by tick.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InputTrack {
    /// The presses, in file order.
    pub presses: Vec<Press>,
}

impl InputTrack {
    /// Reads a track file. Errors: [`InputError`] naming the file and JSON path.
    pub fn load(path: &Path) -> Result<Self, InputError> {
        let text = crate::read_user_text(path).map_err(|source| InputError::Io {
            file: path.to_owned(),
            source,
        })?;
        Self::from_json_str(&text, path)
    }

    /// Parses track JSON; `file` names it in errors.
    pub fn from_json_str(text: &str, file: &Path) -> Result<Self, InputError> {
        let de = &mut serde_json::Deserializer::from_str(text);
        let parsed: TrackFile = serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            InputError::Json {
                file: file.to_owned(),
                json_path: path,
                line: inner.line(),
                column: inner.column(),
                message: inner.to_string(),
            }
        })?;
        if let Some(index) = parsed.presses.iter().position(|p| p.ticks == 0) {
            return Err(InputError::ZeroTicks {
                file: file.to_owned(),
                index,
            });
        }
        Ok(Self {
            presses: parsed.presses,
        })
    }

    /// The key state of tick `tick`.
    pub fn state_at(&self, tick: u64) -> KeyState {
        let mut state = KeyState::default();
        for p in &self.presses {
            if tick >= p.tick && tick - p.tick < p.ticks {
                state.down[p.key as usize] = true;
                if tick == p.tick {
                    state.pressed[p.key as usize] = true;
                }
            }
        }
        state
    }

    /// The same presses `ticks` later (a track that starts after a scripted intro).
    pub fn delayed(mut self, ticks: u64) -> Self {
        for p in &mut self.presses {
            p.tick += ticks;
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;

    #[test]
    fn presses_hold_for_their_ticks_and_edge_on_the_first() {
        let t = InputTrack::from_json_str(
            r#"{"presses": [{"key": "right", "tick": 2, "ticks": 3}, {"key": "jump", "tick": 3}]}"#,
            Path::new("t.json"),
        )
        .unwrap();
        assert!(!t.state_at(1).down(Key::Right));
        assert!(t.state_at(2).pressed(Key::Right));
        assert!(t.state_at(4).down(Key::Right) && !t.state_at(4).pressed(Key::Right));
        assert!(!t.state_at(5).down(Key::Right));
        assert!(t.state_at(3).pressed(Key::Jump) && !t.state_at(4).down(Key::Jump));
    }

    #[test]
    fn moves_are_relative_to_the_camera_view() {
        let mut keys = KeyState::default();
        keys.set(Key::Forward, true);
        // Looking along −Z (the default camera), FORWARD is −Z, as in world axes.
        let f = keys.move_direction_from(Vec3::new(0.0, -0.5, -2.0));
        assert!(f.abs_diff_eq(Vec3::NEG_Z, 1e-6), "{f}");
        // Looking along +X: FORWARD is +X and RIGHT is +Z.
        assert!(keys.move_direction_from(Vec3::X).abs_diff_eq(Vec3::X, 1e-6));
        keys.set(Key::Forward, false);
        keys.set(Key::Right, true);
        assert!(keys.move_direction_from(Vec3::X).abs_diff_eq(Vec3::Z, 1e-6));
        // Diagonals are unit; straight down falls back to world axes.
        keys.set(Key::Back, true);
        let d = keys.move_direction_from(Vec3::NEG_Y);
        assert!(
            d.abs_diff_eq(Vec3::new(1.0, 0.0, 1.0).normalize(), 1e-6),
            "{d}"
        );
    }

    #[test]
    fn malformed_tracks_name_file_and_place() {
        for (json, needle) in [
            (
                r#"{"presses": [{"key": "up", "tick": 0}]}"#,
                "presses[0].key",
            ),
            (r#"{"presses": [{"key": "jump"}]}"#, "presses[0]"),
            (
                r#"{"presses": [{"key": "jump", "tick": -1}]}"#,
                "presses[0].tick",
            ),
            (
                r#"{"presses": [{"key": "jump", "tick": 1, "ticks": 0}]}"#,
                "presses[0].ticks",
            ),
            (r#"{"press": []}"#, "press"),
            (r#"{"presses": [}"#, "track.json:1:"),
        ] {
            let err = InputTrack::from_json_str(json, Path::new("track.json"))
                .unwrap_err()
                .to_string();
            assert!(
                err.contains("track.json") && err.contains(needle),
                "{json}: {err}"
            );
        }
    }
}
