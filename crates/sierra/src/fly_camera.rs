//! Free-flying debug camera (WASD + mouse): position plus yaw/pitch, right-handed, Y up.

use glam::Vec3;

/// Fly camera state. Yaw 0 looks along −Z; positive yaw turns left (counter-clockwise seen from +Y);
/// pitch is clamped to ±89° so the view never flips over the pole.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlyCamera {
    /// Eye position, metres.
    pub position: Vec3,
    /// Heading about +Y, radians.
    pub yaw: f32,
    /// Elevation above the horizon, radians.
    pub pitch: f32,
    /// Travel speed, metres per second.
    pub speed: f32,
    /// Look sensitivity, radians per pixel of mouse motion.
    pub sensitivity: f32,
}

/// Which movement keys are held this frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlyKeys {
    /// Along the view direction (W).
    pub forward: bool,
    /// Against it (S).
    pub back: bool,
    /// Strafe left (A).
    pub left: bool,
    /// Strafe right (D).
    pub right: bool,
    /// World up (E).
    pub up: bool,
    /// World down (Q).
    pub down: bool,
}

const PITCH_LIMIT: f32 = 89.0 * std::f32::consts::PI / 180.0;

impl FlyCamera {
    /// A camera at `position` looking at `target` (they must differ; a degenerate pair looks along −Z).
    pub fn look_at(position: Vec3, target: Vec3) -> Self {
        let d = (target - position).try_normalize().unwrap_or(Vec3::NEG_Z);
        Self {
            position,
            yaw: (-d.x).atan2(-d.z),
            pitch: d.y.clamp(-1.0, 1.0).asin().clamp(-PITCH_LIMIT, PITCH_LIMIT),
            speed: 8.0,
            sensitivity: 0.003,
        }
    }

    /// Unit view direction.
    pub fn forward(&self) -> Vec3 {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        Vec3::new(-sy * cp, sp, -cy * cp)
    }

    /// Point one metre ahead (the `target` of a look-at camera).
    pub fn target(&self) -> Vec3 {
        self.position + self.forward()
    }

    /// Turns by a mouse motion of `dx`, `dy` pixels (right and down positive).
    pub fn look(&mut self, dx: f32, dy: f32) {
        self.yaw -= dx * self.sensitivity;
        self.pitch = (self.pitch - dy * self.sensitivity).clamp(-PITCH_LIMIT, PITCH_LIMIT);
    }

    /// Moves for `dt` seconds with `keys` held: forward/back along the view, strafing in the
    /// horizontal plane, up/down along world Y. Diagonals are normalised (no faster).
    pub fn update(&mut self, keys: FlyKeys, dt: f32) {
        let axis = |p: bool, n: bool| f32::from(u8::from(p)) - f32::from(u8::from(n));
        let forward = self.forward();
        let right = forward.cross(Vec3::Y).try_normalize().unwrap_or(Vec3::X);
        let step = forward * axis(keys.forward, keys.back)
            + right * axis(keys.right, keys.left)
            + Vec3::Y * axis(keys.up, keys.down);
        self.position += step.normalize_or_zero() * self.speed * dt;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_at_round_trips_the_direction() {
        let eye = Vec3::new(1.0, 2.0, 3.0);
        for target in [
            Vec3::new(4.0, 0.0, -2.0),
            Vec3::new(-3.0, 5.0, 3.0),
            Vec3::ZERO,
        ] {
            let cam = FlyCamera::look_at(eye, target);
            let want = (target - eye).normalize();
            assert!(cam.forward().abs_diff_eq(want, 1e-5), "{target}");
        }
    }

    #[test]
    fn moves_along_view_and_strafes_right_handed() {
        let mut cam = FlyCamera::look_at(Vec3::ZERO, Vec3::NEG_Z);
        cam.speed = 2.0;
        let mut keys = FlyKeys {
            forward: true,
            ..FlyKeys::default()
        };
        cam.update(keys, 0.5);
        assert!(cam.position.abs_diff_eq(Vec3::new(0.0, 0.0, -1.0), 1e-6));
        // Looking along −Z with Y up, right is +X.
        (keys.forward, keys.right) = (false, true);
        cam.update(keys, 0.5);
        assert!(cam.position.abs_diff_eq(Vec3::new(1.0, 0.0, -1.0), 1e-6));
        // Diagonal: same speed.
        let before = cam.position;
        (keys.forward, keys.left, keys.right) = (true, true, false);
        cam.update(keys, 1.0);
        assert!(((cam.position - before).length() - 2.0).abs() < 1e-5);
    }

    #[test]
    fn pitch_is_clamped_short_of_the_pole() {
        let mut cam = FlyCamera::look_at(Vec3::ZERO, Vec3::NEG_Z);
        cam.look(0.0, -1e6);
        assert!(cam.forward().y < 1.0 && cam.forward().y > 0.99);
        cam.look(1000.0, 0.0);
        assert!((cam.forward().length() - 1.0).abs() < 1e-5);
    }
}
