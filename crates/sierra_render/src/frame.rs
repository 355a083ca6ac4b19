//! [`FrameData`]: the complete, plain description of one frame that the renderer draws.
//!
//! The renderer never sees the scene graph or the game: one extract step (the `sierra`
//! crate's `scene_to_frame`) converts the game state into this value each frame, and the
//! passes read only it and their own GPU resources. Besides the camera, lights and static
//! draws it carries the skinned draws with their palettes, morph weights and posed bounds
//! ([`SkinnedFrame`]), the crowds' clock and member changes ([`CrowdFrame`]), the sea's
//! simulation inputs ([`SeaFrame`]) and the post-processing settings ([`PostSettings`]).
//! All colours are linear RGB; space is right-handed, Y up, metres.

use glam::{Mat4, Vec2, Vec3, Vec4};

use crate::camera::Camera;
use crate::passes::crowd::instance::{CrowdHandle, CrowdInstance};
pub use crate::post::PostSettings;

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

/// Index of a surface material added with [`crate::Renderer::add_material`] (textures, shading
/// model, alpha mode, sides: [`crate::material::SurfaceMaterial`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MaterialHandle(pub u32);

/// One mesh drawn with one model matrix and material.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawItem {
    /// The mesh.
    pub mesh: MeshHandle,
    /// Model → world matrix (column-major).
    pub model: Mat4,
    /// Per-draw material values (colours, specular).
    pub material: Material,
    /// The surface material (textures, shading model, alpha mode, sides); `None`: the mesh's
    /// default ([`crate::Renderer::set_material`]), else untextured Phong. Any number of draws
    /// of one mesh may name different surfaces: the mesh is uploaded once.
    pub surface: Option<MaterialHandle>,
}

impl DrawItem {
    /// A draw of `mesh` at `model` with `material`, on the mesh's default surface.
    pub fn new(mesh: MeshHandle, model: Mat4, material: Material) -> Self {
        Self {
            mesh,
            model,
            material,
            surface: None,
        }
    }
}

/// An uploaded skinned mesh instance (its own output vertex buffer: draw it at most once per frame).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SkinnedMeshHandle(pub u32);

/// One skinned draw of a frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SkinnedDrawItem {
    /// The skinned mesh instance.
    pub mesh: SkinnedMeshHandle,
    /// Model → world matrix (column-major) applied after skinning.
    pub model: Mat4,
    /// First palette entry of this draw in [`SkinnedFrame::palettes`].
    pub palette_offset: u32,
    /// Surface material.
    pub material: Material,
}

/// The morph target weights of one skinned mesh instance this frame: entries
/// `first..first + count` of [`SkinnedFrame::morph_weights`] (glTF `weights`, one per target).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MorphWeights {
    /// The instance.
    pub mesh: SkinnedMeshHandle,
    /// First weight.
    pub first: u32,
    /// Weights (the mesh's morph target count).
    pub count: u32,
}

/// The skinned meshes of a frame, as the animation job posed them: the renderer skins them
/// in one compute pass before the scene passes and draws the results like static meshes,
/// culled by the bounds the palettes give.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SkinnedFrame {
    /// `[Σ joints]` column-major skinning palettes (joint model matrix × inverse bind matrix),
    /// all draws back to back.
    pub palettes: Vec<Mat4>,
    /// The draws, each naming its palette range.
    pub draws: Vec<SkinnedDrawItem>,
    /// Morph weights of the instances that have morph targets (applied before skinning;
    /// instances not listed keep their last weights).
    pub morphs: Vec<MorphWeights>,
    /// `[Σ targets]` the weights [`SkinnedFrame::morphs`] index.
    pub morph_weights: Vec<f32>,
}

impl SkinnedFrame {
    /// Empties every list, keeping the capacity.
    pub fn clear(&mut self) {
        // Destructured: a list added to the frame cannot be left out here.
        let Self {
            palettes,
            draws,
            morphs,
            morph_weights,
        } = self;
        palettes.clear();
        draws.clear();
        morphs.clear();
        morph_weights.clear();
    }
}

