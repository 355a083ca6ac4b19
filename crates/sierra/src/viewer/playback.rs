//! The viewer's playback state and its keys: which clip plays, its time, play/pause, scrubbing
//! and wireframe.

use winit::keyboard::KeyCode;

/// Seconds a scrub key (←/→) moves the time.
pub const SCRUB_SECONDS: f32 = 1.0 / 30.0;

/// What a key asks of the window itself (the rest changes [`Playback`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowRequest {
    /// Close the viewer (Esc).
    Quit,
    /// Write a screenshot (P or F12).
    Screenshot,
}

/// The clip playing and how.
#[derive(Debug, Clone, PartialEq)]
pub struct Playback {
    /// `(name, duration seconds)` per clip of the model.
    pub clips: Vec<(String, f32)>,
    /// The clip shown (an index into `clips`; 0 when there are none).
    pub clip: usize,
    /// Time in the clip, seconds, within `[0, duration)` (looping).
    pub time: f32,
    /// Whether time runs.
    pub playing: bool,
    /// Draw meshes as lines.
    pub wireframe: bool,
}

impl Playback {
    /// Clip `clip` of `clips` at time 0, playing.
    pub fn new(clips: Vec<(String, f32)>, clip: usize) -> Self {
        Self {
            clips,
            clip,
            time: 0.0,
            playing: true,
            wireframe: false,
        }
    }

    fn duration(&self) -> f32 {
        self.clips.get(self.clip).map_or(0.0, |c| c.1)
    }

    /// Advances the time by `dt` seconds when playing, wrapping at the clip's end.
    pub fn advance(&mut self, dt: f32) {
        if self.playing {
            self.set_time(self.time + dt);
        }
    }

    fn set_time(&mut self, t: f32) {
        let d = self.duration();
        self.time = if d > 0.0 { t.rem_euclid(d) } else { 0.0 };
    }

    /// One line saying what is shown, e.g. `clip 2/3 "Run" 0.40 s / 1.16 s, playing`.
    pub fn status(&self) -> String {
        let name = self.clips.get(self.clip).map_or("(none)", |c| c.0.as_str());
        format!(
            "clip {}/{} {name:?} {:.2} s / {:.2} s, {}",
            self.clip + 1,
            self.clips.len(),
            self.time,
            self.duration(),
            if self.playing { "playing" } else { "paused" }
        )
    }

    /// Applies a pressed key: Tab next clip (Shift+Tab is not distinguished), 1–9 clip N,
    /// Space play/pause, ←/→ scrub by [`SCRUB_SECONDS`] (pausing), F wireframe; returns what
    /// the window must do for Esc and P/F12. Returns whether the playback changed.
    pub fn on_key(&mut self, code: KeyCode) -> (bool, Option<WindowRequest>) {
        let n = self.clips.len();
        let pick = |i: usize| (i < n).then_some(i);
        let digit = match code {
            KeyCode::Digit1 => pick(0),
            KeyCode::Digit2 => pick(1),
            KeyCode::Digit3 => pick(2),
            KeyCode::Digit4 => pick(3),
            KeyCode::Digit5 => pick(4),
            KeyCode::Digit6 => pick(5),
            KeyCode::Digit7 => pick(6),
            KeyCode::Digit8 => pick(7),
            KeyCode::Digit9 => pick(8),
            _ => None,
        };
        if let Some(clip) = digit {
            self.clip = clip;
            self.time = 0.0;
            return (true, None);
        }
        match code {
            KeyCode::Tab if n > 0 => {
                self.clip = (self.clip + 1) % n;
                self.time = 0.0;
            }
            KeyCode::Space => self.playing = !self.playing,
            KeyCode::ArrowLeft | KeyCode::ArrowRight => {
                let sign = if code == KeyCode::ArrowLeft {
                    -1.0
                } else {
                    1.0
                };
                self.playing = false;
                self.set_time(self.time + sign * SCRUB_SECONDS);
            }
            KeyCode::KeyF => self.wireframe = !self.wireframe,
            KeyCode::Escape => return (false, Some(WindowRequest::Quit)),
            KeyCode::KeyP | KeyCode::F12 => return (false, Some(WindowRequest::Screenshot)),
            _ => return (false, None),
        }
        (true, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fox() -> Playback {
        let clips = [("Survey", 3.4), ("Walk", 0.7), ("Run", 1.2)];
        Playback::new(clips.map(|(n, d)| (n.to_owned(), d)).into(), 0)
    }

    #[test]
    fn keys_pick_clips_pause_scrub_and_toggle_wireframe() {
        let mut p = fox();
        p.advance(4.0);
        assert!(
            (p.time - 0.6).abs() < 1e-5,
            "wraps at the clip's end: {}",
            p.time
        );
        assert_eq!(p.on_key(KeyCode::Digit3), (true, None));
        assert_eq!((p.clip, p.time), (2, 0.0));
        assert_eq!(p.on_key(KeyCode::Digit9), (false, None), "no ninth clip");
        p.on_key(KeyCode::Tab);
        assert_eq!(p.clip, 0, "Tab wraps to the first clip");
        p.on_key(KeyCode::Space);
        p.advance(1.0);
        assert_eq!(p.time, 0.0, "paused");
        p.on_key(KeyCode::ArrowLeft);
        assert!((p.time - (3.4 - SCRUB_SECONDS)).abs() < 1e-5, "{}", p.time);
        p.on_key(KeyCode::ArrowRight);
        p.on_key(KeyCode::ArrowRight);
        assert!((p.time - SCRUB_SECONDS).abs() < 1e-5, "{}", p.time);
        assert!(!p.playing, "scrubbing pauses");
        p.on_key(KeyCode::KeyF);
        assert!(p.wireframe);
        assert_eq!(p.on_key(KeyCode::Escape).1, Some(WindowRequest::Quit));
        assert_eq!(p.on_key(KeyCode::KeyP).1, Some(WindowRequest::Screenshot));
        assert!(
            p.status().starts_with("clip 1/3 \"Survey\""),
            "{}",
            p.status()
        );
    }
}
