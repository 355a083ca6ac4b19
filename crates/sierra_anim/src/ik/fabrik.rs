//! FABRIK — Forward And Backward Reaching Inverse Kinematics.
//!
//! Source: A. Aristidou and J. Lasenby, "FABRIK: A fast, iterative solver for the Inverse
//! Kinematics problem", Graphical Models 73(5), 2011, Algorithm 1 (and §5 for constraints).
//! Seed 000 runs one backward/forward pass per frame, without limits, and lets elbows bend
//! backwards; here the passes are iterated until the end effector is within
//! [`FabrikSettings::tolerance`] of the target or [`FabrikSettings::max_iterations`] is reached,
//! joint limits are applied inside every iteration, and an optional pole position chooses the
//! bending plane.
//!
//! Two entry points:
//! - [`solve_positions`]: the paper's algorithm on bare positions and bone lengths.
//! - [`solve_chain`]: on a [`ChainPose`] with joint frames; its forward pass aims joint by joint
//!   (positions back to rotations, [`super::rotations::aim_chain`]) and clamps each joint into
//!   its [`JointLimit`] before placing the next, so the returned pose always respects the limits
//!   and its local rotations are ready to write back into the skeleton.

use glam::{Quat, Vec3};

use super::constraints::JointLimit;
use super::error::IkError;
use super::pose::ChainPose;
use super::rotations::aim_chain;

/// Stopping rule of the iterative solvers (FABRIK and CCD).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FabrikSettings {
    /// Stop when the end effector is at most this far from the target, metres.
    pub tolerance: f32,
    /// Stop after this many backward + forward iterations.
    pub max_iterations: u32,
    /// Soft reach, metres (0 = off): targets farther from the chain root than
    /// `reach - soft_reach` are pulled in along an exponential ([`super::two_bone`]'s soft IK),
    /// so the chain straightens gradually instead of snapping straight near full extension,
    /// where joint angles change fastest. Used by [`solve_chain`] and [`solve_positions`].
    pub soft_reach: f32,
}

impl Default for FabrikSettings {
    /// 1 mm, 32 iterations, no soft reach: enough for human limbs at interactive rates.
    fn default() -> Self {
        Self {
            tolerance: 1e-3,
            max_iterations: 32,
            soft_reach: 0.0,
        }
    }
}

/// Outcome of one solve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SolveReport {
    /// Iterations run (0 when the effector started within tolerance or the target was unreachable).
    pub iterations: u32,
    /// Final distance from the end effector to the target, metres.
    pub distance: f32,
    /// Whether the target lies within the chain's reach (root-to-target distance <= sum of bones).
    pub reachable: bool,
    /// Whether `distance <= tolerance` at the end.
    pub converged: bool,
}

/// FABRIK on bare positions (paper, Algorithm 1), in place.
///
/// `positions`: `[n]` joints, root first; `lengths`: `[n - 1]` bone lengths (metres); `target`
/// and `pole` in the same space as `positions`. The root stays put. An unreachable target gives
/// a straight chain pointing at it. `pole`, when given, rotates each inner joint about the line
/// through its neighbours towards the pole after every forward pass (this moves neither the end
/// effector nor any bone length), so the chain bends towards the pole's side.
///
/// Errors: [`IkError::ChainTooShort`], [`IkError::BufferSize`], [`IkError::NotFinite`].
pub fn solve_positions(
    positions: &mut [Vec3],
    lengths: &[f32],
    target: Vec3,
    pole: Option<Vec3>,
    settings: &FabrikSettings,
) -> Result<SolveReport, IkError> {
    check_inputs(positions.len(), lengths.len(), target, pole)?;
    let root = positions[0];
    let reach: f32 = lengths.iter().sum();
    let reachable = root.distance(target) <= reach;
    if !reachable && settings.soft_reach <= 0.0 {
        straighten(positions, lengths, target);
        return Ok(report(positions, target, 0, false, settings));
    }
    let goal = soften(root, target, reach, settings.soft_reach);
    let mut iterations = 0;
    while positions[positions.len() - 1].distance(goal) > settings.tolerance
        && iterations < settings.max_iterations
    {
        if iterations == 0 {
            bend_if_collinear(positions, goal, pole, reach);
        }
        backward_pass(positions, lengths, goal);
        forward_pass(positions, lengths, root);
        if let Some(pole) = pole {
            pole_step(positions, pole);
        }
        iterations += 1;
    }
    Ok(report(positions, target, iterations, reachable, settings))
}

