//! Procedural noise: improved Perlin noise ([`perlin`], and true 2D noise [`perlin2d`]), fBm ([`fbm`]) and SIMD grid evaluation
//! ([`grid`]).

pub mod fbm;
pub mod grid;
pub mod periodic;
pub mod perlin;
pub mod perlin2d;
pub mod workloads;

pub use fbm::{Fbm, FbmKind, FbmParams, MAX_OCTAVES};
pub use perlin::{perlin2, perlin3, perlin3_portable, NoiseFloat, Permutation};
pub use perlin2d::noise2d;

use crate::error::Error;

/// Checks that every coordinate of point number `index` (0-based) is finite.
///
/// # Errors
/// [`Error::NonFinite`] naming the point and coordinate.
pub fn validate_point(index: usize, point: &[f64]) -> Result<(), Error> {
    for (axis, &v) in point.iter().enumerate() {
        if !v.is_finite() {
            return Err(Error::non_finite(
                &format!("point {index} coordinate {axis}"),
                v,
            ));
        }
    }
    Ok(())
}
