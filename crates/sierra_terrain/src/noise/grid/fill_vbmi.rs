//! The cell fill kernel with AVX-512 VBMI (see `CellGrads::fill`): 64 cells at a time. The hash
//! chain `p[p[p[X] + Y] + Z]` runs in bytes: `p` is a permutation of 0..=255 doubled, so
//! `p[i] = p[i mod 256]` and byte arithmetic (mod 256) gives the reference's indices; one
//! 256-entry byte look-up is two `vpermi2b` (entries 0..128 and 128..256) and a blend on the
//! index's top bit. Each corner's gradient `(gx, gy, gz)` comes from `vpermps` on the low 4
//! bits of its hash, and `k = gy·yo + gz·zo` is computed as the scalar kernel does (same
//! operations, same bits).

use std::arch::x86_64::*;

use super::super::perlin::GRAD_ROWS;
use super::super::perlin2d::{GX, KY};
use super::cells::{points_to_cells, Axis, CellGrads, POINTS};

/// Columns `gx`, `gy`, `gz` of the first 16 [`GRAD_ROWS`] (row `h` is that of `h & 15`).
static GRAD_COLUMNS: [[f32; 16]; 3] = {
    let mut cols = [[0f32; 16]; 3];
    let mut h = 0;
    while h < 16 {
        let mut a = 0;
        while a < 3 {
            cols[a][h] = GRAD_ROWS.0[h][a];
            a += 1;
        }
        h += 1;
    }
    cols
};

/// See the module docs; returns the number of wrapped columns written (`CellGrads::fill`).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(super) fn fill<const Z3: bool>(
    cells: &mut CellGrads,
    p: &[u8; 512],
    y: Axis,
    z: Axis,
    start: i64,
    count: usize,
) -> usize {
    let corners = if Z3 { 8 } else { 4 };
    // SAFETY: each load reads 64 bytes inside `p[..256]`.
    let t: [__m512i; 4] =
        std::array::from_fn(|i| unsafe { _mm512_loadu_si512(p[64 * i..].as_ptr().cast()) });
    let lut = |i: __m512i| {
        let lo = _mm512_permutex2var_epi8(t[0], i, t[1]);
        let hi = _mm512_permutex2var_epi8(t[2], i, t[3]);
        _mm512_mask_blend_epi8(_mm512_movepi8_mask(i), lo, hi)
    };
    // SAFETY (three loads): 16 floats each, from 16-float arrays.
    let [gx, gy, gz] = [0, 1, 2].map(|a| unsafe { _mm512_loadu_ps(GRAD_COLUMNS[a].as_ptr()) });
    let one = _mm512_set1_epi8(1);
    let (yv, zv) = (
        _mm512_set1_epi8(y.cell as u8 as i8),
        _mm512_set1_epi8(z.cell as u8 as i8),
    );
    let iota: [u8; 64] = std::array::from_fn(|i| i as u8);
    // SAFETY: 64 bytes.
    let iota = unsafe { _mm512_loadu_si512(iota.as_ptr().cast()) };
    let mut wrapped = 0;
    let mut hashes = [0u8; 64];
    for chunk in (0..count).step_by(64) {
        let first = start + chunk as i64;
        let xi = _mm512_add_epi8(_mm512_set1_epi8(first as u8 as i8), iota);
        let a = _mm512_add_epi8(lut(xi), yv);
        let b = _mm512_add_epi8(lut(_mm512_add_epi8(xi, one)), yv);
        let aa = _mm512_add_epi8(lut(a), zv);
        let ab = _mm512_add_epi8(lut(_mm512_add_epi8(a, one)), zv);
        let ba = _mm512_add_epi8(lut(b), zv);
        let bb = _mm512_add_epi8(lut(_mm512_add_epi8(b, one)), zv);
        let corner_hash = [aa, ba, ab, bb];
        let groups = (count - chunk).div_ceil(16).min(4);
        for c in 0..corners {
            let at = if c < 4 {
                corner_hash[c]
            } else {
                _mm512_add_epi8(corner_hash[c - 4], one)
            };
            // SAFETY: 64 bytes.
            unsafe { _mm512_storeu_si512(hashes.as_mut_ptr().cast(), lut(at)) };
            let yo = _mm512_set1_ps(if c & 2 == 0 { y.frac } else { y.frac1 });
            let zo = _mm512_set1_ps(if c & 4 == 0 { z.frac } else { z.frac1 });
            for g in 0..groups {
                // SAFETY: 16 bytes inside `hashes`.
                let h = unsafe { _mm_loadu_si128(hashes[16 * g..].as_ptr().cast()) };
                let h = _mm512_cvtepu8_epi32(h);
                let k = _mm512_add_ps(
                    _mm512_mul_ps(_mm512_permutexvar_ps(h, gy), yo),
                    _mm512_mul_ps(_mm512_permutexvar_ps(h, gz), zo),
                );
                let col = ((first + 16 * g as i64) & 255) as usize;
                wrapped = usize::max(wrapped, (col + 16).saturating_sub(256));
                // SAFETY: `col + 16 <= 271 < 272`, the row length.
                unsafe {
                    let gx_lanes = _mm512_permutexvar_ps(h, gx);
                    _mm512_storeu_ps(cells.vals[c][col..].as_mut_ptr(), gx_lanes);
                    _mm512_storeu_ps(cells.vals[8 + c][col..].as_mut_ptr(), k);
                }
            }
        }
    }
    wrapped
}

