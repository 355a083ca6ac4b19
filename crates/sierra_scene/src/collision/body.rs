//! A character's body against the collision boxes: the overlap push-out that stops a body at a
//! wall and lets it slide along it (seed 000's AABB collision: overlap box, then move out along
//! the axis of least penetration; Ericson, *Real-Time Collision Detection* §4.2 and §5.2.1).

use glam::Vec3;

use super::{Aabb, CollisionWorld};

/// A standing body: the box `[-radius, radius]` around the vertical line through the feet, from
/// `step` to `height` metres above the feet. The part below `step` is left to the ground probe
/// (steps up to `step` are climbed, and the box stood on is not a wall).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Body {
    /// Half width in X and Z, metres.
    pub radius: f32,
    /// Top of the body above the feet, metres.
    pub height: f32,
    /// Bottom of the colliding part above the feet, metres (the climbable step height).
    pub step: f32,
}

impl Body {
    /// The colliding box of the body standing at `feet` (world, metres).
    pub fn bounds(&self, feet: Vec3) -> Aabb {
        Aabb::new(
            feet + Vec3::new(-self.radius, self.step, -self.radius),
            feet + Vec3::new(self.radius, self.height, self.radius),
        )
    }
}

/// What [`CollisionWorld::push_out`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PushOut {
    /// World translation to add to the feet, metres (zero when nothing overlapped).
    pub offset: Vec3,
    /// Whether a box pushed the body down (its head met a ceiling: stop rising).
    pub ceiling: bool,
    /// Boxes the body overlapped.
    pub contacts: usize,
}

/// Push directions whose world Y exceeds this are left to the ground probe (a body is never
/// lifted onto a box by a push; it climbs steps and lands through the ground ray).
const MAX_PUSH_UP: f32 = 0.7;

/// Overlaps thinner than this (metres, in the box's frame) are contact, not penetration: a body
/// pushed out exactly onto a face stays there despite rounding.
const CONTACT: f32 = 1e-5;

/// Passes over the boxes: a push out of one box may push into another (a corner).
const PASSES: usize = 3;

