//! Shared helpers of the IK tests: a seeded random generator, random chains with limits, and
//! forward kinematics written independently of the solvers.
#![allow(dead_code)]

use glam::{Mat4, Quat, Vec3};
use sierra_anim::ik::JointLimit;
use sierra_anim::{RawJoint, RawSkeleton, Skeleton, Transform};

/// The skeleton of `joints` — (name, parent index, rest translation from the parent), no
/// rest rotation, unit scale — built for the runtime.
///
/// # Panics
/// When the raw skeleton does not build (a test's own mistake).
pub fn skeleton_of(joints: &[(&str, Option<usize>, Vec3)]) -> Skeleton {
    Skeleton::build(&RawSkeleton {
        joints: joints
            .iter()
            .map(|&(name, parent, t)| RawJoint {
                name: name.into(),
                parent,
                rest: Transform::from_trs(t, Quat::IDENTITY, Vec3::ONE),
            })
            .collect(),
    })
    .unwrap_or_else(|e| panic!("{e}"))
}

/// Signed distance of `mid` (the middle joint) from the root–target line, towards the side of
/// `pole`: positive when the chain bends towards the pole.
pub fn pole_side(root: Vec3, mid: Vec3, target: Vec3, pole: Vec3) -> f32 {
    let axis = (target - root).normalize();
    let off = |p: Vec3| {
        let v = p - root;
        v - axis * v.dot(axis)
    };
    off(mid).dot(off(pole).normalize())
}

/// SplitMix64: small, seeded, reproducible.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `[0, 1)`.
    pub fn f(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.f()
    }
    pub fn int(&mut self, lo: usize, hi_inclusive: usize) -> usize {
        lo + (self.next_u64() % (hi_inclusive - lo + 1) as u64) as usize
    }
    pub fn unit(&mut self) -> Vec3 {
        loop {
            let v = Vec3::new(
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            );
            let l = v.length_squared();
            if l > 1e-3 && l <= 1.0 {
                return v.normalize();
            }
        }
    }
    pub fn rotation(&mut self) -> Quat {
        Quat::from_axis_angle(self.unit(), self.range(0.0, std::f32::consts::PI))
    }
}

/// A test skeleton that is one chain: joint `i`'s parent is `i - 1`.
/// Joint `i`'s local transform is `T(offsets[i]) · R(local[i])`.
#[derive(Clone, Debug)]
pub struct TestChain {
    /// `[n]` local translations (`offsets[0]` places the root in model space).
    pub offsets: Vec<Vec3>,
    /// `[n]` rest local rotations.
    pub rest: Vec<Quat>,
    /// `[n - 1]` limits, relative to `rest`.
    pub limits: Vec<JointLimit>,
}

impl TestChain {
    pub fn len(&self) -> usize {
        self.offsets.len()
    }

    pub fn parent(j: usize) -> Option<usize> {
        j.checked_sub(1)
    }

    /// Direction of bone `i` in joint `i`'s frame.
    pub fn bone_dir(&self, i: usize) -> Vec3 {
        self.offsets[i + 1].normalize()
    }

    pub fn reach(&self) -> f32 {
        self.offsets[1..].iter().map(|o| o.length()).sum()
    }

    /// Forward kinematics: `[n]` model matrices from `[n]` local rotations.
    pub fn model(&self, local: &[Quat]) -> Vec<Mat4> {
        let mut out: Vec<Mat4> = Vec::with_capacity(self.len());
        for i in 0..self.len() {
            let l = Mat4::from_rotation_translation(local[i], self.offsets[i]);
            let m = if i == 0 { l } else { out[i - 1] * l };
            out.push(m);
        }
        out
    }

    pub fn positions(&self, local: &[Quat]) -> Vec<Vec3> {
        self.model(local)
            .iter()
            .map(|m| m.w_axis.truncate())
            .collect()
    }

    /// A random pose within the limits (local rotations, `[n]`).
    pub fn random_pose(&self, rng: &mut Rng) -> Vec<Quat> {
        let mut local = self.rest.clone();
        for (i, limit) in self.limits.iter().enumerate() {
            let q = random_within(limit, self.bone_dir(i), rng);
            local[i] = self.rest[i] * q;
        }
        local
    }

    /// Largest amount (radians) by which any joint of `local` exceeds its limit, measured
    /// independently of the solver's clamp code.
    pub fn limit_excess(&self, local: &[Quat]) -> f32 {
        let mut worst = 0.0f32;
        for (i, limit) in self.limits.iter().enumerate() {
            let q = self.rest[i].conjugate() * local[i];
            worst = worst.max(excess(limit, q, self.bone_dir(i)));
        }
        worst
    }
}

