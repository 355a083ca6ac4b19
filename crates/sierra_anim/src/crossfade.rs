//! Crossfade from one clip to another over a duration.

/// A linear crossfade from clip A to clip B: B's weight rises from 0 to 1 over
/// `duration` seconds, A's falls from 1 to 0. Feed the weights to
/// [`crate::blend_poses`] (or two [`crate::ClipLayer`]s of a [`crate::CharacterJob`]).
/// Each clip keeps its own playback time, so B starts at its own time 0 when the fade starts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Crossfade {
    /// Fade length in seconds (0 switches at once).
    pub duration: f32,
    /// Seconds since the fade started.
    pub elapsed: f32,
}

impl Crossfade {
    /// A fade of `duration` seconds starting now.
    pub fn new(duration: f32) -> Self {
        Self {
            duration: duration.max(0.0),
            elapsed: 0.0,
        }
    }

    /// Advances the fade by `dt` seconds.
    pub fn advance(&mut self, dt: f32) {
        self.elapsed += dt.max(0.0);
    }

    /// Weight of the target clip B in `[0, 1]`.
    pub fn target_weight(&self) -> f32 {
        if self.duration <= 0.0 {
            1.0
        } else {
            (self.elapsed / self.duration).clamp(0.0, 1.0)
        }
    }

    /// `(weight of A, weight of B)`, summing to 1.
    pub fn weights(&self) -> (f32, f32) {
        let b = self.target_weight();
        (1.0 - b, b)
    }

    /// Whether B has fully replaced A.
    pub fn is_finished(&self) -> bool {
        self.target_weight() >= 1.0
    }
}
