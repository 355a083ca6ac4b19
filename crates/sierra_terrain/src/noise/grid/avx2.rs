//! The grid block with explicit AVX2 intrinsics: 8 lanes in one register. Every lane performs
//! the portable block's operations in the same order (no FMA), so values are identical.

//!
//! The functions here are `unsafe` and `#[inline(always)]` rather than `#[target_feature]` so
//! that they inline into the row loops. # Safety (all of them): the CPU must support AVX2; they
//! are only called from the `#[target_feature]` row functions that the dispatch enters after
//! run-time detection.

use std::arch::x86_64::*;

use super::cells::{Axis, BlockX, CellGrads, BLEND_CELLS, LANES};

/// `fade(t) = t·t·t·(t·(t·6 − 15) + 10)` per lane, in the reference's order.
#[inline(always)]
unsafe fn fade(t: __m256) -> __m256 {
    let t3 = _mm256_mul_ps(_mm256_mul_ps(t, t), t);
    let poly = _mm256_add_ps(
        _mm256_mul_ps(
            t,
            _mm256_sub_ps(_mm256_mul_ps(t, _mm256_set1_ps(6.0)), _mm256_set1_ps(15.0)),
        ),
        _mm256_set1_ps(10.0),
    );
    _mm256_mul_ps(t3, poly)
}

/// `a + t·(b − a)` per lane.
#[inline(always)]
unsafe fn lerp(t: __m256, a: __m256, b: __m256) -> __m256 {
    _mm256_add_ps(a, _mm256_mul_ps(t, _mm256_sub_ps(b, a)))
}

/// As the portable `perlin_block`: 8 lanes of noise at `x` from the row's cell data.
#[inline(always)]
pub(super) unsafe fn perlin_block<const Z3: bool>(
    cells: &CellGrads,
    x: BlockX,
    y: Axis,
    z: Axis,
    out: &mut [f32; LANES],
) {
    let corners = if Z3 { 8 } else { 4 };
    // SAFETY: `out` is 8 floats (unaligned store); the cell values indexed are
    // `& 255` into a 256-row table.
    unsafe {
        let iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        let i = _mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32(x.first as i32), iota));
        let x = _mm256_mul_ps(
            _mm256_add_ps(_mm256_set1_ps(x.x0), _mm256_mul_ps(i, _mm256_set1_ps(x.dx))),
            _mm256_set1_ps(x.freq),
        );
        let fx = _mm256_floor_ps(x);
        let xf = _mm256_sub_ps(x, fx);
        let xi = _mm256_cvttps_epi32(fx);
        let x1 = _mm256_sub_ps(xf, _mm256_set1_ps(1.0));
        let u = fade(xf);
        let first = _mm256_cvtsi256_si32(xi);
        let last = _mm256_extract_epi32::<7>(xi);
        let (lo, hi) = (first.min(last), first.max(last));
        let mut g = [_mm256_setzero_ps(); 16];
        if hi.wrapping_sub(lo) < BLEND_CELLS {
            // Broadcast the first cell's values, then blend in each further cell's lanes.
            for c in 0..corners {
                for v in [c, 8 + c] {
                    g[v] = _mm256_set1_ps(cells.at(v, lo));
                }
            }
            let mut cell = lo;
            while cell < hi {
                cell += 1;
                let mask = _mm256_castsi256_ps(_mm256_cmpeq_epi32(xi, _mm256_set1_epi32(cell)));
                for c in 0..corners {
                    for v in [c, 8 + c] {
                        g[v] = _mm256_blendv_ps(g[v], _mm256_set1_ps(cells.at(v, cell)), mask);
                    }
                }
            }
        } else {
            // Many cells (high frequency): gather each lane's row.
            let mut lanes = [0i32; LANES];
            _mm256_storeu_si256(lanes.as_mut_ptr().cast(), xi);
            let mut t = [[0f32; LANES]; 16];
            for (l, &cell) in lanes.iter().enumerate() {
                for c in 0..corners {
                    t[c][l] = cells.at(c, cell);
                    t[8 + c][l] = cells.at(8 + c, cell);
                }
            }
            for c in 0..corners {
                g[c] = _mm256_loadu_ps(t[c].as_ptr());
                g[8 + c] = _mm256_loadu_ps(t[8 + c].as_ptr());
            }
        }
        // gx·x + k per corner (x offset: corner bit 0).
        let grad = |c: usize| {
            let xo = if c & 1 == 0 { xf } else { x1 };
            _mm256_add_ps(_mm256_mul_ps(g[c], xo), g[8 + c])
        };
        let v = _mm256_set1_ps(y.fade);
        let near = lerp(v, lerp(u, grad(0), grad(1)), lerp(u, grad(2), grad(3)));
        let n = if Z3 {
            let far = lerp(v, lerp(u, grad(4), grad(5)), lerp(u, grad(6), grad(7)));
            lerp(_mm256_set1_ps(z.fade), near, far)
        } else {
            near
        };
        _mm256_storeu_ps(out.as_mut_ptr(), n);
    }
}
