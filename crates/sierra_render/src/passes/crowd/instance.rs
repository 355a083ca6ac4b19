//! A crowd member's GPU state ([`CrowdInstance`]) and the handle of a crowd
//! ([`CrowdHandle`]): plain data shared by the crowd pass ([`crate::passes::crowd`]) and the frames that
//! carry member changes ([`crate::CrowdFrame`]).

use bytemuck::{Pod, Zeroable};
use glam::Mat4;

/// A crowd added to a [`crate::passes::crowd::CrowdPass`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CrowdHandle(pub u32);

/// One crowd member, `@location(7..=14)` of `crowd_common.wgsl` (instance step), 112 bytes.
///
/// A member plays `clip` at clip time `time_offset + speed · t` and `second_clip` at
/// `second_time_offset + speed · t` (`t` the crowd's global time, `FrameData::crowds.time`,
/// both looping), mixed with the second clip's weight
/// `clamp(crossfade + fade_rate · (t − fade_start), 0, 1)`: a constant mix when `fade_rate` is 0,
/// a crossfade the GPU advances by itself otherwise, so changing a member's state is one
/// instance write ([`CrowdInstance::switch_to`], [`crate::CrowdFrame`] updates) and nothing
/// per frame after it.
///
/// The mix blends the two clips' baked skinning matrices linearly (a blend of baked
/// palettes), not their joint rotations: an approximation that shortens limbs slightly
/// where the two poses differ by large rotations, acceptable for the short fades of crowd
/// members (the animation runtime's `blend_poses` is the exact path for characters).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct CrowdInstance {
    /// Model → world (column-major; right-handed, Y up, metres).
    pub model: Mat4,
    /// Clip index into the crowd's baked clips.
    pub clip: u32,
    /// Second clip (crossfade target); ignored while its weight is 0.
    pub second_clip: u32,
    /// Seconds added to the instance's time for `clip` (desynchronises the crowd).
    pub time_offset: f32,
    /// Playback rate of both clips (1 = real time).
    pub speed: f32,
    /// Weight of `second_clip` at `fade_start`, in `[0, 1]` (0: only `clip`).
    pub crossfade: f32,
    /// Seconds added to the instance's time for `second_clip`.
    pub second_time_offset: f32,
    /// Global time (seconds) at which the weight is `crossfade`.
    pub fade_start: f32,
    /// Weight change per second of global time (`1 / fade seconds`; 0: constant weight).
    pub fade_rate: f32,
    /// Linear RGB multiplying the member's albedo (its clothes; `[1, 1, 1]` leaves the
    /// model's colour), alpha unused (1). Set once per member
    /// ([`CrowdInstance::with_tint`]); never changes with its state.
    pub tint: [f32; 4],
}

impl CrowdInstance {
    /// An instance playing `clip` at `model`, offset by `time_offset` seconds, at `speed`.
    pub fn new(model: Mat4, clip: u32, time_offset: f32, speed: f32) -> Self {
        Self {
            model,
            clip,
            second_clip: clip,
            time_offset,
            speed,
            crossfade: 0.0,
            second_time_offset: time_offset,
            fade_start: 0.0,
            fade_rate: 0.0,
            tint: [1.0; 4],
        }
    }

    /// The instance with its albedo multiplied by `tint` (linear RGB).
    pub fn with_tint(self, tint: [f32; 3]) -> Self {
        let [r, g, b] = tint;
        Self {
            tint: [r, g, b, 1.0],
            ..self
        }
    }

    /// Weight of `second_clip` at global time `time` (what the vertex shader computes).
    pub fn second_weight(&self, time: f32) -> f32 {
        (self.crossfade + self.fade_rate * (time - self.fade_start)).clamp(0.0, 1.0)
    }

    /// Starts `clip` from its time 0 at global time `now`, crossfading to it over `fade`
    /// seconds (0: at once). What plays now collapses to its heavier clip first (a fade
    /// interrupted before half-way restarts from its source clip), keeping that clip's time.
    pub fn switch_to(&mut self, clip: u32, now: f32, fade: f32) {
        if self.second_weight(now) >= 0.5 {
            self.clip = self.second_clip;
            self.time_offset = self.second_time_offset;
        }
        self.second_clip = clip;
        self.second_time_offset = -self.speed * now;
        self.fade_start = now;
        if fade > 0.0 && fade.is_finite() {
            self.crossfade = 0.0;
            self.fade_rate = 1.0 / fade;
        } else {
            self.crossfade = 1.0;
            self.fade_rate = 0.0;
        }
    }
}
