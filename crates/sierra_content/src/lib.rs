//! Content → renderer data: the one place where imported content (`sierra_terrain` meshes,
//! noise and water) becomes the plain data `sierra_render` consumes. The renderer's compute
//! passes take `#[repr(C)]` parameters; this crate depends on the renderer and on the content
//! crates, never the other way round.
//!
//! - [`terrain`] and [`water`]: terrain meshes as [`sierra_render::MeshData`], fBm grids and water
//!   state as the compute passes' `#[repr(C)]` parameters.
//!
//! Errors are the renderer's [`sierra_render::RenderError`] (`InvalidInput` carrying the
//! content crate's message), as these functions feed it.

#![warn(missing_docs)]

pub mod terrain;
pub mod water;
