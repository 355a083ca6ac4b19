//! Sierra's renderer (wgpu): the GPU context, render passes, GPU timing and read-back.
//!
//! - [`GpuContext`]: instance/adapter/device/queue, headless or for a window;
//!   wgpu validation errors become [`RenderError`]s, never panics.
//! - [`FrameData`]: the complete plain description of one frame the renderer consumes
//!   (camera, sun, point lights, draws; skinned draws with palettes and morph weights; the
//!   crowds' clock and member updates; the sea's drops and sub-steps; post-processing, sky and
//!   wireframe settings). It knows nothing of the scene graph; passes read only it and their
//!   own GPU resources (`docs/architecture.md`).
//! - [`Renderer`]: runs a frame's simulation inputs (water steps, morph weights, the skinning
//!   compute pass) and then the passes in order (`passes/shadow.rs` → `forward.rs` → `crowd/` →
//!   `sky.rs` → `sea.rs` → `resolve.rs` → `bloom.rs` → `tonemap.rs`), rendering into an `Rgba16Float` HDR
//!   target first.
//! - [`gpu_profiler`]: GPU scopes (`wgpu-profiler`) around every pass and compute dispatch,
//!   read a few frames later without waiting ([`FrameStats::gpu`], [`GpuFrameTimings`]).
//! - [`MeshData`] + [`primitives`]: meshes on the CPU; [`readback`]: GPU → CPU copies.
//! - [`compute::skinning`]: GPU skinning and morph targets of
//!   [`compute::skinning::SkinnedMeshData`] with palettes the caller computed;
//!   [`passes::crowd`]: instanced crowds of [`passes::crowd::BakedPalettes`];
//!   [`compute`]: noise and water compute passes on plain `#[repr(C)]` parameters.
//!
//! Inputs are plain data: this crate depends on wgpu, glam and bytemuck, not on the content
//! crates (`sierra_gltf`, `sierra_anim`, `sierra_terrain`). `sierra_content` converts glTF
//! models, animation bakes, terrain meshes, noise and water into these types.
//!
//! Conventions: right-handed, Y up, metres, radians, column-major matrices,
//! linear colour until the tonemap pass.

#![warn(missing_docs)]
// No function over `clippy.toml`'s 80 lines (CI runs clippy: `.ci/run`).
#![deny(clippy::too_many_lines)]

pub mod buffer_init;
pub mod camera;
pub mod compute;
pub mod context;
pub mod device_loss;
pub mod environment;
pub mod error;
pub mod frame;
pub mod gpu_profiler;
pub mod gpu_util;
pub mod material;
pub mod material_store;
pub mod memory;
pub mod mesh;
pub mod mesh_store;
pub mod normal_maps;
pub mod passes;
pub mod pipeline_cache;
pub mod pipeline_statistics;
pub mod post;
pub mod primitives;
pub mod readback;
pub mod renderer;
pub mod sampler;
pub mod shader_files;
pub mod skinned_mesh;
pub mod tangents;
pub mod targets;
pub mod texture;

pub use wgpu;

pub use camera::Camera;
pub use context::{CreationCounts, GpuContext};
pub use device_loss::DeviceLoss;
pub use error::{RenderError, Result};
pub use frame::{
    CrowdFrame, CrowdUpdate, DrawItem, FrameData, Material, MaterialHandle, MeshHandle,
    MorphWeights, PointLight, SeaFrame, SeaOp, SeaState, SkinnedDrawItem, SkinnedFrame,
    SkinnedMeshHandle, Sun, MAX_POINT_LIGHTS,
};
pub use gpu_profiler::{GpuFrameTimings, GpuScopeTiming};
pub use material_store::MaterialStore;
pub use memory::{GpuMemory, MemoryClass};
pub use mesh::{GpuMesh, MeshData, Vertex};
pub use mesh_store::MeshStore;
pub use post::{
    AntiAliasing, BloomSettings, DebugView, EnvironmentSettings, EnvironmentSource, PostSettings,
    ShadowSettings, SkySettings, TonemapSettings, Tonemapper,
};
pub use renderer::{FrameStats, HeadlessRenderer, Renderer};
pub use targets::{OffscreenTarget, RenderTargets, DEPTH_FORMAT, HDR_FORMAT, OUTPUT_FORMAT};
