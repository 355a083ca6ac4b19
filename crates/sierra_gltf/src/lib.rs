//! glTF 2.0 importer (`.gltf` and `.glb`): turns files into Sierra's engine data
//! — skins with runtime [`sierra_anim::Skeleton`]s, animation clips, meshes with
//! skin influences and morph targets, metallic-roughness materials, decoded
//! images, and the node hierarchy with names and `extras`.
//!
//! This is the only crate that sees the `gltf` crate's types. Entry points:
//! [`GltfAsset::load`] (a file the user named; its folder is the asset root) and
//! [`GltfAsset::load_in`] (a file inside a [`Resolver`]'s root). Every buffer and image URI
//! is resolved through the [`Resolver`] (`sierra_assets`): relative and inside the root, or a
//! `data:` URI; decoded data and image sizes are budgeted ([`Budgets`]). Errors ([`Error`]) name the file and the accessor,
//! node, skin or animation index at fault; no input makes it panic.
//!
//! Sierra validates files itself ([`SUPPORTED_EXTENSIONS`]): a required extension outside the
//! list is refused ([`Error::UnsupportedExtension`]), an optional one ignored with one warning
//! ([`GltfAsset::warnings`]). Quantised attributes (`KHR_mesh_quantization`), meshopt-compressed
//! buffer views (`EXT_meshopt_compression`, decoded within the budgets), texture transforms and
//! `texCoord` 0/1 ([`ImportedPrimitive::texture_uvs`]), samplers ([`ImportedSampler`]) and
//! emissive strength are read.
//!
//! Spec references are to the glTF 2.0 specification (Khronos, 2021).

#![warn(missing_docs)]

mod accessor;
mod animation;
mod asset;
mod buffers;
pub mod builtin;
mod error;
pub mod export;
mod extensions;
mod import;
mod material;
mod mesh;
mod meshopt;
mod nodes;
pub mod pose;
mod source;
pub use source::load_image_file;

pub use animation::{ChannelData, ImportedChannel, ImportedClip};
pub use asset::{ClipSelector, GltfAsset, ImportOptions, ImportedNode, ImportedSkin, SkinInstance};
pub use error::{Error, Result};
pub use extensions::SUPPORTED_EXTENSIONS;
pub use material::{
    AlphaMode, Filter, ImportedImage, ImportedMaterial, ImportedSampler, TextureRef,
    TextureTransform, Wrap,
};
pub use mesh::{ImportedMesh, ImportedPrimitive, MorphTarget};
pub use sierra_assets::{self as assets, Budgets, Resolver};