/// FABRIK on a [`ChainPose`] with joint limits; writes the solved local rotations into
/// `pose.local` and the matching positions into `pose.positions`.
///
/// `limits`: `[n - 1]` (one per bone start joint) or empty for none. `target`, `pole` in model
/// space. Each iteration: the paper's backward pass on positions, then a forward pass that aims
/// each joint in turn and clamps it into its limit (the constraint is enforced relative to the
/// parent frame, as in the paper's §5), then the pole step (if any) and another aim. The result
/// never exceeds the limits, and bone lengths are exact by construction. If FABRIK stalls on a
/// limited chain, damped least-squares steps finish the solve, and a solve that ends short of
/// the target (a local minimum of the limits) is retried from the rest pose, an aimed pose, the
/// middle of the hinge ranges and then up to 16 seeded random poses within the limits (TRAC-IK's
/// random restarts), keeping the closest. [`SolveReport::iterations`] counts the iterations of
/// all attempts. No restarts when [`ChainPose::warm_start`] is set (they would pop).
/// Unreachable targets give the straightest chain towards the target that the limits allow.
///
/// Errors: [`IkError::LimitCountMismatch`], [`IkError::NotFinite`], [`IkError::ChainTooShort`].
pub fn solve_chain(
    pose: &mut ChainPose,
    limits: &[JointLimit],
    target: Vec3,
    pole: Option<Vec3>,
    settings: &FabrikSettings,
) -> Result<SolveReport, IkError> {
    let n = pose.joint_count();
    check_inputs(n, pose.lengths.len(), target, pole)?;
    if !limits.is_empty() && limits.len() != n - 1 {
        return Err(IkError::LimitCountMismatch {
            bones: n - 1,
            limits: limits.len(),
        });
    }
    let root = pose.positions[0];
    let reach = pose.reach();
    let reachable = root.distance(target) <= reach;
    if !reachable && settings.soft_reach <= 0.0 {
        straighten(&mut pose.positions, &pose.lengths, target);
        aim_chain(pose, limits);
        return Ok(report(&pose.positions, target, 0, false, settings));
    }
    let real_target = target;
    let target = soften(root, target, reach, settings.soft_reach);
    // The incoming pose may violate the limits (animation data, previous solves): fix it first so
    // the tolerance test below sees a legal pose.
    if !limits.is_empty() {
        aim_chain(pose, limits);
    }
    let first = attempt(pose, limits, target, pole, settings);
    if first.converged || limits.is_empty() || pose.warm_start {
        return Ok(versus(pose, real_target, first, reachable, settings));
    }
    // A limited chain can stall in a local minimum of its limits. Retry from the rest pose (legal
    // by definition) and from the chain aimed straight at the target; keep the closest result.
    // Not when warm-starting frame after frame: switching between restarts' results would pop.
    let mut best = first;
    let mut iterations = first.iterations;
    pose.keep_best();
    let restarts = [Restart::Rest, Restart::Aimed, Restart::MidRange]
        .into_iter()
        .chain((0..RANDOM_RESTARTS).map(|_| Restart::Random));
    let mut rng = RESTART_SEED;
    for restart in restarts {
        match restart {
            Restart::Rest => {
                pose.local.copy_from_slice(&pose.rest);
                pose.update_positions();
            }
            Restart::Aimed => {
                straighten(&mut pose.positions, &pose.lengths, target);
                aim_chain(pose, limits);
            }
            Restart::MidRange => {
                for (i, limit) in limits.iter().enumerate() {
                    pose.local[i] = match *limit {
                        JointLimit::Hinge { axis, min, max } => {
                            pose.rest[i] * Quat::from_axis_angle(axis, 0.5 * (min + max))
                        }
                        _ => pose.rest[i],
                    };
                }
                pose.update_positions();
            }
            Restart::Random => {
                for (i, limit) in limits.iter().enumerate() {
                    pose.local[i] =
                        pose.rest[i] * random_within(limit, pose.bone_dirs[i], &mut rng);
                }
                pose.update_positions();
            }
        }
        let r = attempt(pose, limits, target, pole, settings);
        iterations += r.iterations;
        if r.distance < best.distance {
            best = r;
            pose.keep_best();
        }
        if r.converged {
            break;
        }
    }
    pose.restore_best();
    let best = SolveReport { iterations, ..best };
    Ok(versus(pose, real_target, best, reachable, settings))
}

