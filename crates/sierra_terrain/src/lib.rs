//! sierra_terrain

pub mod water;
