//! glTF files as scene subtrees: the one place `sierra_scene` calls the glTF importer.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use glam::Vec3;
use serde::Deserialize;
pub use sierra_anim::ik::{ConstraintDef, ConstraintType};

use sierra_assets::Resolver;

use super::asset::Asset;
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
    /// `extras.constraint`, if present, as `sierra_anim`'s IK limit definition (degrees).
    pub constraint: Option<ConstraintDef>,
}

/// Collider shape of seed 001's `ColliderDef` (`"capsule"`, `"box"`, `"none"`; upper case
/// as the seed's enum is accepted too), plus `"sphere"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColliderShape {
    /// Capsule along local Y: `radius`, `halfHeight`.
    #[serde(alias = "CAPSULE")]
    Capsule,
    /// Box: `boxHalfExtents`.
    #[serde(alias = "BOX")]
    Box,
    /// Sphere: `radius`.
    #[serde(alias = "SPHERE")]
    Sphere,
    /// No collider.
    #[default]
    #[serde(alias = "NONE")]
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

impl ColliderDef {
    /// Half extents of the box this collider is in the collision world, in the node's
    /// frame, centred on the node: a box as given; a capsule (along local Y) and a sphere
    /// as their bounding boxes, `(r, halfHeight + r, r)` and `(r, r, r)` — the collision
    /// world tests oriented boxes only. `None` for `shape: none` or a degenerate size
    /// (any half extent ≤ 0 or not finite).
    pub fn box_half_extents(&self) -> Option<Vec3> {
        let r = self.radius;
        let half = match self.shape {
            ColliderShape::None => return None,
            ColliderShape::Box => self.box_half_extents,
            ColliderShape::Capsule => Vec3::new(r, self.half_height + r, r),
            ColliderShape::Sphere => Vec3::splat(r),
        };
        (half.is_finite() && half.min_element() > 0.0).then_some(half)
    }
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

/// Joint constraint type as spelt in glTF extras: seed 001's `NONE`, `BALL_SOCKET`, `HINGE`,
/// in upper or lower case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Deserialize)]
enum ConstraintTypeJson {
    #[default]
    #[serde(alias = "NONE", rename = "none")]
    None,
    #[serde(alias = "BALL_SOCKET", rename = "ball_socket")]
    BallSocket,
    #[serde(alias = "HINGE", rename = "hinge")]
    Hinge,
}

/// The JSON form of seed 001's `ConstraintDef` in a glTF node's `extras.constraint`
/// (snake_case as the seed, or camelCase); read into `sierra_anim`'s [`ConstraintDef`],
/// the type the IK solver takes. Angles in degrees.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
struct ConstraintJson {
    #[serde(rename = "type")]
    kind: ConstraintTypeJson,
    #[serde(alias = "swing_limit_deg")]
    swing_limit_deg: f32,
    #[serde(alias = "twist_limit_deg")]
    twist_limit_deg: f32,
    #[serde(alias = "hinge_min_deg")]
    hinge_min_deg: f32,
    #[serde(alias = "hinge_max_deg")]
    hinge_max_deg: f32,
    #[serde(alias = "hinge_axis")]
    hinge_axis: Vec3,
    /// The bone the limits are relative to: must be the node's parent (or empty).
    #[serde(alias = "parent_bone")]
    parent_bone: String,
}

impl Default for ConstraintJson {
    fn default() -> Self {
        let d = ConstraintDef::default();
        Self {
            kind: ConstraintTypeJson::None,
            swing_limit_deg: d.swing_limit_deg,
            twist_limit_deg: d.twist_limit_deg,
            hinge_min_deg: d.hinge_min_deg,
            hinge_max_deg: d.hinge_max_deg,
            hinge_axis: d.hinge_axis,
            parent_bone: String::new(),
        }
    }
}

impl ConstraintJson {
    fn into_def(self) -> ConstraintDef {
        ConstraintDef {
            kind: match self.kind {
                ConstraintTypeJson::None => ConstraintType::None,
                ConstraintTypeJson::BallSocket => ConstraintType::BallSocket,
                ConstraintTypeJson::Hinge => ConstraintType::Hinge,
            },
            swing_limit_deg: self.swing_limit_deg,
            twist_limit_deg: self.twist_limit_deg,
            hinge_min_deg: self.hinge_min_deg,
            hinge_max_deg: self.hinge_max_deg,
            hinge_axis: self.hinge_axis,
        }
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct NodeExtras {
    collider: Option<ColliderDef>,
    constraint: Option<ConstraintJson>,
}

/// Seed 001's physics metadata of one glTF node, read from its `extras` (other extras keys
/// are left alone). `parent` is the name of the node's parent, which a constraint's
/// `parent_bone` must name when given (the limits are relative to the parent's frame).
///
/// # Errors
/// A message naming the field (`extras.collider.radius: …`) for a malformed definition or
/// a `parent_bone` that is not the node's parent.
pub fn node_extras(
    extras: Option<&serde_json::Value>,
    parent: Option<&str>,
) -> Result<(Option<ColliderDef>, Option<ConstraintDef>), String> {
    let Some(value) = extras.filter(|v| v.is_object()) else {
        return Ok((None, None));
    };
    let extras: NodeExtras = serde_path_to_error::deserialize(value)
        .map_err(|e| format!("extras.{}: {}", e.path(), e.inner()))?;
    if let Some(c) = &extras.collider {
        if c.shape != ColliderShape::None && c.box_half_extents().is_none() {
            return Err(format!(
                "extras.collider: a {:?} collider needs a positive, finite size (radius {}, halfHeight {}, boxHalfExtents {})",
                c.shape, c.radius, c.half_height, c.box_half_extents
            ));
        }
    }
    let constraint = match extras.constraint {
        Some(c) => {
            if !c.parent_bone.is_empty() && Some(c.parent_bone.as_str()) != parent {
                return Err(format!(
                    "extras.constraint.parent_bone: `{}` is not the node's parent ({})",
                    c.parent_bone,
                    parent.map_or("none".to_owned(), |p| format!("`{p}`"))
                ));
            }
            Some(c.into_def())
        }
        None => None,
    };
    Ok((extras.collider, constraint))
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
        let parent = n.parent.map(|p| import.nodes[p].name.as_str());
        let (collider, constraint) = node_extras(n.extras.as_ref(), parent)
            .map_err(|e| fail(format!("node {i} `{}` {e}", n.name)))?;
        let t = &n.transform;
        nodes.push(GltfNode {
            name: n.name.clone(),
            children: n.children.clone(),
            local: Transform::new(Vec3::from(t.translation), t.rotation, Vec3::from(t.scale)),
            mesh: n.mesh,
            collider,
            constraint,
        });
    }
    Ok(GltfScene {
        path: path.to_path_buf(),
        nodes,
        roots: import.scene_roots.clone(),
        import: Arc::new(import),
    })
}
