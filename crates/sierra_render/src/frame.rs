//! [`FrameData`]: the plain description of one frame that the renderer draws.
//!
//! The renderer never sees the scene graph: the game (`sierra` crate) converts
//! its nodes into this each frame. All colours are linear RGB.

use glam::{Mat4, Vec3, Vec4};

use crate::camera::Camera;

/// Most point lights the forward pass shades with (as document 000).
pub const MAX_POINT_LIGHTS: usize = 8;

/// The directional sun and the ambient term.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sun {
    /// Direction the light travels, world space (from the sun towards the scene;
    /// e.g. `(0,-1,0)` at noon). Normalised by the renderer.
    pub direction: Vec3,
    /// Linear RGB colour.
    pub color: Vec3,
    /// Multiplies `color` (unitless; 1 = the colour as given).
    pub intensity: f32,
    /// Linear RGB ambient light, multiplied by the albedo.
    pub ambient: Vec3,
}

impl Default for Sun {
    fn default() -> Self {
        Self {
            direction: Vec3::new(-0.4, -1.0, -0.3),
            color: Vec3::ONE,
            intensity: 1.0,
            ambient: Vec3::splat(0.1),
        }
    }
}

/// A point light (document 000): full strength inside `inner_radius`, falling
/// to 0 at `outer_radius` as `1 - smoothstep(inner, outer, distance)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointLight {
    /// World position, metres.
    pub position: Vec3,
    /// Linear RGB colour.
    pub color: Vec3,
    /// Multiplies `color`.
    pub intensity: f32,
    /// Radius of full strength, metres.
    pub inner_radius: f32,
    /// Radius where the light reaches 0, metres (> `inner_radius`).
    pub outer_radius: f32,
}

/// Blinn-Phong material (document 000: diffuse colour, specular colour and power) plus emission.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Material {
    /// Linear RGBA albedo; multiplied by the vertex colour.
    pub base_color: Vec4,
    /// Linear RGB specular colour.
    pub specular_color: Vec3,
    /// Blinn-Phong exponent (≥ 1).
    pub specular_power: f32,
    /// Linear RGB emitted light, added unlit.
    pub emissive: Vec3,
}

impl Default for Material {
    fn default() -> Self {
        Self {
            base_color: Vec4::ONE,
            specular_color: Vec3::splat(0.2),
            specular_power: 32.0,
            emissive: Vec3::ZERO,
        }
    }
}

/// Index of a mesh uploaded with [`crate::Renderer::upload_mesh`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MeshHandle(pub u32);

/// One mesh drawn with one model matrix and material.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawItem {
    /// The mesh.
    pub mesh: MeshHandle,
    /// Model → world matrix (column-major).
    pub model: Mat4,
    /// Surface material.
    pub material: Material,
}

/// Everything the renderer needs for one frame.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameData {
    /// The camera.
    pub camera: Camera,
    /// Sun and ambient light.
    pub sun: Sun,
    /// Point lights; the first [`MAX_POINT_LIGHTS`] are used.
    pub point_lights: Vec<PointLight>,
    /// Opaque draws.
    pub draws: Vec<DrawItem>,
    /// Linear RGBA colour of pixels no geometry covers.
    pub clear_color: Vec4,
}
