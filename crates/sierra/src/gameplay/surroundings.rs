//! What a body and a camera collide with: the level's collision boxes and, where the level has
//! an island, its terrain height field. Ground queries for the player, segment casts for the
//! follow camera.

use glam::Vec3;
use sierra_scene::collision::{CollisionWorld, Ray};
use sierra_scene::NodeId;
use sierra_terrain::HeightField;

/// The collision boxes and the optional terrain of a level, borrowed for one tick.
#[derive(Clone, Copy, Debug)]
pub struct Surroundings<'a> {
    /// Collision boxes at this tick's node matrices.
    pub boxes: &'a CollisionWorld,
    /// The island's heights (world XZ, metres; see [`HeightField`]), if the level has one.
    pub terrain: Option<&'a HeightField>,
}

/// A surface under a body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ground {
    /// Height of the surface, metres (world Y).
    pub height: f32,
    /// Unit world normal of the surface.
    pub normal: Vec3,
    /// The box stood on; `None` for the terrain.
    pub node: Option<NodeId>,
}

impl Surroundings<'_> {
    /// The highest surface under `feet` from `above` metres over the feet down to `below`
    /// metres under them: the first box hit by a downward ray from `feet + above·Y`, and the
    /// terrain when its height at the feet's XZ is at least `feet.y − below` (a body under the
    /// terrain is always brought back up onto it, however deep).
    pub fn ground(&self, feet: Vec3, above: f32, below: f32) -> Option<Ground> {
        let ray = Ray::new(feet + Vec3::Y * above, Vec3::NEG_Y);
        let on_box = self
            .boxes
            .raycast(&ray, above + below)
            .filter(|h| h.distance > 0.0)
            .map(|h| Ground {
                height: h.point.y,
                normal: h.normal,
                node: Some(h.node),
            });
        let on_terrain = self.terrain_at(feet).filter(|g| g.height >= feet.y - below);
        match (on_box, on_terrain) {
            (Some(b), Some(t)) => Some(if t.height > b.height { t } else { b }),
            (b, t) => b.or(t),
        }
    }

    /// The terrain's height and normal at `p`'s XZ, `None` off the terrain or without one.
    pub fn terrain_at(&self, p: Vec3) -> Option<Ground> {
        let terrain = self.terrain?;
        Some(Ground {
            height: terrain.height_at(p.x, p.z)?,
            normal: terrain.normal_at(p.x, p.z)?,
            node: None,
        })
    }

    /// The fraction in `[0, 1]` of the segment `start → end` where a sphere of `radius`
    /// metres moving along it first touches a box or the terrain, `None` when it is clear. A
    /// start already touching a box gives 0. Boxes: [`CollisionWorld::sphere_cast`]; terrain:
    /// the segment `radius` lower against the height field (the sphere's lowest point).
    pub fn sphere_cast(&self, start: Vec3, end: Vec3, radius: f32) -> Option<f32> {
        let length = start.distance(end);
        if !(length > 0.0 && length.is_finite()) {
            return None;
        }
        let ray = Ray::new(start, end - start);
        let on_box = self
            .boxes
            .sphere_cast(&ray, length, radius)
            .map(|h| h.distance);
        let low = Vec3::Y * radius;
        let on_terrain = self
            .terrain
            .and_then(|t| t.raycast(start - low, end - start, length))
            .map(|h| h.distance);
        let first = match (on_box, on_terrain) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        first.map(|d| (d / length).clamp(0.0, 1.0))
    }
}
