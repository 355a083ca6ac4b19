//! [`IkChain`]: a validated list of skeleton joints with their limits, and the solve step that
//! reads a skeleton pose (model-space matrices + local rotations) and writes local rotations.

use glam::{Mat4, Quat, Vec3};

use super::constraints::{ConstraintDef, JointLimit};
use super::error::IkError;
use super::fabrik::{self, FabrikSettings, SolveReport};
use super::pose::ChainPose;
use super::rotations::aim_chain;
use super::two_bone::solve_two_bone;

/// A chain of skeleton joints, chain root first, end effector last (e.g. `upperarm_r, forearm_r,
/// hand_r, middle_r` as in seed 000). Each joint descends from the one before it (usually as its
/// direct child; joints in between, such as twist joints, are carried along rigidly).
#[derive(Debug, Clone, PartialEq)]
pub struct IkChain {
    joints: Vec<usize>,
    limits: Vec<JointLimit>,
}

/// Which solver runs a chain.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum IkSolver {
    /// Iterative FABRIK with limits ([`fabrik::solve_chain`]); the last chain joint reaches.
    Fabrik(FabrikSettings),
    /// Analytic two-bone IK ([`solve_two_bone`]) on the chain's first three joints (root, middle,
    /// end; the third one reaches, joints after it follow rigidly). `softness` in metres.
    TwoBone {
        /// Soft-reach distance before full extension, metres (0 = exact reach).
        softness: f32,
    },
}

impl Default for IkSolver {
    fn default() -> Self {
        Self::Fabrik(FabrikSettings::default())
    }
}

/// What a chain reaches for this frame, in the space of the `model` matrices given to the solve
/// (model space of the character, or world space if the animation job's root is the world
/// transform).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IkGoal {
    /// Target position of the end effector, metres.
    pub target: Vec3,
    /// Optional pole position: the chain bends towards it (elbow/knee side).
    pub pole: Option<Vec3>,
    /// Blend between the animated (0) and solved (1) local rotations.
    pub weight: f32,
}

impl IkGoal {
    /// Full-weight goal without a pole.
    pub fn at(target: Vec3) -> Self {
        Self {
            target,
            pole: None,
            weight: 1.0,
        }
    }
}

impl IkChain {
    /// Validates `joints` (skeleton indices, root first) against a skeleton of `joint_count`
    /// joints whose parent of joint `j` is `parent(j)`.
    ///
    /// Errors: [`IkError::ChainTooShort`] (< 2 joints), [`IkError::JointOutOfRange`],
    /// [`IkError::NotAParentChain`] when a joint does not descend from the previous one.
    pub fn new(
        joints: Vec<usize>,
        joint_count: usize,
        parent: impl Fn(usize) -> Option<usize>,
    ) -> Result<Self, IkError> {
        if joints.len() < 2 {
            return Err(IkError::ChainTooShort {
                len: joints.len(),
                min: 2,
            });
        }
        for (position, &joint) in joints.iter().enumerate() {
            if joint >= joint_count {
                return Err(IkError::JointOutOfRange {
                    position,
                    joint,
                    joint_count,
                });
            }
        }
        for (position, pair) in joints.windows(2).enumerate() {
            let (ancestor, joint) = (pair[0], pair[1]);
            if !descends_from(joint, ancestor, joint_count, &parent) {
                return Err(IkError::NotAParentChain {
                    position: position + 1,
                    joint,
                    expected_ancestor: ancestor,
                });
            }
        }
        Ok(Self {
            joints,
            limits: Vec::new(),
        })
    }

