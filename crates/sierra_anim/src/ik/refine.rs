//! Damped least squares refinement for limited chains.
//!
//! Source: C. W. Wampler, "Manipulator inverse kinematic solutions based on vector formulations
//! and damped least-squares methods", IEEE Trans. SMC 16(1), 1986; Y. Nakamura and H. Hanafusa,
//! 1986; summarised in S. R. Buss, "Introduction to Inverse Kinematics with Jacobian Transpose,
//! Pseudoinverse and Damped Least Squares methods", 2004, §5.
//!
//! FABRIK's positional passes move bone *directions* only: they never use a joint's twist, and
//! with hinges and twist ranges they can stall short of a reachable target. A few damped
//! least-squares steps over every degree of freedom (three per free or ball-and-socket joint,
//! one per hinge), clamped into the limits after each step, finish such solves.

use glam::{Mat3, Quat, Vec3};

use super::constraints::{signed_angle_about, swing_twist, JointLimit};
use super::pose::ChainPose;

/// One damped least-squares step towards `target`; `damping` in metres (λ).
///
/// With `r_i` the vector from joint `i` to the end effector, a 3-DOF joint contributes
/// `|r|² I − r rᵀ` to `J Jᵀ` and gets the angular step `ω_i = r_i × y`; a hinge with world axis
/// `h` contributes `c cᵀ`, `c = h × r_i`, and turns by `c · y`, where
/// `y = (J Jᵀ + λ² I)⁻¹ (target − effector)`. No Jacobian is stored.
pub(crate) fn dls_step(pose: &mut ChainPose, limits: &[JointLimit], target: Vec3, damping: f32) {
    let n = pose.joint_count();
    let effector = pose.effector();
    let mut err = target - effector;
    // Linearisation is only good for small steps.
    let max_step = 0.25 * pose.reach();
    if err.length() > max_step {
        err = err.normalize() * max_step;
    }
    let mut jjt = Mat3::from_diagonal(Vec3::splat(damping * damping));
    let mut parent = pose.root_parent;
    for i in 0..n - 1 {
        let r = effector - pose.positions[i];
        match limits.get(i).copied().unwrap_or_default() {
            JointLimit::Hinge { axis, .. } => {
                let c = (parent * pose.rest[i] * axis).cross(r);
                jjt += outer(c, c);
            }
            _ => jjt += Mat3::from_diagonal(Vec3::splat(r.length_squared())) - outer(r, r),
        }
        parent = parent * pose.local[i] * pose.between[i];
    }
    if jjt.determinant().abs() < 1e-20 {
        return;
    }
    let y = jjt.inverse() * err;
    let mut parent = pose.root_parent;
    for i in 0..n - 1 {
        let r = effector - pose.positions[i];
        let limit = limits.get(i).copied().unwrap_or_default();
        let rest = pose.rest[i];
        let next_parent_unchanged = parent * pose.local[i] * pose.between[i];
        pose.local[i] = match limit {
            JointLimit::Hinge { axis, min, max } => {
                let c = (parent * rest * axis).cross(r);
                let q = rest.conjugate() * pose.local[i];
                let angle = signed_angle_about(swing_twist(q, axis).1, axis) + c.dot(y);
                (rest * Quat::from_axis_angle(axis, angle.clamp(min, max))).normalize()
            }
            _ => {
                let turn = Quat::from_scaled_axis(r.cross(y));
                let local = (parent.conjugate() * turn * parent * pose.local[i]).normalize();
                (rest * limit.clamp(rest.conjugate() * local, pose.bone_dirs[i])).normalize()
            }
        };
        // All steps were computed for the unchanged pose (one Jacobian).
        parent = next_parent_unchanged;
    }
    pose.update_positions();
}

fn outer(a: Vec3, b: Vec3) -> Mat3 {
    Mat3::from_cols(a * b.x, a * b.y, a * b.z)
}
