//! Ray casts against oriented collision boxes that follow their nodes.

mod common;

use common::add_at;
use glam::{Quat, Vec3};
use sierra_scene::collision::{Aabb, CollisionWorld, Ray};
use sierra_scene::graph::{SceneGraph, Transform};

fn unit() -> Aabb {
    Aabb::from_center_half_extents(Vec3::ZERO, Vec3::splat(0.5))
}

#[test]
fn closest_hit_among_overlapping_boxes() {
    let mut g = SceneGraph::new();
    // Three overlapping boxes along +X; listed far-to-near so order cannot decide.
    let far = add_at(&mut g, "far", Vec3::new(1.6, 0.0, 0.0), None);
    let mid = add_at(&mut g, "mid", Vec3::new(1.0, 0.0, 0.0), None);
    let near = add_at(&mut g, "near", Vec3::new(0.3, 0.0, 0.0), None);
    g.propagate();
    let mut w = CollisionWorld::default();
    for id in [far, mid, near] {
        w.add(id, unit(), &g);
    }
    let hit = w
        .raycast(&Ray::new(Vec3::new(-5.0, 0.1, 0.1), Vec3::X), 100.0)
        .unwrap();
    assert_eq!(hit.node, near);
    assert!((hit.distance - 4.8).abs() < 1e-5);
    assert_eq!(hit.normal, -Vec3::X);
    // From the other side the far box is closest.
    let hit = w
        .raycast(&Ray::new(Vec3::new(5.0, 0.1, 0.1), -Vec3::X), 100.0)
        .unwrap();
    assert_eq!(hit.node, far);
    // Origin inside the middle box (and inside `near`'s overlap): distance 0.
    let hit = w
        .raycast(&Ray::new(Vec3::new(0.75, 0.0, 0.0), Vec3::Y), 100.0)
        .unwrap();
    assert_eq!(hit.distance, 0.0);
    // max_distance cuts hits off.
    assert!(w
        .raycast(&Ray::new(Vec3::new(-5.0, 0.1, 0.1), Vec3::X), 4.7)
        .is_none());
    // The AABB overlap query reports the overlap boxes.
    let q = Aabb::new(Vec3::new(0.6, -1.0, -1.0), Vec3::new(0.7, 1.0, 1.0));
    let hits: Vec<_> = w.overlaps(&q).map(|(n, _)| n).collect();
    assert!(hits.contains(&mid) && hits.contains(&near) && !hits.contains(&far));
}

#[test]
fn rotated_box_corner_does_not_hit_air() {
    let mut g = SceneGraph::new();
    // A unit box turned 45° about Y: its world AABB is ±0.707 in X and Z.
    let id = g
        .add(
            "diamond",
            Transform::new(
                Vec3::ZERO,
                Quat::from_rotation_y(45f32.to_radians()),
                Vec3::ONE,
            ),
            None,
        )
        .unwrap();
    g.propagate();
    let mut w = CollisionWorld::default();
    w.add(id, unit(), &g);
    // A ray down at (0.6, 0.6) is inside the world AABB but outside the diamond.
    assert!(w
        .raycast(&Ray::new(Vec3::new(0.6, 5.0, 0.6), -Vec3::Y), 100.0)
        .is_none());
    // Along +X towards the corner at x = -0.707: hits the corner, slanted normal.
    let hit = w
        .raycast(&Ray::new(Vec3::new(-5.0, 0.0, 0.05), Vec3::X), 100.0)
        .unwrap();
    assert!(
        (hit.point.x - (-0.5f32.hypot(0.5) + 0.05)).abs() < 1e-4,
        "{hit:?}"
    );
    assert!(
        (hit.normal.y).abs() < 1e-6
            && (hit.normal.x + std::f32::consts::FRAC_1_SQRT_2).abs() < 1e-5,
        "{hit:?}"
    );
}

#[test]
fn scaled_box_distance_is_in_world_metres() {
    let mut g = SceneGraph::new();
    let id = g
        .add(
            "slab",
            Transform::new(
                Vec3::new(0.0, -1.0, 0.0),
                Quat::IDENTITY,
                Vec3::new(10.0, 2.0, 10.0),
            ),
            None,
        )
        .unwrap();
    g.propagate();
    let mut w = CollisionWorld::default();
    w.add(id, unit(), &g);
    let hit = w
        .raycast(&Ray::new(Vec3::new(3.0, 4.0, -2.0), -Vec3::Y), 100.0)
        .unwrap();
    assert!(
        (hit.distance - 4.0).abs() < 1e-5 && hit.point.abs_diff_eq(Vec3::new(3.0, 0.0, -2.0), 1e-5),
        "{hit:?}"
    );
    assert!(hit.normal.abs_diff_eq(Vec3::Y, 1e-6));
}

/// Seed 001's physics sync: an update re-reads only the boxes whose nodes moved since the
/// last one (in any propagation pass), and a box that stops has no motion the tick after.
#[test]
fn update_refreshes_only_boxes_whose_nodes_moved() {
    let mut g = SceneGraph::new();
    let still = g.add("still", Transform::IDENTITY, None).unwrap();
    let mover = add_at(&mut g, "mover", Vec3::X * 3.0, None);
    let rider = add_at(&mut g, "rider", Vec3::Y, Some(mover));
    g.propagate();
    let mut w = CollisionWorld::default();
    for node in [still, mover, rider] {
        w.add(node, unit(), &g);
    }
    let still_box = w.boxes()[0];
    // Move the mover (its child follows), then propagate twice: the second pass moves
    // nothing, yet the update still sees both movers.
    let mut local = g.local(mover).unwrap();
    local.translation += Vec3::Z;
    g.set_local(mover, local);
    g.propagate();
    assert!(g.moved_last_pass(rider));
    g.propagate();
    assert!(!g.moved_last_pass(rider));
    w.update(&g);
    assert_eq!(w.last_refreshed(), 2);
    assert_eq!(w.boxes()[0], still_box, "the still box is untouched");
    let hit = w
        .raycast(&Ray::new(Vec3::new(3.0, 5.0, 1.0), -Vec3::Y), 10.0)
        .unwrap();
    assert_eq!(hit.node, rider);
    assert!((hit.point.y - 1.5).abs() < 1e-6);
    let carried = w.motion(rider).unwrap().carry(Vec3::new(3.0, 1.5, 0.0));
    assert!(
        carried.abs_diff_eq(Vec3::new(3.0, 1.5, 1.0), 1e-6),
        "{carried}"
    );
    // Nothing moves: nothing is re-read and the mover's motion is now the identity.
    g.propagate();
    w.update(&g);
    assert_eq!(w.last_refreshed(), 0);
    let p = Vec3::new(3.0, 1.5, 1.0);
    assert!(w.motion(rider).unwrap().carry(p).abs_diff_eq(p, 1e-6));
}
