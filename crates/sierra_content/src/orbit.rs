//! The viewers' orbit camera (`sierra view --window` and the web page): yaw and pitch about a target at a distance, turned by mouse drags
//! and zoomed by the wheel.

use glam::Vec3;
use sierra_render::Camera;

/// Vertical field of view, degrees (as `sierra view`'s headless camera).
pub const FOV_DEGREES: f32 = 40.0;
/// Radians turned per pixel dragged.
pub const RADIANS_PER_PIXEL: f32 = 0.005;
/// Distance factor per wheel step (one step in: × 0.9).
pub const ZOOM_PER_STEP: f32 = 0.9;
/// Pitch stays this far from straight up or down, radians (the view's up vector stays defined).
const PITCH_LIMIT: f32 = 1.5;

/// A camera on a sphere around `target`: `yaw` about +Y from +Z, `pitch` above the horizon
/// (radians), `distance` metres, within `[min_distance, max_distance]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Orbit {
    /// The point looked at, world metres.
    pub target: Vec3,
    /// Angle about +Y, radians (0: the eye on +Z of the target).
    pub yaw: f32,
    /// Angle above the horizontal plane, radians, within ±1.5.
    pub pitch: f32,
    /// Eye to target, metres.
    pub distance: f32,
    /// Closest zoom, metres.
    pub min_distance: f32,
    /// Farthest zoom, metres.
    pub max_distance: f32,
}

impl Orbit {
    /// Frames a bounding sphere (`centre`, `radius` metres) from the front-right, above, at the
    /// distance where it fits the narrower field of view at `aspect` with 5 % to spare (the
    /// headless `view` camera's framing); zoom reaches from the sphere's surface to 20 radii.
    pub fn framing(centre: Vec3, radius: f32, aspect: f32) -> Self {
        let half = (FOV_DEGREES.to_radians() * 0.5).tan();
        let narrower = half.min(half * aspect).atan();
        let distance = 1.05 * radius / narrower.sin();
        let dir = Vec3::new(0.35, 0.25, 1.0).normalize();
        Self {
            target: centre,
            yaw: dir.x.atan2(dir.z),
            pitch: dir.y.asin(),
            distance,
            min_distance: radius * 1.05,
            max_distance: (radius * 20.0).max(distance),
        }
    }

    /// The eye position, world metres.
    pub fn eye(&self) -> Vec3 {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        self.target + Vec3::new(sy * cp, sp, cy * cp) * self.distance
    }

    /// The camera at `aspect` (width / height), near and far planes around the orbit.
    pub fn camera(&self, aspect: f32) -> Camera {
        Camera::look_at(
            self.eye(),
            self.target,
            Vec3::Y,
            FOV_DEGREES.to_radians(),
            aspect,
            (self.min_distance * 0.05).max(1e-4),
            self.distance + self.max_distance * 2.0,
        )
    }

    /// A mouse drag of `(dx, dy)` pixels: right turns the eye left about the model, down
    /// raises it.
    pub fn drag(&mut self, dx: f32, dy: f32) {
        self.yaw -= dx * RADIANS_PER_PIXEL;
        self.pitch = (self.pitch + dy * RADIANS_PER_PIXEL).clamp(-PITCH_LIMIT, PITCH_LIMIT);
    }

    /// `steps` wheel steps (positive: in), each scaling the distance by [`ZOOM_PER_STEP`].
    pub fn zoom(&mut self, steps: f32) {
        self.distance =
            (self.distance * ZOOM_PER_STEP.powf(steps)).clamp(self.min_distance, self.max_distance);
    }

    /// Turns the eye `degrees` about +Y (the scripted orbit).
    pub fn turn(&mut self, degrees: f32) {
        self.yaw += degrees.to_radians();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eye_stays_at_its_distance_and_a_full_turn_comes_back() {
        let mut o = Orbit::framing(Vec3::new(1.0, 2.0, 3.0), 0.5, 16.0 / 9.0);
        let start = o.eye();
        assert!(((start - o.target).length() - o.distance).abs() < 1e-4);
        // Framing looks from the front-right and above, as the headless view does.
        assert!(start.x > o.target.x && start.y > o.target.y && start.z > o.target.z);
        for _ in 0..120 {
            o.turn(3.0);
        }
        assert!((o.eye() - start).length() < 1e-3, "{} vs {start}", o.eye());
        o.turn(180.0);
        let opposite = o.eye() - o.target;
        let s = start - o.target;
        assert!((opposite.x + s.x).abs() < 1e-3 && (opposite.z + s.z).abs() < 1e-3);
    }

    #[test]
    fn drags_clamp_the_pitch_and_zoom_stays_within_its_range() {
        let mut o = Orbit::framing(Vec3::ZERO, 1.0, 1.0);
        o.drag(0.0, 1e6);
        assert_eq!(o.pitch, PITCH_LIMIT);
        o.drag(0.0, -1e6);
        assert_eq!(o.pitch, -PITCH_LIMIT);
        let d = o.distance;
        o.zoom(1.0);
        assert!((o.distance - d * 0.9).abs() < 1e-5);
        o.zoom(1000.0);
        assert_eq!(o.distance, o.min_distance);
        o.zoom(-1000.0);
        assert_eq!(o.distance, o.max_distance);
    }
}
