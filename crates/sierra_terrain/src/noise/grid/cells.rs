//! Per-row lattice data shared by every grid block: the row's y/z [`Axis`] and the corner
//! gradients of each lattice cell the row crosses ([`CellGrads`]); the block shape every kernel
//! shares ([`LANES`], [`BlockX`], [`BLEND_CELLS`]).

use super::super::perlin::{fade, GRAD_ROWS};
use super::super::perlin2d::grad2_split;

/// Lanes per block.
pub const LANES: usize = 8;

/// Most distinct cells a block may touch and still take the broadcast-and-blend path; blocks
/// spanning more (high frequencies) gather per lane.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // x86_64-only SIMD paths
pub(super) const BLEND_CELLS: i32 = 8;

/// The x coordinates of a block's lanes: lane `l` is at `(x0 + (first + l)·dx)·freq`, computed
/// in `f32` in that order (`freq = 1` for plain noise rows: multiplying by 1 is exact).
#[derive(Clone, Copy)]
pub(super) struct BlockX {
    pub(super) x0: f32,
    pub(super) dx: f32,
    pub(super) freq: f32,
    pub(super) first: usize,
}

impl BlockX {
    #[inline(always)]
    pub(super) fn lane(&self, l: usize) -> f32 {
        (self.x0 + (self.first + l) as f32 * self.dx) * self.freq
    }
}

/// Lattice data of a coordinate shared by a whole row.
#[derive(Clone, Copy)]
pub(super) struct Axis {
    /// `floor(v) & 255`.
    pub(super) cell: usize,
    /// `v − floor(v)`.
    pub(super) frac: f32,
    /// `frac − 1`.
    pub(super) frac1: f32,
    /// `fade(frac)`.
    pub(super) fade: f32,
}

impl Axis {
    #[inline(always)]
    pub(super) fn new(v: f32) -> Self {
        let f = v.floor();
        let frac = v - f;
        Self {
            cell: ((f as i32) & 255) as usize,
            frac,
            frac1: frac - 1.0,
            fade: fade(frac),
        }
    }
}

/// Values per cell: `gx` of the 8 corners, then `k` of the 8 corners.
pub(super) const CELL_VALUES: usize = 16;

/// Cells stored per value: the 256 lattice cells, then cells 0..16 again so that a 16-cell
/// window starting at any cell is one contiguous load.
pub(super) const CELL_STRIDE: usize = 256 + 16;

/// Gradient data of every lattice cell a row touches. Along a row y and z are fixed, so each
/// corner's gradient term `grad(h, x, y, z) = gx·x + gy·y + gz·z` (`g ∈ {−1, 0, 1}³` from the
/// hash, [`GRAD_ROWS`]) splits into `gx·x + k` with `k = gy·y + gz·z` constant per cell and
/// corner: per sample only one multiply and one add remain per corner. One of the three terms
/// is an exact `±0`, so the sum equals the reference's `u + v` whichever way it is associated.
///
/// Layout (structure of arrays) `vals[value][X & 255]`, values `0..8` the corners' `gx` and
/// `8..16` their `k`, corners in the reference's order `AA, BA, AB, BB, AA+1, BA+1, AB+1, BB+1`
/// (x offset = corner bit 0, y = bit 1, z = bit 2); columns `256..272` repeat cells `0..16`.
#[repr(C, align(64))]
pub(super) struct CellGrads {
    pub(super) vals: [[f32; CELL_STRIDE]; CELL_VALUES],
}

impl CellGrads {
    pub(super) fn new() -> Self {
        Self {
            vals: [[0.0; CELL_STRIDE]; CELL_VALUES],
        }
    }

    /// Value `v` of cell `cell & 255`.
    #[inline(always)]
    pub(super) fn at(&self, v: usize, cell: i32) -> f32 {
        self.vals[v][(cell & 255) as usize]
    }

    /// Fills the cells between the floors of `x_first` and `x_last` (all 256 when the span is
    /// that wide or not finite) with `kernel(cells, p, y, z, start, count)`, which computes
    /// cells `start..start + count` (mod 256) and returns how many of them, `n <= 16`, it wrote
    /// to columns `256..256 + n` instead of `0..n`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // the row's lattice data and the kernel
    pub(super) fn fill<const Z3: bool>(
        &mut self,
        kernel: impl Fn(&mut Self, &[u8; 512], Axis, Axis, i64, usize) -> usize,
        p: &[u8; 512],
        y: Axis,
        z: Axis,
        x_first: f32,
        x_last: f32,
    ) {
        let (lo, hi) = (x_first.min(x_last).floor(), x_first.max(x_last).floor());
        let (start, count) = if lo.is_finite() && hi.is_finite() && hi - lo < 255.0 {
            (lo as i64, (hi - lo) as usize + 1)
        } else {
            (0, 256)
        };
        let wrapped = kernel(self, p, y, z, start, count).min(16);
        let corners = if Z3 { 8 } else { 4 };
        for c in 0..corners {
            for v in [c, 8 + c] {
                let (head, tail) = self.vals[v].split_at_mut(256);
                // Skipped when empty: a variable-length copy is a `memcpy` call, 16 per row.
                if wrapped > 0 {
                    head[..wrapped].copy_from_slice(&tail[..wrapped]);
                }
                tail.copy_from_slice(&head[..16]);
            }
        }
    }
}

