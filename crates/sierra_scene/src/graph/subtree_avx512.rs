//! The AVX-512 pass over a dirty range that is one whole subtree (the common case: a moved
//! character root and its skeleton), where every slot is recomputed and no per-slot dirty test
//! is needed.
//!
//! Sixteen slots at a time:
//! 1. the local `T · R · S` of each slot as a 3×4 row-major matrix, computed across the 16
//!    slots from the structure-of-arrays locals, then transposed (16 × 16 floats) so that each
//!    slot's matrix is one 64-byte row;
//! 2. `world = parent · local` with the whole affine product in one 512-bit register: the
//!    parent's three columns broadcast to the four 128-bit lanes, times the local's rows
//!    spread one entry per lane (`vpermps`), plus the parent's translation in the last lane.
//!    That is 3 multiplies and 3 adds per slot instead of 12 and 9 on 128-bit registers.
//!
//! Every lane does the operations, in the order, of glam's `Mat3A::from_quat`, the scale,
//! and `Affine3A * Affine3A` (no fused multiply-add), so the results are bit for bit those of
//! the portable pass (tested in [`super::propagate`]).
//!
//! The range qualifies ([`is_whole_subtree`]) when its first slot is dirty and not driven,
//! every other slot's parent lies inside the range (so every slot descends from the first),
//! and no slot is driven by animation.

use std::arch::x86_64::*;
use std::ops::Range;

use super::locals::LocalSoa;
use super::slots::{PassArrays, DRIVEN, LOCAL_DIRTY, NO_PARENT, WORLD_WRITTEN};

/// Slots per block: one 512-bit register holds one field of 16 slots.
const LANES: usize = 16;

/// Whether every slot of `slots` is recomputed by the pass and none is driven (see the
/// module docs): then [`range`] may run instead of the general per-slot loop.
pub(crate) fn is_whole_subtree(slots: &Range<usize>, parents: &[u32], flags: &[u8]) -> bool {
    let first = flags[slots.start];
    if first & DRIVEN != 0 || first & (LOCAL_DIRTY | WORLD_WRITTEN) == 0 {
        return false;
    }
    let (start, len) = (slots.start as u32, slots.len() as u32);
    // Branch-free folds so that both scans vectorise. `NO_PARENT` wraps to a large value.
    let inside = parents[slots.start + 1..slots.end]
        .iter()
        .fold(true, |ok, &p| ok & (p.wrapping_sub(start) < len));
    let any = flags[slots.clone()].iter().fold(0u8, |acc, &f| acc | f);
    inside && any & DRIVEN == 0
}

/// 64-byte aligned scratch: the local matrices of one block, one row-major 3×4 (padded to
/// 16 floats) per slot.
#[repr(C, align(64))]
struct Block([[f32; LANES]; LANES]);

/// Recomputes every slot of a range that [`is_whole_subtree`] accepted; returns the count.
///
/// # Safety
/// The CPU must support AVX-512 F (checked by the caller through `Kernel::detect`), and
/// `slots` must lie inside the arrays of `a`, with every parent index of a slot after the first
/// inside the range (what [`is_whole_subtree`] checks).
#[target_feature(enable = "avx2,avx512f,avx512vl")]
pub(crate) unsafe fn range(slots: Range<usize>, epoch: u32, a: &mut PassArrays<'_>) -> usize {
    let (start, end) = (slots.start, slots.end);
    assert!(end <= a.worlds.len() && end <= a.parents.len() && start < end);
    // A `World` is an `Affine3A`, 16 floats (`repr(C)`: x, y, z axes and translation, each
    // padded to 4), 64-byte aligned.
    let worlds = a.worlds.as_mut_ptr().cast::<f32>();
    let mut block = Block([[0.0; LANES]; LANES]);
    let parent0 = a.parents[start];
    // The last world computed, kept in a register along chains.
    let mut prev_slot = parent0 as usize;
    let mut prev = if parent0 == NO_PARENT {
        _mm512_setzero_ps()
    } else {
        // SAFETY: parent slots precede their children, so `parent0 < start < len`.
        unsafe { _mm512_load_ps(worlds.add(16 * parent0 as usize)) }
    };
    let mut base = start;
    while base < end {
        let n = LANES.min(end - base);
        local_rows(a.locals, base, n, &mut block);
        for (k, rows) in block.0[..n].iter().enumerate() {
            let i = base + k;
            // SAFETY: `rows` is 64-byte aligned (`Block`'s alignment, rows of 64 bytes).
            let local = unsafe { _mm512_load_ps(rows.as_ptr()) };
            let world = if i == start && parent0 == NO_PARENT {
                // A root: its world is its local matrix, as `Affine3A` columns.
                _mm512_permutexvar_ps(idx(TRANSPOSE), local)
            } else {
                let p = a.parents[i] as usize;
                let parent = if p == prev_slot {
                    prev
                } else {
                    // SAFETY: `p < i` (parent-first order, checked inside the range by
                    // `is_whole_subtree`; the first slot's parent precedes it).
                    unsafe { _mm512_load_ps(worlds.add(16 * p)) }
                };
                mul(parent, local)
            };
            // SAFETY: `i < end <= worlds.len()`; 64-byte aligned.
            unsafe { _mm512_store_ps(worlds.add(16 * i), world) };
            prev = world;
            prev_slot = i;
        }
        base += n;
    }
    a.changed[slots.clone()].fill(epoch);
    a.flags[slots.clone()].fill(0);
    slots.len()
}

