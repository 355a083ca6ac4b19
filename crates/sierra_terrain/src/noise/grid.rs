//! Noise and fBm on regular grids, `f32`, with SIMD lanes over x and runtime CPU dispatch.
//!
//! A grid row shares its y (and z) lattice coordinate, fraction and fade across all samples. So
//! per row (per octave) each lattice cell the row crosses gets its corner gradients split as
//! `grad = gx·x + k` with `k = gy·y + gz·z` (`CellGrads`), leaving one multiply and one add per
//! corner and sample. The 8 lanes of a block are consecutive x samples:
//! - with AVX2 (chosen at run time with `is_x86_feature_detected!`), `avx2` evaluates a block in
//!   one 8-lane register; a block within at most `BLEND_CELLS` cells broadcasts the first
//!   cell's values and blends in the next cells' lanes, wider blocks (high frequencies) gather
//!   per lane;
//! - otherwise the portable block runs the same operations over `[f32; 8]` arrays.
//!
//! FMA is deliberately not used, so every path gives the same bits as the other and as the scalar
//! [`perlin3`](super::perlin3) / [`Fbm::fbm2`] (tested). The `wide` crate was considered: its lane
//! width is fixed at compile time by `cfg(target_feature)`, so it cannot give runtime dispatch
//! without a second build; `std::arch` in a `#[target_feature]` function can.

use rayon::prelude::*;

#[cfg(target_arch = "x86_64")]
mod avx2;

use super::fbm::{Fbm, FbmKind};
use super::perlin::{fade, Permutation, GRAD_ROWS};
use crate::error::{finite, size, Error};

/// Lanes per block.
pub const LANES: usize = 8;

/// Largest grid side accepted by [`GridSpec::new`] (16384 samples, as the GPU's 2D limit).
pub const MAX_GRID_SIDE: i64 = 16384;

/// A 2D sample grid: sample `(i, j)` is at `(x0 + i·dx, y0 + j·dy)`, computed in `f32` in that
/// order (so scalar and grid evaluation see the same coordinates).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridSpec {
    /// Samples along x.
    pub width: usize,
    /// Samples along y (rows).
    pub height: usize,
    /// First sample's x.
    pub x0: f32,
    /// First sample's y.
    pub y0: f32,
    /// Spacing along x.
    pub dx: f32,
    /// Spacing along y.
    pub dy: f32,
}

impl GridSpec {
    /// Validates a grid given with signed sizes (as from user input).
    ///
    /// # Errors
    /// [`Error::Size`] when a side is < 1 or > [`MAX_GRID_SIDE`]; [`Error::NonFinite`] for a
    /// NaN/infinite origin or spacing.
    pub fn new(
        width: i64,
        height: i64,
        origin: [f32; 2],
        spacing: [f32; 2],
    ) -> Result<Self, Error> {
        let width = size("grid width", width, MAX_GRID_SIDE)?;
        let height = size("grid height", height, MAX_GRID_SIDE)?;
        for (name, v) in [
            ("grid origin x", origin[0]),
            ("grid origin y", origin[1]),
            ("grid spacing x", spacing[0]),
            ("grid spacing y", spacing[1]),
        ] {
            finite(name, f64::from(v))?;
        }
        Ok(Self {
            width,
            height,
            x0: origin[0],
            y0: origin[1],
            dx: spacing[0],
            dy: spacing[1],
        })
    }

    /// x of column `i`.
    #[inline(always)]
    pub fn x(&self, i: usize) -> f32 {
        self.x0 + i as f32 * self.dx
    }

    /// y of row `j`.
    #[inline(always)]
    pub fn y(&self, j: usize) -> f32 {
        self.y0 + j as f32 * self.dy
    }
}

/// Lattice data of a coordinate shared by a whole row.
#[derive(Clone, Copy)]
struct Axis {
    cell: usize,
    frac: f32,
    frac1: f32,
    fade: f32,
}

