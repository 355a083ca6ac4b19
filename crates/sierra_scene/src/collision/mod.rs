//! Collision: AABBs with the overlap box, rays and segments by the slab method, oriented
//! `CollisionBox`es that follow their nodes, ray casts returning the closest hit, and the
//! motion of a box during the last tick (so bodies can ride moving platforms), and the push-out
//! of a standing body from the boxes it overlaps (walls stop it, and it slides along them).

mod aabb;
mod body;
mod ray;
mod world;

pub use aabb::Aabb;
pub use body::{Body, PushOut};
pub use ray::{ray_aabb, segment_aabb, slab_test, Ray, SlabHit};
pub use world::{BoxMotion, CollisionWorld, OrientedBox, RaycastHit};
