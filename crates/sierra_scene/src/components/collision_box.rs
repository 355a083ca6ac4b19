//! `CollisionBox`: an oriented box collider that follows its node.

use glam::Vec3;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A box in its node's local frame: it turns, moves and scales with the node's world
/// transform, so it is an oriented box in world space. Ray casts test it exactly (slab
/// method in the box frame, see [`crate::collision`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CollisionBox {
    /// Box centre in the node's local frame, metres (default origin).
    #[serde(default)]
    #[schemars(with = "[f32; 3]")]
    pub center: Vec3,
    /// Half the box size along the node's local X, Y, Z, metres (before node scale).
    #[schemars(with = "[f32; 3]")]
    pub half_extents: Vec3,
}
