//! Compute passes: GPU work whose results stay on the GPU or are read back
//! (improved Perlin noise and fBm; water columns: Mei's 4 pipes and the thesis's 8 connections).

pub mod noise;
pub mod skinned_bounds;
pub mod skinning;
pub mod water;
pub mod water8;
mod water_gpu;
mod water_params;
