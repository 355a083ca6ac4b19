//! Bounds of a skinned mesh in its current pose, for frustum culling, from the posed joints
//! rather than the bind pose (a bind-pose box misses a raised arm or a crouch).
//!
//! [`JointBounds::new`] computes once, per skin joint, the axis-aligned box of the bind-pose
//! vertices that joint influences (weight > 0), in the mesh's bind space. Each frame
//! [`JointBounds::posed_bounds`] transforms every box's 8 corners by that joint's palette matrix
//! and unions the results: `O(joints)`, not `O(vertices)`.
//!
//! Why it contains every skinned vertex: linear blend skinning (glTF 2.0 §3.7.3.3) puts vertex
//! `v` at `Σ wᵢ Mᵢ v` with `wᵢ ≥ 0`, `Σ wᵢ = 1`. Each `Mᵢ v` lies in the box of `Mᵢ`'s transformed
//! corners (`v` is in joint `i`'s bind box), hence in the union box; the union box is convex, so
//! the weighted average is inside too. The bound is conservative (boxes of rotated boxes grow),
//! never too small.
//!
//! Morph targets (applied before skinning) widen each vertex to the box its position can reach
//! with every weight in `[0, 1]`: `p + Σ min(Δₖ, 0) .. p + Σ max(Δₖ, 0)`, so the bounds hold
//! for any weights in that range (glTF's usual one) without per-frame vertex work.

use glam::{Mat4, Vec3};

use crate::skinned_mesh::SkinnedMeshData;

/// Per-joint bind-space boxes of one skinned mesh.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JointBounds {
    /// `[joint_count]` `(min, max)` in bind space (metres), `None` for a joint no vertex uses.
    pub boxes: Vec<Option<(Vec3, Vec3)>>,
}

impl JointBounds {
    /// The boxes of `mesh`'s vertices per influencing joint (`mesh.joint_count` entries; joint
    /// indices past it are ignored, as [`SkinnedMeshData::validate`] refuses them), each vertex
    /// widened by its morph target deltas for weights in `[0, 1]`.
    pub fn new(mesh: &SkinnedMeshData) -> Self {
        let mut boxes: Vec<Option<(Vec3, Vec3)>> = vec![None; mesh.joint_count as usize];
        for (v, ((p, joints), weights)) in mesh
            .mesh
            .positions
            .iter()
            .zip(&mesh.joints)
            .zip(&mesh.weights)
            .enumerate()
        {
            let p = Vec3::from(*p);
            let (mut lo_v, mut hi_v) = (p, p);
            for target in &mesh.morph_targets {
                let d = target.positions.get(v).copied().unwrap_or(Vec3::ZERO);
                lo_v += d.min(Vec3::ZERO);
                hi_v += d.max(Vec3::ZERO);
            }
            for (&j, &w) in joints.iter().zip(weights) {
                if w <= 0.0 {
                    continue;
                }
                if let Some(slot) = boxes.get_mut(j as usize) {
                    *slot = Some(match *slot {
                        Some((lo, hi)) => (lo.min(lo_v), hi.max(hi_v)),
                        None => (lo_v, hi_v),
                    });
                }
            }
        }
        Self { boxes }
    }

    /// Axis-aligned bounds `(min, max)` of the mesh skinned by `palette` (`[joint_count]`
    /// column-major `Mat4`, joint matrix × inverse bind matrix, as [`crate::compute::skinning::Skinning`]
    /// takes it), in the palette's space (world space for the game's palettes; apply the draw's
    /// `model` with [`transform_bounds`] otherwise). `None` when no joint influences any vertex
    /// or the palette is shorter than the skin.
    pub fn posed_bounds(&self, palette: &[Mat4]) -> Option<(Vec3, Vec3)> {
        if palette.len() < self.boxes.len() {
            return None;
        }
        self.boxes
            .iter()
            .zip(palette)
            .filter_map(|(b, m)| b.map(|b| transform_bounds(*m, b)))
            .reduce(|(lo, hi), (l, h)| (lo.min(l), hi.max(h)))
    }
}

/// The axis-aligned box of `bounds`' 8 corners transformed by the affine `m`.
pub fn transform_bounds(m: Mat4, (lo, hi): (Vec3, Vec3)) -> (Vec3, Vec3) {
    (0..8)
        .map(|k| {
            m.transform_point3(Vec3::new(
                if k & 1 == 0 { lo.x } else { hi.x },
                if k & 2 == 0 { lo.y } else { hi.y },
                if k & 4 == 0 { lo.z } else { hi.z },
            ))
        })
        .fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(a, b), p| {
            (a.min(p), b.max(p))
        })
}
