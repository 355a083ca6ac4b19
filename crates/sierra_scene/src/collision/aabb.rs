//! Axis-aligned boxes: overlap tests and the overlap box (seed 000's collision).

use glam::{Affine3A, Vec3};

/// An axis-aligned box `[min, max]` (metres). Empty when any `min > max`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// Minimum corner.
    pub min: Vec3,
    /// Maximum corner.
    pub max: Vec3,
}

impl Aabb {
    /// The box with corners `min` and `max`.
    pub fn new(min: Vec3, max: Vec3) -> Self {
        Self { min, max }
    }

    /// The box `center ± half_extents`.
    pub fn from_center_half_extents(center: Vec3, half_extents: Vec3) -> Self {
        let h = half_extents.abs();
        Self {
            min: center - h,
            max: center + h,
        }
    }

    /// Centre point.
    pub fn center(&self) -> Vec3 {
        (self.min + self.max) * 0.5
    }

    /// Half the size along each axis.
    pub fn half_extents(&self) -> Vec3 {
        (self.max - self.min) * 0.5
    }

    /// Whether the ranges overlap on all three axes (touching counts).
    pub fn intersects(&self, other: &Aabb) -> bool {
        self.min.cmple(other.max).all() && other.min.cmple(self.max).all()
    }

    /// The box where the two overlap, `None` when they do not.
    pub fn overlap(&self, other: &Aabb) -> Option<Aabb> {
        let b = Aabb {
            min: self.min.max(other.min),
            max: self.max.min(other.max),
        };
        b.min.cmple(b.max).all().then_some(b)
    }

    /// Whether `p` lies inside or on the box.
    pub fn contains_point(&self, p: Vec3) -> bool {
        self.min.cmple(p).all() && p.cmple(self.max).all()
    }

    /// The world AABB of this box carried by the affine `m` (tight for the transformed
    /// box: J. Arvo, "Transforming axis-aligned bounding boxes", Graphics Gems, 1990).
    pub fn transformed(&self, m: &Affine3A) -> Aabb {
        let c = m.transform_point3(self.center());
        let h = self.half_extents();
        let e = m.matrix3.x_axis.abs() * h.x
            + m.matrix3.y_axis.abs() * h.y
            + m.matrix3.z_axis.abs() * h.z;
        let e = Vec3::from(e);
        Aabb {
            min: c - e,
            max: c + e,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlap_box() {
        let a = Aabb::new(Vec3::ZERO, Vec3::new(2.0, 2.0, 2.0));
        let b = Aabb::new(Vec3::new(1.0, -1.0, 1.5), Vec3::new(3.0, 1.0, 4.0));
        assert!(a.intersects(&b) && b.intersects(&a));
        assert_eq!(
            a.overlap(&b),
            Some(Aabb::new(
                Vec3::new(1.0, 0.0, 1.5),
                Vec3::new(2.0, 1.0, 2.0)
            ))
        );
        let c = Aabb::new(Vec3::new(2.5, 0.0, 0.0), Vec3::new(3.0, 1.0, 1.0));
        assert!(!a.intersects(&c));
        assert_eq!(a.overlap(&c), None);
        // Separated on one axis only is still separated.
        let d = Aabb::new(Vec3::new(0.5, 0.5, 2.1), Vec3::new(1.0, 1.0, 3.0));
        assert!(!a.intersects(&d));
        // Touching faces: a zero-thickness overlap.
        let e = Aabb::new(Vec3::new(2.0, 0.0, 0.0), Vec3::new(3.0, 2.0, 2.0));
        assert_eq!(a.overlap(&e).map(|o| o.max.x - o.min.x), Some(0.0));
    }

    #[test]
    fn transformed_box_bounds_all_corners() {
        let b = Aabb::from_center_half_extents(Vec3::new(0.5, 0.0, 0.0), Vec3::new(1.0, 0.5, 0.25));
        let m = Affine3A::from_scale_rotation_translation(
            Vec3::new(2.0, 1.0, 3.0),
            glam::Quat::from_euler(glam::EulerRot::XYZ, 0.3, 0.7, -0.2),
            Vec3::new(1.0, 2.0, 3.0),
        );
        let w = b.transformed(&m);
        let mut lo = Vec3::splat(f32::MAX);
        let mut hi = Vec3::splat(f32::MIN);
        for i in 0..8 {
            let corner = Vec3::new(
                if i & 1 == 0 { b.min.x } else { b.max.x },
                if i & 2 == 0 { b.min.y } else { b.max.y },
                if i & 4 == 0 { b.min.z } else { b.max.z },
            );
            let p = m.transform_point3(corner);
            lo = lo.min(p);
            hi = hi.max(p);
        }
        assert!(
            w.min.abs_diff_eq(lo, 1e-5) && w.max.abs_diff_eq(hi, 1e-5),
            "{w:?} vs {lo} {hi}"
        );
    }
}
