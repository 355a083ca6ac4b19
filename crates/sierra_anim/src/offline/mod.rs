//! Offline work on animation data, apart from the runtime (ozz-animation's offline/runtime
//! split): raw clips and skeletons as importers produce them and their builders
//! ([`crate::Clip::build`], [`crate::Skeleton::build`]), the compression encoder ([`CompressedClip::compress`](crate::CompressedClip::compress),
//! in `encode`) and the measures it is judged by ([`compress`]: clip sizes and ACL's
//! virtual-vertex error). The runtime (sampling, blending, jobs) never names this module.

pub mod compress;
mod encode;
mod raw_clip;
mod raw_skeleton;

pub use raw_clip::{RawClip, RawJointTrack, RawMorphTrack, RawTrack};
pub use raw_skeleton::{RawJoint, RawSkeleton};