/// Lane indices: entry `e` of row `r` of a row-major 3×4 is lane `4r + e`; `ROW_X` spreads
/// entry `e` of row 0 over the four lanes of 128-bit lane `e`.
const ROW_X: [i32; 16] = [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3];
/// Lane `4c + r` from lane `4r + c`: a row-major 3×4 (padded with a zero row) as an
/// `Affine3A` (columns, then translation; `w` lanes from the zero row).
const TRANSPOSE: [i32; 16] = [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15];

#[inline(always)]
fn idx(lanes: [i32; 16]) -> __m512i {
    // SAFETY: `[i32; 16]` and `__m512i` have the same size; any bits are a valid vector.
    unsafe { std::mem::transmute::<[i32; 16], __m512i>(lanes) }
}

/// `parent · local` (both affine): `parent` as an `Affine3A` (x, y, z axes, translation in
/// the four 128-bit lanes), `local` as a row-major 3×4. Lane by lane:
/// `((x_axis · l.x + y_axis · l.y) + z_axis · l.z)`, plus the translation in the last lane,
/// as glam's `Affine3A * Affine3A`.
#[target_feature(enable = "avx512f")]
#[inline]
fn mul(parent: __m512, local: __m512) -> __m512 {
    let lx = _mm512_permutexvar_ps(idx(ROW_X), local);
    let ly = _mm512_permutexvar_ps(idx(ROW_X.map(|v| v + 4)), local);
    let lz = _mm512_permutexvar_ps(idx(ROW_X.map(|v| v + 8)), local);
    let px = _mm512_shuffle_f32x4::<0x00>(parent, parent);
    let py = _mm512_shuffle_f32x4::<0x55>(parent, parent);
    let pz = _mm512_shuffle_f32x4::<0xAA>(parent, parent);
    let m = _mm512_add_ps(
        _mm512_add_ps(_mm512_mul_ps(px, lx), _mm512_mul_ps(py, ly)),
        _mm512_mul_ps(pz, lz),
    );
    // The translation in the last lane and -0.0 elsewhere: `v + -0.0` is `v` for every `v`
    // (signed zeros and NaNs included), so one add, off the chain through `parent`'s
    // columns, replaces a masked add.
    let t = _mm512_mask_blend_ps(0xF000, _mm512_set1_ps(-0.0), parent);
    _mm512_add_ps(m, t)
}

