//! `FollowCamera`: the level camera follows an object smoothly.
//!
//! Each tick the eye moves towards `target + offset` by exponential smoothing,
//! `eye += (goal − eye) · (1 − e^(−stiffness · dt))` (frame-rate independent: n ticks of dt
//! equal one tick of n·dt), and looks at [`LOOK_HEIGHT`] above the target's origin (a
//! character's chest rather than its feet).

use glam::Vec3;
use sierra_scene::{NodeId, Scene};

/// Height above the followed node's origin the camera looks at, metres.
pub const LOOK_HEIGHT: f32 = 1.0;

/// A camera following `target`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FollowCam {
    /// The followed node.
    pub target: NodeId,
    /// Eye position relative to the target, world axes, metres.
    pub offset: Vec3,
    /// Smoothing rate, 1/seconds.
    pub stiffness: f32,
}

impl FollowCam {
    /// Moves `scene.camera` one tick of `dt` seconds towards the target.
    pub fn update(&self, scene: &mut Scene, dt: f32) {
        let Some(world) = scene.graph.world(self.target) else {
            return;
        };
        let target = Vec3::from(world.translation);
        let goal = target + self.offset;
        let look = target + Vec3::Y * LOOK_HEIGHT;
        let k = 1.0 - (-self.stiffness.max(0.0) * dt).exp();
        scene.camera.position += (goal - scene.camera.position) * k;
        scene.camera.target = look;
    }
}
