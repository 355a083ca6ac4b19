//! [`ChainPose`]: a joint chain as the solvers see it — model-space positions plus the joint
//! frames needed to turn positions back into local rotations and to apply joint limits.

use glam::{Mat4, Quat, Vec3};

use super::error::IkError;

/// Bones shorter than this (metres) have no usable direction.
pub const MIN_BONE_LENGTH: f32 = 1e-6;

/// A chain of `n` joints (`n - 1` bones), chain root first, end effector last.
///
/// Conventions: model space (the character's space), right-handed, Y up, metres, radians.
/// Joint `i`'s model rotation is `W_i = P_i · local[i]` where `P_i` is the model rotation of its
/// parent frame: `P_0 = root_parent` and `P_{i+1} = W_i · between[i]`. The bone `i` goes from
/// `positions[i]` to `positions[i+1] = positions[i] + W_i · bone_dirs[i] · lengths[i]`.
///
/// Buffers are reused across frames ([`ChainPose::load_from_model`] only resizes them), so
/// solving allocates nothing per frame once the chain length is stable.
#[derive(Debug, Clone, Default)]
pub struct ChainPose {
    /// `[n]` joint positions in model space, metres.
    pub positions: Vec<Vec3>,
    /// `[n - 1]` bone lengths, metres (constant while solving).
    pub lengths: Vec<f32>,
    /// `[n - 1]` unit bone directions in the bone's start joint frame.
    pub bone_dirs: Vec<Vec3>,
    /// `[n - 1]` local rotations of the bone start joints (relative to their parent frame).
    pub local: Vec<Quat>,
    /// `[n - 1]` rest-pose local rotations; joint limits are relative to these.
    pub rest: Vec<Quat>,
    /// `[n - 1]` rotation from joint `i`'s frame to the parent frame of joint `i + 1`
    /// (identity when joint `i` is the direct parent; the fixed joints in between otherwise).
    pub between: Vec<Quat>,
    /// Model rotation of the chain root's parent frame.
    pub root_parent: Quat,
    /// Start each solve from the previous solve's rotations instead of the incoming (animated)
    /// pose: frame-to-frame coherence for redundant chains, whose solution otherwise depends on
    /// the start pose and can jump between frames. Default `false`; [`super::IkHook`] sets it.
    pub warm_start: bool,
    /// Scratch: the best local rotations found so far by a solve with restarts.
    best_local: Vec<Quat>,
    /// The last solve's local rotations (for `warm_start`).
    previous_local: Vec<Quat>,
}

impl ChainPose {
    /// Number of joints `n`.
    pub fn joint_count(&self) -> usize {
        self.positions.len()
    }

    /// Sum of the bone lengths, metres.
    pub fn reach(&self) -> f32 {
        self.lengths.iter().sum()
    }

    /// End effector position.
    pub fn effector(&self) -> Vec3 {
        self.positions.last().copied().unwrap_or(Vec3::ZERO)
    }

    /// A chain from plain positions (`[n]`, `n >= 2`): every joint frame is the model frame,
    /// rest pose = current pose. Suits solving positions without skeleton data.
    ///
    /// Errors: [`IkError::ChainTooShort`], [`IkError::ZeroLengthBone`] (with `joint` = chain position).
    pub fn from_positions(positions: &[Vec3]) -> Result<Self, IkError> {
        let mut pose = Self::default();
        pose.set_positions(positions)?;
        Ok(pose)
    }

    /// Refills this chain from plain positions, reusing the buffers; see [`ChainPose::from_positions`].
    pub fn set_positions(&mut self, positions: &[Vec3]) -> Result<(), IkError> {
        let n = positions.len();
        if n < 2 {
            return Err(IkError::ChainTooShort { len: n, min: 2 });
        }
        self.resize(n);
        self.positions.copy_from_slice(positions);
        self.root_parent = Quat::IDENTITY;
        for i in 0..n - 1 {
            self.set_bone(i, i, positions[i + 1] - positions[i])?;
            self.local[i] = Quat::IDENTITY;
            self.rest[i] = Quat::IDENTITY;
            self.between[i] = Quat::IDENTITY;
        }
        Ok(())
    }

