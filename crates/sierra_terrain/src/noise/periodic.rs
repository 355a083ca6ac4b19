//! Periodic (tileable) 2D Perlin noise and fBm, for textures that repeat without seams.
//!
//! [`perlin2_periodic`] is [`crate::noise::perlin2`] with the lattice corners wrapped modulo a
//! period before they are hashed (the "pnoise" of Perlin's reference and of Gustavson's GLSL
//! noise), so `noise(x + period, y) = noise(x, y + period) = noise(x, y)`. With period 256 (the
//! permutation's own period) it equals [`crate::noise::perlin2`].
//!
//! [`fbm2_periodic`] is the thesis's fBm (seed 002, Annex F: `sum += noise(p·freq)·amp;
//! freq *= lacunarity; amp *= H`) with lacunarity fixed to 2, the smallest integer: octave `k`
//! samples at frequency `2^k` with period `period · 2^k`, so every octave, and the sum, repeats
//! every `period` units.

use super::perlin::{fade, grad, lerp, Permutation};

/// Largest period: the permutation table repeats every 256 lattice cells anyway.
pub const MAX_PERIOD: u32 = 256;

/// Improved Perlin noise at `(x, y)` (as `perlin3(x, y, 0)`), periodic with `period` lattice
/// cells along both axes (`period` clamped to `1..=MAX_PERIOD`); in [-1, 1].
pub fn perlin2_periodic(perm: &Permutation, x: f32, y: f32, period: u32) -> f32 {
    let p = period.clamp(1, MAX_PERIOD) as i64;
    let (fx, fy) = (x.floor(), y.floor());
    let (ix, iy) = (fx as i64, fy as i64);
    let (x0, x1) = (ix.rem_euclid(p) as usize, (ix + 1).rem_euclid(p) as usize);
    let (y0, y1) = (iy.rem_euclid(p) as usize, (iy + 1).rem_euclid(p) as usize);
    let (x, y) = (x - fx, y - fy);
    let (u, v) = (fade(x), fade(y));
    // The reference's hash of corner (i, j) on the z = 0 face: p[p[p[i] + j]].
    let hash = |i: usize, j: usize| perm.at(perm.at(perm.at(i) + j));
    lerp(
        v,
        lerp(
            u,
            grad(hash(x0, y0), x, y, 0.0),
            grad(hash(x1, y0), x - 1.0, y, 0.0),
        ),
        lerp(
            u,
            grad(hash(x0, y1), x, y - 1.0, 0.0),
            grad(hash(x1, y1), x - 1.0, y - 1.0, 0.0),
        ),
    )
}

/// fBm of [`perlin2_periodic`] with lacunarity 2 and gain `gain` (the thesis's `H`) over
/// `octaves` whole octaves, repeating every `period` units along both axes as long as
/// `period · 2^(octaves−1) ≤ MAX_PERIOD` (finer octaves reuse the 256-cell period, which still
/// repeats, since `256` is a multiple of `period` when `period` is a power of two).
pub fn fbm2_periodic(
    perm: &Permutation,
    x: f32,
    y: f32,
    period: u32,
    octaves: u32,
    gain: f32,
) -> f32 {
    let (mut sum, mut freq, mut amp) = (0.0, 1.0, 1.0);
    for k in 0..octaves {
        let octave_period = period.saturating_mul(1 << k.min(8));
        sum += perlin2_periodic(perm, x * freq, y * freq, octave_period) * amp;
        freq *= 2.0;
        amp *= gain;
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::noise::perlin2;

    #[test]
    fn period_256_is_the_plain_noise() {
        let perm = Permutation::from_seed(9);
        for k in 0..500 {
            let x = (k as f32 * 0.731).sin() * 300.0;
            let y = (k as f32 * 1.37).cos() * 300.0;
            let a = perlin2_periodic(&perm, x, y, 256);
            let b: f32 = perlin2(&perm, x, y);
            assert!((a - b).abs() < 1e-6, "({x}, {y}): {a} vs {b}");
        }
    }

    #[test]
    fn noise_and_fbm_repeat_with_their_period() {
        let perm = Permutation::reference();
        for k in 0..400 {
            let x = k as f32 * 0.173 % 8.0;
            let y = k as f32 * 0.291 % 8.0;
            let n = perlin2_periodic(&perm, x, y, 8);
            for (dx, dy) in [(8.0, 0.0), (0.0, 8.0), (-8.0, 16.0)] {
                let m = perlin2_periodic(&perm, x + dx, y + dy, 8);
                assert!((n - m).abs() < 1e-5, "noise ({x}, {y}) + ({dx}, {dy})");
            }
            let f = fbm2_periodic(&perm, x, y, 8, 5, 0.5);
            let g = fbm2_periodic(&perm, x + 8.0, y - 8.0, 8, 5, 0.5);
            assert!((f - g).abs() < 1e-4, "fbm ({x}, {y}): {f} vs {g}");
        }
        // Not trivially constant: a period-8 noise differs across a cell.
        assert_ne!(
            perlin2_periodic(&perm, 0.5, 0.5, 8),
            perlin2_periodic(&perm, 3.5, 0.5, 8)
        );
    }
}
