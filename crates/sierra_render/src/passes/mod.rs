//! Render passes. A frame runs them in order (see [`crate::Renderer`]):
//! shadow → forward HDR → crowd (`crowd/`) → sky → sea → MSAA resolve → bloom → tonemap → FXAA.
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
pub mod resolve;
pub mod scene_pipelines;
pub mod sea;
pub mod sea_lod;
pub mod shadow;
pub mod sky;
pub mod sky_radiance;
pub mod tonemap;
pub mod view;

use crate::context::GpuContext;
use crate::error::Result;
use crate::frame::FrameData;
use crate::material_store::MaterialStore;
use crate::mesh_store::MeshStore;
use crate::targets::RenderTargets;

/// What every pass may read while preparing and recording one frame.
pub struct PassInputs<'a> {
    /// The frame description.
    pub frame: &'a FrameData,
    /// What the scene passes draw: the frame's draws followed by its skinned meshes' outputs
    /// (skinned this frame). Passes draw these, not `frame.draws`.
    pub draws: &'a [crate::frame::DrawItem],
    /// Uploaded meshes, indexed by [`crate::MeshHandle`], with their bounds.
    pub meshes: &'a MeshStore,
    /// Surface materials, named by [`crate::DrawItem::surface`].
    pub materials: &'a MaterialStore,
    /// Shared intermediate targets (HDR colour, depth).
    pub targets: &'a RenderTargets,
    /// The final image the output pass writes (surface texture or off-screen image).
    pub output: &'a wgpu::TextureView,
    /// Shadow casters other passes own ([`Pass::shadow_caster`], e.g. the crowds), which the
    /// shadow pass records after the frame's own meshes; empty while preparing.
    pub shadow_casters: &'a [&'a dyn ShadowCaster],
}

impl PassInputs<'_> {
    /// Begins the render pass `label` of a scene pass drawn after the forward pass (crowd, sky,
    /// sea): onto the scene's HDR colour and depth, loading both; timed and counted by `queries`.
    pub fn continue_scene_pass<'e>(
        &self,
        encoder: &'e mut Encoder,
        label: &str,
        queries: PassQueries<'_>,
    ) -> crate::pipeline_statistics::QueriedRenderPass<'e> {
        let load = (wgpu::LoadOp::Load, wgpu::LoadOp::Load);
        self.targets
            .begin_scene_pass(encoder, label, load.0, load.1, queries)
    }
}

/// The command encoder passes record into.
pub type Encoder = wgpu::CommandEncoder;

pub use crate::pipeline_statistics::PassQueries;
pub use shadow::ShadowCaster;

/// One step of the frame.
pub trait Pass {
    /// Short name for GPU timing and errors (e.g. `"forward"`).
    fn name(&self) -> &'static str;

    /// Called after the shared targets were (re)created, before the next `prepare`.
    ///
    /// # Errors
    /// GPU errors while rebuilding size-dependent resources.
    fn resize(&mut self, _ctx: &GpuContext, _targets: &RenderTargets) -> Result<()> {
        Ok(())
    }

    /// Uploads this frame's data (uniforms, instance buffers). Runs before any `record`.
    ///
    /// # Errors
    /// Invalid frame data (e.g. an unknown mesh handle) or GPU errors.
    fn prepare(&mut self, ctx: &GpuContext, inputs: &PassInputs<'_>) -> Result<()>;

    /// Whether [`Pass::record`] records anything this frame (read after `prepare`): the
    /// renderer opens a GPU scope only around passes that write its timestamps.
    fn active(&self) -> bool {
        true
    }

    /// Encodes the pass. Its render passes begin through `queries` (or the helpers that take
    /// them: `gpu_util::colour_pass`, `depth_pass`, `RenderTargets::begin_scene_pass`), which
    /// time and count them.
    fn record(&self, encoder: &mut Encoder, inputs: &PassInputs<'_>, queries: PassQueries<'_>);

    /// What this pass draws into the sun's shadow map, if anything: the renderer hands every
    /// pass's caster to the shadow pass ([`PassInputs::shadow_casters`]).
    fn shadow_caster(&self) -> Option<&dyn ShadowCaster> {
        None
    }
}
