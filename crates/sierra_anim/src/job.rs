//! The per-character animation job and its parallel driver.

use glam::Mat4;
use rayon::prelude::*;

use crate::blending::blend2;
use crate::sampling::JointSampler;
use crate::{
    blend_poses, local_to_model, local_to_model_from, sample_clip, skinning_palette, AnimError,
    BlendLayer, Clip, Playback, SamplingContext, Skeleton, Skin, Transform,
};

/// A post-sampling hook (IK) run inside [`CharacterJob::run`] after the first
/// local-to-model: it may edit `local` (typically joint rotations) using the
/// model-space matrices `model`, and returns the lowest joint index it changed so
/// the job recomputes local-to-model from there (`None`: nothing changed).
///
/// The animation code does not know what the hook does. `character` is the index
/// given to the job, so one hook can serve many characters (per-character IK
/// targets live in the hook). Must be `Sync`: characters run on several threads.
pub trait PoseHook: Sync {
    /// Edits `local` (`[joint_count]`) given `model` (`[joint_count]`, from the unedited pose).
    fn apply(
        &self,
        character: usize,
        skeleton: &Skeleton,
        local: &mut [Transform],
        model: &[Mat4],
    ) -> Option<usize>;
}

/// The hook that does nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoHook;

impl PoseHook for NoHook {
    #[inline]
    fn apply(&self, _: usize, _: &Skeleton, _: &mut [Transform], _: &[Mat4]) -> Option<usize> {
        None
    }
}

/// Wraps a closure `Fn(character, skeleton, local, model) -> Option<first changed joint>` as a [`PoseHook`].
pub struct FnHook<F>(pub F);

impl<F> PoseHook for FnHook<F>
where
    F: Fn(usize, &Skeleton, &mut [Transform], &[Mat4]) -> Option<usize> + Sync,
{
    fn apply(
        &self,
        character: usize,
        skeleton: &Skeleton,
        local: &mut [Transform],
        model: &[Mat4],
    ) -> Option<usize> {
        (self.0)(character, skeleton, local, model)
    }
}

/// One clip playing in a character: the clip, its playback time (seconds) and
/// mode, and its blend weight.
#[derive(Clone, Copy, Debug)]
pub struct ClipLayer<'a> {
    /// The clip (built for the character's skeleton).
    pub clip: &'a Clip,
    /// Playback time in seconds (mapped by `playback`).
    pub time: f32,
    /// Clamp or loop.
    pub playback: Playback,
    /// Blend weight (see [`blend_poses`]).
    pub weight: f32,
}

/// Every buffer one character's job writes, allocated once ([`CharacterPose::new`])
/// and reused each frame: no allocation in the steady state.
#[derive(Clone, Debug)]
pub struct CharacterPose {
    contexts: Vec<SamplingContext>,
    layer_poses: Vec<Transform>,
    /// `[joint_count]` blended local pose (after the hook).
    pub local: Vec<Transform>,
    /// `[joint_count]` column-major model-space matrices.
    pub model: Vec<Mat4>,
    /// `[skin joint_count]` column-major skinning palette (model × inverse bind).
    pub palette: Vec<Mat4>,
}

impl CharacterPose {
    /// Buffers for `skeleton`, a palette of `skin_joint_count` matrices and up to `max_layers` clip layers.
    pub fn new(skeleton: &Skeleton, skin_joint_count: usize, max_layers: usize) -> Self {
        let n = skeleton.joint_count();
        let max_layers = max_layers.max(1);
        Self {
            contexts: (0..max_layers).map(|_| SamplingContext::new(n)).collect(),
            layer_poses: vec![Transform::IDENTITY; n * max_layers],
            local: skeleton.rest_pose().to_vec(),
            model: vec![Mat4::IDENTITY; n],
            palette: vec![Mat4::IDENTITY; skin_joint_count],
        }
    }

    /// Maximum number of layers this pose can blend.
    pub fn max_layers(&self) -> usize {
        self.contexts.len()
    }
}

/// One character's frame: sample every layer → blend → hook (IK) → local-to-model
/// (again from the first joint the hook changed) → skinning palette.
///
/// Inputs are borrowed, outputs go to the [`CharacterPose`]; the job owns no
/// buffer, so jobs run on any thread.
pub struct CharacterJob<'a, H: PoseHook = NoHook> {
    /// The character's skeleton.
    pub skeleton: &'a Skeleton,
    /// The skin whose palette is computed (`None`: no palette).
    pub skin: Option<&'a Skin>,
    /// 1..=`max_layers` clip layers; one layer skips blending.
    pub layers: &'a [ClipLayer<'a>],
    /// Parent transform of the skeleton's roots (identity for model space).
    pub root: Mat4,
    /// Post-sampling hook.
    pub hook: &'a H,
    /// Index passed to the hook.
    pub character: usize,
}

