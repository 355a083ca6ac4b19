//! Raw (editable) and runtime (sorted) skeletons.

use crate::{AnimError, Transform};

/// Parent index of a root joint in [`Skeleton::parents`].
pub const NO_PARENT: u16 = u16::MAX;

/// One joint of a [`RawSkeleton`].
#[derive(Clone, Debug, PartialEq)]
pub struct RawJoint {
    /// Joint name (glTF node name, or empty).
    pub name: String,
    /// Index of the parent in [`RawSkeleton::joints`]; `None` for a root.
    pub parent: Option<usize>,
    /// Rest (bind-time) local transform: the glTF node's TRS.
    pub rest: Transform,
}

/// An editable skeleton as importers produce it: joints in any order, each
/// naming its parent by index. [`Skeleton::build`] validates and sorts it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawSkeleton {
    /// Joints in any order.
    pub joints: Vec<RawJoint>,
}

/// Runtime skeleton: joints sorted parents-first in depth-first pre-order, so
/// every per-joint loop is one linear pass and the subtree of joint `j` is the
/// contiguous range `j..j + subtree_len(j)`.
///
/// All per-joint arrays (`parents`, `names`, `rest_pose`, `raw_index`) have
/// `joint_count()` elements, indexed by runtime joint index.
#[derive(Clone, Debug, PartialEq)]
pub struct Skeleton {
    parents: Vec<u16>,
    names: Vec<String>,
    rest_pose: Vec<Transform>,
    soa_rest_pose: Vec<crate::SoaTransform>,
    raw_index: Vec<u32>,
}

impl Skeleton {
    /// Validates a raw skeleton (parents in range, no cycles, at most 65535
    /// joints) and sorts it depth-first, roots and children in raw order.
    ///
    /// Errors: [`AnimError::ParentOutOfRange`], [`AnimError::ParentCycle`],
    /// [`AnimError::TooManyJoints`].
    pub fn build(raw: &RawSkeleton) -> Result<Self, AnimError> {
        let n = raw.joints.len();
        if n >= NO_PARENT as usize {
            return Err(AnimError::TooManyJoints(n));
        }
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut roots = Vec::new();
        for (i, j) in raw.joints.iter().enumerate() {
            match j.parent {
                Some(p) if p >= n => {
                    return Err(AnimError::ParentOutOfRange {
                        joint: i,
                        name: j.name.clone(),
                        parent: p,
                        count: n,
                    })
                }
                Some(p) => children[p].push(i),
                None => roots.push(i),
            }
        }
        let mut order = Vec::with_capacity(n);
        let mut stack: Vec<usize> = roots.iter().rev().copied().collect();
        while let Some(i) = stack.pop() {
            order.push(i);
            stack.extend(children[i].iter().rev());
        }
        if order.len() != n {
            let mut seen = vec![false; n];
            for &i in &order {
                seen[i] = true;
            }
            let joint = seen.iter().position(|s| !s).unwrap_or(0);
            return Err(AnimError::ParentCycle {
                joint,
                name: raw.joints[joint].name.clone(),
            });
        }
        let mut sorted_of_raw = vec![0u16; n];
        for (s, &r) in order.iter().enumerate() {
            sorted_of_raw[r] = s as u16;
        }
        let rest_pose: Vec<Transform> = order.iter().map(|&r| raw.joints[r].rest).collect();
        let mut soa_rest_pose = vec![crate::SoaTransform::IDENTITY; crate::soa_blocks(n)];
        crate::to_soa(&rest_pose, &mut soa_rest_pose)?;
        Ok(Self {
            soa_rest_pose,
            parents: order
                .iter()
                .map(|&r| raw.joints[r].parent.map_or(NO_PARENT, |p| sorted_of_raw[p]))
                .collect(),
            names: order.iter().map(|&r| raw.joints[r].name.clone()).collect(),
            rest_pose,
            raw_index: order.iter().map(|&r| r as u32).collect(),
        })
    }

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

    /// `[joint_count]`: for each runtime joint, its index in the [`RawSkeleton`]
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
