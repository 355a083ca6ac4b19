//! Rays and segments against axis-aligned boxes by the slab method (seed 000; Kay & Kajiya,
//! "Ray tracing complex scenes", SIGGRAPH 1986; Ericson, *Real-Time Collision Detection* §5.3.3).

use glam::Vec3;

use super::Aabb;

/// A half-line `origin + t · direction`, `t ≥ 0`, with a unit `direction`, so `t` is a
/// distance in metres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray {
    /// Start point.
    pub origin: Vec3,
    /// Unit direction.
    pub direction: Vec3,
}

impl Ray {
    /// A ray from `origin` along `direction` (normalised here; a zero direction gives a
    /// ray that hits nothing).
    pub fn new(origin: Vec3, direction: Vec3) -> Self {
        Self {
            origin,
            direction: direction.normalize_or_zero(),
        }
    }

    /// The point at distance `t`.
    pub fn at(&self, t: f32) -> Vec3 {
        self.origin + self.direction * t
    }
}

/// Where a line enters a box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlabHit {
    /// Line parameter of the entry (`0` when the start is inside the box).
    pub t: f32,
    /// Line parameter where the line leaves the box.
    pub t_exit: f32,
    /// Outward normal of the entry face (axis-aligned, unit). When the start is inside,
    /// the normal of the face the line would have entered through (`-direction`'s
    /// dominant axis), so callers always get a usable normal.
    pub normal: Vec3,
    /// Whether the start point is inside the box.
    pub inside: bool,
}

/// Slab test of the line `origin + t · direction` for `t` in `[0, t_max]` against `b`.
///
/// Per axis the line enters and leaves the slab between the two planes; the latest entry
/// and the earliest exit bound the part inside the box, and it missed when the entry comes
/// after the exit. A direction component of exactly 0 (a line parallel to the slab) hits
/// only if the origin lies within that slab — tested explicitly, so no `0 · ∞` NaN appears.
/// `direction` need not be unit: with `end - start` and `t_max = 1` this is the segment test.
pub fn slab_test(origin: Vec3, direction: Vec3, b: &Aabb, t_max: f32) -> Option<SlabHit> {
    let mut t_enter = 0.0f32;
    let mut t_exit = t_max;
    let mut enter_axis: Option<usize> = None;
    for axis in 0..3 {
        let (o, d, lo, hi) = (origin[axis], direction[axis], b.min[axis], b.max[axis]);
        if d == 0.0 {
            if o < lo || o > hi {
                return None;
            }
            continue;
        }
        let inv = 1.0 / d;
        let (mut t1, mut t2) = ((lo - o) * inv, (hi - o) * inv);
        if t1 > t2 {
            std::mem::swap(&mut t1, &mut t2);
        }
        if t1 > t_enter {
            t_enter = t1;
            enter_axis = Some(axis);
        }
        t_exit = t_exit.min(t2);
        if t_enter > t_exit {
            return None;
        }
    }
    let inside = enter_axis.is_none();
    let axis = enter_axis.unwrap_or_else(|| direction.abs().max_position());
    let mut normal = Vec3::ZERO;
    normal[axis] = -direction[axis].signum();
    Some(SlabHit {
        t: t_enter,
        t_exit,
        normal,
        inside,
    })
}

/// Ray against box within `max_distance` metres.
pub fn ray_aabb(ray: &Ray, b: &Aabb, max_distance: f32) -> Option<SlabHit> {
    slab_test(ray.origin, ray.direction, b, max_distance)
}

