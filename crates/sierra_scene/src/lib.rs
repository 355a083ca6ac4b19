//! Sierra's scene: level files, the scene graph, components, the asset cache and collision.
//!
//! - [`level`]: level JSON v0 ([`level::load_level`]), validated, with a generated
//!   JSON Schema ([`level::level_schema`], committed as `assets/levels/schema.json`).
//! - [`components`]: the component types a level object can carry, and how to add one.
//!
//! Conventions: right-handed, Y up, metres, seconds, column-major matrices (glTF).

#![warn(missing_docs)]

pub mod components;
pub mod error;
pub mod level;

pub use components::{Component, COMPONENT_TYPES};
pub use error::{Error, LevelError};
pub use level::{load_level, Level, MeshRef, ObjectDef, Primitive};
