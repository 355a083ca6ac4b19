//! Raw (editable) skeletons as importers produce them, and their builder
//! ([`Skeleton::build`]): validated and sorted parents-first for the runtime.

use crate::skeleton::{Skeleton, NO_PARENT};
use crate::{AnimError, Transform};

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
}
