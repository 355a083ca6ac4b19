//! Cyclic Coordinate Descent, kept as the baseline FABRIK is compared with.
//!
//! Source: L.-C. T. Wang and C. C. Chen, "A combined optimization method for solving the inverse
//! kinematics problem of mechanical manipulators", IEEE Trans. Robotics and Automation 7(4), 1991;
//! used as the reference in Aristidou & Lasenby 2011, Table 1. One iteration visits every joint
//! from the one nearest the end effector to the root, rotating the sub-chain below it so the
//! effector lies on the line from that joint to the target.

use glam::{Quat, Vec3};

use super::constraints::JointLimit;
use super::error::IkError;
use super::fabrik::{FabrikSettings, SolveReport};
use super::pose::ChainPose;
use super::rotations::shortest_arc;

/// CCD on bare positions, in place. `positions`: `[n]` joints, root first (bone lengths are
/// those of the input and stay exact up to rounding). Same stopping rule as FABRIK.
///
/// Errors: [`IkError::ChainTooShort`], [`IkError::NotFinite`].
pub fn solve_ccd(
    positions: &mut [Vec3],
    target: Vec3,
    settings: &FabrikSettings,
) -> Result<SolveReport, IkError> {
    let n = positions.len();
    if n < 2 {
        return Err(IkError::ChainTooShort { len: n, min: 2 });
    }
    if !target.is_finite() {
        return Err(IkError::NotFinite { name: "target" });
    }
    let reach: f32 = positions.windows(2).map(|w| w[0].distance(w[1])).sum();
    let reachable = positions[0].distance(target) <= reach;
    let mut iterations = 0;
    while positions[n - 1].distance(target) > settings.tolerance
        && iterations < settings.max_iterations
    {
        for i in (0..n - 1).rev() {
            let pivot = positions[i];
            let (Some(to_end), Some(to_target)) = (
                (positions[n - 1] - pivot).try_normalize(),
                (target - pivot).try_normalize(),
            ) else {
                continue;
            };
            let rot = shortest_arc(to_end, to_target, to_end.any_orthonormal_vector());
            for p in &mut positions[i + 1..] {
                *p = pivot + rot * (*p - pivot);
            }
        }
        iterations += 1;
    }
    let distance = positions[n - 1].distance(target);
    Ok(SolveReport {
        iterations,
        distance,
        reachable,
        converged: distance <= settings.tolerance,
    })
}

/// CCD on a [`ChainPose`] with joint limits: each joint, from the one nearest the end effector to
/// the root, is turned (within its limit) so the effector moves towards the target; hinges take
/// the best angle about their axis. Writes `pose.local` and `pose.positions`.
///
/// Unlike FABRIK's positional passes this uses every degree of freedom of a joint, including twist
/// about the bone, which limited chains sometimes need. Errors: [`IkError::LimitCountMismatch`].
pub fn solve_chain_ccd(
    pose: &mut ChainPose,
    limits: &[JointLimit],
    target: Vec3,
    settings: &FabrikSettings,
) -> Result<SolveReport, IkError> {
    let n = pose.joint_count();
    if !limits.is_empty() && limits.len() != n - 1 {
        return Err(IkError::LimitCountMismatch {
            bones: n - 1,
            limits: limits.len(),
        });
    }
    let reachable = pose.positions[0].distance(target) <= pose.reach();
    let mut iterations = 0;
    while pose.effector().distance(target) > settings.tolerance
        && iterations < settings.max_iterations
    {
        ccd_sweep(pose, limits, target);
        iterations += 1;
    }
    let distance = pose.effector().distance(target);
    Ok(SolveReport {
        iterations,
        distance,
        reachable,
        converged: distance <= settings.tolerance,
    })
}

/// One CCD iteration over a limited chain (see [`solve_chain_ccd`]).
pub(crate) fn ccd_sweep(pose: &mut ChainPose, limits: &[JointLimit], target: Vec3) {
    let n = pose.joint_count();
    for i in (0..n - 1).rev() {
        // Parent frame of joint i: walk from the root (chains are short; O(n) per joint).
        let mut parent = pose.root_parent;
        for k in 0..i {
            parent = parent * pose.local[k] * pose.between[k];
        }
        let pivot = pose.positions[i];
        let (Some(to_end), Some(to_target)) = (
            (pose.positions[n - 1] - pivot).try_normalize(),
            (target - pivot).try_normalize(),
        ) else {
            continue;
        };
        let limit = limits.get(i).copied().unwrap_or_default();
        let rest = pose.rest[i];
        pose.local[i] = match limit {
            JointLimit::Hinge { axis, min, max } => {
                // Best angle about the hinge axis, in the joint's rest frame at hinge angle 0.
                let frame = parent * rest;
                let q = rest.conjugate() * pose.local[i];
                let current = super::constraints::signed_angle_about(
                    super::constraints::swing_twist(q, axis).1,
                    axis,
                );
                let zero = Quat::from_axis_angle(axis, -current) * (frame.conjugate() * to_end);
                let goal = frame.conjugate() * to_target;
                let u = zero - axis * zero.dot(axis);
                let v = goal - axis * goal.dot(axis);
                if u.length_squared() < 1e-12 || v.length_squared() < 1e-12 {
                    continue;
                }
                let angle = axis.dot(u.cross(v)).atan2(u.dot(v)).clamp(min, max);
                (rest * Quat::from_axis_angle(axis, angle)).normalize()
            }
            _ => {
                let delta = shortest_arc(to_end, to_target, to_end.any_orthonormal_vector());
                let local = (parent.conjugate() * delta * parent * pose.local[i]).normalize();
                match limit {
                    JointLimit::None => local,
                    _ => (rest * limit.clamp(rest.conjugate() * local, pose.bone_dirs[i]))
                        .normalize(),
                }
            }
        };
        pose.update_positions();
    }
}
