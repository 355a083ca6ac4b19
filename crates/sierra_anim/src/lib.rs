//! Sierra's animation runtime: skeletons, clips, sampling, blending and
//! crossfades, local-to-model, skinning palettes, baking and per-character jobs.
//!
//! The crate follows ozz-animation's shape (see `docs/STYLE.md`):
//!
//! 1. **Raw data** ([`RawSkeleton`], [`RawClip`]) is what importers produce: plain,
//!    editable, validated by the builders.
//! 2. **Builders** turn it into **runtime data**: [`Skeleton`] (joints sorted
//!    parents-first in depth-first pre-order, rest pose, names) and [`Clip`]
//!    (per-joint translation/rotation/scale tracks in flat arrays).
//! 3. **Jobs** with explicit inputs and outputs, owning no buffers:
//!    [`sample_clip`], [`blend_poses`], [`local_to_model`], [`skinning_palette`],
//!    and the whole per-character pipeline [`CharacterJob`] (sample → blend →
//!    optional [`PoseHook`] for IK → local-to-model → palette), run in parallel
//!    over characters with [`run_characters_parallel`].
//!
//! Conventions: right-handed, Y up, metres, seconds, radians, column-major
//! matrices, as glTF 2.0. glam types everywhere; no files and no GPU here (the
//! glTF importer lives in `sierra_gltf`).

#![warn(missing_docs)]

mod baking;
mod blending;
mod clip;
mod crossfade;
mod error;
pub mod ik;
mod job;
mod local_to_model;
mod palette;
mod sampling;
mod skeleton;
mod slerp;
pub mod synthetic;
mod transform;

pub use baking::{bake_skinning_matrices, BakedAnimation, BakedClip};
pub use blending::{blend_poses, BlendLayer};
pub use clip::{Clip, Interpolation, MorphTrack, RawClip, RawJointTrack, RawMorphTrack, RawTrack};
pub use crossfade::Crossfade;
pub use error::AnimError;
pub use job::{
    run_characters_parallel, CharacterJob, CharacterPose, ClipLayer, FnHook, NoHook, PoseHook,
};
pub use local_to_model::{local_to_model, local_to_model_from};
pub use palette::{joint_matrices, skinning_palette, Skin};
pub use sampling::{sample_clip, sample_morph_weights, Playback, SamplingContext};
pub use skeleton::{RawJoint, RawSkeleton, Skeleton, NO_PARENT};
pub use transform::Transform;

/// The types most users need: `use sierra_anim::prelude::*;`.
pub mod prelude {
    pub use crate::{
        blend_poses, local_to_model, sample_clip, skinning_palette, BlendLayer, CharacterJob,
        CharacterPose, Clip, ClipLayer, Crossfade, Playback, PoseHook, RawClip, RawSkeleton,
        SamplingContext, Skeleton, Skin, Transform,
    };
}
