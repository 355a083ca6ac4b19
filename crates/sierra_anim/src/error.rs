//! The crate's error type.

use thiserror::Error;

/// Errors from building runtime data or running jobs. Each names the joint,
/// track or buffer at fault.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum AnimError {
    /// A raw joint names a parent index outside the joint array.
    #[error("joint {joint} ({name:?}): parent index {parent} is out of range (skeleton has {count} joints)")]
    ParentOutOfRange {
        /// Raw joint index.
        joint: usize,
        /// Joint name.
        name: String,
        /// The bad parent index.
        parent: usize,
        /// Number of raw joints.
        count: usize,
    },
    /// The parent links contain a cycle, so no parents-first order exists.
    #[error("joint {joint} ({name:?}) is part of a parent cycle")]
    ParentCycle {
        /// Raw joint index on the cycle.
        joint: usize,
        /// Joint name.
        name: String,
    },
    /// More joints than the runtime's `u16` parent indices can address.
    #[error("skeleton has {0} joints; at most 65534 are supported (joint indices are 16-bit and 65535 marks a root)")]
    TooManyJoints(usize),
    /// A raw track is malformed.
    #[error("clip {clip:?}, joint {joint}, {channel} track: {reason}")]
    InvalidTrack {
        /// Clip name.
        clip: String,
        /// Joint index in the runtime skeleton (or morph target node for weights).
        joint: usize,
        /// `translation`, `rotation`, `scale` or `weights`.
        channel: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// A job's input or output buffer has the wrong length.
    #[error("{what}: expected {expected} elements, got {actual}")]
    BufferSize {
        /// Which buffer.
        what: &'static str,
        /// Required length.
        expected: usize,
        /// Given length.
        actual: usize,
    },
    /// A skin refers to a joint the skeleton does not have.
    #[error("skin joint {skin_joint} refers to skeleton joint {joint}, but the skeleton has {count} joints")]
    SkinJointOutOfRange {
        /// Index in the skin's joint list.
        skin_joint: usize,
        /// The bad skeleton joint index.
        joint: usize,
        /// Skeleton joint count.
        count: usize,
    },
    /// Baking needs a positive, finite sample rate.
    #[error("sample rate must be positive and finite, got {0}")]
    BadSampleRate(f32),
}

/// `Ok` when buffer `what` has its `expected` length, else [`AnimError::BufferSize`].
pub(crate) fn check_len(
    what: &'static str,
    expected: usize,
    actual: usize,
) -> Result<(), AnimError> {
    if expected != actual {
        return Err(AnimError::BufferSize {
            what,
            expected,
            actual,
        });
    }
    Ok(())
}
