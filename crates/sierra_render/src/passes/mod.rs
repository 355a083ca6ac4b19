//! Render passes. A frame runs them in the order written once, in code, in `Renderer::parts`
//! (`renderer.rs`).
//! Each pass owns its pipelines and bind groups and implements [`Pass`]: `prepare` uploads this
//! frame's data, read only from [`PassInputs`] (the frame and its draw list) — settings that
//! change per frame travel in [`crate::FrameData::post`], never written into a pass from outside
//! — and `record` encodes its commands.
//!
//! - Shadow casters: the shadow pass draws every [`ShadowCaster`] the other passes hand it
//!   ([`Pass::shadow_caster`], gathered into [`PassInputs::shadow_casters`]) into the sun's map,
//!   in one render pass: the forward pass's (the frame's meshes and skinned outputs, with its
//!   per-draw uniforms: one model buffer for both) and the crowd pass's.
//! - The view group: every scene pass (forward, crowd, sky, sea) binds one group 0
//!   ([`view::FrameBindings`]: camera, lights, environment, shadow map), which the renderer owns
//!   and writes once a frame before the passes' `prepare`; their shaders begin with its
//!   declarations (`view.wgsl`, [`view::VIEW_WGSL`]: camera with its inverse view-projection,
//!   lights).
//!   A pass's own data is group 1: the forward pass's per-draw objects, the crowd's instances,
//!   the sky's parameters ([`sky_radiance::SkyUniform`], shared with the environment bake), the
//!   sea's water parameters and buffers. Their pipelines come from
//!   [`scene_pipelines::ScenePipelines`].

pub mod bloom;
pub mod crowd;
pub mod forward;
pub mod frustum;
pub mod fullscreen;
pub mod fxaa;
mod pass;
pub mod resolve;
pub mod scene_pipelines;
pub mod sea;
pub mod sea_lod;
pub mod shadow;
pub mod sky;
pub mod sky_radiance;
pub mod tonemap;
pub mod view;

pub use crate::pipeline_statistics::PassQueries;
pub use pass::{Encoder, Pass, PassInputs, ShadowCaster};