    /// Like [`IkChain::new`] with joints given by name (`joint_names`: `[joint_count]`).
    ///
    /// Errors: [`IkError::UnknownJoint`] plus those of [`IkChain::new`].
    pub fn from_names<S: AsRef<str>>(
        names: &[S],
        joint_names: &[String],
        parent: impl Fn(usize) -> Option<usize>,
    ) -> Result<Self, IkError> {
        let joints = names
            .iter()
            .enumerate()
            .map(|(position, name)| {
                let name = name.as_ref();
                joint_names
                    .iter()
                    .position(|n| n == name)
                    .ok_or_else(|| IkError::UnknownJoint {
                        position,
                        name: name.to_owned(),
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Self::new(joints, joint_names.len(), parent)
    }

    /// Sets one limit per bone start joint (`joints - 1` limits, chain order), validated.
    ///
    /// Errors: [`IkError::LimitCountMismatch`], [`IkError::LimitMinGreaterThanMax`],
    /// [`IkError::InvalidLimit`].
    pub fn with_limits(mut self, limits: Vec<JointLimit>) -> Result<Self, IkError> {
        let bones = self.joints.len() - 1;
        if limits.len() != bones {
            return Err(IkError::LimitCountMismatch {
                bones,
                limits: limits.len(),
            });
        }
        for (position, limit) in limits.iter().enumerate() {
            limit.validate(position)?;
        }
        self.limits = limits;
        Ok(self)
    }

    /// Sets the limits from seed 001 `ConstraintDef`s (degrees), one per bone start joint.
    ///
    /// Errors: as [`IkChain::with_limits`].
    pub fn with_constraint_defs(self, defs: &[ConstraintDef]) -> Result<Self, IkError> {
        let limits = defs
            .iter()
            .enumerate()
            .map(|(position, def)| JointLimit::from_constraint_def(position, def))
            .collect::<Result<Vec<_>, _>>()?;
        self.with_limits(limits)
    }

    /// Skeleton joint indices, root first.
    pub fn joints(&self) -> &[usize] {
        &self.joints
    }

    /// Limits, `[joints - 1]`, or empty when unlimited.
    pub fn limits(&self) -> &[JointLimit] {
        &self.limits
    }

    /// The chain root: the lowest joint whose rotation a solve changes (local-to-model must be
    /// recomputed from here, as joints are sorted parents-first).
    pub fn root_joint(&self) -> usize {
        self.joints[0]
    }

    /// Solves the chain for `goal` without writing into the skeleton: loads `pose` from the
    /// skeleton pose, runs `solver`, and leaves the solved local rotations in `pose.local`
    /// (`pose.local[i]` belongs to `self.joints()[i]`). Write them back with
    /// [`IkChain::write_rotations`].
    ///
    /// `model`: `[joint_count]` model-space matrices of the current pose (column-major, uniform
    /// scale); `local_rotation(j)` / `rest_rotation(j)`: joint `j`'s current and rest-pose local
    /// rotations. `pose` is scratch space reused between frames.
    ///
    /// Errors: [`IkError::BufferSize`], [`IkError::ZeroLengthBone`], [`IkError::NotFinite`],
    /// [`IkError::ChainTooShort`] (two-bone on fewer than 3 joints).
    pub fn solve_into(
        &self,
        solver: &IkSolver,
        goal: &IkGoal,
        model: &[Mat4],
        local_rotation: impl Fn(usize) -> Quat,
        rest_rotation: impl Fn(usize) -> Quat,
        pose: &mut ChainPose,
    ) -> Result<SolveReport, IkError> {
        if let Some(&max) = self.joints.iter().max() {
            if max >= model.len() {
                return Err(IkError::BufferSize {
                    name: "model",
                    len: model.len(),
                    expected: max + 1,
                });
            }
        }
        if !goal.weight.is_finite() {
            return Err(IkError::NotFinite { name: "weight" });
        }
        match *solver {
            IkSolver::Fabrik(settings) => {
                pose.load_from_model(&self.joints, model, &local_rotation, &rest_rotation)?;
                pose.start_from_previous();
                let report =
                    fabrik::solve_chain(pose, &self.limits, goal.target, goal.pole, &settings)?;
                pose.remember_solution();
                Ok(report)
            }
            IkSolver::TwoBone { softness } => {
                if self.joints.len() < 3 {
                    return Err(IkError::ChainTooShort {
                        len: self.joints.len(),
                        min: 3,
                    });
                }
                pose.load_from_model(&self.joints[..3], model, &local_rotation, &rest_rotation)?;
                let p = &pose.positions;
                let s = solve_two_bone(p[0], p[1], p[2], goal.target, goal.pole, softness)?;
                pose.positions[1] = s.mid;
                pose.positions[2] = s.end;
                let limits = self.limits.get(..2).unwrap_or(&[]);
                aim_chain(pose, limits);
                let distance = pose.effector().distance(goal.target);
                Ok(SolveReport {
                    iterations: 1,
                    distance,
                    reachable: pose.positions[0].distance(goal.target) <= pose.reach(),
                    converged: s.reached,
                })
            }
        }
    }

    /// Writes the solved rotations of `pose` back, blended with the animated ones by `weight`
    /// (`0` keeps the animation, `1` the IK result): calls `set(joint, rotation)` for each solved
    /// joint, with `animated(joint)` the rotation before IK.
    pub fn write_rotations(
        &self,
        pose: &ChainPose,
        weight: f32,
        animated: impl Fn(usize) -> Quat,
        mut set: impl FnMut(usize, Quat),
    ) {
        let w = weight.clamp(0.0, 1.0);
        for (&joint, &solved) in self.joints.iter().zip(&pose.local) {
            let q = if w >= 1.0 {
                solved
            } else {
                animated(joint).slerp(solved, w).normalize()
            };
            set(joint, q);
        }
    }

    /// [`IkChain::solve_into`] + [`IkChain::write_rotations`] on plain rotation slices:
    /// `local`: `[joint_count]` local rotations (edited in place), `rest`: `[joint_count]`.
    ///
    /// Errors: as [`IkChain::solve_into`], and [`IkError::BufferSize`] for short slices.
    pub fn solve_rotations(
        &self,
        solver: &IkSolver,
        goal: &IkGoal,
        model: &[Mat4],
        local: &mut [Quat],
        rest: &[Quat],
        pose: &mut ChainPose,
    ) -> Result<SolveReport, IkError> {
        for (name, len) in [("local", local.len()), ("rest", rest.len())] {
            if len != model.len() {
                return Err(IkError::BufferSize {
                    name,
                    len,
                    expected: model.len(),
                });
            }
        }
        let report = self.solve_into(solver, goal, model, |j| local[j], |j| rest[j], pose)?;
        let w = goal.weight.clamp(0.0, 1.0);
        for (&joint, &solved) in self.joints.iter().zip(&pose.local) {
            local[joint] = if w >= 1.0 {
                solved
            } else {
                local[joint].slerp(solved, w).normalize()
            };
        }
        Ok(report)
    }
}

/// Whether `joint` is a strict descendant of `ancestor` (walks parents; stops after
/// `joint_count` steps so malformed parent data cannot loop).
fn descends_from(
    joint: usize,
    ancestor: usize,
    joint_count: usize,
    parent: &impl Fn(usize) -> Option<usize>,
) -> bool {
    let mut j = joint;
    for _ in 0..joint_count {
        match parent(j) {
            Some(p) if p == ancestor => return true,
            Some(p) => j = p,
            None => return false,
        }
    }
    false
}
