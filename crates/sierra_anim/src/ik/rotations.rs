//! Positions back to rotations.
//!
//! FABRIK and the two-bone solver produce joint positions; a skeleton needs local rotations.
//! As in seed 000 ("IK", conversion step), each joint's local rotation is changed by the smallest
//! rotation taking its current bone direction to the solved one, walking from the chain root so
//! each changed joint becomes the parent frame of the next. Applying the *smallest* rotation keeps
//! the joint's twist about its bone. Unlike the seed, the opposite-direction case rotates 180°
//! about an axis fixed in the joint's own frame (the hinge axis, or a fixed perpendicular of the
//! bone), so the choice does not jump between frames, and joint limits are applied per joint
//! (this same pass is FABRIK's constrained forward pass, see [`super::fabrik`]).

use glam::{Quat, Vec3};

use super::constraints::JointLimit;
use super::pose::ChainPose;

/// Below this `1 + cos(angle)` two directions count as opposite (about 0.08° from opposite).
const OPPOSITE_EPS: f32 = 1e-6;

/// Smallest rotation taking unit `from` to unit `to`.
///
/// Identical directions give identity. Opposite directions give 180° about `fallback_axis`
/// made perpendicular to `from` (any perpendicular when `fallback_axis` is parallel to `from`).
/// Never returns NaN for unit inputs.
pub fn shortest_arc(from: Vec3, to: Vec3, fallback_axis: Vec3) -> Quat {
    let d = from.dot(to);
    if d <= -1.0 + OPPOSITE_EPS {
        let mut axis = fallback_axis - from * fallback_axis.dot(from);
        if axis.length_squared() < 1e-12 {
            axis = from.any_orthonormal_vector();
        }
        return Quat::from_axis_angle(axis.normalize(), std::f32::consts::PI);
    }
    // Half-way quaternion (cross, 1 + dot), normalised: exact, no acos, no division by sin.
    let c = from.cross(to);
    Quat::from_xyzw(c.x, c.y, c.z, 1.0 + d).normalize()
}

/// Turns the chain's joints, root first, so each bone points at the position currently stored for
/// its end joint, then rewrites the positions by forward kinematics (bone lengths stay exact).
///
/// `limits`: `[n - 1]` limits (one per bone start joint), or empty for none. Limited joints are
/// clamped into their limit, so the resulting pose never exceeds them; the positions then follow
/// the clamped rotations. A target coinciding with its joint leaves that joint unchanged.
pub fn aim_chain(pose: &mut ChainPose, limits: &[JointLimit]) {
    let mut parent = pose.root_parent;
    for i in 0..pose.local.len() {
        let limit = limits.get(i).copied().unwrap_or_default();
        let d = pose.bone_dirs[i];
        let to = pose.positions[i + 1] - pose.positions[i];
        if to.length_squared() > 1e-14 {
            pose.local[i] = aim_joint(
                parent,
                pose.local[i],
                pose.rest[i],
                d,
                to.normalize(),
                limit,
            );
        } else if limit != JointLimit::None {
            let rest = pose.rest[i];
            pose.local[i] = rest * limit.clamp(rest.conjugate() * pose.local[i], d);
        }
        let w = (parent * pose.local[i]).normalize();
        pose.positions[i + 1] = pose.positions[i] + w * d * pose.lengths[i];
        parent = w * pose.between[i];
    }
}

/// New local rotation of one joint so its bone (`bone_dir` in joint space) points along unit
/// model-space `desired`, within `limit`. `parent`: model rotation of the joint's parent frame.
fn aim_joint(
    parent: Quat,
    local: Quat,
    rest: Quat,
    bone_dir: Vec3,
    desired: Vec3,
    limit: JointLimit,
) -> Quat {
    if let JointLimit::Hinge { .. } = limit {
        let rest_frame = parent * rest;
        if let Some(q) = limit.aim_hinge(bone_dir, rest_frame.conjugate() * desired) {
            return (rest * q).normalize();
        }
        return (rest * limit.clamp(rest.conjugate() * local, bone_dir)).normalize();
    }
    let w = parent * local;
    let fallback = w * bone_dir.any_orthonormal_vector();
    let delta = shortest_arc(w * bone_dir, desired, fallback);
    let new_local = (parent.conjugate() * delta * w).normalize();
    match limit {
        JointLimit::None => new_local,
        _ => (rest * limit.clamp(rest.conjugate() * new_local, bone_dir)).normalize(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortest_arc_handles_same_opposite_and_general() {
        assert_eq!(shortest_arc(Vec3::X, Vec3::X, Vec3::Z), Quat::IDENTITY);
        let q = shortest_arc(Vec3::X, -Vec3::X, Vec3::Z);
        assert!(q.is_finite() && (q * Vec3::X + Vec3::X).length() < 1e-6);
        // 180° about the fallback axis Z, not some arbitrary perpendicular.
        assert!((q * Vec3::Z - Vec3::Z).length() < 1e-6);
        // Fallback parallel to `from` still gives a valid half turn.
        let q = shortest_arc(Vec3::Y, -Vec3::Y, Vec3::Y);
        assert!((q * Vec3::Y + Vec3::Y).length() < 1e-6);
        let to = Vec3::new(0.3, -0.8, 0.52).normalize();
        let q = shortest_arc(Vec3::Z, to, Vec3::X);
        assert!((q * Vec3::Z - to).length() < 1e-6);
        // Smallest: the rotation axis is perpendicular to both directions.
        let (axis, _) = q.to_axis_angle();
        assert!(axis.dot(Vec3::Z).abs() < 1e-5 && axis.dot(to).abs() < 1e-5);
    }
}
