//! Compute passes: GPU work whose results stay on the GPU or are read back
//! (water columns; noise).

pub mod water;
