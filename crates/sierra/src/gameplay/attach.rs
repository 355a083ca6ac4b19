//! `Attachment` components: objects that follow a joint of a character (a sword in `hand_r`).
//!
//! After the animation jobs (and IK), each attached node's world matrix is written as
//! `joint world × offset × object scale` ([`sierra_anim::ik::Attachment::world`] with the job's
//! world-space model matrices), so it follows the final, IK-adjusted joint.

use glam::{Affine3A, Mat4, Vec3};
use sierra_anim::ik::Attachment as JointAttachment;
use sierra_anim::CharacterPose;
use sierra_scene::{NodeId, Scene};

/// One attached node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Attached {
    /// The attached object's node.
    pub node: NodeId,
    /// Index of the character it hangs from.
    pub character: usize,
    /// Joint and offset (offset: rigid, from the component).
    pub attachment: JointAttachment,
    /// The object's own scale from the level (applied after the offset).
    pub scale: Vec3,
}

/// Writes every attached node's world matrix from this tick's poses.
pub fn update_attachments(attached: &[Attached], poses: &[CharacterPose], scene: &mut Scene) {
    for a in attached {
        let Some(pose) = poses.get(a.character) else {
            continue;
        };
        if let Ok(world) = a.attachment.world(Mat4::IDENTITY, &pose.model) {
            let world = world * Mat4::from_scale(a.scale);
            scene.graph.set_world(a.node, Affine3A::from_mat4(world));
        }
    }
}
