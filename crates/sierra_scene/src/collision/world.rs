//! Collision boxes of a scene and ray casts against them.

use glam::{Affine3A, Vec3};

use super::{slab_test, Aabb, Ray};
use crate::components::Component;
use crate::graph::{NodeId, SceneGraph};
use crate::scene::Scene;

/// A `CollisionBox` placed in the world by its node's world matrix.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrientedBox {
    /// The node the box follows.
    pub node: NodeId,
    /// The box in the node's local frame.
    pub local: Aabb,
    /// Node world matrix this tick.
    pub world: Affine3A,
    /// `world⁻¹`, for testing rays in the box frame.
    pub world_inverse: Affine3A,
    /// Node world matrix at the previous [`CollisionWorld::update`].
    pub previous_world: Affine3A,
    /// World-space bounds (broad phase).
    pub bounds: Aabb,
    /// Whether the node moved between the last two updates (`previous_world != world`).
    pub moving: bool,
    /// Graph pass ([`SceneGraph::pass`]) at which `world` was last read.
    pub read_pass: u32,
}

/// The closest hit of a ray cast.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RaycastHit {
    /// Distance along the (unit) ray, metres; 0 when the origin is inside the box.
    pub distance: f32,
    /// World hit point.
    pub point: Vec3,
    /// Unit world normal of the face hit (perpendicular to the oriented box face).
    pub normal: Vec3,
    /// Node whose box was hit.
    pub node: NodeId,
}

/// How a box moved during the last tick: `delta = world · previous_world⁻¹`, the rigid
/// (or scaling) motion that carries a point attached to the box from last tick's place to
/// this tick's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoxMotion {
    /// World-space motion of the box this tick.
    pub delta: Affine3A,
}

impl BoxMotion {
    /// Where a point resting on the box last tick is now (a player riding a platform
    /// adds `carry(p) - p` to its own motion).
    pub fn carry(&self, point: Vec3) -> Vec3 {
        self.delta.transform_point3(point)
    }
}

/// The collision boxes of a scene: every `CollisionBox` component, including those made
/// from glTF node `extras.collider` definitions (seed 001) when the file was instantiated.
/// Refresh with [`update`](Self::update) once per tick, after transform propagation; it
/// re-reads only the boxes whose nodes moved (the graph's per-node change stamps, see
/// [`SceneGraph::moved_since`]).
#[derive(Clone, Debug, Default)]
pub struct CollisionWorld {
    boxes: Vec<OrientedBox>,
    /// Boxes whose world matrix was re-read by the last update.
    refreshed: usize,
}

impl CollisionWorld {
    /// Collects every `CollisionBox` component of the scene at the nodes' current world
    /// matrices (previous = current, so the first tick has no motion).
    pub fn from_scene(scene: &Scene) -> Self {
        let mut boxes = Vec::new();
        for (node, component) in scene.all_components() {
            if let Component::CollisionBox(b) = component {
                let world = scene.graph.world(node).unwrap_or(Affine3A::IDENTITY);
                let local = Aabb::from_center_half_extents(b.center, b.half_extents);
                boxes.push(OrientedBox {
                    node,
                    local,
                    world,
                    world_inverse: world.inverse(),
                    previous_world: world,
                    bounds: local.transformed(&world),
                    moving: false,
                    read_pass: scene.graph.pass(),
                });
            }
        }
        Self {
            boxes,
            refreshed: 0,
        }
    }

    /// How many boxes the last [`update`](Self::update) re-read (those whose nodes moved).
    pub fn last_refreshed(&self) -> usize {
        self.refreshed
    }

    /// The boxes.
    pub fn boxes(&self) -> &[OrientedBox] {
        &self.boxes
    }

    /// Adds one box following `node` (`local` in the node's frame).
    pub fn add(&mut self, node: NodeId, local: Aabb, graph: &SceneGraph) {
        let world = graph.world(node).unwrap_or(Affine3A::IDENTITY);
        self.boxes.push(OrientedBox {
            node,
            local,
            world,
            world_inverse: world.inverse(),
            previous_world: world,
            bounds: local.transformed(&world),
            moving: false,
            read_pass: graph.pass(),
        });
    }

