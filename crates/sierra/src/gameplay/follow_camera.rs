//! `FollowCamera`: the level camera follows an object smoothly.
//!
//! Each tick the eye moves towards `target + offset` by exponential smoothing,
//! `eye += (goal − eye) · (1 − e^(−stiffness · dt))` (frame-rate independent: n ticks of dt
//! equal one tick of n·dt), and looks at [`LOOK_HEIGHT`] above the target's origin (a
//! character's chest rather than its feet).
//!
//! The camera pulls in when a collision box or the terrain comes between it and the point it
//! looks at: a sphere cast from that point to the smoothed eye ([`Surroundings::sphere_cast`])
//! stops the eye where a sphere of [`clearance`] around it first touches a surface, at once
//! (not smoothed), so the eye is never inside a box or under the ground and its near plane
//! never cuts into them; it eases back out by the same smoothing.

use glam::Vec3;
use sierra_scene::{NodeId, Scene};

use super::surroundings::Surroundings;

/// Height above the followed node's origin the camera looks at, metres.
pub const LOOK_HEIGHT: f32 = 1.0;
/// Least distance kept between the eye and any box or the terrain, metres (see [`clearance`]).
pub const CLEARANCE: f32 = 0.3;
/// Closest a pulled-in eye comes to the point it looks at, metres (a view needs a direction).
pub const MIN_DISTANCE: f32 = 0.05;
/// Gap left before a surface when even a small sphere cannot leave the look point, metres.
pub const RAY_GAP: f32 = 0.05;

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
    /// Moves `scene.camera` one tick of `dt` seconds towards the target, pulled in front of
    /// whatever in `around` is in the way.
    pub fn update(&self, scene: &mut Scene, around: &Surroundings, dt: f32) {
        let Some(world) = scene.graph.world(self.target) else {
            return;
        };
        let target = Vec3::from(world.translation);
        let goal = target + self.offset;
        let look = target + Vec3::Y * LOOK_HEIGHT;
        let k = 1.0 - (-self.stiffness.max(0.0) * dt).exp();
        let eye = scene.camera.position + (goal - scene.camera.position) * k;
        let radius = clearance(scene.camera.near, scene.camera.fov_y_degrees);
        scene.camera.position = pull_in(around, look, eye, radius);
        scene.camera.target = look;
    }
}

/// The radius of the sphere kept clear around the eye, metres: [`CLEARANCE`], or more when the
/// near plane reaches further — `1.2 ×` the distance from the eye to a corner of the near
/// rectangle (vertical field of view `fov_y_degrees`, aspect up to 2.4:1) — so no surface is
/// cut open by the near plane.
pub fn clearance(near: f32, fov_y_degrees: f32) -> f32 {
    let half_height = near * (fov_y_degrees.to_radians() * 0.5).tan();
    let corner = Vec3::new(half_height * 2.4, half_height, near).length();
    CLEARANCE.max(1.2 * corner)
}

/// `eye`, moved towards `look` to where a sphere of `radius` moving from `look` first touches
/// a box or the terrain. A look point nearer a surface than `radius` (a player with their back
/// to a wall) starts the sphere in contact: then a sphere of half the radius is tried, and at
/// last a ray that stops [`RAY_GAP`] short of the surface (never nearer `look` than
/// [`MIN_DISTANCE`]).
fn pull_in(around: &Surroundings, look: Vec3, eye: Vec3, radius: f32) -> Vec3 {
    let offset = eye - look;
    let length = offset.length();
    for r in [radius, radius * 0.5, 0.0] {
        match around.sphere_cast(look, eye, r) {
            None => return eye,
            Some(hit) if hit > 0.0 || r == 0.0 => {
                let free = hit * length - if r == 0.0 { RAY_GAP } else { 0.0 };
                let distance = free.max(MIN_DISTANCE).min(length);
                return look + offset * (distance / length);
            }
            Some(_) => {}
        }
    }
    eye
}