    /// Loads the chain `joints` (skeleton indices, root first) from a skeleton pose.
    ///
    /// `model`: `[joint_count]` model-space joint transforms (column-major, as local-to-model
    /// outputs them; uniform scale assumed). `local_rotation(j)`: the local rotation of joint `j`
    /// that produced `model`; `rest_rotation(j)`: its rest-pose local rotation.
    /// Joint indices are checked against `model` by the caller ([`super::chain::IkChain`]).
    ///
    /// Errors: [`IkError::ZeroLengthBone`] when two consecutive chain joints coincide.
    pub fn load_from_model(
        &mut self,
        joints: &[usize],
        model: &[Mat4],
        local_rotation: impl Fn(usize) -> Quat,
        rest_rotation: impl Fn(usize) -> Quat,
    ) -> Result<(), IkError> {
        let n = joints.len();
        self.resize(n);
        let world_rot = |j: usize| {
            let (_, r, _) = model[j].to_scale_rotation_translation();
            r.normalize()
        };
        let parent_frame = |j: usize| (world_rot(j) * local_rotation(j).conjugate()).normalize();
        self.root_parent = parent_frame(joints[0]);
        for (i, &j) in joints.iter().enumerate() {
            self.positions[i] = model[j].w_axis.truncate();
        }
        for i in 0..n - 1 {
            let (j, child) = (joints[i], joints[i + 1]);
            let w = world_rot(j);
            self.set_bone(
                i,
                j,
                w.conjugate() * (self.positions[i + 1] - self.positions[i]),
            )?;
            self.local[i] = local_rotation(j).normalize();
            self.rest[i] = rest_rotation(j).normalize();
            self.between[i] = (w.conjugate() * parent_frame(child)).normalize();
        }
        Ok(())
    }

    /// Sets bone `i` (from chain position `i` to `i + 1`, skeleton joint `joint`) from `d`,
    /// the bone in its start joint's frame: its length and unit direction.
    ///
    /// Errors: [`IkError::ZeroLengthBone`] when `d` is shorter than `MIN_BONE_LENGTH` (or NaN).
    fn set_bone(&mut self, i: usize, joint: usize, d: Vec3) -> Result<(), IkError> {
        let len = d.length();
        if len.is_nan() || len < MIN_BONE_LENGTH {
            return Err(IkError::ZeroLengthBone {
                position: i,
                joint,
                length: len,
            });
        }
        self.lengths[i] = len;
        self.bone_dirs[i] = d / len;
        Ok(())
    }

    /// Model rotation of each bone's start joint, `[n - 1]`, written into `out`.
    pub fn joint_rotations(&self, out: &mut [Quat]) {
        let mut parent = self.root_parent;
        for (i, o) in out.iter_mut().enumerate().take(self.local.len()) {
            let w = parent * self.local[i];
            *o = w;
            parent = w * self.between[i];
        }
    }

    /// Recomputes `positions[1..]` from `positions[0]` and the local rotations (forward kinematics).
    pub fn update_positions(&mut self) {
        let mut parent = self.root_parent;
        for i in 0..self.local.len() {
            let w = parent * self.local[i];
            self.positions[i + 1] = self.positions[i] + w * self.bone_dirs[i] * self.lengths[i];
            parent = w * self.between[i];
        }
    }

    /// With `warm_start`, replaces the loaded local rotations by the previous solve's (same chain
    /// length only) and recomputes the positions; the root keeps its animated place.
    pub(crate) fn start_from_previous(&mut self) {
        if self.warm_start && self.previous_local.len() == self.local.len() {
            self.local.copy_from_slice(&self.previous_local);
            self.update_positions();
        }
    }

    /// Stores the solved rotations for the next warm start.
    pub(crate) fn remember_solution(&mut self) {
        self.previous_local.clear();
        self.previous_local.extend_from_slice(&self.local);
    }

    /// Remembers the current local rotations as the best so far (solver restarts).
    pub(crate) fn keep_best(&mut self) {
        self.best_local.clear();
        self.best_local.extend_from_slice(&self.local);
    }

    /// Returns to the rotations saved by [`ChainPose::keep_best`] and recomputes the positions.
    pub(crate) fn restore_best(&mut self) {
        if self.best_local.len() == self.local.len() {
            self.local.copy_from_slice(&self.best_local);
            self.update_positions();
        }
    }

    fn resize(&mut self, n: usize) {
        self.positions.resize(n, Vec3::ZERO);
        let bones = n.saturating_sub(1);
        self.lengths.resize(bones, 0.0);
        self.bone_dirs.resize(bones, Vec3::Y);
        self.local.resize(bones, Quat::IDENTITY);
        self.rest.resize(bones, Quat::IDENTITY);
        self.between.resize(bones, Quat::IDENTITY);
    }
}