/// Excess over a limit computed from the bone's motion: the swing is the angle the bone direction
/// moved, the twist what remains about the bone; for a hinge the rotation must be about the axis.
pub fn excess(limit: &JointLimit, q: Quat, bone_dir: Vec3) -> f32 {
    match *limit {
        JointLimit::None => 0.0,
        JointLimit::Hinge { axis, min, max } => {
            let (angle_axis, angle) = axis_angle(q);
            // Pure rotation about `axis`, signed.
            let signed = if angle.abs() < 1e-6 {
                0.0
            } else {
                angle * angle_axis.dot(axis).signum()
            };
            let signed = wrap(signed);
            let off_axis = if angle.abs() < 1e-4 {
                0.0
            } else {
                angle_axis.cross(axis).length() * angle
            };
            off_axis + (min - signed).max(0.0) + (signed - max).max(0.0)
        }
        JointLimit::BallSocket { swing, twist } => {
            let moved = bone_dir.angle_between(q * bone_dir);
            let swing_rot = Quat::from_rotation_arc(bone_dir, (q * bone_dir).normalize());
            let tw_rot = swing_rot.conjugate() * q;
            let (tw_axis, tw_angle) = axis_angle(tw_rot);
            let tw_angle = if tw_angle.abs() < 1e-6 {
                0.0
            } else {
                wrap(tw_angle * tw_axis.dot(bone_dir).signum())
            };
            (moved - swing).max(0.0) + (tw_angle.abs() - twist).max(0.0)
        }
    }
}

/// Axis and angle (atan2 form, accurate for small angles), short way round.
fn axis_angle(q: Quat) -> (Vec3, f32) {
    let q = if q.w < 0.0 { -q } else { q };
    let v = Vec3::new(q.x, q.y, q.z);
    let s = v.length();
    if s < 1e-9 {
        return (Vec3::X, 0.0);
    }
    (v / s, 2.0 * s.atan2(q.w))
}

fn wrap(a: f32) -> f32 {
    use std::f32::consts::{PI, TAU};
    let mut a = a % TAU;
    if a > PI {
        a -= TAU;
    }
    if a < -PI {
        a += TAU;
    }
    a
}

/// A random rotation (relative to rest) within `limit`.
pub fn random_within(limit: &JointLimit, bone_dir: Vec3, rng: &mut Rng) -> Quat {
    match *limit {
        JointLimit::None => rng.rotation(),
        JointLimit::Hinge { axis, min, max } => Quat::from_axis_angle(axis, rng.range(min, max)),
        JointLimit::BallSocket { swing, twist } => {
            let r = rng.unit();
            let perp =
                (r - bone_dir * r.dot(bone_dir)).normalize_or(bone_dir.any_orthonormal_vector());
            Quat::from_axis_angle(perp, rng.range(0.0, swing))
                * Quat::from_axis_angle(bone_dir, rng.range(-twist, twist))
        }
    }
}

/// A random chain of `n` joints: bones 0.2–1 m long in random directions, random rest rotations
/// and, when `with_limits`, a random hinge (axis perpendicular to the bone, range containing 0)
/// or ball-and-socket limit per joint.
pub fn random_chain(n: usize, with_limits: bool, rng: &mut Rng) -> TestChain {
    let mut offsets = vec![Vec3::ZERO];
    for _ in 1..n {
        offsets.push(rng.unit() * rng.range(0.2, 1.0));
    }
    let rest: Vec<Quat> = (0..n).map(|_| rng.rotation()).collect();
    let limits = (0..n - 1)
        .map(|i| {
            if !with_limits {
                return JointLimit::None;
            }
            let dir = offsets[i + 1].normalize();
            // The root is a ball-and-socket (shoulder, hip): with fewer than three degrees of
            // freedom a chain cannot reach a point in space in general.
            if i > 0 && rng.f() < 0.5 {
                let axis = dir.cross(rng.unit()).normalize();
                JointLimit::hinge(i, axis, rng.range(-2.0, 0.0), rng.range(0.3, 2.5)).unwrap()
            } else {
                JointLimit::ball_socket(i, rng.range(0.3, 1.5), rng.range(0.1, 1.0)).unwrap()
            }
        })
        .collect();
    TestChain {
        offsets,
        rest,
        limits,
    }
}

/// Bone lengths of a pose, `[n - 1]`.
pub fn bone_lengths(positions: &[Vec3]) -> Vec<f32> {
    positions.windows(2).map(|w| w[0].distance(w[1])).collect()
}