/// The report of a solve towards a softened goal, measured against the real target.
fn versus(
    pose: &ChainPose,
    target: Vec3,
    solved: SolveReport,
    reachable: bool,
    settings: &FabrikSettings,
) -> SolveReport {
    SolveReport {
        reachable,
        ..report(
            &pose.positions,
            target,
            solved.iterations,
            reachable,
            settings,
        )
    }
}

/// The goal actually solved for: `target` pulled towards `root` by soft reach.
fn soften(root: Vec3, target: Vec3, reach: f32, soft_reach: f32) -> Vec3 {
    let to = target - root;
    let d = to.length();
    if soft_reach <= 0.0 || d < 1e-12 {
        return target;
    }
    root + to * (super::two_bone::soft_distance(d, reach, soft_reach.min(reach)) / d)
}

#[derive(Clone, Copy)]
enum Restart {
    Rest,
    Aimed,
    MidRange,
    /// A pose drawn within the limits (the next of a fixed, seeded sequence).
    Random,
}

/// Random restarts after the three fixed ones, when a limited solve still misses: the remedy for
/// local minima of joint-limited IK used by TRAC-IK (P. Beeson and B. Ames, "TRAC-IK: An
/// open-source library for improved solving of generic inverse kinematics", IEEE-RAS Humanoids
/// 2015, §III: KDL-RR restarts the solver from random joint values within the limits when it
/// stalls). The sequence is seeded by a constant, so solves are reproducible.
const RANDOM_RESTARTS: u32 = 16;
const RESTART_SEED: u64 = 0x6661_6272_696b_2121;

/// A rotation relative to the rest pose within `limit`: hinge angle uniform in `[min, max]`;
/// ball-and-socket swing about a random axis perpendicular to `bone_dir` by an angle uniform in
/// `[0, swing]`, then twist uniform in `[-twist, twist]`; a free joint turns by up to π.
fn random_within(limit: &JointLimit, bone_dir: Vec3, rng: &mut u64) -> Quat {
    let mut uniform = || (splitmix64(rng) >> 40) as f32 / (1u64 << 24) as f32;
    match *limit {
        JointLimit::Hinge { axis, min, max } => {
            Quat::from_axis_angle(axis, min + (max - min) * uniform())
        }
        JointLimit::BallSocket { swing, twist } => {
            let (a, b) = bone_dir.any_orthonormal_pair();
            let phi = std::f32::consts::TAU * uniform();
            let swing_axis = a * phi.cos() + b * phi.sin();
            let swing_angle = swing * uniform();
            let twist_angle = twist * (2.0 * uniform() - 1.0);
            Quat::from_axis_angle(swing_axis, swing_angle)
                * Quat::from_axis_angle(bone_dir, twist_angle)
        }
        JointLimit::None => {
            let (a, b) = Vec3::Z.any_orthonormal_pair();
            let (phi, z) = (std::f32::consts::TAU * uniform(), 2.0 * uniform() - 1.0);
            let r = (1.0 - z * z).max(0.0).sqrt();
            let axis = a * (r * phi.cos()) + b * (r * phi.sin()) + Vec3::Z * z;
            Quat::from_axis_angle(axis, std::f32::consts::PI * uniform())
        }
    }
}

