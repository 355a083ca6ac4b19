//! The IK step as the character job's post-sampling hook ([`crate::PoseHook`]), on the runtime
//! [`Skeleton`] and its [`Transform`] poses.
//!
//! Frame order (ARCHITECTURE "One frame", seed 000 "IK hooks in after the animation"): the job
//! samples and blends, runs local-to-model, calls [`IkHook`], which edits the chains' local
//! rotations from the model-space matrices, then the job recomputes local-to-model from the
//! lowest changed joint and builds the palette. The animation code does not know what the hook
//! does.

use std::sync::{Mutex, PoisonError};

use glam::Mat4;

use super::chain::{IkChain, IkGoal, IkSolver};
use super::error::IkError;
use super::fabrik::SolveReport;
use super::pose::ChainPose;
use crate::{PoseHook, Skeleton, Transform};

impl IkChain {
    /// Validates a chain of runtime joint indices against `skeleton`.
    ///
    /// Errors: [`IkError::ChainTooShort`], [`IkError::JointOutOfRange`], [`IkError::NotAParentChain`].
    pub fn from_skeleton(skeleton: &Skeleton, joints: Vec<usize>) -> Result<Self, IkError> {
        Self::new(joints, skeleton.joint_count(), |j| skeleton.parent(j))
    }

    /// Validates a chain given by joint names (e.g. `["upperarm_r", "forearm_r", "hand_r",
    /// "middle_r"]`).
    ///
    /// Errors: [`IkError::UnknownJoint`] plus those of [`IkChain::from_skeleton`].
    pub fn from_joint_names<S: AsRef<str>>(
        skeleton: &Skeleton,
        names: &[S],
    ) -> Result<Self, IkError> {
        Self::from_names(names, skeleton.names(), |j| skeleton.parent(j))
    }

    /// Solves the chain on a skeleton pose and writes the blended rotations into `local`.
    ///
    /// `local`: `[joint_count]` local transforms (only the chain joints' rotations change);
    /// `model`: `[joint_count]` model matrices computed from `local`; the goal is in the space of
    /// `model`. Recompute local-to-model from [`IkChain::root_joint`] afterwards.
    ///
    /// Errors: [`IkError::BufferSize`] plus those of [`IkChain::solve_into`].
    pub fn solve_pose(
        &self,
        solver: &IkSolver,
        goal: &IkGoal,
        skeleton: &Skeleton,
        local: &mut [Transform],
        model: &[Mat4],
        pose: &mut ChainPose,
    ) -> Result<SolveReport, IkError> {
        let n = skeleton.joint_count();
        for (name, len) in [("local", local.len()), ("model", model.len())] {
            if len != n {
                return Err(IkError::BufferSize {
                    name,
                    len,
                    expected: n,
                });
            }
        }
        let rest = skeleton.rest_pose();
        let report = self.solve_into(
            solver,
            goal,
            model,
            |j| local[j].rotation,
            |j| rest[j].rotation,
            pose,
        )?;
        let w = goal.weight.clamp(0.0, 1.0);
        for (&joint, &solved) in self.joints().iter().zip(&pose.local) {
            let animated = local[joint].rotation;
            local[joint].rotation = if w >= 1.0 {
                solved
            } else {
                animated.slerp(solved, w).normalize()
            };
        }
        Ok(report)
    }
}

/// One chain of one character, with this frame's goal.
#[derive(Debug, Clone, PartialEq)]
pub struct IkTask {
    /// Character index, as passed to the character job.
    pub character: usize,
    /// The validated chain.
    pub chain: IkChain,
    /// Solver and its settings.
    pub solver: IkSolver,
    /// Target, pole and weight for this frame, in the space of the job's model matrices
    /// (world space when the job's root is the character's world transform).
    pub goal: IkGoal,
}

#[derive(Debug, Default)]
struct Slot {
    pose: ChainPose,
    last: Option<Result<SolveReport, IkError>>,
}

/// A [`PoseHook`] running every [`IkTask`] of the character being animated.
///
/// Scratch buffers live in the hook (one per task, behind an uncontended mutex since characters
/// run in parallel), so solving allocates nothing once chain lengths are known. Tasks of one
/// character should not be nested (one chain inside another's subtree): each sees the model
/// matrices from before the hook.
#[derive(Debug, Default)]
pub struct IkHook {
    tasks: Vec<IkTask>,
    slots: Vec<Mutex<Slot>>,
}

impl IkHook {
    /// A hook running `tasks`.
    pub fn new(tasks: Vec<IkTask>) -> Self {
        let slots = tasks.iter().map(|_| Mutex::default()).collect();
        Self { tasks, slots }
    }

    /// The tasks, to update goals each frame (`hook.tasks_mut()[i].goal = ...`).
    pub fn tasks_mut(&mut self) -> &mut [IkTask] {
        &mut self.tasks
    }

    /// The tasks.
    pub fn tasks(&self) -> &[IkTask] {
        &self.tasks
    }

    /// Outcome of task `task` in the last frame it ran (`None` before its first run or out of range).
    pub fn last_result(&self, task: usize) -> Option<Result<SolveReport, IkError>> {
        let slot = self.slots.get(task)?;
        slot.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .last
            .clone()
    }
}

impl PoseHook for IkHook {
    fn apply(
        &self,
        character: usize,
        skeleton: &Skeleton,
        local: &mut [Transform],
        model: &[Mat4],
    ) -> Option<usize> {
        let mut first_changed: Option<usize> = None;
        for (task, slot) in self.tasks.iter().zip(&self.slots) {
            if task.character != character {
                continue;
            }
            let mut slot = slot.lock().unwrap_or_else(PoisonError::into_inner);
            let Slot { pose, last } = &mut *slot;
            pose.warm_start = true;
            let result =
                task.chain
                    .solve_pose(&task.solver, &task.goal, skeleton, local, model, pose);
            if result.is_ok() {
                let root = task.chain.root_joint();
                first_changed = Some(first_changed.map_or(root, |f| f.min(root)));
            }
            *last = Some(result);
        }
        first_changed
    }
}
