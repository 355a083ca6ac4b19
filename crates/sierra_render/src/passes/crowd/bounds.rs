//! Culling crowd members before the vertex stage: a box holding a crowd mesh in every baked pose
//! ([`posed_bounds`]), each member's world box from it ([`member_bounds`]), and the runs of
//! consecutive members whose boxes meet a frustum ([`visible_runs`]), each run one instanced
//! draw over that instance range, so members outside the view (or the sun's box) cost no
//! vertex invocations and the instance buffer is never rewritten for culling.

use std::ops::Range;

use glam::{Mat4, Vec3, Vec4};

use crate::passes::crowd::baked::BakedPalettes;
use crate::passes::crowd::instance::CrowdInstance;
use crate::passes::frustum::{transform_aabb, Frustum};
use crate::skinned_mesh::SkinnedMeshData;

/// A box `(min, max)` in the crowd's model space (metres) holding every vertex of `mesh` in
/// every pose the crowd vertex shader can produce from `baked`; `None` for an empty mesh or
/// non-finite values (the crowd is then never culled).
///
/// The shader's skinning matrix is `Σᵢ wᵢ Σₖ αₖ M(jᵢ, fₖ)`: the vertex's weights `wᵢ` times a
/// blend (`αₖ ≥ 0`, `Σ αₖ = 1`: frame interpolation and the clip crossfade) of baked matrices
/// `M(j, f)` (joint `j`, frame `f`). With `Σ wᵢ = s`, the posed vertex is `s` times a convex
/// combination of points `M(j, f) · v`, each inside the box of joint `j`'s bind-pose vertices
/// transformed by `M(j, f)`. So the union of those boxes over every joint and frame, scaled
/// about the origin by the smallest and largest weight sums, holds every pose (exact bound,
/// not a guess of how far limbs swing).
pub fn posed_bounds(mesh: &SkinnedMeshData, baked: &BakedPalettes) -> Option<(Vec3, Vec3)> {
    let joint_boxes = bind_boxes_per_joint(mesh, baked.joint_count);
    let mut posed: Option<(Vec3, Vec3)> = None;
    for frame in 0..baked.total_frames() {
        for (joint, bind) in joint_boxes.iter().enumerate() {
            let Some((lo, hi)) = *bind else { continue };
            let m = baked_matrix(baked, frame, joint)?;
            posed = Some(union(posed, transform_aabb(&m, lo, hi)));
        }
    }
    let (min, max) = posed?;
    let (s_min, s_max) = weight_sum_range(mesh)?;
    let scaled = |s: f32| (min * s).min(max * s)..(min * s).max(max * s);
    let (a, b) = (scaled(s_min), scaled(s_max));
    let bounds = (a.start.min(b.start), a.end.max(b.end));
    (bounds.0.is_finite() && bounds.1.is_finite()).then_some(bounds)
}

/// World boxes `[member] (min, max)` of `instances` posed within `posed` (model space); every
/// box spans all of `f32` where `posed` is `None`, so nothing is culled (not infinities, whose
/// product with a plane's zero component would be NaN and cull).
pub fn member_bounds(
    posed: Option<(Vec3, Vec3)>,
    instances: &[CrowdInstance],
) -> Vec<(Vec3, Vec3)> {
    instances
        .iter()
        .map(|i| match posed {
            Some((lo, hi)) => transform_aabb(&i.model, lo, hi),
            None => (Vec3::splat(f32::MIN), Vec3::splat(f32::MAX)),
        })
        .collect()
}

/// Maximal ranges of consecutive member indices whose boxes (`bounds`, world) may meet
/// `frustum`, in increasing order; nothing where every member is outside it.
pub fn visible_runs<'a>(
    bounds: &'a [(Vec3, Vec3)],
    frustum: &'a Frustum,
) -> impl Iterator<Item = Range<u32>> + 'a {
    let mut next = 0usize;
    std::iter::from_fn(move || {
        let seen = |b: &(Vec3, Vec3)| frustum.intersects_aabb(b.0, b.1);
        let start = next + bounds.get(next..)?.iter().position(seen)?;
        let len = bounds[start..].iter().take_while(|b| seen(b)).count();
        next = start + len;
        Some(start as u32..next as u32)
    })
}

/// `[joint]` the bind-pose box of the vertices the joint weighs (non-zero weight); `None` for a
/// joint that moves no vertex.
fn bind_boxes_per_joint(mesh: &SkinnedMeshData, joint_count: usize) -> Vec<Option<(Vec3, Vec3)>> {
    let mut boxes = vec![None; joint_count];
    let vertices = mesh
        .mesh
        .positions
        .iter()
        .zip(&mesh.joints)
        .zip(&mesh.weights);
    for ((&p, joints), weights) in vertices {
        let p = Vec3::from(p);
        for (&j, &w) in joints.iter().zip(weights) {
            if let Some(slot) = boxes.get_mut(j as usize).filter(|_| w != 0.0) {
                *slot = Some(union(*slot, (p, p)));
            }
        }
    }
    boxes
}

/// The skinning matrix of `joint` at global baked frame `frame` (its three texel rows, bottom
/// row `(0, 0, 0, 1)`); `None` past the texels.
fn baked_matrix(baked: &BakedPalettes, frame: usize, joint: usize) -> Option<Mat4> {
    let first = (frame * baked.joint_count + joint) * 3;
    let rows = baked.texels.get(first..first + 3)?;
    Some(Mat4::from_rows(rows[0], rows[1], rows[2], Vec4::W))
}