/// `gx` and the factor of `yo` of true 2D noise's gradients ([`super::super::perlin2d`]'s `GX`,
/// `KY`) per `hash & 15`: the 8 rows twice, so `vpermps` on a hash's low 4 bits looks them up.
static GRAD2_COLUMNS: [[f32; 16]; 2] = {
    let mut cols = [[0f32; 16]; 2];
    let mut h = 0;
    while h < 16 {
        cols[0][h] = GX[h & 7] as f32;
        cols[1][h] = KY[h & 7] as f32;
        h += 1;
    }
    cols
};

/// The fill of true 2D noise (as `cells::fill_noise2d`, the same values): the hashes
/// `p[X + p[Y]]` of 64 lattice points per line at a time as byte look-ups, then `gx` and
/// `k = ky·yo` of 16 points at a time with `vpermps` and one multiply (the scalar kernel's
/// `f32` product, same bits); the points reach the cells as in the scalar kernel. Writes no
/// wrapped columns.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(super) fn fill_noise2d(
    cells: &mut CellGrads,
    p: &[u8; 512],
    y: Axis,
    _z: Axis,
    start: i64,
    count: usize,
) -> usize {
    // SAFETY: each load reads 64 bytes inside `p[..256]`.
    let t: [__m512i; 4] =
        std::array::from_fn(|i| unsafe { _mm512_loadu_si512(p[64 * i..].as_ptr().cast()) });
    let lut = |i: __m512i| {
        let lo = _mm512_permutex2var_epi8(t[0], i, t[1]);
        let hi = _mm512_permutex2var_epi8(t[2], i, t[3]);
        _mm512_mask_blend_epi8(_mm512_movepi8_mask(i), lo, hi)
    };
    // SAFETY (two loads): 16 floats each, from 16-float arrays.
    let [gx, ky] = [0, 1].map(|a| unsafe { _mm512_loadu_ps(GRAD2_COLUMNS[a].as_ptr()) });
    // `p[y]` and `p[y + 1]` of the two lattice lines; `p[X + py] = p[(X + py) mod 256]`.
    let py = [y.cell, (y.cell + 1) & 255].map(|c| _mm512_set1_epi8(p[c] as i8));
    let yo = [y.frac, y.frac1].map(|f| _mm512_set1_ps(f));
    let iota: [u8; 64] = std::array::from_fn(|i| i as u8);
    // SAFETY: 64 bytes.
    let iota = unsafe { _mm512_loadu_si512(iota.as_ptr().cast()) };
    let mut pts = [[0f32; POINTS]; 4];
    let mut hashes = [0u8; 64];
    let points = count + 1;
    for chunk in (0..points).step_by(64) {
        let xi = _mm512_add_epi8(_mm512_set1_epi8((start + chunk as i64) as u8 as i8), iota);
        let groups = (points - chunk).div_ceil(16).min(4);
        for line in 0..2 {
            let h = lut(_mm512_add_epi8(xi, py[line]));
            // SAFETY: 64 bytes.
            unsafe { _mm512_storeu_si512(hashes.as_mut_ptr().cast(), h) };
            for g in 0..groups {
                // SAFETY: 16 bytes inside `hashes`.
                let h = unsafe { _mm_loadu_si128(hashes[16 * g..].as_ptr().cast()) };
                let h = _mm512_cvtepu8_epi32(h);
                let k = _mm512_mul_ps(_mm512_permutexvar_ps(h, ky), yo[line]);
                let col = chunk + 16 * g;
                // SAFETY: `col + 16 <= POINTS`: at most 257 points, in groups of 16.
                unsafe {
                    _mm512_storeu_ps(
                        pts[2 * line][col..].as_mut_ptr(),
                        _mm512_permutexvar_ps(h, gx),
                    );
                    _mm512_storeu_ps(pts[2 * line + 1][col..].as_mut_ptr(), k);
                }
            }
        }
    }
    points_to_cells(cells, &pts, start, count);
    0
}

