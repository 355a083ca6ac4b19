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
//! ## Data layouts
//! - Local pose: `[joint_count]` [`Transform`] (translation, unit quaternion,
//!   scale; matrix `T·R·S`), indexed by runtime joint index (parents-first,
//!   depth-first: [`Skeleton::parents`]`[j] < j`, subtree of `j` contiguous).
//! - Model space ([`local_to_model`]): `[joint_count]` column-major `Mat4`,
//!   `model[j] = model[parent] · local[j]`, roots multiplied by a `root` matrix.
//! - Skinning palette ([`skinning_palette`]): `[skin.joint_count()]` column-major
//!   `Mat4` = `model[skin.joints[i]] · inverse_bind[i]`, in the order of the glTF
//!   skin's `joints` array (what `JOINTS_0` indexes). [`joint_matrices`] adds the
//!   glTF `inverse(mesh node global)` factor.
//! - Baked animation ([`bake_skinning_matrices`]): `[clip][frame][joint]` 3×4
//!   affine skinning matrices, three RGBA32F texels per matrix holding its rows
//!   (see [`BakedAnimation`]).
//! - Morph weights ([`sample_morph_weights`]): `[weight_count]` floats per
//!   [`MorphTrack`] (one per animated mesh instance).
//!
//! 4. **Animation graphs** ([`graph`]): data-driven state machines (JSON assets with a
//!    JSON Schema) of clips and 1D blend spaces, transitions on parameters and exit times,
//!    crossfades, masked override and additive layers, and clip events; they evaluate to a
//!    local pose through the jobs above. This crate reads no files: graph JSON arrives as
//!    text ([`graph::AnimGraph::from_json_str`]), read by the caller through its asset boundary.
//! 5. **Offline work** ([`offline`]): the compression encoder and the error it is measured by,
//!    apart from the runtime that samples [`CompressedClip`]s (ozz's offline/runtime split).
//!
//! Conventions: right-handed, Y up, metres, seconds, radians, column-major
//! matrices, as glTF 2.0. glam types everywhere; no GPU here and no model files (the
//! glTF importer lives in `sierra_gltf`).

#![warn(missing_docs)]

mod baking;
mod blending;
mod clip;
mod clip_soa;
mod compressed;
mod crossfade;
mod error;
pub mod graph;
pub mod ik;
mod job;
mod lane;
mod local_to_model;
mod model_palette;
pub mod offline;
mod palette;
mod sampling;
mod sampling_compressed;
mod sampling_soa;
pub mod simd;
mod skeleton;
mod slerp;
mod soa;
mod source;
pub mod synthetic;
mod track;
mod transform;

pub use baking::{bake_skinning_matrices, BakedAnimation, BakedClip};
pub use blending::{
    blend_poses, blend_poses_layered, blend_poses_soa, blend_poses_soa_with, BlendLayer, PoseLayer,
    SoaBlendLayer,
};
pub use clip::{Clip, MorphTrack};
pub use compressed::CompressedClip;
pub use crossfade::Crossfade;
pub use error::AnimError;
pub use job::{
    run_characters_parallel, CharacterJob, CharacterPose, ClipLayer, FnHook, NoHook, PoseHook,
};
pub use local_to_model::{
    local_to_model, local_to_model_from, local_to_model_soa, local_to_model_soa_with,
};
pub use model_palette::{local_to_palette_soa, local_to_palette_soa_with};
pub use offline::compress::CompressionSettings;
pub use offline::{RawClip, RawJoint, RawJointTrack, RawMorphTrack, RawSkeleton, RawTrack};
pub use palette::{joint_matrices, skinning_palette, Skin};
pub use sampling::{sample_clip, sample_morph_weights, Playback, SamplingContext};
pub use sampling_soa::{sample_clip_soa, sample_clip_soa_with};
pub use simd::{SimdLevel, F8, LANES};
pub use skeleton::{Skeleton, NO_PARENT};
pub use soa::{from_soa, soa_blocks, to_soa, SoaTransform};
pub use source::{ClipRef, ClipSource};
pub use track::Interpolation;
pub use transform::Transform;

/// The types most users need: `use sierra_anim::prelude::*;`.
pub mod prelude {
    pub use crate::{
        blend_poses, local_to_model, sample_clip, skinning_palette, BlendLayer, CharacterJob,
        CharacterPose, Clip, ClipLayer, Crossfade, Playback, PoseHook, RawClip, RawSkeleton,
        SamplingContext, Skeleton, Skin, Transform,
    };
}
