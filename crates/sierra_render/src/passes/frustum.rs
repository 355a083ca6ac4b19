//! View-frustum culling: the six planes of a view-projection matrix and a conservative test of
//! world-space axis-aligned boxes against them.
//!
//! Planes come from the rows of the view-projection matrix (Gribb & Hartmann, "Fast Extraction
//! of Viewing Frustum Planes from the World-View-Projection Matrix", 2001), for wgpu's clip
//! space: `-w ≤ x ≤ w`, `-w ≤ y ≤ w`, `0 ≤ z ≤ w`. A box is outside when its "positive vertex"
//! (the corner farthest along a plane's normal) is behind that plane; boxes straddling a frustum
//! corner may be kept (conservative: never culls a visible box).

use glam::{Mat4, Vec3, Vec4};

/// The six inward-facing planes `(n, d)` (`n·p + d ≥ 0` inside) of a view frustum.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frustum {
    /// Left, right, bottom, top, near, far; not normalised (the sign test does not need it).
    pub planes: [Vec4; 6],
}

impl Frustum {
    /// The frustum of `view_proj` (world → clip, wgpu depth range 0..1).
    pub fn from_view_proj(view_proj: Mat4) -> Self {
        let m = view_proj.transpose();
        let (x, y, z, w) = (m.x_axis, m.y_axis, m.z_axis, m.w_axis);
        Self {
            planes: [w + x, w - x, w + y, w - y, z, w - z],
        }
    }

    /// Whether the world-space box `[min, max]` may be visible (false: entirely outside one plane).
    pub fn intersects_aabb(&self, min: Vec3, max: Vec3) -> bool {
        self.planes.iter().all(|plane| {
            let n = plane.truncate();
            let positive = Vec3::select(n.cmpge(Vec3::ZERO), max, min);
            n.dot(positive) + plane.w >= 0.0
        })
    }
}

/// World-space bounds of the model-space box `[min, max]` under `model` (Arvo, "Transforming
/// Axis-Aligned Bounding Boxes", Graphics Gems 1990): centre transformed, extents through the
/// absolute linear part. Exact for the transformed box's own AABB.
pub fn transform_aabb(model: &Mat4, min: Vec3, max: Vec3) -> (Vec3, Vec3) {
    let centre = model.transform_point3((min + max) * 0.5);
    let half = (max - min) * 0.5;
    let extent = Vec3::new(
        model.x_axis.truncate().abs().dot(Vec3::X) * half.x
            + model.y_axis.truncate().abs().dot(Vec3::X) * half.y
            + model.z_axis.truncate().abs().dot(Vec3::X) * half.z,
        model.x_axis.truncate().abs().dot(Vec3::Y) * half.x
            + model.y_axis.truncate().abs().dot(Vec3::Y) * half.y
            + model.z_axis.truncate().abs().dot(Vec3::Y) * half.z,
        model.x_axis.truncate().abs().dot(Vec3::Z) * half.x
            + model.y_axis.truncate().abs().dot(Vec3::Z) * half.y
            + model.z_axis.truncate().abs().dot(Vec3::Z) * half.z,
    );
    (centre - extent, centre + extent)
}

/// Model-space bounds `(min, max)` of `positions` (metres); `None` when empty or not finite.
pub fn bounds_of(positions: &[[f32; 3]]) -> Option<(Vec3, Vec3)> {
    let mut iter = positions.iter().map(|&p| Vec3::from(p));
    let first = iter.next()?;
    let (min, max) = iter.fold((first, first), |(lo, hi), p| (lo.min(p), hi.max(p)));
    (min.is_finite() && max.is_finite()).then_some((min, max))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Camera;

    fn camera() -> Camera {
        Camera::look_at(
            Vec3::new(0.0, 0.0, 5.0),
            Vec3::ZERO,
            Vec3::Y,
            1.0,
            1.0,
            0.1,
            50.0,
        )
    }

    #[test]
    fn boxes_in_front_are_kept_and_behind_beside_or_beyond_are_culled() {
        let f = Frustum::from_view_proj(camera().view_proj());
        let unit = |c: Vec3| (c - Vec3::splat(0.5), c + Vec3::splat(0.5));
        let kept = |c: Vec3| {
            let (lo, hi) = unit(c);
            f.intersects_aabb(lo, hi)
        };
        assert!(kept(Vec3::ZERO));
        assert!(!kept(Vec3::new(0.0, 0.0, 10.0)), "behind the camera");
        assert!(!kept(Vec3::new(40.0, 0.0, 0.0)), "far to the side");
        assert!(!kept(Vec3::new(0.0, 0.0, -60.0)), "beyond the far plane");
        assert!(kept(Vec3::new(0.0, 0.0, -40.0)), "before the far plane");
        // The left edge of the view (half-angle 0.5 rad) is at x = -3.0 m on the box's far face.
        assert!(kept(Vec3::new(-3.0, 0.0, 0.0)));
        assert!(!kept(Vec3::new(-3.6, 0.0, 0.0)));
    }

    #[test]
    fn transformed_box_contains_every_transformed_corner() {
        let model = Mat4::from_scale_rotation_translation(
            Vec3::new(2.0, -1.0, 0.5),
            glam::Quat::from_euler(glam::EulerRot::XYZ, 0.3, 1.1, -0.7),
            Vec3::new(3.0, -2.0, 1.0),
        );
        let (min, max) = (Vec3::new(-1.0, 0.0, -2.0), Vec3::new(1.0, 3.0, 0.5));
        let (lo, hi) = transform_aabb(&model, min, max);
        let mut tight = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
        for i in 0..8 {
            let corner = Vec3::select(
                glam::BVec3::new(i & 1 != 0, i & 2 != 0, i & 4 != 0),
                max,
                min,
            );
            let p = model.transform_point3(corner);
            tight = (tight.0.min(p), tight.1.max(p));
        }
        assert!(
            (lo - tight.0).abs().max_element() < 1e-5,
            "{lo} vs {}",
            tight.0
        );
        assert!(
            (hi - tight.1).abs().max_element() < 1e-5,
            "{hi} vs {}",
            tight.1
        );
    }

    #[test]
    fn bounds_of_positions() {
        assert_eq!(bounds_of(&[]), None);
        assert_eq!(
            bounds_of(&[[1.0, -2.0, 3.0], [-1.0, 4.0, 0.0]]),
            Some((Vec3::new(-1.0, -2.0, 0.0), Vec3::new(1.0, 4.0, 3.0)))
        );
        assert_eq!(bounds_of(&[[f32::NAN, 0.0, 0.0]]), None);
    }
}
