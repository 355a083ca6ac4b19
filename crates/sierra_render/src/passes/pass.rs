//! The pass interface: [`Pass`] (one step of the frame), what it reads ([`PassInputs`]), the
//! encoder it records into and [`ShadowCaster`] (something the shadow pass draws). Every pass
//! module names these; this module names none of them.

use crate::context::GpuContext;
use crate::error::Result;
use crate::frame::FrameData;
use crate::material_store::MaterialStore;
use crate::mesh_store::MeshStore;
use crate::pipeline_statistics::PassQueries;
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

/// Something drawn into the sun's shadow map: the shadow pass records every caster of a frame
/// ([`PassInputs::shadow_casters`]: the forward pass's meshes and skinned outputs, the crowds)
/// into its map, in one render pass ([`ShadowPass`](super::shadow::ShadowPass)'s `record`).
/// A caster draws with a pipeline from
/// [`ShadowPass::caster_pipeline`](super::shadow::ShadowPass::caster_pipeline), whose group 0
/// the shadow pass binds to this frame's light view-projection
/// ([`ShadowUniform`](super::shadow::ShadowUniform)); everything else (its vertex buffers, its
/// other groups) it binds itself.
pub trait ShadowCaster {
    /// Whether the caster draws anything this frame (after every pass's `prepare`).
    fn casts_shadows(&self, inputs: &PassInputs<'_>) -> bool;

    /// Draws the caster's depth into `pass` (the shadow map, group 0 bound). `light` is the
    /// frustum of this frame's light view-projection (the map's orthographic box): a caster
    /// whose world bounds lie outside it cannot reach the map, and should not be drawn.
    fn record_shadow(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        inputs: &PassInputs<'_>,
        light: &super::frustum::Frustum,
    );
}