impl CollisionWorld {
    /// Moves a body standing at `feet` out of every box it overlaps.
    ///
    /// Each box is tested in its own frame: the body's bounds carried by the box's inverse world
    /// matrix (a tight AABB of the carried box, so a body is pushed slightly further from a
    /// rotated box than its true outline needs) against the box. Of the six faces, the one with
    /// the least penetration measured in world metres wins, skipping faces that would push the
    /// body up (normal Y > 0.7); the body moves out along that face's normal by the
    /// penetration. Motion along the face is untouched, so a body walking into a wall at an
    /// angle slides along it. Three passes resolve corners where two boxes meet.
    pub fn push_out(&self, feet: Vec3, body: &Body) -> PushOut {
        let mut result = PushOut::default();
        for _ in 0..PASSES {
            let mut moved = false;
            for b in self.boxes() {
                let bounds = body.bounds(feet + result.offset);
                if !b.bounds.intersects(&bounds) {
                    continue;
                }
                let local = bounds.transformed(&b.world_inverse);
                let Some(overlap) = b.local.overlap(&local) else {
                    continue;
                };
                if (overlap.max - overlap.min).min_element() <= CONTACT {
                    continue;
                }
                let mut best: Option<Vec3> = None;
                for axis in 0..3 {
                    let out_neg = local.max[axis] - b.local.min[axis];
                    let out_pos = b.local.max[axis] - local.min[axis];
                    let mut v = Vec3::ZERO;
                    v[axis] = if out_neg < out_pos { -out_neg } else { out_pos };
                    let world = b.world.transform_vector3(v);
                    let length = world.length();
                    if length == 0.0 || world.y > MAX_PUSH_UP * length {
                        continue;
                    }
                    if best.is_none_or(|w| length < w.length()) {
                        best = Some(world);
                    }
                }
                if let Some(push) = best {
                    result.offset += push;
                    result.contacts += 1;
                    result.ceiling |= push.y < -MAX_PUSH_UP * push.length();
                    moved = true;
                }
            }
            if !moved {
                break;
            }
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use glam::Quat;

    use super::*;
    use crate::graph::{SceneGraph, Transform};

    const BODY: Body = Body {
        radius: 0.3,
        height: 1.8,
        step: 0.4,
    };

    /// A world of one box of half extents `half` at `at`, turned by `rotation`.
    fn world_of(at: Vec3, rotation: Quat, half: Vec3) -> CollisionWorld {
        let mut graph = SceneGraph::new();
        let local = Transform {
            translation: at,
            rotation,
            scale: Vec3::ONE,
        };
        let node = graph.add("box", local, None).unwrap();
        graph.propagate();
        let mut world = CollisionWorld::default();
        world.add(
            node,
            Aabb::from_center_half_extents(Vec3::ZERO, half),
            &graph,
        );
        world
    }

    #[test]
    fn a_body_inside_a_wall_leaves_through_the_nearest_face_only() {
        // Wall x ∈ [0, 1], tall; the body's right side is 0.1 m into it.
        let world = world_of(
            Vec3::new(0.5, 1.0, 0.0),
            Quat::IDENTITY,
            Vec3::new(0.5, 1.0, 5.0),
        );
        let push = world.push_out(Vec3::new(-0.2, 0.0, 1.0), &BODY);
        assert!(
            push.offset.abs_diff_eq(Vec3::new(-0.1, 0.0, 0.0), 1e-6),
            "{push:?}"
        );
        assert_eq!(push.contacts, 1);
        assert!(!push.ceiling);
        // Just touching is not a contact.
        let push = world.push_out(Vec3::new(-0.3, 0.0, 1.0), &BODY);
        assert_eq!(push, PushOut::default());
    }

    #[test]
    fn a_box_below_the_step_height_is_not_a_wall_and_no_push_lifts_the_body() {
        // Top at y = 0.3 < step: the ground probe climbs it.
        let world = world_of(
            Vec3::new(0.0, 0.15, 0.0),
            Quat::IDENTITY,
            Vec3::new(1.0, 0.15, 1.0),
        );
        assert_eq!(world.push_out(Vec3::new(0.5, 0.0, 0.5), &BODY).contacts, 0);
        // Top at 0.45: 5 cm into the body's bottom. Up is the shortest way out but is refused;
        // the nearest side face wins: the body (x ∈ [0.6, 1.2]) leaves through x = 1 by 0.4 m.
        let world = world_of(
            Vec3::new(0.0, 0.225, 0.0),
            Quat::IDENTITY,
            Vec3::new(1.0, 0.225, 1.0),
        );
        let push = world.push_out(Vec3::new(0.9, 0.0, 0.0), &BODY);
        assert!(
            push.offset.abs_diff_eq(Vec3::new(0.4, 0.0, 0.0), 1e-6),
            "{push:?}"
        );
    }

    #[test]
    fn a_head_under_a_ceiling_is_pushed_down_and_reported() {
        let world = world_of(
            Vec3::new(0.0, 2.0, 0.0),
            Quat::IDENTITY,
            Vec3::new(3.0, 0.25, 3.0),
        );
        // Head at 1.8 + 0.1 = 1.9, ceiling bottom at 1.75.
        let push = world.push_out(Vec3::new(0.0, 0.1, 0.0), &BODY);
        assert!(
            push.offset.abs_diff_eq(Vec3::new(0.0, -0.15, 0.0), 1e-6),
            "{push:?}"
        );
        assert!(push.ceiling);
    }

    #[test]
    fn a_rotated_wall_pushes_along_its_own_face_normal() {
        // A thin wall turned 45° about Y: its face normal is (cos 45°, 0, −sin 45°) in world.
        let turn = Quat::from_rotation_y(std::f32::consts::FRAC_PI_4);
        let world = world_of(Vec3::ZERO, turn, Vec3::new(0.1, 2.0, 5.0));
        let normal = turn * Vec3::X;
        let push = world.push_out(normal * 0.35, &BODY);
        assert!(push.contacts == 1, "{push:?}");
        let dir = push.offset.normalize();
        assert!(dir.abs_diff_eq(normal, 1e-5), "{dir} vs {normal}");
        // Out of the wall afterwards (at most rounding left to push).
        let after = world.push_out(normal * 0.35 + push.offset, &BODY);
        assert!(after.offset.length() < 1e-5, "{after:?}");
    }
}
