//! Pieces of level JSON (`assets/levels/*.json` syntax) for tests that write their own levels.
#![allow(dead_code)]

use glam::Vec3;

/// `v` as a JSON array `[x, y, z]`.
pub fn vec3_json(v: Vec3) -> String {
    format!("[{}, {}, {}]", v.x, v.y, v.z)
}

/// The `"camera"` member of a level (a `"key": value` pair, no braces around it): at `eye`
/// looking at `target` through a vertical field of view of `fov_y_degrees`, with the near and
/// far planes at `near` and `far` metres.
pub fn camera_json(eye: Vec3, target: Vec3, fov_y_degrees: f32, near: f32, far: f32) -> String {
    format!(
        r#""camera": {{"position": {}, "target": {}, "fovYDegrees": {fov_y_degrees}, "near": {near}, "far": {far}}}"#,
        vec3_json(eye),
        vec3_json(target)
    )
}
