//! The mannequin's documented finger limits, checked on keyed local rotations:
//! every phalanx turns about one axis (fingers: the hand's −Z on the left, +Z on the
//! right; thumbs: +X), by a flexion angle in [−10°, 90°], and over every clip each
//! phalanx turns through at least 10°.

use std::collections::BTreeMap;

use glam::{Quat, Vec3};

pub const FINGERS: [&str; 5] = ["thumb", "index", "middle", "ring", "pinky"];

/// Names of the 30 phalanx joints (end sites excluded).
pub fn phalanx_names() -> Vec<String> {
    let mut out = Vec::new();
    for side in ["l", "r"] {
        for f in FINGERS {
            for k in ["01", "02", "03"] {
                out.push(format!("{f}_{k}_{side}"));
            }
        }
    }
    out
}

/// The documented flexion axis of a phalanx joint.
pub fn flexion_axis(name: &str) -> Vec3 {
    if name.starts_with("thumb") {
        Vec3::X
    } else if name.ends_with("_l") {
        Vec3::NEG_Z
    } else {
        Vec3::Z
    }
}

/// `(flexion degrees, off-axis rotation degrees)` of a local rotation (rest = identity).
pub fn flexion(name: &str, q: Quat) -> (f32, f32) {
    let q = if q.w < 0.0 { -q } else { q };
    let v = Vec3::new(q.x, q.y, q.z);
    let axis = flexion_axis(name);
    let along = v.dot(axis);
    let off = (v - along * axis).length();
    (
        2.0 * along.atan2(q.w).to_degrees(),
        2.0 * off.asin().to_degrees(),
    )
}

/// Checks the limits for one clip: `keys[joint name]` are the keyed local rotations.
/// Returns `(smallest range, lowest angle, highest angle)` over the phalanges, degrees.
pub fn check_clip(clip: &str, keys: &BTreeMap<String, Vec<Quat>>) -> (f32, f32, f32) {
    let (mut min_range, mut lowest, mut highest) = (f32::MAX, f32::MAX, f32::MIN);
    for name in phalanx_names() {
        let Some(rotations) = keys.get(&name) else {
            panic!("{clip}: {name} has no rotation track");
        };
        let (mut lo, mut hi) = (f32::MAX, f32::MIN);
        for (k, q) in rotations.iter().enumerate() {
            let (angle, off) = flexion(&name, *q);
            assert!(
                off < 0.05,
                "{clip} {name} key {k}: {off}° off the flexion axis"
            );
            assert!(
                (-10.01..=90.01).contains(&angle),
                "{clip} {name} key {k}: flexion {angle}° outside [-10, 90]"
            );
            lo = lo.min(angle);
            hi = hi.max(angle);
        }
        assert!(hi - lo >= 10.0, "{clip} {name}: turns only {}°", hi - lo);
        min_range = min_range.min(hi - lo);
        lowest = lowest.min(lo);
        highest = highest.max(hi);
    }
    (min_range, lowest, highest)
}

#[test]
fn flexion_reads_angles_about_the_documented_axes() {
    let deg = 30f32.to_radians();
    assert!((flexion("index_01_l", Quat::from_rotation_z(-deg)).0 - 30.0).abs() < 1e-3);
    assert!((flexion("index_01_r", Quat::from_rotation_z(-deg)).0 + 30.0).abs() < 1e-3);
    assert!((flexion("thumb_02_r", Quat::from_rotation_x(deg)).0 - 30.0).abs() < 1e-3);
    // A twist about the finger's own axis is off-axis, not flexion.
    let (angle, off) = flexion("ring_03_l", Quat::from_rotation_y(deg));
    assert!(angle.abs() < 1e-3 && (off - 30.0).abs() < 1e-3);
}
