//! The cell fill kernel with AVX-512 VBMI (see `CellGrads::fill`): 64 cells at a time. The hash
//! chain `p[p[p[X] + Y] + Z]` runs in bytes: `p` is a permutation of 0..=255 doubled, so
//! `p[i] = p[i mod 256]` and byte arithmetic (mod 256) gives the reference's indices; one
//! 256-entry byte look-up is two `vpermi2b` (entries 0..128 and 128..256) and a blend on the
//! index's top bit. Each corner's gradient `(gx, gy, gz)` comes from `vpermps` on the low 4
//! bits of its hash, and `k = gy·yo + gz·zo` is computed as the scalar kernel does (same
//! operations, same bits).

use std::arch::x86_64::*;

use super::super::perlin::GRAD_ROWS;
use super::cells::{Axis, CellGrads};

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
