//! True 2D improved Perlin noise: Stefan Gustavson's `noise2` of `noise1234.c` (2003–2005, public
//! domain; Perlin's 2002 improved noise carried to 2D), beside the `z = 0` face of 3D noise that
//! [`super::perlin2`] evaluates.
//!
//! The face of 3D noise takes its gradients from the 12 cube edges, so a third of them lie
//! along one axis of the plane and its hash chain runs through three permutation look-ups per
//! corner. True 2D noise hashes each corner as `p[X + p[Y]]` (two look-ups) and takes one of 8
//! planar gradients `(±1, ±2)`, `(±2, ±1)` from the low 3 bits (`noise1234`'s `grad2`):
//!
//! ```text
//! h = hash & 7;  u = h < 4 ? x : y;  v = h < 4 ? y : x;
//! grad2 = (h & 1 ? −u : u) + (h & 2 ? −2v : 2v)
//! ```
//!
//! The same work as FastNoise2's 2D Perlin (4 corners, one gradient dot product each), which is
//! what `sierra bench noise` compares it with. Two choices differ from `noise1234`, both only in
//! rounding or scale: the corners are interpolated along x first, then y (Perlin's order, the
//! one the grid kernels share with [`super::perlin2`]), and the result is not multiplied by
//! `noise1234`'s range factor 0.507, so `noise2d ≈ noise1234::noise2 / 0.507` (about ±2; tested
//! against values of the original C code). `floor` is the true floor (`noise1234` moves integer
//! coordinates ≤ 0 into the cell below, which changes only rounding).

use super::perlin::{fade, lerp, NoiseFloat, Permutation};

/// `gx` of `noise1234`'s `grad2` per `hash & 7`: `u`'s sign (`h < 4`: `u = x`) or `2·v`'s
/// (`h ≥ 4`: `v = x`).
pub(super) const GX: [f64; 8] = [1.0, -1.0, 1.0, -1.0, 2.0, 2.0, -2.0, -2.0];
/// The factor of `yo` in `grad2` per `hash & 7`: `2·v`'s sign (`h < 4`: `v = y`) or `u`'s.
pub(super) const KY: [f64; 8] = [2.0, 2.0, -2.0, -2.0, 1.0, -1.0, 1.0, -1.0];

/// `(gx, k)` of a corner with hash byte `hash` and y offset `yo`: `noise1234`'s
/// `grad2(hash, xo, yo) = gx·xo + k` with `gx ∈ {±1, ±2}` and `k ∈ {±yo, ±2·yo}`. Both products
/// are exact (powers of two), so `gx·xo + k` rounds once, as `grad2` does. Table look-ups, not
/// branches: random hashes mispredict.
#[inline(always)]
pub(crate) fn grad2_split<T: NoiseFloat>(hash: usize, yo: T) -> (T, T) {
    let h = hash & 7;
    (T::from_f64(GX[h]), T::from_f64(KY[h]) * yo)
}

/// True 2D improved Perlin noise at `(x, y)` (see the module docs), about ±2; lattice cells
/// repeat every 256 units. `f32` and `f64` perform the same operations; the grid rows
/// ([`super::grid::RowNoise::noise2d_row`]) give the same `f32` bits.
#[inline]
pub fn noise2d<T: NoiseFloat>(perm: &Permutation, x: T, y: T) -> T {
    let (fx, fy) = (x.floor(), y.floor());
    let xi = (fx.to_i32() & 255) as usize;
    let yi = (fy.to_i32() & 255) as usize;
    let (x0, y0) = (x - fx, y - fy);
    let (x1, y1) = (x0 - T::ONE, y0 - T::ONE);
    let (u, v) = (fade(x0), fade(y0));
    let (py0, py1) = (perm.at(yi), perm.at((yi + 1) & 255));
    let xi1 = (xi + 1) & 255;
    let corner = |xc: usize, py: usize, xo: T, yo: T| {
        let (gx, k) = grad2_split(perm.at(xc + py), yo);
        gx * xo + k
    };
    lerp(
        v,
        lerp(u, corner(xi, py0, x0, y0), corner(xi1, py0, x1, y0)),
        lerp(u, corner(xi, py1, x0, y1), corner(xi1, py1, x1, y1)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::noise::perlin2;

    /// `noise2(x, y)` of Gustavson's original `noise1234.c` (github.com/stegu/perlin-noise,
    /// `src/noise1234.c`: its `perm`, `grad2` and `noise2` compiled with gcc 12 `-O2`, printed
    /// with `%.9g`): values from code independent of this module.
    #[allow(clippy::approx_constant)] // a sample point, not π
    #[allow(clippy::excessive_precision)] // the C program's `%.9g` output, digits as printed
    const NOISE1234: [(f32, f32, f32); 6] = [
        (0.3, 0.7, -0.0920599997),
        (3.14, 42.0, 0.050233297),
        (12.75, 3.5, 0.113629401),
        (100.1, 200.9, -0.0445797667),
        (7.77, 0.123, -0.243467674),
        (250.5, 17.25, -0.347448498),
    ];

    #[test]
    fn equals_noise1234_up_to_its_scale_and_rounding() {
        let perm = Permutation::reference();
        for (x, y, want) in NOISE1234 {
            let got = noise2d(&perm, x, y) * 0.507;
            assert!((got - want).abs() < 2e-6, "({x}, {y}): {got} vs {want}");
            let got64 = noise2d(&perm, f64::from(x), f64::from(y)) * 0.507;
            assert!(
                (got64 - f64::from(want)).abs() < 2e-6,
                "({x}, {y}) f64: {got64}"
            );
        }
    }

    /// Negative control: the `z = 0` face of 3D noise is other noise; it misses these values.
    #[test]
    fn the_face_of_3d_noise_does_not_match_noise1234() {
        let perm = Permutation::reference();
        let misses = NOISE1234
            .iter()
            .filter(|&&(x, y, want)| (perlin2(&perm, x, y) * 0.507 - want).abs() > 1e-3)
            .count();
        assert!(misses >= 4, "only {misses} of 6 differ");
    }

    #[test]
    fn zero_on_lattice_points_and_continuous() {
        let perm = Permutation::from_seed(9);
        for (x, y) in [(3.0f32, 4.0f32), (-7.0, 250.0), (255.0, 0.0)] {
            assert_eq!(noise2d(&perm, x, y), 0.0);
            let near = noise2d(&perm, x + 1e-3, y - 1e-3);
            assert!(near.abs() < 1e-2, "{near}");
        }
    }
}