/// SplitMix64 (Steele, Lea and Flood 2014): a tiny seeded generator for the restart poses.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One solve from the current pose: FABRIK iterations while they make progress; on a limited
/// chain, once an iteration gains less than 5 %, damped least-squares steps over every degree of
/// freedom ([`super::refine`]) until the tolerance or the iteration cap.
fn attempt(
    pose: &mut ChainPose,
    limits: &[JointLimit],
    target: Vec3,
    pole: Option<Vec3>,
    settings: &FabrikSettings,
) -> SolveReport {
    let root = pose.positions[0];
    let reach = pose.reach();
    let mut iterations = 0;
    let mut refine = false;
    let mut distance = pose.effector().distance(target);
    while distance > settings.tolerance && iterations < settings.max_iterations {
        if refine {
            super::refine::dls_step(pose, limits, target, 0.05 * reach);
        } else {
            if iterations == 0 {
                bend_if_collinear(&mut pose.positions, target, pole, reach);
            }
            backward_pass(&mut pose.positions, &pose.lengths, target);
            pose.positions[0] = root;
            aim_chain(pose, limits);
            if let Some(pole) = pole {
                pole_step(&mut pose.positions, pole);
                aim_chain(pose, limits);
            }
        }
        iterations += 1;
        let d = pose.effector().distance(target);
        refine |= !limits.is_empty() && d > 0.95 * distance;
        distance = d;
    }
    report(&pose.positions, target, iterations, true, settings)
}

fn check_inputs(
    joints: usize,
    bones: usize,
    target: Vec3,
    pole: Option<Vec3>,
) -> Result<(), IkError> {
    if joints < 2 {
        return Err(IkError::ChainTooShort {
            len: joints,
            min: 2,
        });
    }
    if bones != joints - 1 {
        return Err(IkError::BufferSize {
            name: "lengths",
            len: bones,
            expected: joints - 1,
        });
    }
    if !target.is_finite() {
        return Err(IkError::NotFinite { name: "target" });
    }
    if pole.is_some_and(|p| !p.is_finite()) {
        return Err(IkError::NotFinite { name: "pole" });
    }
    Ok(())
}

fn report(
    positions: &[Vec3],
    target: Vec3,
    iterations: u32,
    reachable: bool,
    settings: &FabrikSettings,
) -> SolveReport {
    let distance = positions[positions.len() - 1].distance(target);
    SolveReport {
        iterations,
        distance,
        reachable,
        converged: distance <= settings.tolerance,
    }
}

/// Unreachable target: every joint on the ray from the root to the target (paper, Alg. 1 lines 4–9).
fn straighten(positions: &mut [Vec3], lengths: &[f32], target: Vec3) {
    let dir = (target - positions[0]).normalize_or(Vec3::Y);
    for i in 0..lengths.len() {
        positions[i + 1] = positions[i] + dir * lengths[i];
    }
}

/// Backward reaching (paper, Alg. 1 "stage 1"): effector on the target, then each joint pulled
/// towards its child at the bone length.
pub(crate) fn backward_pass(positions: &mut [Vec3], lengths: &[f32], target: Vec3) {
    let last = positions.len() - 1;
    positions[last] = target;
    for i in (0..last).rev() {
        let d = positions[i] - positions[i + 1];
        let r = d.length();
        // Coincident joints have no direction; pull towards the root instead, which keeps the
        // chain from folding onto one point.
        let dir = if r > 1e-9 {
            d / r
        } else {
            (positions[0] - positions[i + 1]).normalize_or(Vec3::Y)
        };
        positions[i] = positions[i + 1] + dir * lengths[i];
    }
}

