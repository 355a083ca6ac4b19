//! glTF 2.0 importer (`.gltf` and `.glb`): turns files into Sierra's engine data
//! — skins with runtime [`sierra_anim::Skeleton`]s, animation clips, meshes with
//! skin influences and morph targets, metallic-roughness materials, decoded
//! images, and the node hierarchy with names and `extras`.
//!
//! This is the only crate that sees the `gltf` crate's types. Entry point:
//! [`GltfAsset::load`]. Errors ([`Error`]) name the file and the accessor,
//! node, skin or animation index at fault; no input makes it panic.
//!
//! Spec references are to the glTF 2.0 specification (Khronos, 2021).

#![warn(missing_docs)]

mod accessor;
mod animation;
mod asset;
pub mod builtin;
mod error;
pub mod export;
mod import;
mod material;
mod mesh;
pub mod pose;

pub use animation::{ChannelData, ImportedChannel, ImportedClip};
pub use asset::{ClipSelector, GltfAsset, ImportOptions, ImportedNode, ImportedSkin, SkinInstance};
pub use error::{Error, Result};
pub use material::{AlphaMode, ImportedImage, ImportedMaterial, TextureRef};
pub use mesh::{ImportedMesh, ImportedPrimitive, MorphTarget};
