//! The per-character animation job and its parallel driver.

use glam::Mat4;
use rayon::prelude::*;

use crate::blending::blend2_lane;
use crate::lane::Trs;
use crate::sampling_soa::{BlockSource, CompressedSampler, SoaSampler};
use crate::simd::{dispatch, SimdLevel, F8};
use crate::soa::{from_soa, soa_blocks, SoaTransform};
use crate::{
    blend_poses_soa_with, local_to_model_from, local_to_model_soa_with, local_to_palette_soa_with,
    sample_clip_soa_with, skinning_palette, AnimError, Clip, ClipRef, ClipSource, Playback,
    SamplingContext, Skeleton, Skin, SoaBlendLayer, Transform,
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

    /// Whether [`PoseHook::apply`] may edit the pose (so the job must hand it the
    /// array-of-structures local pose). `false` lets the job skip that conversion:
    /// [`CharacterPose::local`] is then not written (read [`CharacterPose::soa_local`]).
    fn edits_pose(&self) -> bool {
        true
    }
}

/// The hook that does nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoHook;

impl PoseHook for NoHook {
    #[inline]
    fn apply(&self, _: usize, _: &Skeleton, _: &mut [Transform], _: &[Mat4]) -> Option<usize> {
        None
    }
    #[inline]
    fn edits_pose(&self) -> bool {
        false
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
/// mode, and its blend weight. `C` is what the clip is: a raw [`Clip`] (the default), a
/// [`crate::CompressedClip`], or a [`ClipRef`] (either, so a job can mix them).
pub struct ClipLayer<'a, C: ?Sized = Clip> {
    /// The clip (built for the character's skeleton).
    pub clip: &'a C,
    /// Playback time in seconds (mapped by `playback`).
    pub time: f32,
    /// Clamp or loop.
    pub playback: Playback,
    /// Blend weight (see [`crate::blend_poses`]).
    pub weight: f32,
}

impl<'a, C: ?Sized> ClipLayer<'a, C> {
    /// `clip` as the only layer: at `time` seconds mapped by `playback`, weight 1.
    pub fn single(clip: &'a C, time: f32, playback: Playback) -> Self {
        Self {
            clip,
            time,
            playback,
            weight: 1.0,
        }
    }
}

impl<C: ?Sized> Clone for ClipLayer<'_, C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<C: ?Sized> Copy for ClipLayer<'_, C> {}

impl<C: ?Sized + std::fmt::Debug> std::fmt::Debug for ClipLayer<'_, C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClipLayer")
            .field("clip", &self.clip)
            .field("time", &self.time)
            .field("playback", &self.playback)
            .field("weight", &self.weight)
            .finish()
    }
}

/// Every buffer one character's job writes, allocated once ([`CharacterPose::new`])
/// and reused each frame: no allocation in the steady state.
#[derive(Clone, Debug)]
pub struct CharacterPose {
    contexts: Vec<SamplingContext>,
    /// `[max_layers][soa_blocks(joint_count)]` sampled layers (staged path).
    layer_poses: Vec<SoaTransform>,
    /// `[soa_blocks(joint_count)]` blended local pose (before the hook).
    soa_local: Vec<SoaTransform>,
    /// `[joint_count]` blended local pose (after the hook), written only when the job's hook
    /// [`PoseHook::edits_pose`]; [`CharacterPose::soa_local`] always holds the blended pose.
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
            layer_poses: vec![SoaTransform::IDENTITY; soa_blocks(n) * max_layers],
            soa_local: skeleton.soa_rest_pose().to_vec(),
            local: skeleton.rest_pose().to_vec(),
            model: vec![Mat4::IDENTITY; n],
            palette: vec![Mat4::IDENTITY; skin_joint_count],
        }
    }

    /// `[soa_blocks(joint_count)]` the blended local pose of the last run, before the hook
    /// (eight joints per block, identity past the last joint).
    pub fn soa_local(&self) -> &[SoaTransform] {
        &self.soa_local
    }

    /// Maximum number of layers this pose can blend.
    pub fn max_layers(&self) -> usize {
        self.contexts.len()
    }

    /// The stages every job runs after its first local-to-model (`local` and `model` hold
    /// the blended pose): `hook` edits `local` given `model`, `model` is recomputed (under
    /// `root`) from the first joint it changed, then the palette of `skin` is written
    /// (`None`: no hook, or no palette).
    ///
    /// Errors: [`AnimError::BufferSize`] when the buffers do not match `skeleton` or `skin`.
    pub(crate) fn finish<H: PoseHook>(
        &mut self,
        skeleton: &Skeleton,
        skin: Option<&Skin>,
        hook: Option<&H>,
        character: usize,
        root: Mat4,
    ) -> Result<(), AnimError> {
        let changed = hook.and_then(|h| h.apply(character, skeleton, &mut self.local, &self.model));
        if let Some(from) = changed {
            let from = from.min(skeleton.joint_count());
            local_to_model_from(skeleton, &self.local, root, from, &mut self.model)?;
        }
        if let Some(skin) = skin {
            skinning_palette(skin, &self.model, &mut self.palette)?;
        }
        Ok(())
    }
}

