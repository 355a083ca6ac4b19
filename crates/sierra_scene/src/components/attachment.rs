//! `Attachment`: the object hangs from a joint of a character (a sword in the hand).

use glam::{Quat, Vec3};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Offset of an attached object in its joint's frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AttachmentOffset {
    /// Translation in the joint frame, metres (default 0).
    #[serde(default)]
    #[schemars(with = "[f32; 3]")]
    pub translation: Vec3,
    /// Rotation, Euler XYZ degrees applied X then Y then Z (default 0).
    #[serde(default)]
    #[schemars(with = "[f32; 3]")]
    pub rotation_degrees: Vec3,
}

impl AttachmentOffset {
    /// The offset rotation as a quaternion.
    pub fn rotation(&self) -> Quat {
        let r = self.rotation_degrees * (std::f32::consts::PI / 180.0);
        Quat::from_euler(glam::EulerRot::ZYX, r.z, r.y, r.x)
    }
}

/// Each tick after animation and IK, the object's world transform becomes
/// `joint world × offset × object scale`: it follows the joint (its own position and
/// rotation in the level are replaced).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Attachment {
    /// Name of the object carrying the `Character`.
    pub character: String,
    /// Joint name in that character's skeleton (e.g. `hand_r`).
    pub joint: String,
    /// Offset in the joint frame (default none).
    #[serde(default = "default_offset")]
    pub offset: AttachmentOffset,
}

fn default_offset() -> AttachmentOffset {
    AttachmentOffset {
        translation: Vec3::ZERO,
        rotation_degrees: Vec3::ZERO,
    }
}
