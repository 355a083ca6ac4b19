//! Errors of the IK module: bad chains, bad limits, buffers of the wrong size.

use thiserror::Error;

/// What can go wrong when building or solving an IK chain.
///
/// Every variant names the chain position (`0` = chain root) and/or the skeleton joint index
/// so the caller can point at the offending entry of a level file or skeleton.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum IkError {
    /// A chain needs at least `min` joints (a root and an end effector for FABRIK, three for two-bone IK).
    #[error("IK chain has {len} joints, needs at least {min}")]
    ChainTooShort {
        /// Number of joints given.
        len: usize,
        /// Minimum number of joints for this solver.
        min: usize,
    },
    /// A chain joint index is outside the skeleton.
    #[error("IK chain joint {position} is skeleton joint {joint}, but the skeleton has {joint_count} joints")]
    JointOutOfRange {
        /// Position in the chain (0 = chain root).
        position: usize,
        /// Skeleton joint index given.
        joint: usize,
        /// Number of joints in the skeleton.
        joint_count: usize,
    },
    /// Chain joint `position` is not a descendant of the chain joint before it.
    #[error(
        "IK chain is not a parent chain: joint {joint} (chain position {position}) does not descend from joint {expected_ancestor}"
    )]
    NotAParentChain {
        /// Position in the chain (0 = chain root) of the joint that breaks the chain.
        position: usize,
        /// Skeleton index of that joint.
        joint: usize,
        /// Skeleton index of the previous chain joint, which should be one of its ancestors.
        expected_ancestor: usize,
    },
    /// A joint name of the chain is not in the skeleton.
    #[error("IK chain joint {position}: no joint named {name:?} in the skeleton")]
    UnknownJoint {
        /// Position in the chain (0 = chain root).
        position: usize,
        /// The name that was not found.
        name: String,
    },
    /// The bone from chain joint `position` to the next one has (nearly) zero length, so it has no direction.
    #[error(
        "IK chain bone {position} (joint {joint} to its chain child) has zero length ({length} m)"
    )]
    ZeroLengthBone {
        /// Position in the chain of the bone's start joint.
        position: usize,
        /// Skeleton index of the bone's start joint (or the chain position when there is no skeleton).
        joint: usize,
        /// Measured length in metres.
        length: f32,
    },
    /// A limit's minimum is greater than its maximum.
    #[error("IK limit of chain joint {position}: {what} min {min} rad > max {max} rad")]
    LimitMinGreaterThanMax {
        /// Position in the chain of the limited joint.
        position: usize,
        /// Which limit (`"hinge"`).
        what: &'static str,
        /// Minimum angle in radians.
        min: f32,
        /// Maximum angle in radians.
        max: f32,
    },
    /// A limit value is out of range (negative cone, angle beyond ±π, not finite, zero axis).
    #[error("IK limit of chain joint {position}: {reason}")]
    InvalidLimit {
        /// Position in the chain of the limited joint.
        position: usize,
        /// What is wrong.
        reason: String,
    },
    /// The number of limits does not match the number of bones (`joints - 1`).
    #[error("IK chain has {bones} bones but {limits} limits were given")]
    LimitCountMismatch {
        /// Bones in the chain (`joints - 1`).
        bones: usize,
        /// Limits given.
        limits: usize,
    },
    /// An input or output buffer has the wrong length.
    #[error("IK buffer `{name}` has {len} entries, expected {expected}")]
    BufferSize {
        /// Which buffer.
        name: &'static str,
        /// Its length.
        len: usize,
        /// The length required.
        expected: usize,
    },
    /// A target, pole or weight is NaN or infinite.
    #[error("IK input `{name}` is not finite")]
    NotFinite {
        /// Which input.
        name: &'static str,
    },
}
