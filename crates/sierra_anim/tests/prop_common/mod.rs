//! Proptest strategies shared by the property tests (`properties.rs`, `soa.rs`): random
//! rotations, translations and joint transforms.

use glam::{Quat, Vec3};
use proptest::prelude::*;
use sierra_anim::Transform;

/// A unit quaternion from four components in [-1, 1) (nearly-zero ones filtered out), so
/// every rotation can come up.
pub fn unit_quat() -> impl Strategy<Value = Quat> {
    (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0)
        .prop_filter("non-degenerate", |(x, y, z, w)| {
            x * x + y * y + z * z + w * w > 0.01
        })
        .prop_map(|(x, y, z, w)| Quat::from_xyzw(x, y, z, w).normalize())
}

/// A vector with each component in [-`extent`, `extent`).
pub fn vec3(extent: f32) -> impl Strategy<Value = Vec3> {
    (-extent..extent, -extent..extent, -extent..extent).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

/// A joint transform: a translation of [`vec3`]`(extent)`, a [`unit_quat`] rotation and a
/// non-uniform scale with each factor in [0.5, 2).
pub fn transform(extent: f32) -> impl Strategy<Value = Transform> {
    (
        vec3(extent),
        unit_quat(),
        (0.5f32..2.0, 0.5f32..2.0, 0.5f32..2.0),
    )
        .prop_map(|(t, r, (x, y, z))| Transform::from_trs(t, r, Vec3::new(x, y, z)))
}
