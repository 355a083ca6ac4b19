//! Attachments: a node (a sword, a light) fixed to a joint with an offset.
//!
//! MISSION §1 "Attachments" and seed 001 (a sword in a hand follows the hand because it is the
//! hand's child in the scene graph): the attached node's world transform is
//! `character world · joint model · offset`, evaluated after IK so it follows the final pose.

use glam::Mat4;

use super::error::IkError;

/// A node attached to a skeleton joint.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Attachment {
    /// Skeleton joint index the node hangs from.
    pub joint: usize,
    /// Node transform relative to the joint (column-major; e.g. the grip of a sword in the hand).
    pub offset: Mat4,
}

impl Attachment {
    /// World transform of the attached node: `character_world · model[joint] · offset`.
    ///
    /// `model`: `[joint_count]` model-space joint matrices after IK (if the character job's root
    /// already is the character's world transform, pass `Mat4::IDENTITY` as `character_world`).
    ///
    /// Errors: [`IkError::JointOutOfRange`].
    pub fn world(&self, character_world: Mat4, model: &[Mat4]) -> Result<Mat4, IkError> {
        let joint = model.get(self.joint).ok_or(IkError::JointOutOfRange {
            position: 0,
            joint: self.joint,
            joint_count: model.len(),
        })?;
        Ok(character_world * *joint * self.offset)
    }

    /// The offset that keeps a node where it is when attaching it now:
    /// `offset = (character_world · model[joint])⁻¹ · node_world`.
    ///
    /// Errors: [`IkError::JointOutOfRange`].
    pub fn keeping_world(
        joint: usize,
        node_world: Mat4,
        character_world: Mat4,
        model: &[Mat4],
    ) -> Result<Self, IkError> {
        let joint_world = character_world
            * *model.get(joint).ok_or(IkError::JointOutOfRange {
                position: 0,
                joint,
                joint_count: model.len(),
            })?;
        Ok(Self {
            joint,
            offset: joint_world.inverse() * node_world,
        })
    }
}