/// The scalar fill kernel (see [`CellGrads::fill`]): per cell the reference's hash chain and
/// one [`GRAD_ROWS`] row per corner. Writes no wrapped columns.
#[inline(always)]
pub(super) fn fill_scalar<const Z3: bool>(
    cells: &mut CellGrads,
    p: &[u8; 512],
    y: Axis,
    z: Axis,
    start: i64,
    count: usize,
) -> usize {
    let corners = if Z3 { 8 } else { 4 };
    for k in 0..count {
        let xi = ((start + k as i64) & 255) as usize;
        let a = p[xi] as usize + y.cell;
        let b = p[xi + 1] as usize + y.cell;
        let aa = p[a & 511] as usize + z.cell;
        let ab = p[(a + 1) & 511] as usize + z.cell;
        let ba = p[b & 511] as usize + z.cell;
        let bb = p[(b + 1) & 511] as usize + z.cell;
        let corner_hash = [aa, ba, ab, bb, aa + 1, ba + 1, ab + 1, bb + 1];
        for c in 0..corners {
            let g = GRAD_ROWS.0[p[corner_hash[c] & 511] as usize];
            let yo = if c & 2 == 0 { y.frac } else { y.frac1 };
            let zo = if c & 4 == 0 { z.frac } else { z.frac1 };
            cells.vals[c][xi] = g[0];
            cells.vals[8 + c][xi] = g[1] * yo + g[2] * zo;
        }
    }
    0
}

/// The fill kernel of true 2D noise ([`super::super::perlin2d`], Gustavson's `noise2`): each
/// lattice point `X` of the row's two lattice lines gets its hash `p[X + p[Y]]` and its planar
/// gradient split as `gx·x + k` ([`grad2_split`]'s tables) once; a cell's corners are then its
/// two points on each line (the right corner of one cell is the left corner of the next), copied
/// into [`CellGrads`]'s order (x offset bit 0, y offset bit 1). Writes no wrapped columns.
#[inline(always)]
pub(super) fn fill_noise2d(
    cells: &mut CellGrads,
    p: &[u8; 512],
    y: Axis,
    _z: Axis,
    start: i64,
    count: usize,
) -> usize {
    let (py0, py1) = (p[y.cell] as usize, p[(y.cell + 1) & 255] as usize);
    let mut pts = [[0f32; POINTS]; 4];
    #[allow(clippy::needless_range_loop)] // `k` is a column of all four rows and a lattice x
    for k in 0..=count {
        let x = ((start + k as i64) & 255) as usize;
        let (g0, k0) = grad2_split::<f32>(p[x + py0] as usize, y.frac);
        let (g1, k1) = grad2_split::<f32>(p[x + py1] as usize, y.frac1);
        pts[0][k] = g0;
        pts[1][k] = k0;
        pts[2][k] = g1;
        pts[3][k] = k1;
    }
    points_to_cells(cells, &pts, start, count);
    0
}

/// Lattice points one true-2D fill computes per line: at most 257 (256 cells and the right
/// corner of the last), rounded up to whole 16-lane groups.
pub(super) const POINTS: usize = 272;

/// Copies the lattice points `start ..= start + count` of the row's two lattice lines, `pts =
/// [gx on line 0, k on line 0, gx on line 1, k on line 1]` (column `k` is point `start + k`), to
/// the corners of cells `start .. start + count`: a cell's corners are its two points on each
/// line, in [`CellGrads`]'s order (x offset bit 0, y offset bit 1).
#[inline(always)]
pub(super) fn points_to_cells(
    cells: &mut CellGrads,
    pts: &[[f32; POINTS]; 4],
    start: i64,
    count: usize,
) {
    // Cells start .. start + count, in at most two runs of columns (the 255 → 0 wrap).
    let first = (start & 255) as usize;
    let head = count.min(256 - first);
    for (from, col, len) in [(0, first, head), (head, 0, count - head)] {
        for (line, (gv, kv)) in [(0, (0, 8)), (2, (2, 10))] {
            for dx in 0..2 {
                let src = from + dx..from + dx + len;
                cells.vals[gv + dx][col..col + len].copy_from_slice(&pts[line][src.clone()]);
                cells.vals[kv + dx][col..col + len].copy_from_slice(&pts[line + 1][src]);
            }
        }
    }
}
