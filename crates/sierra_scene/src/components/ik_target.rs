//! `IkTarget`: the object is the target an IK chain of a character reaches for.

use std::collections::BTreeMap;

use glam::Vec3;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Solver of an [`IkTarget`] chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum IkSolverKind {
    /// FABRIK (Aristidou & Lasenby 2011) with joint limits, any chain length (default).
    #[default]
    Fabrik,
    /// Analytic two-bone IK (law of cosines) on the first three chain joints.
    TwoBone,
}

/// Kind of a joint limit, spelt as seed 001's `ConstraintDef::type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum LimitType {
    /// No limit.
    #[serde(rename = "NONE")]
    None,
    /// Swing cone and twist range.
    #[serde(rename = "BALL_SOCKET")]
    BallSocket,
    /// One axis with min/max angle.
    #[serde(rename = "HINGE")]
    Hinge,
}

/// One joint limit with seed 001's `ConstraintDef` field names; angles in degrees, relative
/// to the joint's rest pose, axis in the joint's rest frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LimitDef {
    /// `BALL_SOCKET`, `HINGE` or `NONE`.
    #[serde(rename = "type")]
    pub kind: LimitType,
    /// Swing cone half-angle, degrees in [0, 180] (default 180).
    #[serde(default = "deg180")]
    pub swing_limit_deg: f32,
    /// Twist either way about the bone, degrees in [0, 180] (default 180).
    #[serde(default = "deg180")]
    pub twist_limit_deg: f32,
    /// Hinge minimum angle, degrees in [-180, 180] (default -180).
    #[serde(default = "neg_deg180")]
    pub hinge_min_deg: f32,
    /// Hinge maximum angle, degrees in [-180, 180], ≥ `hinge_min_deg` (default 180).
    #[serde(default = "deg180")]
    pub hinge_max_deg: f32,
    /// Hinge axis in the joint's rest frame (default `[0, 0, 1]`).
    #[serde(default = "z_axis")]
    #[schemars(with = "[f32; 3]")]
    pub hinge_axis: Vec3,
}

/// Makes the object's node the target of an IK chain of another object's `Character`
/// (a glowing orb the right hand reaches for). Solved each tick after the animation is
/// sampled, with the target's world position from this tick.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IkTarget {
    /// Name of the object carrying the `Character`.
    pub character: String,
    /// Joint names, chain root first, end effector last; each a descendant of the one before.
    pub chain: Vec<String>,
    /// Solver (default `fabrik`).
    #[serde(default)]
    pub solver: IkSolverKind,
    /// Blend of animated (0) and solved (1) rotations (default 1).
    #[serde(default = "one")]
    pub weight: f32,
    /// Optional pole (the elbow/knee bends towards it), in the character object's frame, metres.
    #[serde(default)]
    #[schemars(with = "Option<[f32; 3]>")]
    pub pole: Option<Vec3>,
    /// Limits by joint name (joints of the chain except the end effector); a chain joint not
    /// listed takes the model's own limit (seed 001's `ConstraintDef` in the joint node's glTF
    /// `extras.constraint`), if any, else is free.
    #[serde(default)]
    pub limits: BTreeMap<String, LimitDef>,
}

fn deg180() -> f32 {
    180.0
}

fn neg_deg180() -> f32 {
    -180.0
}

fn z_axis() -> Vec3 {
    Vec3::Z
}

fn one() -> f32 {
    1.0
}