/// The local matrices of slots `base..base + n` (`n <= 16`) as row-major 3×4s into `out`
/// (rows `n..` hold nothing useful). The rotation-scale columns are glam's `Mat3A::from_quat`
/// times the per-axis scale, as in `propagate::local_columns`.
#[target_feature(enable = "avx512f")]
#[inline]
fn local_rows(l: &LocalSoa, base: usize, n: usize, out: &mut Block) {
    assert!(n <= LANES && base + n <= l.qx.len());
    let mask: __mmask16 = if n == LANES { !0 } else { (1 << n) - 1 };
    // SAFETY: every array has the graph's length, `base + n` is within it (asserted above),
    // and masked-off lanes are not read.
    let load = |s: &[f32]| unsafe { _mm512_maskz_loadu_ps(mask, s.as_ptr().add(base)) };
    let (x, y, z, w) = (load(&l.qx), load(&l.qy), load(&l.qz), load(&l.qw));
    let (sx, sy, sz) = (load(&l.sx), load(&l.sy), load(&l.sz));
    let (add, sub, mulv) = (_mm512_add_ps, _mm512_sub_ps, _mm512_mul_ps);
    let one = _mm512_set1_ps(1.0);
    let (x2, y2, z2) = (add(x, x), add(y, y), add(z, z));
    let (xx, xy, xz) = (mulv(x, x2), mulv(x, y2), mulv(x, z2));
    let (yy, yz, zz) = (mulv(y, y2), mulv(y, z2), mulv(z, z2));
    let (wx, wy, wz) = (mulv(w, x2), mulv(w, y2), mulv(w, z2));
    let zero = _mm512_setzero_ps();
    let fields = [
        // Row 0: x of each column, then tx.
        mulv(sub(one, add(yy, zz)), sx),
        mulv(sub(xy, wz), sy),
        mulv(add(xz, wy), sz),
        load(&l.tx),
        // Row 1.
        mulv(add(xy, wz), sx),
        mulv(sub(one, add(xx, zz)), sy),
        mulv(sub(yz, wx), sz),
        load(&l.ty),
        // Row 2.
        mulv(sub(xz, wy), sx),
        mulv(add(yz, wx), sy),
        mulv(sub(one, add(xx, yy)), sz),
        load(&l.tz),
        zero,
        zero,
        zero,
        zero,
    ];
    let rows = transpose16(fields);
    for (dst, row) in out.0.iter_mut().zip(rows) {
        // SAFETY: `dst` is 64 bytes, 64-byte aligned (`Block`).
        unsafe { _mm512_store_ps(dst.as_mut_ptr(), row) };
    }
}

/// Transposes 16 × 16 floats: lane `j` of input `i` becomes lane `i` of output `j`.
#[target_feature(enable = "avx512f")]
#[inline]
fn transpose16(r: [__m512; 16]) -> [__m512; 16] {
    // Pairs of 32-bit lanes, then 64-bit pairs, then 128-bit blocks twice.
    let t: [__m512; 16] = std::array::from_fn(|k| {
        let (a, b) = (r[k & !1], r[k | 1]);
        if k & 1 == 0 {
            _mm512_unpacklo_ps(a, b)
        } else {
            _mm512_unpackhi_ps(a, b)
        }
    });
    let u: [__m512; 16] = std::array::from_fn(|k| {
        let g = k & !3;
        let (a, b) = (
            _mm512_castps_pd(t[g + (k & 2) / 2]),
            _mm512_castps_pd(t[g + 2 + (k & 2) / 2]),
        );
        _mm512_castpd_ps(if k & 1 == 0 {
            _mm512_unpacklo_pd(a, b)
        } else {
            _mm512_unpackhi_pd(a, b)
        })
    });
    let v: [__m512; 16] = std::array::from_fn(|k| {
        let g = k & 8;
        let (a, b) = (u[g + (k & 3)], u[g + 4 + (k & 3)]);
        if k & 4 == 0 {
            _mm512_shuffle_f32x4::<0x88>(a, b)
        } else {
            _mm512_shuffle_f32x4::<0xDD>(a, b)
        }
    });
    std::array::from_fn(|k| {
        let (a, b) = (v[k & 7], v[8 + (k & 7)]);
        if k & 8 == 0 {
            _mm512_shuffle_f32x4::<0x88>(a, b)
        } else {
            _mm512_shuffle_f32x4::<0xDD>(a, b)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpose16_swaps_rows_and_columns() {
        if !sierra_testkit::skip::simd_level_or_skip(
            "avx512",
            std::arch::is_x86_feature_detected!("avx512f"),
        ) {
            return;
        }
        #[target_feature(enable = "avx512f")]
        fn check() {
            let input: [[f32; 16]; 16] =
                std::array::from_fn(|i| std::array::from_fn(|j| (16 * i + j) as f32));
            // SAFETY: `[f32; 16]` and `__m512` have the same size and any bits are valid.
            let regs = input.map(|row| unsafe { std::mem::transmute::<[f32; 16], __m512>(row) });
            let out =
                transpose16(regs).map(|v| unsafe { std::mem::transmute::<__m512, [f32; 16]>(v) });
            for (j, row) in out.iter().enumerate() {
                for (i, &v) in row.iter().enumerate() {
                    assert_eq!(v, input[i][j], "output {j} lane {i}");
                }
            }
        }
        // SAFETY: avx512f detected above.
        unsafe { check() };
    }
}
