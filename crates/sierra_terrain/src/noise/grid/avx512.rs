//! The grid block with AVX-512F intrinsics: 16 lanes in one register. Every lane performs the
//! portable block's operations in the same order, so values are identical; the one fused
//! multiply-add (`gx·x + k`) is exact because `gx·x` is (`gx ∈ {−1, 0, 1}`).
//!
//! Cell data reach the lanes in one of two ways, by how many lattice cells the 16 samples span:
//! up to 16 cells load a 16-cell window of each value ([`CellGrads`] repeats cells `0..16` after
//! cell 255, so the window never wraps) and pick each lane's cell with one `vpermps`; wider
//! blocks (spacing near 1 or more) gather. A separate broadcast path for blocks within one cell
//! was tried: its branch mispredicts where blocks cross cells irregularly (0.5 to 2 cells).

//!
//! The functions here are `unsafe` and `#[inline(always)]` rather than `#[target_feature]` so
//! that they inline into the row loops. # Safety (all of them): the CPU must support AVX-512F; they
//! are only called from the `#[target_feature]` row functions that the dispatch enters after
//! run-time detection.

use std::arch::x86_64::*;

use super::cells::{Axis, BlockX, CellGrads, CELL_VALUES};

/// Lanes per AVX-512 block.
pub(super) const LANES: usize = 16;

/// `fade(t) = t·t·t·(t·(t·6 − 15) + 10)` per lane, in the reference's order.
#[inline(always)]
unsafe fn fade(t: __m512) -> __m512 {
    let t3 = _mm512_mul_ps(_mm512_mul_ps(t, t), t);
    let poly = _mm512_add_ps(
        _mm512_mul_ps(
            t,
            _mm512_sub_ps(_mm512_mul_ps(t, _mm512_set1_ps(6.0)), _mm512_set1_ps(15.0)),
        ),
        _mm512_set1_ps(10.0),
    );
    _mm512_mul_ps(t3, poly)
}

/// `a + t·(b − a)` per lane.
#[inline(always)]
unsafe fn lerp(t: __m512, a: __m512, b: __m512) -> __m512 {
    _mm512_add_ps(a, _mm512_mul_ps(t, _mm512_sub_ps(b, a)))
}

/// Each lane's cell values `g[v]` for the values `v` a `Z3` block reads.
#[inline(always)]
unsafe fn gather_cells<const Z3: bool>(cells: &CellGrads, xi: __m512i) -> [__m512; CELL_VALUES] {
    let corners = if Z3 { 8 } else { 4 };
    let mut g = [_mm512_setzero_ps(); CELL_VALUES];
    // The 16 lanes' cells are monotonic in the lane (a row has one spacing), so the first
    // and last lanes bound them.
    let first = _mm512_cvtsi512_si32(xi);
    let last = _mm_extract_epi32::<3>(_mm512_extracti32x4_epi32::<3>(xi));
    let (lo, hi) = (first.min(last), first.max(last));
    let span = hi.wrapping_sub(lo) as u32;
    if span < LANES as u32 {
        let idx = _mm512_sub_epi32(xi, _mm512_set1_epi32(lo));
        let base = (lo & 255) as usize;
        for c in 0..corners {
            for v in [c, 8 + c] {
                let window = &cells.vals[v][base..base + LANES];
                // SAFETY: `window` is 16 floats (unaligned load).
                let window = unsafe { _mm512_loadu_ps(window.as_ptr()) };
                g[v] = _mm512_permutexvar_ps(idx, window);
            }
        }
    } else {
        let idx = _mm512_and_si512(xi, _mm512_set1_epi32(255));
        for c in 0..corners {
            for v in [c, 8 + c] {
                // SAFETY: indices are masked to 0..=255, inside the 272-float row.
                g[v] = unsafe { _mm512_i32gather_ps::<4>(idx, cells.vals[v].as_ptr()) };
            }
        }
    }
    g
}

/// As the portable `perlin_block`: 16 lanes of noise at `x` from the row's cell data.
#[inline(always)]
pub(super) unsafe fn perlin_block<const Z3: bool>(
    cells: &CellGrads,
    x: BlockX,
    y: Axis,
    z: Axis,
    out: &mut [f32; LANES],
) {
    let iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    let i = _mm512_cvtepi32_ps(_mm512_add_epi32(_mm512_set1_epi32(x.first as i32), iota));
    let x = _mm512_mul_ps(
        _mm512_add_ps(_mm512_set1_ps(x.x0), _mm512_mul_ps(i, _mm512_set1_ps(x.dx))),
        _mm512_set1_ps(x.freq),
    );
    let fx = _mm512_roundscale_ps::<{ _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC }>(x);
    let xf = _mm512_sub_ps(x, fx);
    let xi = _mm512_cvttps_epi32(fx);
    let x1 = _mm512_sub_ps(xf, _mm512_set1_ps(1.0));
    let u = fade(xf);
    let g = gather_cells::<Z3>(cells, xi);
    // gx·x + k per corner (x offset: corner bit 0) as one fused multiply-add: `gx` is −1, 0
    // or 1, so `gx·x` is exact and rounding only the sum gives the bits of multiply-then-add.
    let grad = |c: usize| {
        let xo = if c & 1 == 0 { xf } else { x1 };
        _mm512_fmadd_ps(g[c], xo, g[8 + c])
    };
    let v = _mm512_set1_ps(y.fade);
    let near = lerp(v, lerp(u, grad(0), grad(1)), lerp(u, grad(2), grad(3)));
    let n = if Z3 {
        let far = lerp(v, lerp(u, grad(4), grad(5)), lerp(u, grad(6), grad(7)));
        lerp(_mm512_set1_ps(z.fade), near, far)
    } else {
        near
    };
    // SAFETY: `out` is 16 floats (unaligned store).
    unsafe { _mm512_storeu_ps(out.as_mut_ptr(), n) };
}