/// One character's frame: sample every layer → blend → hook (IK) → local-to-model
/// (again from the first joint the hook changed) → skinning palette (fused with local-to-model,
/// [`crate::local_to_palette_soa`], when no hook edits the pose).
///
/// Inputs are borrowed, outputs go to the [`CharacterPose`]; the job owns no
/// buffer, so jobs run on any thread.
pub struct CharacterJob<'a, H: PoseHook = NoHook, C: ClipSource + ?Sized = Clip> {
    /// The character's skeleton.
    pub skeleton: &'a Skeleton,
    /// The skin whose palette is computed (`None`: no palette).
    pub skin: Option<&'a Skin>,
    /// 1..=`max_layers` clip layers; one layer skips blending.
    pub layers: &'a [ClipLayer<'a, C>],
    /// Parent transform of the skeleton's roots (identity for model space).
    pub root: Mat4,
    /// Post-sampling hook.
    pub hook: &'a H,
    /// Index passed to the hook.
    pub character: usize,
}

impl<'a, C: ClipSource + ?Sized> CharacterJob<'a, NoHook, C> {
    /// The job without a hook: `layers` blended for `skeleton` in model space (identity
    /// root), character 0, and the palette of `skin` when given.
    pub fn new(
        skeleton: &'a Skeleton,
        skin: Option<&'a Skin>,
        layers: &'a [ClipLayer<'a, C>],
    ) -> Self {
        Self {
            skeleton,
            skin,
            layers,
            root: Mat4::IDENTITY,
            hook: &NoHook,
            character: 0,
        }
    }
}

