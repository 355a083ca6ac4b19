//! Runtime (sorted) skeletons; the raw (editable) skeleton and the builder are offline work
//! ([`crate::offline`]).

use crate::Transform;

/// Parent index of a root joint in [`Skeleton::parents`].
pub const NO_PARENT: u16 = u16::MAX;

/// Runtime skeleton: joints sorted parents-first in depth-first pre-order, so
/// every per-joint loop is one linear pass and the subtree of joint `j` is the
/// contiguous range `j..j + subtree_len(j)`.
///
/// All per-joint arrays (`parents`, `names`, `rest_pose`, `raw_index`) have
/// `joint_count()` elements, indexed by runtime joint index.
#[derive(Clone, Debug, PartialEq)]
pub struct Skeleton {
    pub(crate) parents: Vec<u16>,
    pub(crate) names: Vec<String>,
    pub(crate) rest_pose: Vec<Transform>,
    pub(crate) soa_rest_pose: Vec<crate::SoaTransform>,
    pub(crate) raw_index: Vec<u32>,
}

impl Skeleton {
    /// Number of joints.
    #[inline]
    pub fn joint_count(&self) -> usize {
        self.parents.len()
    }

    /// `[joint_count]` parent indices; [`NO_PARENT`] for roots. Always `parents[j] < j`.
    #[inline]
    pub fn parents(&self) -> &[u16] {
        &self.parents
    }

    /// Parent of `joint`, `None` for a root.
    pub fn parent(&self, joint: usize) -> Option<usize> {
        let p = *self.parents.get(joint)?;
        (p != NO_PARENT).then_some(p as usize)
    }

    /// `[joint_count]` joint names.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// `[joint_count]` rest-pose local transforms.
    pub fn rest_pose(&self) -> &[Transform] {
        &self.rest_pose
    }

    /// `[soa_blocks(joint_count)]` the rest pose in SoA blocks (identity past the last joint).
    pub fn soa_rest_pose(&self) -> &[crate::SoaTransform] {
        &self.soa_rest_pose
    }

    /// `[joint_count]`: for each runtime joint, its index in the [`crate::RawSkeleton`]
    /// it was built from (importers use it to map file nodes to joints).
    pub fn raw_index(&self) -> &[u32] {
        &self.raw_index
    }

    /// Runtime index of the joint built from raw joint `raw`.
    pub fn joint_of_raw(&self, raw: usize) -> Option<usize> {
        self.raw_index.iter().position(|&r| r as usize == raw)
    }

    /// Runtime index of the first joint named `name`.
    pub fn find_joint(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// Number of joints in the subtree rooted at `joint`, itself included
    /// (the subtree is `joint..joint + subtree_len(joint)`).
    pub fn subtree_len(&self, joint: usize) -> usize {
        let mut end = joint + 1;
        while end < self.parents.len() {
            let p = self.parents[end];
            if p == NO_PARENT || (p as usize) < joint {
                break;
            }
            end += 1;
        }
        end - joint
    }
}
