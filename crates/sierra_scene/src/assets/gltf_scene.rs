//! glTF files as scene subtrees: the one place `sierra_scene` calls the glTF importer.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use glam::Vec3;
use serde::Deserialize;

use sierra_assets::Resolver;

use super::Asset;
use crate::error::Error;
use crate::graph::Transform;

/// A glTF file imported for instancing into a scene.
#[derive(Debug)]
pub struct GltfScene {
    /// The file.
    pub path: PathBuf,
    /// Nodes, indexed as in the file.
    pub nodes: Vec<GltfNode>,
    /// Root nodes of the file's default scene.
    pub roots: Vec<usize>,
    /// The full import (meshes, materials, skins, clips) for the renderer and animation.
    pub import: Arc<sierra_gltf::GltfAsset>,
}

/// One glTF node with the physics metadata of seed 001 read from its `extras`.
#[derive(Clone, Debug, PartialEq)]
pub struct GltfNode {
    /// Node name (`""` when absent).
    pub name: String,
    /// Child node indices.
    pub children: Vec<usize>,
    /// Local transform.
    pub local: Transform,
    /// Mesh index, if the node draws one.
    pub mesh: Option<usize>,
    /// `extras.collider`, if present.
    pub collider: Option<ColliderDef>,
    /// `extras.constraint`, if present.
    pub constraint: Option<ConstraintDef>,
}

/// Collider shape of seed 001's `ColliderDef`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColliderShape {
    /// Capsule along local Y: `radius`, `halfHeight`.
    Capsule,
    /// Box: `boxHalfExtents`.
    Box,
    /// No collider.
    #[default]
    None,
}

/// Seed 001's `ColliderDef`, from a glTF node's `extras.collider`. Field names are
/// accepted in camelCase or in the seed's snake_case.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct ColliderDef {
    /// Shape (`"capsule"`, `"box"`, `"none"`).
    pub shape: ColliderShape,
    /// Capsule radius, metres.
    pub radius: f32,
    /// Capsule half height (cylinder part), metres.
    #[serde(alias = "half_height")]
    pub half_height: f32,
    /// Box half extents, metres.
    #[serde(alias = "box_half_extents")]
    pub box_half_extents: Vec3,
    /// Mass, kilograms (default 1).
    pub mass: f32,
    /// Collision group name.
    #[serde(alias = "collision_group")]
    pub collision_group: String,
    /// Names of the groups this collider collides with.
    #[serde(alias = "collision_mask")]
    pub collision_mask: String,
}

impl Default for ColliderDef {
    fn default() -> Self {
        Self {
            shape: ColliderShape::None,
            radius: 0.0,
            half_height: 0.0,
            box_half_extents: Vec3::ZERO,
            mass: 1.0,
            collision_group: String::new(),
            collision_mask: String::new(),
        }
    }
}

/// Joint constraint type of seed 001's `ConstraintDef`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConstraintType {
    /// Unconstrained.
    #[default]
    None,
    /// Swing cone plus twist limit.
    BallSocket,
    /// One rotation axis with min/max angles.
    Hinge,
}

/// Seed 001's `ConstraintDef` (IK joint limits), from a glTF node's `extras.constraint`.
/// Angles in degrees, as the seed stores them.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct ConstraintDef {
    /// `"none"`, `"ball_socket"` or `"hinge"`.
    #[serde(rename = "type")]
    pub kind: ConstraintType,
    /// Ball-socket swing cone half-angle, degrees (default 180).
    #[serde(alias = "swing_limit_deg")]
    pub swing_limit_deg: f32,
    /// Ball-socket twist limit, degrees (default 180).
    #[serde(alias = "twist_limit_deg")]
    pub twist_limit_deg: f32,
    /// Hinge minimum angle, degrees (default -180).
    #[serde(alias = "hinge_min_deg")]
    pub hinge_min_deg: f32,
    /// Hinge maximum angle, degrees (default 180).
    #[serde(alias = "hinge_max_deg")]
    pub hinge_max_deg: f32,
    /// Hinge axis in the joint's local frame (default +Z).
    #[serde(alias = "hinge_axis")]
    pub hinge_axis: Vec3,
    /// Name of the parent bone the limits are relative to.
    #[serde(alias = "parent_bone")]
    pub parent_bone: String,
}

impl Default for ConstraintDef {
    fn default() -> Self {
        Self {
            kind: ConstraintType::None,
            swing_limit_deg: 180.0,
            twist_limit_deg: 180.0,
            hinge_min_deg: -180.0,
            hinge_max_deg: 180.0,
            hinge_axis: Vec3::Z,
            parent_bone: String::new(),
        }
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct NodeExtras {
    collider: Option<ColliderDef>,
    constraint: Option<ConstraintDef>,
}

impl Asset for GltfScene {
    fn from_bytes(bytes: &[u8], path: &Path, resolver: &Resolver) -> Result<Self, Error> {
        import_gltf(bytes, path, resolver)
    }
}

/// Imports a `.gltf`/`.glb` file for instancing: runs `sierra_gltf`'s importer (its buffer
/// and image URIs read through `resolver`: inside the asset root, within the budgets) and
/// reads each node's `extras` for `collider`/`constraint` definitions (seed 001).
///
/// # Errors
/// [`Error::Gltf`] naming the file (and the node for bad extras).
pub fn import_gltf(bytes: &[u8], path: &Path, resolver: &Resolver) -> Result<GltfScene, Error> {
    let fail = |message: String| Error::Gltf {
        path: path.to_path_buf(),
        message,
    };
    let import = sierra_gltf::GltfAsset::from_bytes(
        bytes,
        path,
        resolver,
        sierra_gltf::ImportOptions::default(),
    )
    .map_err(|e| fail(e.to_string()))?;
    let mut nodes = Vec::with_capacity(import.nodes.len());
    for (i, n) in import.nodes.iter().enumerate() {
        let extras: NodeExtras = match &n.extras {
            Some(value) if value.is_object() => {
                serde_path_to_error::deserialize(value).map_err(|e| {
                    fail(format!(
                        "node {i} `{}` extras.{}: {}",
                        n.name,
                        e.path(),
                        e.inner()
                    ))
                })?
            }
            _ => NodeExtras::default(),
        };
        let t = &n.transform;
        nodes.push(GltfNode {
            name: n.name.clone(),
            children: n.children.clone(),
            local: Transform::new(Vec3::from(t.translation), t.rotation, Vec3::from(t.scale)),
            mesh: n.mesh,
            collider: extras.collider,
            constraint: extras.constraint,
        });
    }
    Ok(GltfScene {
        path: path.to_path_buf(),
        nodes,
        roots: import.scene_roots.clone(),
        import: Arc::new(import),
    })
}
