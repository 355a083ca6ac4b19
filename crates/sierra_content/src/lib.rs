//! Content → renderer data: the one place where imported content (`sierra_gltf` models,
//! `sierra_anim` clips, `sierra_terrain` meshes, noise and water) becomes the plain data
//! `sierra_render` consumes. The renderer depends on wgpu, glam and bytemuck only; this crate
//! depends on it and on the content crates, never the other way round.
//!
//! - [`gltf_material`]: [`GltfMaterials`], the one glTF material conversion (factors, textures,
//!   alpha mode, sides) every path draws with: static, skinned, morphed and crowd.
//! - [`gltf_model`]: static glTF models uploaded with their materials.
//! - [`model_frames`]: [`model_frames::ModelFrames`], a model posed over one clip and framed:
//!   the frame source of `sierra view` and of the web viewer.
//! - [`orbit`]: the viewers' orbit camera (window and web).
//! - [`skinned_mesh`]: glTF primitives as the renderer's [`sierra_render::compute::skinning::SkinnedMeshData`]
//!   (skinned, or rigid with one joint for morph-only meshes).
//! - [`skinned_model`]: [`SkinnedModel`], one GPU-skinned character drawn with a palette the
//!   animation job computed.
//! - [`poser`]: [`ModelPoser`], the one path from (clip, time) to a skinning palette outside the
//!   game (`sierra view`, tests): `sierra_anim::CharacterJob` on a `CharacterPose`; and
//!   [`poser::node_morph_weights`], the one morph-weight sampler.
//! - [`crowd`]: a glTF crowd model baked (`sierra_anim::bake_skinning_matrices`) into the crowd
//!   pass's [`sierra_render::passes::crowd::BakedPalettes`].
//! - [`planet`]: the planet and its clouds with their fBm computed on the GPU.
//! - [`terrain`] and [`water`]: terrain meshes as [`sierra_render::MeshData`], fBm grids and water
//!   state as the compute passes' `#[repr(C)]` parameters.
//!
//! Errors are the renderer's [`sierra_render::RenderError`] (`InvalidInput` carrying the
//! content crate's message, naming the file), as these functions feed it.

#![warn(missing_docs)]

pub mod crowd;
pub mod crowd_tint;
pub mod gltf_material;
pub mod gltf_model;
pub mod model_frames;
pub mod orbit;
pub mod planet;
pub mod poser;
pub mod radiance;
pub mod skinned_mesh;
pub mod skinned_model;
pub mod terrain;
pub mod water;

pub use gltf_material::GltfMaterials;
pub use gltf_model::{upload_gltf, GltfModel};
pub use poser::ModelPoser;
pub use skinned_model::SkinnedModel;