/// Forward reaching (paper, Alg. 1 "stage 2"): root back in place, each child pushed to the bone
/// length along the direction to where it is.
pub(crate) fn forward_pass(positions: &mut [Vec3], lengths: &[f32], root: Vec3) {
    positions[0] = root;
    for i in 0..lengths.len() {
        let d = positions[i + 1] - positions[i];
        let r = d.length();
        let dir = if r > 1e-9 { d / r } else { Vec3::Y };
        positions[i + 1] = positions[i] + dir * lengths[i];
    }
}

/// Rotates the first inner joint (elbow, knee) about the line through its two neighbours (which
/// keeps both bone lengths and the end effector) so it lies on the pole's side of that line. The
/// joints after it (wrist, fingers) are left to the passes: turning them too makes them swing
/// about nearly straight sections, where that direction is ill-defined.
pub(crate) fn pole_step(positions: &mut [Vec3], pole: Vec3) {
    for i in 1..positions.len().min(3) - 1 {
        let (a, b) = (positions[i - 1], positions[i + 1]);
        let Some(axis) = (b - a).try_normalize() else {
            continue;
        };
        let off = |p: Vec3| {
            let v = p - a;
            v - axis * v.dot(axis)
        };
        let (joint, toward) = (off(positions[i]), off(pole));
        let radius = joint.length();
        if radius < 1e-9 {
            continue;
        }
        if let Some(toward) = toward.try_normalize() {
            positions[i] += toward * radius - joint;
        }
    }
}

/// A chain lying on the line through the target can never leave that line in FABRIK (every pull
/// is along it), so it would oscillate; bow the inner joints slightly towards the pole (or any
/// fixed perpendicular) to give the passes a bending plane.
fn bend_if_collinear(positions: &mut [Vec3], target: Vec3, pole: Option<Vec3>, reach: f32) {
    let root = positions[0];
    let Some(axis) = (target - root)
        .try_normalize()
        .or_else(|| (positions[1] - root).try_normalize())
    else {
        return;
    };
    let off_line = |p: Vec3| {
        let v = p - root;
        (v - axis * v.dot(axis)).length()
    };
    let eps = 1e-4 * reach;
    if positions.iter().any(|&p| off_line(p) > eps) {
        return;
    }
    let side = pole
        .and_then(|p| {
            let v = p - root;
            (v - axis * v.dot(axis)).try_normalize()
        })
        .unwrap_or_else(|| axis.any_orthonormal_vector());
    let last = positions.len() - 1;
    for p in &mut positions[1..last] {
        *p += side * (0.05 * reach);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reaches_a_reachable_target_and_keeps_lengths() {
        let mut p = [Vec3::ZERO, Vec3::X, Vec3::X * 2.0, Vec3::X * 3.0];
        let lengths = [1.0; 3];
        let target = Vec3::new(1.0, 1.5, 0.5);
        let s = FabrikSettings::default();
        let r = solve_positions(&mut p, &lengths, target, None, &s).unwrap();
        assert!(r.converged && r.reachable && r.iterations > 0, "{r:?}");
        for i in 0..3 {
            assert!((p[i].distance(p[i + 1]) - 1.0).abs() < 1e-5);
        }
        assert_eq!(p[0], Vec3::ZERO);
    }

    #[test]
    fn unreachable_target_straightens_chain() {
        let mut p = [Vec3::ZERO, Vec3::Y, Vec3::new(1.0, 1.0, 0.0)];
        let target = Vec3::new(0.0, 0.0, 5.0);
        let r = solve_positions(
            &mut p,
            &[1.0, 1.0],
            target,
            None,
            &FabrikSettings::default(),
        )
        .unwrap();
        assert!(!r.reachable && !r.converged);
        assert!((p[1] - Vec3::Z).length() < 1e-6 && (p[2] - 2.0 * Vec3::Z).length() < 1e-6);
        assert!((r.distance - 3.0).abs() < 1e-6);
    }
}
