use glam::{Quat, Vec3};

/// The listener (usually the camera): position in world metres and orientation.
///
/// Right-handed, Y up, the listener looks down its local -Z and its right ear is local +X,
/// as a glTF camera.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Listener {
    /// World position, metres.
    pub position: Vec3,
    /// World orientation.
    pub orientation: Quat,
}

impl Default for Listener {
    fn default() -> Self {
        Self {
            position: Vec3::ZERO,
            orientation: Quat::IDENTITY,
        }
    }
}

/// Linear gain and stereo pan of a point source at `emitter` (world metres) heard by `listener`.
///
/// Gain follows the "inverse distance clamped" model of OpenAL 1.1 (specification §3.4.2,
/// rolloff factor 1): `ref_distance / max(distance, ref_distance)`, so 1 within `ref_distance`
/// metres and halving with each doubling of distance beyond. Pan in [-1 (left), 1 (right)] is the
/// direction's component along the listener's right axis, 0 for a source straight ahead, behind
/// or on top of the listener.
pub fn gain_and_pan(listener: &Listener, emitter: Vec3, ref_distance: f32) -> (f32, f32) {
    let offset = emitter - listener.position;
    let distance = offset.length();
    let ref_distance = ref_distance.max(1e-3);
    let gain = ref_distance / distance.max(ref_distance);
    let pan = if distance > 1e-6 {
        (offset / distance)
            .dot(listener.orientation * Vec3::X)
            .clamp(-1.0, 1.0)
    } else {
        0.0
    };
    (gain, pan)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gain_halves_with_each_doubling_beyond_the_reference_distance() {
        let l = Listener::default();
        assert_eq!(gain_and_pan(&l, Vec3::new(0.0, 0.0, -1.0), 2.0).0, 1.0);
        assert!((gain_and_pan(&l, Vec3::new(0.0, 0.0, -4.0), 2.0).0 - 0.5).abs() < 1e-6);
        assert!((gain_and_pan(&l, Vec3::new(0.0, 0.0, -8.0), 2.0).0 - 0.25).abs() < 1e-6);
    }

    #[test]
    fn pan_follows_the_listener_orientation() {
        let mut l = Listener::default();
        let east = Vec3::new(10.0, 0.0, 0.0);
        assert!(
            (gain_and_pan(&l, east, 1.0).1 - 1.0).abs() < 1e-6,
            "+X is right"
        );
        assert!(gain_and_pan(&l, Vec3::new(0.0, 0.0, -5.0), 1.0).1.abs() < 1e-6);
        // Turn to face +X (yaw -90° about +Y): the source is now ahead.
        l.orientation = Quat::from_rotation_y(-std::f32::consts::FRAC_PI_2);
        assert!(gain_and_pan(&l, east, 1.0).1.abs() < 1e-6);
        // Turned around to face +Z, +X is on the left.
        l.orientation = Quat::from_rotation_y(std::f32::consts::PI);
        assert!((gain_and_pan(&l, east, 1.0).1 + 1.0).abs() < 1e-6);
        assert_eq!(gain_and_pan(&l, l.position, 1.0), (1.0, 0.0));
    }
}
