//! The MSAA resolve: once per frame, after the last scene pass (forward, crowd, sky, sea all
//! draw into the multisampled HDR target and keep its samples), the samples are resolved into
//! the single-sample HDR target the post passes read ([`RenderTargets::resolve_msaa`]).
//! Without multisampling the pass is inactive and records nothing.

use super::{Encoder, Pass, PassInputs, PassQueries};
use crate::context::GpuContext;
use crate::error::Result;
use crate::targets::RenderTargets;

/// The resolve step (no resources of its own).
#[derive(Debug, Default)]
pub struct MsaaResolvePass {
    /// Whether the targets are multisampled (set at `resize`).
    multisampled: bool,
}

impl Pass for MsaaResolvePass {
    fn name(&self) -> &'static str {
        "msaa resolve"
    }

    fn resize(&mut self, _ctx: &GpuContext, targets: &RenderTargets) -> Result<()> {
        self.multisampled = targets.sample_count > 1;
        Ok(())
    }

    fn prepare(&mut self, _ctx: &GpuContext, _inputs: &PassInputs<'_>) -> Result<()> {
        Ok(())
    }

    fn active(&self) -> bool {
        self.multisampled
    }

    fn record(&self, encoder: &mut Encoder, inputs: &PassInputs<'_>, queries: PassQueries<'_>) {
        inputs.targets.resolve_msaa(encoder, queries);
    }
}
