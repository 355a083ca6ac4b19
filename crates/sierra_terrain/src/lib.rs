//! Procedural landscape for Sierra: improved Perlin noise and fBm (CPU, generic over `f32`/`f64`,
//! SIMD grids), height fields, the island terrain (mountains, beach, sea level), the fractal
//! planet with its cloud layer, birds, palm trees, OBJ export and mesh level of detail.
//!
//! Source: the thesis "Generación de paisajes procedurales con Direct3D y GPU" (seed 002): §2.1
//! noise and fractals, §2.3 the scene, Annex F fBm. Conventions: right-handed, Y up, metres.
//! Meshes are plain [`mesh::Mesh`] structs; the renderer converts them.
#![warn(missing_docs)]

pub mod error;
pub mod noise;
pub mod simd;
pub mod water;

pub use error::Error;
pub mod chunks;
pub mod detail;
pub mod heightfield;
pub mod island;
pub mod mesh;
pub mod rng;
pub mod surface_detail;

pub use heightfield::HeightField;
pub use island::{Island, TerrainParams};
pub use mesh::Mesh;
pub mod birds;
pub mod lod;
pub mod obj;
pub mod palm;
pub mod planet;