#[cfg(test)]
mod tests {
    use super::super::cells::fill_noise2d as scalar_fill_noise2d;
    use super::*;
    use crate::noise::Permutation;

    /// The VBMI fill of true 2D noise writes the scalar kernel's bits in every cell it fills,
    /// for spans of 1 to 256 cells starting anywhere (the 255 → 0 wrap included); the
    /// untouched cells (pre-filled with a marker) stay equal too, so neither writes outside
    /// its span differently.
    #[test]
    fn noise2d_fill_equals_scalar_fill() {
        let vbmi = std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vbmi");
        if sierra_testkit::skip::simd_paths([("VBMI 2D fill", "avx512vbmi", vbmi)]).is_empty() {
            return;
        }
        let perm = Permutation::from_seed(5);
        let mut compared = 0;
        for y in [0.25f32, -100.5, 7.0, 254.9] {
            let y = Axis::new(y);
            for (start, count) in [
                (0, 1),
                (3, 16),
                (-37, 17),
                (250, 11),
                (200, 100),
                (0, 256),
                (77, 256),
            ] {
                let (mut want, mut got) = (CellGrads::new(), CellGrads::new());
                for c in [&mut want, &mut got] {
                    c.vals.iter_mut().flatten().for_each(|v| *v = 9.0);
                }
                scalar_fill_noise2d(&mut want, perm.table(), y, y, start, count);
                // SAFETY: the CPU has AVX-512F, BW and VBMI (checked above).
                unsafe { fill_noise2d(&mut got, perm.table(), y, y, start, count) };
                let bits = |c: &CellGrads| {
                    c.vals
                        .iter()
                        .flatten()
                        .map(|v| v.to_bits())
                        .collect::<Vec<_>>()
                };
                assert_eq!(bits(&got), bits(&want), "start {start} count {count}");
                compared += 1;
            }
        }
        // Negative control: another row's fill differs from this one's.
        let (mut a, mut b) = (CellGrads::new(), CellGrads::new());
        scalar_fill_noise2d(
            &mut a,
            perm.table(),
            Axis::new(0.25),
            Axis::new(0.0),
            0,
            256,
        );
        // SAFETY: as above.
        unsafe {
            fill_noise2d(
                &mut b,
                perm.table(),
                Axis::new(1.25),
                Axis::new(0.0),
                0,
                256,
            )
        };
        assert_ne!(a.vals[0], b.vals[0]);
        eprintln!("{compared} VBMI 2D fills compared with the scalar fill");
    }
}
