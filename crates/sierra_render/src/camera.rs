//! The camera the renderer draws from.

use glam::camera::rh::{proj::directx, view};
use glam::{Mat4, Vec3};

/// A camera: view and projection matrices plus its world position.
///
/// Right-handed, Y up, looking down its local -Z (as glTF §3.10.3). `proj`
/// maps view space to wgpu clip space (depth 0 at the near plane, 1 at the far plane,
/// Y up: glam's `camera::rh::proj::directx` convention, which wgpu shares).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// World → view matrix (column-major).
    pub view: Mat4,
    /// View → clip matrix (column-major), depth range 0..1.
    pub proj: Mat4,
    /// World-space position in metres (for specular and fog).
    pub position: Vec3,
}

impl Camera {
    /// A perspective camera at `eye` looking at `target`.
    ///
    /// `fov_y` is the vertical field of view in radians, `aspect` width / height,
    /// `near`/`far` the clip distances in metres (0 < near < far).
    pub fn look_at(
        eye: Vec3,
        target: Vec3,
        up: Vec3,
        fov_y: f32,
        aspect: f32,
        near: f32,
        far: f32,
    ) -> Self {
        Self {
            view: view::look_at_mat4(eye, target, up),
            proj: directx::perspective(fov_y, aspect, near, far),
            position: eye,
        }
    }

    /// A perspective camera from a world transform (camera → world, no scale).
    pub fn from_world(world: Mat4, fov_y: f32, aspect: f32, near: f32, far: f32) -> Self {
        Self {
            view: world.inverse(),
            proj: directx::perspective(fov_y, aspect, near, far),
            position: world.w_axis.truncate(),
        }
    }

    /// Unit view direction in world space (the way the camera looks).
    pub fn forward(&self) -> Vec3 {
        -Vec3::new(self.view.x_axis.z, self.view.y_axis.z, self.view.z_axis.z).normalize_or_zero()
    }

    /// `proj * view`: world → clip.
    pub fn view_proj(&self) -> Mat4 {
        self.proj * self.view
    }
}