impl<H: PoseHook, C: ClipSource + ?Sized> CharacterJob<'_, H, C> {
    /// Runs the job into `pose`.
    ///
    /// Errors: [`AnimError::BufferSize`] when there are no layers, more layers than
    /// `pose.max_layers()`, or a clip/skin/pose does not match the skeleton.
    pub fn run(&self, pose: &mut CharacterPose) -> Result<(), AnimError> {
        self.run_with(pose, true)
    }

    /// Like [`CharacterJob::run`] but stage by stage: every layer is sampled into its own
    /// pose, then the poses are blended ([`crate::sample_clip_soa`] per layer + [`blend_poses_soa`]); the
    /// same bits as `run`, kept to measure the fused path against.
    ///
    /// Errors: as [`CharacterJob::run`].
    pub fn run_staged(&self, pose: &mut CharacterPose) -> Result<(), AnimError> {
        self.run_with(pose, false)
    }

    fn run_with(&self, pose: &mut CharacterPose, fused: bool) -> Result<(), AnimError> {
        let n = self.skeleton.joint_count();
        let blocks = soa_blocks(n);
        if self.layers.is_empty() || self.layers.len() > pose.contexts.len() {
            return Err(AnimError::BufferSize {
                what: "clip layers",
                expected: pose.contexts.len(),
                actual: self.layers.len(),
            });
        }
        if pose.local.len() != n
            || pose.soa_local.len() != blocks
            || pose.layer_poses.len() < blocks * self.layers.len()
        {
            return Err(AnimError::BufferSize {
                what: "character pose",
                expected: n,
                actual: pose.local.len(),
            });
        }
        if let Some(l) = self.layers.iter().find(|l| l.clip.joint_count() != n) {
            return Err(AnimError::BufferSize {
                what: "clip joints",
                expected: n,
                actual: l.clip.joint_count(),
            });
        }
        let level = SimdLevel::detect();
        if let [layer] = self.layers {
            sample_clip_soa_with(
                level,
                layer.clip,
                layer.time,
                layer.playback,
                &mut pose.contexts[0],
                &mut pose.soa_local,
            )?;
        } else if let ([a, b], true) = (self.layers, fused) {
            let (ca, rest) = pose.contexts.split_at_mut(1);
            let (ca, cb) = (&mut ca[0], &mut rest[0]);
            let target = FuseTarget {
                level,
                rest: self.skeleton.soa_rest_pose(),
                out: &mut pose.soa_local,
            };
            fuse_layers((a, ca), (b, cb), target);
        } else {
            for ((layer, ctx), out) in self
                .layers
                .iter()
                .zip(&mut pose.contexts)
                .zip(pose.layer_poses.chunks_exact_mut(blocks))
            {
                sample_clip_soa_with(level, layer.clip, layer.time, layer.playback, ctx, out)?;
            }
            let mut blend = [SoaBlendLayer {
                pose: &[],
                weight: 0.0,
                joint_weights: None,
            }; 8];
            let layers = self
                .layers
                .iter()
                .zip(pose.layer_poses.chunks_exact(blocks));
            if self.layers.len() <= blend.len() {
                for (b, (layer, p)) in blend.iter_mut().zip(layers) {
                    b.pose = p;
                    b.weight = layer.weight;
                }
                blend_poses_soa_with(
                    level,
                    &blend[..self.layers.len()],
                    &[],
                    self.skeleton.soa_rest_pose(),
                    &mut pose.soa_local,
                )?;
            } else {
                let blend: Vec<SoaBlendLayer> = layers
                    .map(|(l, p)| SoaBlendLayer {
                        pose: p,
                        weight: l.weight,
                        joint_weights: None,
                    })
                    .collect();
                blend_poses_soa_with(
                    level,
                    &blend,
                    &[],
                    self.skeleton.soa_rest_pose(),
                    &mut pose.soa_local,
                )?;
            }
        }
        if let (Some(skin), false) = (self.skin, self.hook.edits_pose()) {
            // No hook to run between the stages: local-to-model and palette in one pass.
            return local_to_palette_soa_with(
                level,
                self.skeleton,
                &pose.soa_local,
                self.root,
                skin,
                &mut pose.model,
                &mut pose.palette,
            );
        }
        local_to_model_soa_with(
            level,
            self.skeleton,
            &pose.soa_local,
            self.root,
            &mut pose.model,
        )?;
        let hook = if self.hook.edits_pose() {
            from_soa(&pose.soa_local, &mut pose.local)?;
            Some(self.hook)
        } else {
            None
        };
        pose.finish(self.skeleton, self.skin, hook, self.character, self.root)
    }
}

/// Where a fused crossfade writes: `out` (`[soa_blocks(joint_count)]`), `rest` the rest pose
/// (for joints whose weights sum to zero), on instruction set `level`.
struct FuseTarget<'o> {
    level: SimdLevel,
    rest: &'o [SoaTransform],
    out: &'o mut [SoaTransform],
}