    /// Moves this tick's matrices to "previous" and re-reads the world matrices of the
    /// boxes whose nodes moved in any propagation pass since the last update (seed 001's
    /// physics sync: only the proxies of moved nodes are touched; a game propagates several
    /// times per tick, so the check is [`SceneGraph::moved_since`] this world's last pass
    /// rather than only [`SceneGraph::moved_last_pass`]; each box remembers the pass it was
    /// read at). Boxes of removed nodes are dropped.
    /// Call after [`SceneGraph::propagate`].
    pub fn update(&mut self, graph: &SceneGraph) {
        self.boxes.retain(|b| graph.contains(b.node));
        self.refreshed = 0;
        let pass = graph.pass();
        for b in &mut self.boxes {
            if graph.moved_since(b.node, b.read_pass) {
                b.read_pass = pass;
                if let Some(world) = graph.world(b.node) {
                    b.previous_world = b.world;
                    b.world = world;
                    b.world_inverse = world.inverse();
                    b.bounds = b.local.transformed(&world);
                    b.moving = true;
                    self.refreshed += 1;
                }
            } else if b.moving {
                // Still since the last update: no motion this tick.
                b.previous_world = b.world;
                b.moving = false;
            }
        }
    }

    /// The closest box hit by `ray` within `max_distance` metres.
    ///
    /// Broad phase: slab test against each box's world AABB. Narrow phase: the slab test
    /// in the box's own frame (the ray carried by `world⁻¹`; the line parameter is
    /// unchanged by an affine map, so it is still the world distance), so rays near the
    /// corners of rotated boxes do not hit the air inside the world AABB.
    pub fn raycast(&self, ray: &Ray, max_distance: f32) -> Option<RaycastHit> {
        self.sphere_cast(ray, max_distance, 0.0)
    }

    /// The closest box that a sphere of `radius` metres moving along `ray` touches within
    /// `max_distance` metres: [`Self::raycast`] against every box grown by `radius` on each
    /// side in its own frame (metres converted by the box's scale along each axis). The grown
    /// box has square edges and corners where the true swept sphere is rounded, so near an
    /// edge the sphere stops slightly early (never late). `point` is the sphere's centre at
    /// contact; `normal` is the grown face's.
    pub fn sphere_cast(&self, ray: &Ray, max_distance: f32, radius: f32) -> Option<RaycastHit> {
        let radius = radius.max(0.0);
        let mut best: Option<RaycastHit> = None;
        for b in &self.boxes {
            let limit = best.map_or(max_distance, |h| h.distance);
            let bounds = Aabb::new(b.bounds.min - radius, b.bounds.max + radius);
            let Some(broad) = slab_test(ray.origin, ray.direction, &bounds, limit) else {
                continue;
            };
            if best.is_some_and(|h| broad.t >= h.distance) {
                continue;
            }
            let m = b.world.matrix3;
            let scale = Vec3::new(m.x_axis.length(), m.y_axis.length(), m.z_axis.length());
            let grow = Vec3::splat(radius) / scale.max(Vec3::splat(1e-12));
            let local = Aabb::new(b.local.min - grow, b.local.max + grow);
            let origin = b.world_inverse.transform_point3(ray.origin);
            let direction = b.world_inverse.transform_vector3(ray.direction);
            let Some(hit) = slab_test(origin, direction, &local, limit) else {
                continue;
            };
            if best.is_some_and(|h| hit.t >= h.distance) {
                continue;
            }
            // Normals transform by the inverse transpose.
            let normal =
                Vec3::from(b.world_inverse.matrix3.transpose() * glam::Vec3A::from(hit.normal))
                    .try_normalize()
                    .unwrap_or(-ray.direction);
            best = Some(RaycastHit {
                distance: hit.t,
                point: ray.at(hit.t),
                normal,
                node: b.node,
            });
        }
        best
    }

    /// Boxes whose world AABB overlaps `query`, with the overlap box.
    pub fn overlaps<'a>(&'a self, query: &'a Aabb) -> impl Iterator<Item = (NodeId, Aabb)> + 'a {
        self.boxes
            .iter()
            .filter_map(move |b| b.bounds.overlap(query).map(|o| (b.node, o)))
    }

    /// How `node`'s box moved between the last two [`update`](Self::update)s.
    pub fn motion(&self, node: NodeId) -> Option<BoxMotion> {
        let b = self.boxes.iter().find(|b| b.node == node)?;
        Some(BoxMotion {
            delta: b.world * b.previous_world.inverse(),
        })
    }
}
