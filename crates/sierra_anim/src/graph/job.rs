//! The per-character job of a graph-driven character: evaluate the graph → hook (IK) →
//! local-to-model → skinning palette (what [`crate::CharacterJob`] does after sampling).

use glam::Mat4;

use super::{evaluate_graph, GraphBinding, GraphInstance, GraphPoseBuffers};
use crate::{local_to_model, AnimError, CharacterPose, Clip, PoseHook, Skeleton, Skin};

/// One graph-driven character's frame; inputs borrowed, outputs in a [`CharacterPose`]
/// (`local`, `model`, `palette`), scratch in [`GraphPoseBuffers`].
pub struct GraphJob<'a, H: PoseHook> {
    /// The skeleton.
    pub skeleton: &'a Skeleton,
    /// The skin whose palette is computed (`None`: no palette).
    pub skin: Option<&'a Skin>,
    /// The model's clips (what `binding` indexes).
    pub clips: &'a [Clip],
    /// The graph state.
    pub instance: &'a GraphInstance,
    /// Its binding to this model.
    pub binding: &'a GraphBinding,
    /// Parent transform of the skeleton's roots.
    pub root: Mat4,
    /// Post-sampling hook.
    pub hook: &'a H,
    /// Index passed to the hook.
    pub character: usize,
}

impl<H: PoseHook> GraphJob<'_, H> {
    /// Runs the job.
    ///
    /// Errors: [`AnimError::BufferSize`] when buffers, clips or skin do not match the skeleton.
    pub fn run(
        &self,
        buffers: &mut GraphPoseBuffers,
        pose: &mut CharacterPose,
    ) -> Result<(), AnimError> {
        evaluate_graph(
            self.instance,
            self.binding,
            self.clips,
            self.skeleton,
            buffers,
            &mut pose.local,
        )?;
        local_to_model(self.skeleton, &pose.local, self.root, &mut pose.model)?;
        pose.finish(
            self.skeleton,
            self.skin,
            Some(self.hook),
            self.character,
            self.root,
        )
    }
}
