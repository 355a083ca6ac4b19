//! `assets/levels/platforms.json`: three spinning platforms and a child on one of them.
//! Over 60 ticks the child's world transform follows its parent's.

use std::path::PathBuf;

use glam::{Affine3A, Quat, Vec3};
use sierra_scene::assets::AssetCache;
use sierra_scene::collision::{CollisionWorld, Ray};
use sierra_scene::node_behaviour::tick_node_components;
use sierra_scene::{load_level, Component, Scene};

const DT: f32 = 1.0 / 60.0;

fn platforms_level() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/platforms.json")
}

fn load_scene() -> Scene {
    let level = load_level(platforms_level()).unwrap();
    let mut assets = AssetCache::for_level(&level);
    Scene::from_level(&level, &mut assets).unwrap()
}

#[test]
fn three_spinning_platforms_and_an_attached_child() {
    let scene = load_scene();
    let spinners = scene
        .all_components()
        .filter(|(_, c)| matches!(c, Component::Spinner(_)))
        .count();
    assert_eq!(spinners, 3);
    let beacon = scene.object("Beacon").unwrap();
    let platform = scene.object("PlatformRight").unwrap();
    assert_eq!(scene.graph.parent(beacon), Some(platform));
    assert_eq!(scene.find_path("PlatformRight/Beacon"), Some(beacon));
}

#[test]
fn removing_a_platform_removes_its_child_and_contents() {
    let mut scene = load_scene();
    let platform = scene.object("PlatformRight").unwrap();
    let beacon = scene.object("Beacon").unwrap();
    assert_eq!(scene.remove_node(platform), 2);
    assert!(scene.object("Beacon").is_none() && scene.content.get(beacon).is_none());
    assert!(!scene.graph.contains(beacon));
    // A new node may reuse the slot, but the old id stays stale (generational ids).
    let fresh = scene
        .graph
        .add("New", sierra_scene::Transform::IDENTITY, None)
        .unwrap();
    assert_ne!(fresh, platform);
    assert!(scene.graph.world(platform).is_none());
    let spinners = scene
        .all_components()
        .filter(|(_, c)| matches!(c, Component::Spinner(_)))
        .count();
    assert_eq!(spinners, 2);
    assert_eq!(CollisionWorld::from_scene(&scene).boxes().len(), 2);
}

#[test]
fn child_follows_its_spinning_parent_over_60_ticks() {
    let mut scene = load_scene();
    let beacon = scene.object("Beacon").unwrap();
    let platform = scene.object("PlatformRight").unwrap();
    let beacon_local = scene.graph.local(beacon).unwrap().to_affine();
    let start_platform = scene.graph.local(platform).unwrap().rotation;
    let start_beacon = Vec3::from(scene.graph.world(beacon).unwrap().translation);
    let mut positions = Vec::new();
    for tick in 1..=60 {
        tick_node_components(&mut scene, DT);
        let stats = scene.graph.propagate();
        // Three platforms and the beacon move; the ground does not.
        assert_eq!(stats.recomputed, 4, "tick {tick}");
        let parent_world = scene.graph.world(platform).unwrap();
        let child_world = scene.graph.world(beacon).unwrap();
        assert!(
            child_world.abs_diff_eq(parent_world * beacon_local, 1e-5),
            "tick {tick}"
        );
        // Independent check: the platform spins 90°/s about world Y after its own tilt.
        let angle = (90.0f32 * DT * tick as f32).to_radians();
        let expected_rotation = Quat::from_rotation_y(angle) * start_platform;
        let expected_parent = Affine3A::from_scale_rotation_translation(
            Vec3::new(2.5, 0.3, 2.5),
            expected_rotation,
            Vec3::new(4.0, 0.0, 0.0),
        );
        assert!(
            parent_world.abs_diff_eq(expected_parent, 1e-4),
            "tick {tick}"
        );
        positions.push(Vec3::from(child_world.translation));
    }
    // After one second at 90°/s the beacon has swung a quarter turn about the platform's
    // centre: it moved, it stayed at the same distance from the spin axis.
    let end = *positions.last().unwrap();
    let centre = Vec3::new(4.0, 0.0, 0.0);
    let radius = |p: Vec3| Vec3::new(p.x - centre.x, 0.0, p.z - centre.z).length();
    assert!((radius(end) - radius(start_beacon)).abs() < 1e-4);
    assert!(end.distance(start_beacon) > 0.5, "{start_beacon} -> {end}");
    let swept = Vec3::new(start_beacon.x - centre.x, 0.0, start_beacon.z - centre.z)
        .angle_between(Vec3::new(end.x - centre.x, 0.0, end.z - centre.z));
    assert!(
        (swept.to_degrees() - 90.0).abs() < 0.1,
        "swept {}°",
        swept.to_degrees()
    );
}

#[test]
fn ground_ray_finds_the_platform_and_a_rider_is_carried() {
    let mut scene = load_scene();
    let mut world = CollisionWorld::from_scene(&scene);
    let centre = scene.object("PlatformCenter").unwrap();
    // Platform centre: cube half 0.5 scaled by 0.3 in Y -> top at y = 0.15.
    let down = Ray::new(Vec3::new(0.8, 5.0, 0.3), -Vec3::Y);
    let hit = world.raycast(&down, 10.0).unwrap();
    assert_eq!(hit.node, centre);
    assert!(
        (hit.point.y - 0.15).abs() < 1e-5 && hit.normal.abs_diff_eq(Vec3::Y, 1e-5),
        "{hit:?}"
    );
    // A rider standing on it is carried around by the platform's motion this tick.
    let mut rider = hit.point;
    for _ in 0..60 {
        tick_node_components(&mut scene, DT);
        scene.graph.propagate();
        world.update(&scene.graph);
        rider = world.motion(centre).unwrap().carry(rider);
    }
    // -60°/s for one second: the rider turned -60° about Y around the origin.
    let expected = Quat::from_rotation_y((-60.0f32).to_radians()) * Vec3::new(0.8, 0.15, 0.3);
    assert!(rider.abs_diff_eq(expected, 1e-4), "{rider} vs {expected}");
    // And the ground ray still finds the platform under the rider.
    let hit = world
        .raycast(&Ray::new(rider + Vec3::Y, -Vec3::Y), 10.0)
        .unwrap();
    assert_eq!(hit.node, centre);
    assert!((hit.distance - 1.0).abs() < 1e-4);
}