/// The smallest and largest sum of a vertex's weights (1 for normalised glTF weights).
fn weight_sum_range(mesh: &SkinnedMeshData) -> Option<(f32, f32)> {
    let sums = mesh.weights.iter().map(|w| w.iter().sum::<f32>());
    sums.fold(None, |acc, s| match acc {
        None => Some((s, s)),
        Some((lo, hi)) => Some((lo.min(s), hi.max(s))),
    })
}

fn union(a: Option<(Vec3, Vec3)>, b: (Vec3, Vec3)) -> (Vec3, Vec3) {
    match a {
        Some((lo, hi)) => (lo.min(b.0), hi.max(b.1)),
        None => b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::MeshData;
    use crate::passes::crowd::baked::BakedPaletteClip;
    use glam::Quat;

    /// Two joints: joint 0 still, joint 1 swinging about the origin by 90° around Z over 3 frames.
    fn two_joint_bake() -> BakedPalettes {
        let poses = [0.0f32, 45.0, 90.0]
            .map(|deg| Mat4::from_quat(Quat::from_rotation_z(deg.to_radians())));
        let mut texels = Vec::new();
        for swing in poses {
            for m in [Mat4::IDENTITY, swing] {
                let t = m.transpose();
                texels.extend([t.x_axis, t.y_axis, t.z_axis]);
            }
        }
        BakedPalettes {
            joint_count: 2,
            sample_rate: 1.0,
            clips: vec![BakedPaletteClip {
                first_frame: 0,
                frame_count: 3,
                duration: 2.0,
            }],
            texels,
        }
    }

    /// A vertex at the origin on joint 0, one at (1, 0, 0) on joint 1, one halfway between.
    fn mesh() -> SkinnedMeshData {
        let positions = vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.5, 0.0, 0.0]];
        SkinnedMeshData {
            mesh: MeshData {
                positions,
                ..MeshData::default()
            },
            joints: vec![[0, 0, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0]],
            weights: vec![
                [1.0, 0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0, 0.0],
                [0.5, 0.5, 0.0, 0.0],
            ],
            joint_count: 2,
            morph_targets: Vec::new(),
        }
    }

    #[test]
    fn posed_bounds_hold_every_baked_pose_of_every_vertex() {
        let (lo, hi) = posed_bounds(&mesh(), &two_joint_bake()).unwrap();
        // Joint 1 carries x ∈ [0.5, 1] from +X (0°) to +Y (90°): its box reaches (1, 1) at
        // 45° and 90°, its smallest x is 0 (at 90°, x = 0) and the still joint keeps 0.
        assert!((lo - Vec3::ZERO).abs().max_element() < 1e-6, "{lo}");
        assert!(
            (hi - Vec3::new(1.0, 1.0, 0.0)).abs().max_element() < 1e-6,
            "{hi}"
        );
        // Independent check: the mesh skinned on the CPU at every frame lies inside.
        let baked = two_joint_bake();
        let m = mesh();
        for f in 0..3 {
            for ((p, j), w) in m.mesh.positions.iter().zip(&m.joints).zip(&m.weights) {
                let skinned: Vec3 = (0..4)
                    .map(|i| {
                        baked_matrix(&baked, f, j[i] as usize)
                            .unwrap()
                            .transform_point3(Vec3::from(*p))
                            * w[i]
                    })
                    .sum();
                assert!(
                    skinned.cmpge(lo - 1e-6).all() && skinned.cmple(hi + 1e-6).all(),
                    "{skinned}"
                );
            }
        }
    }

    #[test]
    fn weights_summing_past_one_widen_the_bounds() {
        let mut heavy = mesh();
        heavy.weights[1] = [2.0, 0.0, 0.0, 0.0];
        let (_, hi) = posed_bounds(&heavy, &two_joint_bake()).unwrap();
        assert!(
            (hi - Vec3::new(2.0, 2.0, 0.0)).abs().max_element() < 1e-6,
            "{hi}"
        );
    }

    #[test]
    fn runs_cover_exactly_the_members_in_view() {
        let inside = (Vec3::splat(-1.0), Vec3::splat(1.0));
        let outside = (Vec3::splat(10.0), Vec3::splat(11.0));
        // The box [-2, 2]³ as a frustum (an orthographic projection).
        let frustum = Frustum::from_view_proj(
            Mat4::from_translation(Vec3::new(0.0, 0.0, 0.5))
                * Mat4::from_scale(Vec3::new(0.5, 0.5, 0.25)),
        );
        let bounds = [outside, inside, inside, outside, inside, outside];
        let runs: Vec<_> = visible_runs(&bounds, &frustum).collect();
        assert_eq!(runs, vec![1..3, 4..5]);
        assert_eq!(visible_runs(&[outside, outside], &frustum).count(), 0);
        assert_eq!(
            visible_runs(&[inside; 3], &frustum).collect::<Vec<_>>(),
            vec![0..3]
        );
        let unbounded = member_bounds(
            None,
            &[CrowdInstance::new(
                Mat4::from_translation(Vec3::splat(50.0)),
                0,
                0.0,
                1.0,
            )],
        );
        assert_eq!(
            visible_runs(&unbounded, &frustum).collect::<Vec<_>>(),
            vec![0..1]
        );
    }
}