/// The crossfade of layer `a` (sampled with context `ca`) and layer `b` (with `cb`), each clip
/// raw or compressed: picks `a`'s sampler, then [`fuse_with`] picks `b`'s and runs [`fused2`].
fn fuse_layers<C: ClipSource + ?Sized>(
    (a, ca): (&ClipLayer<'_, C>, &mut SamplingContext),
    b: (&ClipLayer<'_, C>, &mut SamplingContext),
    target: FuseTarget<'_>,
) {
    let (t, p, w) = (a.time, a.playback, a.weight);
    match a.clip.clip_ref() {
        ClipRef::Raw(x) => fuse_with(&mut SoaSampler::new(x, t, p, ca), w, b, target),
        ClipRef::Compressed(x) => fuse_with(&mut CompressedSampler::new(x, t, p, ca), w, b, target),
    }
}

/// [`fuse_layers`] once the first layer's sampler `sa` (weight `wa`) is built.
fn fuse_with<A: BlockSource, C: ClipSource + ?Sized>(
    sa: &mut A,
    wa: f32,
    (b, cb): (&ClipLayer<'_, C>, &mut SamplingContext),
    FuseTarget { level, rest, out }: FuseTarget<'_>,
) {
    let (t, p, wb) = (b.time, b.playback, b.weight);
    match b.clip.clip_ref() {
        ClipRef::Raw(y) => fused2(
            level,
            sa,
            &mut SoaSampler::new(y, t, p, cb),
            wa,
            wb,
            rest,
            out,
        ),
        ClipRef::Compressed(y) => {
            let mut sb = CompressedSampler::new(y, t, p, cb);
            fused2(level, sa, &mut sb, wa, wb, rest, out);
        }
    }
}

dispatch! {
    /// The crossfade fast path: samples both clips (each a raw [`SoaSampler`] or a
    /// [`CompressedSampler`]) block by block and blends in the same pass, without writing the
    /// two intermediate poses (the same bits as sampling twice and [`blend_poses_soa`]).
    /// `rest` and `out` are `[soa_blocks(joint_count)]`; `wa`, `wb` are the layer weights.
    fn fused2<A: BlockSource, B: BlockSource>(
        sa: &mut A,
        sb: &mut B,
        wa: f32,
        wb: f32,
        rest: &[SoaTransform],
        out: &mut [SoaTransform],
    ) => fused2_kernel
}

#[inline(always)]
fn fused2_kernel<A: BlockSource, B: BlockSource>(
    sa: &mut A,
    sb: &mut B,
    wa: f32,
    wb: f32,
    rest: &[SoaTransform],
    out: &mut [SoaTransform],
) {
    let (wa, wb) = (F8::splat(wa), F8::splat(wb));
    for (b, o) in out.iter_mut().enumerate() {
        let pa = sa.block(b);
        let pb = sb.block(b);
        let r = Trs::from(&rest[b]);
        *o = blend2_lane(&pa, &pb, wa, wb, &r).into();
    }
}

/// Characters a rayon task runs one after the other (so each can prefetch the next one's
/// buffers); small enough that two threads still share 1,000 characters evenly.
const CHARACTERS_PER_TASK: usize = 4;

/// Runs `job(character_index, pose)` for every pose in parallel on rayon's
/// current pool (work stealing, [`CHARACTERS_PER_TASK`] characters per task), returning the
/// first error. Before a character runs, the buffers the next one writes are prefetched
/// ([`CharacterPose::prefetch`]): a crowd's poses do not fit in the caches, and the next
/// character's lines arrive while this one computes. The frame waits for all characters.
/// `job` typically builds a [`CharacterJob`] on the stack and runs it.
pub fn run_characters_parallel<F>(poses: &mut [CharacterPose], job: F) -> Result<(), AnimError>
where
    F: Fn(usize, &mut CharacterPose) -> Result<(), AnimError> + Sync + Send,
{
    poses
        .par_chunks_mut(CHARACTERS_PER_TASK)
        .enumerate()
        .try_for_each(|(c, chunk)| {
            for k in 0..chunk.len() {
                if let Some(next) = chunk.get(k + 1) {
                    next.prefetch();
                }
                job(c * CHARACTERS_PER_TASK + k, &mut chunk[k])?;
            }
            Ok(())
        })
}

impl CharacterPose {
    /// Asks the CPU to bring the lines of the blended pose, the model matrices and the palette
    /// into the cache ahead of a job that writes them (x86-64 `prefetcht0`; nothing elsewhere).
    /// A hint only: no value changes.
    pub fn prefetch(&self) {
        #[cfg(target_arch = "x86_64")]
        {
            fn lines<T>(v: &[T]) {
                let (p, bytes) = (v.as_ptr() as *const i8, std::mem::size_of_val(v));
                for off in (0..bytes).step_by(64) {
                    // SAFETY: `off < bytes`: the address lies inside `v`; prefetching reads
                    // nothing and cannot fault.
                    unsafe {
                        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                            p.add(off),
                        )
                    };
                }
            }
            lines(&self.soa_local);
            lines(&self.model);
            lines(&self.palette);
        }
    }
}