impl<H: PoseHook> CharacterJob<'_, H> {
    /// Runs the job into `pose`.
    ///
    /// Errors: [`AnimError::BufferSize`] when there are no layers, more layers than
    /// `pose.max_layers()`, or a clip/skin/pose does not match the skeleton.
    pub fn run(&self, pose: &mut CharacterPose) -> Result<(), AnimError> {
        self.run_with(pose, true)
    }

    /// Like [`CharacterJob::run`] but stage by stage: every layer is sampled into its own
    /// pose, then the poses are blended ([`sample_clip`] per layer + [`blend_poses`]); the
    /// same result as `run`, kept to measure the fused path against.
    ///
    /// Errors: as [`CharacterJob::run`].
    pub fn run_staged(&self, pose: &mut CharacterPose) -> Result<(), AnimError> {
        self.run_with(pose, false)
    }

    fn run_with(&self, pose: &mut CharacterPose, fused: bool) -> Result<(), AnimError> {
        let n = self.skeleton.joint_count();
        if self.layers.is_empty() || self.layers.len() > pose.contexts.len() {
            return Err(AnimError::BufferSize {
                what: "clip layers",
                expected: pose.contexts.len(),
                actual: self.layers.len(),
            });
        }
        if pose.local.len() != n || pose.layer_poses.len() < n * self.layers.len() {
            return Err(AnimError::BufferSize {
                what: "character pose",
                expected: n,
                actual: pose.local.len(),
            });
        }
        if let [layer] = self.layers {
            sample_clip(
                layer.clip,
                layer.time,
                layer.playback,
                &mut pose.contexts[0],
                &mut pose.local,
            )?;
        } else if let ([a, b], true) = (self.layers, fused) {
            sample_and_blend2(a, b, self.skeleton, pose)?;
        } else {
            for ((layer, ctx), out) in self
                .layers
                .iter()
                .zip(&mut pose.contexts)
                .zip(pose.layer_poses.chunks_exact_mut(n))
            {
                sample_clip(layer.clip, layer.time, layer.playback, ctx, out)?;
            }
            let mut blend = [BlendLayer {
                pose: &[],
                weight: 0.0,
            }; 8];
            if self.layers.len() <= blend.len() {
                for (b, (layer, p)) in blend
                    .iter_mut()
                    .zip(self.layers.iter().zip(pose.layer_poses.chunks_exact(n)))
                {
                    *b = BlendLayer {
                        pose: p,
                        weight: layer.weight,
                    };
                }
                blend_poses(
                    &blend[..self.layers.len()],
                    self.skeleton.rest_pose(),
                    &mut pose.local,
                )?;
            } else {
                let blend: Vec<BlendLayer> = self
                    .layers
                    .iter()
                    .zip(pose.layer_poses.chunks_exact(n))
                    .map(|(l, p)| BlendLayer {
                        pose: p,
                        weight: l.weight,
                    })
                    .collect();
                blend_poses(&blend, self.skeleton.rest_pose(), &mut pose.local)?;
            }
        }
        local_to_model(self.skeleton, &pose.local, self.root, &mut pose.model)?;
        if let Some(from) =
            self.hook
                .apply(self.character, self.skeleton, &mut pose.local, &pose.model)
        {
            local_to_model_from(
                self.skeleton,
                &pose.local,
                self.root,
                from.min(n),
                &mut pose.model,
            )?;
        }
        if let Some(skin) = self.skin {
            skinning_palette(skin, &pose.model, &mut pose.palette)?;
        }
        Ok(())
    }
}

/// The crossfade fast path: samples both clips joint by joint and blends in
/// the same pass, without writing the two intermediate poses (same result as
/// [`sample_clip`] ×2 + [`blend_poses`]).
fn sample_and_blend2(
    a: &ClipLayer,
    b: &ClipLayer,
    skeleton: &Skeleton,
    pose: &mut CharacterPose,
) -> Result<(), AnimError> {
    let n = skeleton.joint_count();
    for clip in [a.clip, b.clip] {
        if clip.joint_count() != n {
            return Err(AnimError::BufferSize {
                what: "clip joints",
                expected: n,
                actual: clip.joint_count(),
            });
        }
    }
    let (wa, wb) = (a.weight.max(0.0), b.weight.max(0.0));
    let total = wa + wb;
    if !(total > 1e-6) || !total.is_finite() {
        pose.local.copy_from_slice(skeleton.rest_pose());
        return Ok(());
    }
    let (wa, wb) = (wa / total, wb / total);
    let (ca, rest) = pose.contexts.split_at_mut(1);
    let mut sa = JointSampler::new(a.clip, a.time, a.playback, &mut ca[0]);
    let mut sb = JointSampler::new(b.clip, b.time, b.playback, &mut rest[0]);
    for (j, out) in pose.local.iter_mut().enumerate() {
        *out = blend2(&sa.joint(j), &sb.joint(j), wa, wb);
    }
    Ok(())
}

/// Runs `job(character_index, pose)` for every pose in parallel on rayon's
/// current pool (work stealing), returning the first error. The frame waits for
/// all characters. `job` typically builds a [`CharacterJob`] on the stack and runs it.
pub fn run_characters_parallel<F>(poses: &mut [CharacterPose], job: F) -> Result<(), AnimError>
where
    F: Fn(usize, &mut CharacterPose) -> Result<(), AnimError> + Sync + Send,
{
    poses
        .par_iter_mut()
        .enumerate()
        .try_for_each(|(i, p)| job(i, p))
}
