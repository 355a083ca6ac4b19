//! Procedural built-in sounds (seed 002's sea and gulls, synthesised instead of downloaded).
//! Every generator returns an exactly periodic [`Clip`](crate::Clip): looping it has no seam.

mod dsp;
mod gulls;
mod surf;

pub use gulls::{gulls, GULLS_LOOP_SECONDS};
pub use surf::{surf, SURF_LOOP_SECONDS};

pub(crate) use dsp::pan_gains;