impl Axis {
    #[inline(always)]
    fn new(v: f32) -> Self {
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

#[inline(always)]
fn lerp(t: f32, a: f32, b: f32) -> f32 {
    a + t * (b - a)
}

/// Values per cell: `gx` of the 8 corners, then `k` of the 8 corners (see [`CellGrads`]).
const CELL_VALUES: usize = 16;

/// Gradient data of every lattice cell a row touches. Along a row y and z are fixed, so each
/// corner's gradient term `grad(h, x, y, z) = gx·x + gy·y + gz·z` (`g ∈ {−1, 0, 1}³` from the
/// hash, [`GRAD_ROWS`]) splits into `gx·x + k` with `k = gy·y + gz·z` constant per cell and
/// corner: per sample only one multiply and one add remain per corner. One of the three terms
/// is an exact `±0`, so the sum equals the reference's `u + v` whichever way it is associated.
/// Layout `[X & 255][value]`, corners in the reference's order `AA, BA, AB, BB, AA+1, BA+1,
/// AB+1, BB+1` (x offset = corner bit 0, y = bit 1, z = bit 2).
struct CellGrads {
    cells: [[f32; CELL_VALUES]; 256],
}

impl CellGrads {
    fn new() -> Self {
        Self {
            cells: [[0.0; CELL_VALUES]; 256],
        }
    }

    /// Fills the cells between the floors of `x_first` and `x_last` (all 256 when the span is
    /// that wide or not finite).
    #[inline(always)]
    fn fill<const Z3: bool>(&mut self, p: &[u8; 512], y: Axis, z: Axis, x_first: f32, x_last: f32) {
        let (lo, hi) = (x_first.min(x_last).floor(), x_first.max(x_last).floor());
        let (start, count) = if lo.is_finite() && hi.is_finite() && hi - lo < 255.0 {
            (lo as i64, (hi - lo) as usize + 1)
        } else {
            (0, 256)
        };
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
            let cell = &mut self.cells[xi];
            for c in 0..corners {
                let g = GRAD_ROWS.0[p[corner_hash[c] & 511] as usize];
                let yo = if c & 2 == 0 { y.frac } else { y.frac1 };
                let zo = if c & 4 == 0 { z.frac } else { z.frac1 };
                cell[c] = g[0];
                cell[8 + c] = g[1] * yo + g[2] * zo;
            }
        }
    }
}

/// Most distinct cells a block may touch and still take the broadcast-and-blend path; blocks
/// spanning more (high frequencies) gather per lane.
const BLEND_CELLS: i32 = 8;

/// 8 lanes of `perlin3(x[l], y, z)` from a row's cell data; `Z3 = false` evaluates only the
/// `z = 0` face (perlin2).
#[inline(always)]
fn perlin_block<const Z3: bool>(
    cells: &CellGrads,
    x: &[f32; LANES],
    y: Axis,
    z: Axis,
    out: &mut [f32; LANES],
) {
    let mut xf = [0f32; LANES];
    let mut xi = [0i32; LANES];
    for l in 0..LANES {
        let fx = x[l].floor();
        xf[l] = x[l] - fx;
        xi[l] = fx as i32;
    }
    let corners = if Z3 { 8 } else { 4 };
    // g[v][l]: value v (gx of corner v, or k of corner v − 8) for lane l.
    let mut g = [[0f32; LANES]; CELL_VALUES];
    for l in 0..LANES {
        let data = &cells.cells[(xi[l] & 255) as usize];
        for v in (0..corners).chain(8..8 + corners) {
            g[v][l] = data[v];
        }
    }
    let (v, w) = (y.fade, z.fade);
    for l in 0..LANES {
        let x0 = xf[l];
        let x1 = x0 - 1.0;
        let u = fade(x0);
        let grad = |c: usize, xo: f32| g[c][l] * xo + g[8 + c][l];
        let near = lerp(
            v,
            lerp(u, grad(0, x0), grad(1, x1)),
            lerp(u, grad(2, x0), grad(3, x1)),
        );
        out[l] = if Z3 {
            let far = lerp(
                v,
                lerp(u, grad(4, x0), grad(5, x1)),
                lerp(u, grad(6, x0), grad(7, x1)),
            );
            lerp(w, near, far)
        } else {
            near
        };
    }
}

/// One row of noise, `out[i] = perlin3(x0 + i·dx, y, z)`.
#[inline(always)]
fn noise_row_impl<const Z3: bool>(
    block_fn: impl Fn(&CellGrads, &[f32; LANES], Axis, Axis, &mut [f32; LANES]),
    p: &[u8; 512],
    x0: f32,
    dx: f32,
    y: f32,
    z: f32,
    out: &mut [f32],
) {
    let (ya, za) = (Axis::new(y), Axis::new(if Z3 { z } else { 0.0 }));
    let mut cells = CellGrads::new();
    let last = out.len().div_ceil(LANES) * LANES;
    cells.fill::<Z3>(p, ya, za, x0, x0 + last as f32 * dx);
    let mut xs = [0f32; LANES];
    let mut block = [0f32; LANES];
    for (c, chunk) in out.chunks_mut(LANES).enumerate() {
        for (l, x) in xs.iter_mut().enumerate() {
            *x = x0 + (c * LANES + l) as f32 * dx;
        }
        block_fn(&cells, &xs, ya, za, &mut block);
        chunk.copy_from_slice(&block[..chunk.len()]);
    }
}

/// fBm of one row, `out[i] = fbm(x(i), y[, z])` in the same operation order as [`Fbm::fbm2`].
#[inline(always)]
#[allow(clippy::too_many_arguments)] // the row's geometry, as the public row functions take it
fn fbm_row_impl<const Z3: bool>(
    block_fn: impl Fn(&CellGrads, &[f32; LANES], Axis, Axis, &mut [f32; LANES]),
    p: &[u8; 512],
    fbm: &Fbm,
    x0: f32,
    dx: f32,
    y: f32,
    z: f32,
    out: &mut [f32],
) {
    let params = fbm.params();
    let lacunarity = params.lacunarity as f32;
    let gain = params.gain as f32;
    let kind = fbm.kind();
    out.fill(0.0);
    let mut xs = [0f32; LANES];
    let mut block = [0f32; LANES];
    let mut cells = CellGrads::new();
    let last = out.len().div_ceil(LANES) * LANES;
    let (mut freq, mut amp) = (1.0f32, 1.0f32);
    let octaves = fbm.full_octaves() + u32::from(fbm.fraction() > 0.0);
    for octave in 0..octaves {
        let weight = (octave == fbm.full_octaves()).then_some(fbm.fraction() as f32);
        let (ya, za) = (
            Axis::new(y * freq),
            Axis::new(if Z3 { z * freq } else { 0.0 }),
        );
        cells.fill::<Z3>(p, ya, za, x0 * freq, (x0 + last as f32 * dx) * freq);
        for (c, chunk) in out.chunks_mut(LANES).enumerate() {
            for (l, x) in xs.iter_mut().enumerate() {
                *x = (x0 + (c * LANES + l) as f32 * dx) * freq;
            }
            block_fn(&cells, &xs, ya, za, &mut block);
            for (s, &n) in chunk.iter_mut().zip(&block) {
                let term = signal(kind, n) * amp;
                *s = match weight {
                    Some(wt) => *s + term * wt,
                    None => *s + term,
                };
            }
        }
        freq *= lacunarity;
        amp *= gain;
    }
}

#[inline(always)]
fn signal(kind: FbmKind, n: f32) -> f32 {
    match kind {
        FbmKind::Standard => n,
        FbmKind::Ridged => {
            let r = 1.0 - n.abs();
            r * r
        }
        FbmKind::Billow => n.abs(),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn noise_row_avx2<const Z3: bool>(
    p: &[u8; 512],
    x0: f32,
    dx: f32,
    y: f32,
    z: f32,
    out: &mut [f32],
) {
    noise_row_impl::<Z3>(
        |c, x, y, z, o| avx2::perlin_block::<Z3>(c, x, y, z, o),
        p,
        x0,
        dx,
        y,
        z,
        out,
    )
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn fbm_row_avx2<const Z3: bool>(
    p: &[u8; 512],
    fbm: &Fbm,
    x0: f32,
    dx: f32,
    y: f32,
    z: f32,
    out: &mut [f32],
) {
    fbm_row_impl::<Z3>(
        |c, x, y, z, o| avx2::perlin_block::<Z3>(c, x, y, z, o),
        p,
        fbm,
        x0,
        dx,
        y,
        z,
        out,
    )
}

/// Whether the AVX2 code path is used on this CPU.
pub fn uses_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

fn noise_row<const Z3: bool>(
    perm: &Permutation,
    x0: f32,
    dx: f32,
    y: f32,
    z: f32,
    out: &mut [f32],
) {
    #[cfg(target_arch = "x86_64")]
    if uses_avx2() {
        // SAFETY: the CPU supports AVX2 (checked at run time just above).
        return unsafe { noise_row_avx2::<Z3>(perm.table(), x0, dx, y, z, out) };
    }
    noise_row_impl::<Z3>(perlin_block::<Z3>, perm.table(), x0, dx, y, z, out)
}

fn fbm_row<const Z3: bool>(
    perm: &Permutation,
    fbm: &Fbm,
    x0: f32,
    dx: f32,
    y: f32,
    z: f32,
    out: &mut [f32],
) {
    #[cfg(target_arch = "x86_64")]
    if uses_avx2() {
        // SAFETY: the CPU supports AVX2 (checked at run time just above).
        return unsafe { fbm_row_avx2::<Z3>(perm.table(), fbm, x0, dx, y, z, out) };
    }
    fbm_row_impl::<Z3>(perlin_block::<Z3>, perm.table(), fbm, x0, dx, y, z, out)
}

/// `out[i] = perlin3(x0 + i·dx, y, z)` for a whole row (any length).
pub fn perlin3_row(perm: &Permutation, x0: f32, dx: f32, y: f32, z: f32, out: &mut [f32]) {
    noise_row::<true>(perm, x0, dx, y, z, out)
}

/// `out[i] = perlin2(x0 + i·dx, y)` for a whole row.
pub fn perlin2_row(perm: &Permutation, x0: f32, dx: f32, y: f32, out: &mut [f32]) {
    noise_row::<false>(perm, x0, dx, y, 0.0, out)
}

/// `out[i] = fbm.fbm3(x0 + i·dx, y, z)` for a whole row.
pub fn fbm3_row(perm: &Permutation, fbm: &Fbm, x0: f32, dx: f32, y: f32, z: f32, out: &mut [f32]) {
    fbm_row::<true>(perm, fbm, x0, dx, y, z, out)
}

/// `out[i] = fbm.fbm2(x0 + i·dx, y)` for a whole row.
pub fn fbm2_row(perm: &Permutation, fbm: &Fbm, x0: f32, dx: f32, y: f32, out: &mut [f32]) {
    fbm_row::<false>(perm, fbm, x0, dx, y, 0.0, out)
}

/// How a grid is spread over threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threads {
    /// The calling thread only.
    One,
    /// Rows in parallel on the current rayon pool.
    All,
}

/// fBm of 2D noise over a grid: `out[j·width + i] = fbm.fbm2(grid.x(i), grid.y(j))`, row-major,
/// `out.len() == width·height`.
///
/// # Errors
/// [`Error::Size`] when `out` has the wrong length.
pub fn fbm2_grid(
    perm: &Permutation,
    fbm: &Fbm,
    grid: &GridSpec,
    threads: Threads,
    out: &mut [f32],
) -> Result<(), Error> {
    if out.len() != grid.width * grid.height {
        return Err(Error::size(
            "fbm2_grid output length",
            out.len() as i64,
            (grid.width * grid.height) as i64,
        ));
    }
    let row = |(j, r): (usize, &mut [f32])| fbm2_row(perm, fbm, grid.x0, grid.dx, grid.y(j), r);
    match threads {
        Threads::One => out.chunks_mut(grid.width).enumerate().for_each(row),
        Threads::All => out.par_chunks_mut(grid.width).enumerate().for_each(row),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::noise::{perlin2, perlin3, FbmParams};

    #[test]
    fn rows_equal_scalar_bit_for_bit() {
        for perm in [Permutation::reference(), Permutation::from_seed(77)] {
            let mut out = vec![0f32; 37];
            for (y, z) in [(0.25f32, -3.7f32), (-100.5, 12.0), (7.0, 0.0)] {
                perlin3_row(&perm, -20.3, 0.913, y, z, &mut out);
                for (i, &v) in out.iter().enumerate() {
                    let x = -20.3f32 + i as f32 * 0.913;
                    assert_eq!(
                        v.to_bits(),
                        perlin3(&perm, x, y, z).to_bits(),
                        "{x} {y} {z}"
                    );
                }
                perlin2_row(&perm, -20.3, 0.913, y, &mut out);
                for (i, &v) in out.iter().enumerate() {
                    let x = -20.3f32 + i as f32 * 0.913;
                    assert_eq!(v.to_bits(), perlin2(&perm, x, y).to_bits());
                }
            }
        }
    }

    #[test]
    fn fbm_grid_equals_scalar_fbm() {
        let perm = Permutation::from_seed(3);
        for kind in [FbmKind::Standard, FbmKind::Ridged, FbmKind::Billow] {
            let fbm = Fbm::new(FbmParams {
                octaves: 4.5,
                lacunarity: 2.03,
                gain: 0.47,
            })
            .unwrap()
            .with_kind(kind);
            let grid = GridSpec::new(19, 5, [-3.0, 40.0], [0.37, 0.61]).unwrap();
            let mut out = vec![0f32; 19 * 5];
            fbm2_grid(&perm, &fbm, &grid, Threads::All, &mut out).unwrap();
            for j in 0..5 {
                for i in 0..19 {
                    let s = fbm.fbm2(&perm, grid.x(i), grid.y(j));
                    assert_eq!(out[j * 19 + i].to_bits(), s.to_bits(), "{kind:?} {i} {j}");
                }
            }
            let mut row = vec![0f32; 11];
            fbm3_row(&perm, &fbm, 1.5, 0.77, -2.25, 9.5, &mut row);
            for (i, &v) in row.iter().enumerate() {
                let s = fbm.fbm3(&perm, 1.5 + i as f32 * 0.77, -2.25, 9.5);
                assert_eq!(v.to_bits(), s.to_bits());
            }
        }
    }

    #[test]
    fn rows_crossing_many_cells_and_running_backwards_equal_scalar() {
        let perm = Permutation::from_seed(5);
        let fbm = Fbm::new(FbmParams {
            octaves: 3.0,
            lacunarity: 2.7,
            gain: 0.5,
        })
        .unwrap();
        for (x0, dx) in [(300.0f32, -1.37f32), (-1000.0, 3.1), (0.2, 1e-4)] {
            let mut row = vec![0f32; 333];
            perlin3_row(&perm, x0, dx, -7.25, 3.5, &mut row);
            for (i, &v) in row.iter().enumerate() {
                let x = x0 + i as f32 * dx;
                assert_eq!(v.to_bits(), perlin3(&perm, x, -7.25f32, 3.5).to_bits());
            }
            fbm2_row(&perm, &fbm, x0, dx, 11.5, &mut row);
            for (i, &v) in row.iter().enumerate() {
                let x = x0 + i as f32 * dx;
                assert_eq!(v.to_bits(), fbm.fbm2(&perm, x, 11.5f32).to_bits());
            }
        }
    }

    /// The AVX2 block (broadcast-and-blend and gather paths) against the portable block, bit for
    /// bit: spacings from 1e-4 to 3.1 put 1 to 8 cells in a block, forwards and backwards.
    #[test]
    fn avx2_and_portable_blocks_agree_bit_for_bit() {
        if !uses_avx2() {
            eprintln!("no AVX2 on this CPU: only the portable path exists");
            return;
        }
        let perm = Permutation::from_seed(11);
        let fbm = Fbm::new(FbmParams {
            octaves: 6.5,
            lacunarity: 2.0,
            gain: 0.5,
        })
        .unwrap()
        .with_kind(FbmKind::Ridged);
        let (mut fast, mut portable) = (vec![0f32; 301], vec![0f32; 301]);
        for dx in [1e-4f32, 0.0731, 0.2, 0.45, 0.6, 1.0, 3.1, -0.31] {
            for (y, z) in [(0.25f32, -3.7f32), (-100.5, 12.0), (7.0, 0.0)] {
                let x0 = -37.3;
                // SAFETY: AVX2 checked above.
                unsafe { noise_row_avx2::<true>(perm.table(), x0, dx, y, z, &mut fast) };
                noise_row_impl::<true>(
                    perlin_block::<true>,
                    perm.table(),
                    x0,
                    dx,
                    y,
                    z,
                    &mut portable,
                );
                let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&fast), bits(&portable), "perlin3 dx {dx} y {y} z {z}");
                // SAFETY: AVX2 checked above.
                unsafe { fbm_row_avx2::<false>(perm.table(), &fbm, x0, dx, y, z, &mut fast) };
                fbm_row_impl::<false>(
                    perlin_block::<false>,
                    perm.table(),
                    &fbm,
                    x0,
                    dx,
                    y,
                    z,
                    &mut portable,
                );
                assert_eq!(bits(&fast), bits(&portable), "fbm2 dx {dx} y {y}");
            }
        }
    }

    #[test]
    fn bad_grids_are_errors() {
        assert!(matches!(
            GridSpec::new(-4, 4, [0.0; 2], [1.0; 2]),
            Err(Error::Size { .. })
        ));
        assert!(matches!(
            GridSpec::new(4, 0, [0.0; 2], [1.0; 2]),
            Err(Error::Size { .. })
        ));
        assert!(matches!(
            GridSpec::new(4, MAX_GRID_SIDE + 1, [0.0; 2], [1.0; 2]),
            Err(Error::Size { .. })
        ));
        assert!(matches!(
            GridSpec::new(4, 4, [f32::NAN, 0.0], [1.0; 2]),
            Err(Error::NonFinite { .. })
        ));
    }
}