/// Segment `start → end` against box; `t` in the result is the fraction of the segment
/// (0 at `start`, 1 at `end`).
pub fn segment_aabb(start: Vec3, end: Vec3, b: &Aabb) -> Option<SlabHit> {
    slab_test(start, end - start, b, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_box() -> Aabb {
        Aabb::new(Vec3::splat(-1.0), Vec3::splat(1.0))
    }

    #[test]
    fn hit_from_outside_gives_entry_distance_and_face() {
        let h = ray_aabb(
            &Ray::new(Vec3::new(-5.0, 0.2, 0.3), Vec3::X),
            &unit_box(),
            100.0,
        )
        .unwrap();
        assert_eq!(h.t, 4.0);
        assert_eq!(h.t_exit, 6.0);
        assert_eq!(h.normal, -Vec3::X);
        assert!(!h.inside);
        // Diagonal ray hits the top face first.
        let h = ray_aabb(
            &Ray::new(Vec3::new(0.0, 3.0, 0.0), Vec3::new(0.5, -1.0, 0.0)),
            &unit_box(),
            100.0,
        )
        .unwrap();
        assert_eq!(h.normal, Vec3::Y);
        assert!((h.t - 2.0 * (1.25f32).sqrt()).abs() < 1e-5, "{h:?}");
    }

    #[test]
    fn misses() {
        let b = unit_box();
        assert!(ray_aabb(&Ray::new(Vec3::new(-5.0, 2.0, 0.0), Vec3::X), &b, 100.0).is_none());
        // Pointing away.
        assert!(ray_aabb(&Ray::new(Vec3::new(-5.0, 0.0, 0.0), -Vec3::X), &b, 100.0).is_none());
        // Passing by a corner.
        assert!(ray_aabb(
            &Ray::new(Vec3::new(-3.0, 0.0, 0.0), Vec3::new(1.0, 1.0, 0.0)),
            &b,
            100.0
        )
        .is_none());
        // Too short.
        assert!(ray_aabb(&Ray::new(Vec3::new(-5.0, 0.0, 0.0), Vec3::X), &b, 3.9).is_none());
    }

    #[test]
    fn parallel_rays_inside_and_outside_the_slab() {
        let b = unit_box();
        // Parallel to X and Z planes (direction only along Y), inside both slabs: hit.
        let h = ray_aabb(&Ray::new(Vec3::new(0.5, 5.0, -0.5), -Vec3::Y), &b, 100.0).unwrap();
        assert_eq!((h.t, h.normal), (4.0, Vec3::Y));
        // Parallel, outside the X slab: miss (no NaN from 0 * inf).
        assert!(ray_aabb(&Ray::new(Vec3::new(1.5, 5.0, 0.0), -Vec3::Y), &b, 100.0).is_none());
        // Exactly on the slab boundary counts as inside.
        assert!(ray_aabb(&Ray::new(Vec3::new(1.0, 5.0, 0.0), -Vec3::Y), &b, 100.0).is_some());
    }

    #[test]
    fn origin_inside_the_box() {
        let h = ray_aabb(
            &Ray::new(Vec3::new(0.2, 0.1, 0.0), Vec3::Z),
            &unit_box(),
            100.0,
        )
        .unwrap();
        assert!(h.inside);
        assert_eq!(h.t, 0.0);
        assert_eq!(h.t_exit, 1.0);
        assert_eq!(h.normal, -Vec3::Z);
    }

    #[test]
    fn segments() {
        let b = unit_box();
        // Crossing segment: entry fraction 0.4.
        let h = segment_aabb(Vec3::new(-3.0, 0.0, 0.0), Vec3::new(2.0, 0.0, 0.0), &b).unwrap();
        assert!((h.t - 0.4).abs() < 1e-6);
        // Segment ending before the box.
        assert!(segment_aabb(Vec3::new(-3.0, 0.0, 0.0), Vec3::new(-1.5, 0.0, 0.0), &b).is_none());
        // Segment ending inside the box.
        let h = segment_aabb(Vec3::new(-3.0, 0.0, 0.0), Vec3::new(0.0, 0.0, 0.0), &b).unwrap();
        assert!((h.t - 2.0 / 3.0).abs() < 1e-6 && h.t_exit == 1.0);
        // Degenerate segment (a point) inside and outside.
        assert!(segment_aabb(Vec3::ZERO, Vec3::ZERO, &b).is_some_and(|h| h.inside));
        assert!(segment_aabb(Vec3::splat(2.0), Vec3::splat(2.0), &b).is_none());
    }
}