/// Members `first..first + count` of crowd `crowd` change to
/// `CrowdFrame::instances[start..start + count]` this frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CrowdUpdate {
    /// The crowd.
    pub crowd: CrowdHandle,
    /// First member rewritten.
    pub first: u32,
    /// Members rewritten.
    pub count: u32,
    /// Their new state's first index in [`CrowdFrame::instances`].
    pub start: u32,
}

/// The crowds' clock and the members whose state changed since the last frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CrowdFrame {
    /// Global animation time, seconds: each member plays `time_offset + speed · time`.
    pub time: f32,
    /// Member ranges rewritten before drawing.
    pub updates: Vec<CrowdUpdate>,
    /// The new member states the updates index.
    pub instances: Vec<CrowdInstance>,
}

impl CrowdFrame {
    /// Empties the updates, keeping the time and the capacity.
    pub fn clear_updates(&mut self) {
        self.updates.clear();
        self.instances.clear();
    }
}

/// One step of the sea's water-columns simulation, run by the renderer before the scene
/// passes in the order given.
#[derive(Clone, Debug, PartialEq)]
pub enum SeaOp {
    /// A raised-cosine drop of `radius` and `amplitude` metres at grid-local `(x, z)` metres.
    Drop {
        /// Grid-local position, metres from the grid's corner.
        at: Vec2,
        /// Radius, metres.
        radius: f32,
        /// Height at the centre, metres.
        amplitude: f32,
    },
    /// `count` sub-steps of `dt` seconds each.
    Step {
        /// Seconds per sub-step.
        dt: f32,
        /// Sub-steps.
        count: u32,
    },
    /// A state simulated elsewhere (the CPU path, `sierra_terrain::water::WaterSim`) replaces
    /// the GPU simulation's current depth and velocity, which the sea pass draws.
    State(SeaState),
}

/// The sea's state as the sea pass reads it, simulated on the CPU.
#[derive(Clone, Debug, PartialEq)]
pub struct SeaState {
    /// Water depth per cell, metres: `[rows * cols]`, row-major (row = Z).
    pub depth: std::sync::Arc<[f32]>,
    /// Velocity per cell, m/s (`x` along +X, `y` along +Z): `[rows * cols]`, row-major.
    pub velocity: std::sync::Arc<[Vec2]>,
}

/// The sea's simulation inputs since the last frame (a window frame may cover several ticks).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeaFrame {
    /// Drops and steps, in tick order.
    pub ops: Vec<SeaOp>,
    /// World height of the sea's still surface, metres (`None`: no sea). Sunlit surfaces below
    /// it keep part of their light in the sun's shadow, as light scattered in the water fills
    /// it (`shadow_in_water` in `sun_shadow.wgsl`).
    pub level: Option<f32>,
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
    /// GPU-skinned draws with their palettes and morph weights.
    pub skinned: SkinnedFrame,
    /// Crowd clock and member changes.
    pub crowds: CrowdFrame,
    /// The sea simulation's steps and drops.
    pub sea: SeaFrame,
    /// Bloom, tonemapping, sky and wireframe.
    pub post: PostSettings,
}

impl FrameData {
    /// A frame seen through `camera` with nothing in it: the default sun, no lights or
    /// draws, opaque black clear colour and pass-through post-processing
    /// ([`PostSettings::default`]). Fill in the rest, or write `..FrameData::new(camera)`.
    pub fn new(camera: Camera) -> Self {
        Self {
            camera,
            sun: Sun::default(),
            point_lights: Vec::new(),
            draws: Vec::new(),
            clear_color: Vec4::W,
            skinned: SkinnedFrame::default(),
            crowds: CrowdFrame::default(),
            sea: SeaFrame::default(),
            post: PostSettings::default(),
        }
    }
}
