//! Compute passes: GPU work whose results stay on the GPU or are read back
//! (improved Perlin noise and fBm; water columns).

pub mod noise;
pub mod water;
