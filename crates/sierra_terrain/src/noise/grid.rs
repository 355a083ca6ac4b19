//! Noise and fBm on regular grids, `f32`, with SIMD lanes over x and runtime CPU dispatch.
//!
//! A grid row shares its y (and z) lattice coordinate, fraction and fade across all samples. So
//! per row (per octave) each lattice cell the row crosses gets its corner gradients split as
//! `grad = gx·x + k` with `k = gy·y + gz·z` (`CellGrads`), leaving one multiply and one add per
//! corner and sample. The lanes of a block are consecutive x samples; the path is chosen at run
//! time with `is_x86_feature_detected!` ([`SimdPath::detect`]):
//! - AVX-512F: 16 lanes in one register; a block within 16 cells permutes a 16-cell window of
//!   the cell values (`vpermps`), wider blocks gather; with AVX-512 VBMI the per-row cell fills
//!   (Perlin's lattice and true 2D noise's) hash 64 cells at a time as byte look-ups (`fill_vbmi`);
//! - AVX2: 8 lanes; a block within at most `BLEND_CELLS` cells broadcasts the first cell's values
//!   and blends in the next cells' lanes, wider blocks (high frequencies) gather per lane;
//! - otherwise the portable block runs the same operations over `[f32; 8]` arrays.
//!
//! FMA is not used where it would round differently, so every path gives the same bits as the
//! others and as the scalar [`perlin3`](super::perlin3) / [`Fbm::fbm2`] (tested); the one fused
//! multiply-add, `gx·x + k` in the AVX-512 path, is exact because `gx` is −1, 0 or 1. The `wide` crate was considered: its lane
//! width is fixed at compile time by `cfg(target_feature)`, so it cannot give runtime dispatch
//! without a second build; `std::arch` in a `#[target_feature]` function can.

use rayon::prelude::*;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod cells;
#[cfg(target_arch = "x86_64")]
mod fill_vbmi;

use super::fbm::{Fbm, FbmKind};
use super::perlin::{fade, Permutation};
use crate::error::{finite, size, Error};
pub use crate::simd::SimdPath;
pub use cells::LANES;
use cells::{fill_noise2d, fill_scalar, Axis, BlockX, CellGrads, CELL_VALUES};

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

#[inline(always)]
fn lerp(t: f32, a: f32, b: f32) -> f32 {
    a + t * (b - a)
}

/// 8 lanes of `perlin3(x[l], y, z)` from a row's cell data; `Z3 = false` evaluates only the
/// `z = 0` face (perlin2).
#[inline(always)]
fn perlin_block<const Z3: bool>(
    cells: &CellGrads,
    x: BlockX,
    y: Axis,
    z: Axis,
    out: &mut [f32; LANES],
) {
    let mut xf = [0f32; LANES];
    let mut xi = [0i32; LANES];
    for l in 0..LANES {
        let x = x.lane(l);
        let fx = x.floor();
        xf[l] = x - fx;
        xi[l] = fx as i32;
    }
    let corners = if Z3 { 8 } else { 4 };
    // g[v][l]: value v (gx of corner v, or k of corner v − 8) for lane l.
    let mut g = [[0f32; LANES]; CELL_VALUES];
    for l in 0..LANES {
        for v in (0..corners).chain(8..8 + corners) {
            g[v][l] = cells.at(v, xi[l]);
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

/// Which lattice noise a row evaluates.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lattice {
    /// Perlin's improved noise: 3D, or its `z = 0` face ([`super::perlin2`]).
    Perlin,
    /// True 2D noise ([`super::noise2d`]): planar gradients, two hash look-ups per corner.
    Noise2d,
}

/// Where a row samples: `x(i) = x0 + i·dx` at `y` and `z` (`z` unused by 2D rows), on `lattice`.
#[derive(Clone, Copy)]
struct RowAt {
    x0: f32,
    dx: f32,
    y: f32,
    z: f32,
    lattice: Lattice,
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

/// Whether the AVX2 (or a wider) code path is used on this CPU.
pub fn uses_avx2() -> bool {
    SimdPath::detect() != SimdPath::Portable
}

/// What a row writes: the noise itself, or `out[i] + amp·noise` (an octave added to a sum).
#[derive(Clone, Copy)]
enum Emit {
    Store,
    Add(f32),
}

/// What one row computes: plain noise (stored, or added to a sum), or an fBm sum.
#[derive(Clone, Copy)]
enum Row<'f> {
    Noise(Emit),
    Fbm(&'f Fbm),
}

/// One row of `row` on lanes of `L`, with the block kernel `block_fn` and the cell fills `fill`
/// (Perlin's lattice) and `fill2d` (true 2D noise's) of one code path, octave by octave: plain noise is one octave at frequency 1,
/// `out[i] = perlin3(x0 + i·dx, y, z)` (or added, see [`Emit`]); fBm sums its octaves in the
/// operation order of [`Fbm::fbm2`]. Each octave fills the row's cells at its frequency, then
/// evaluates `out` block by block.
#[inline(always)]
#[allow(clippy::too_many_arguments)] // a path's three kernels, the scratch and the row
fn row_impl<const Z3: bool, const L: usize>(
    block_fn: impl Fn(&CellGrads, BlockX, Axis, Axis, &mut [f32; L]),
    fill: impl Fn(&mut CellGrads, &[u8; 512], Axis, Axis, i64, usize) -> usize,
    fill2d: impl Fn(&mut CellGrads, &[u8; 512], Axis, Axis, i64, usize) -> usize,
    cells: &mut CellGrads,
    p: &[u8; 512],
    row: Row<'_>,
    RowAt {
        x0,
        dx,
        y,
        z,
        lattice,
    }: RowAt,
    out: &mut [f32],
) {
    // (octaves, lacunarity, gain): one octave for plain noise.
    let (octaves, lacunarity, gain) = match row {
        Row::Noise(_) => (1, 1.0, 1.0),
        Row::Fbm(fbm) => {
            out.fill(0.0);
            let params = fbm.params();
            let octaves = fbm.full_octaves() + u32::from(fbm.fraction() > 0.0);
            (octaves, params.lacunarity as f32, params.gain as f32)
        }
    };
    let mut block = [0f32; L];
    let last = out.len().div_ceil(L) * L;
    let (mut freq, mut amp) = (1.0f32, 1.0f32);
    for octave in 0..octaves {
        let (ya, za) = (
            Axis::new(y * freq),
            Axis::new(if Z3 { z * freq } else { 0.0 }),
        );
        let (x_first, x_last) = (x0 * freq, (x0 + last as f32 * dx) * freq);
        match lattice {
            Lattice::Perlin => cells.fill::<Z3>(&fill, p, ya, za, x_first, x_last),
            Lattice::Noise2d => cells.fill::<false>(&fill2d, p, ya, za, x_first, x_last),
        }
        for (c, chunk) in out.chunks_mut(L).enumerate() {
            let xs = BlockX {
                x0,
                dx,
                freq,
                first: c * L,
            };
            // Stored rows write whole blocks in place: a copy through `block` cost a
            // `memcpy` call per block. One call site: with a second one the closure around
            // the block kernel was not inlined (the fBm rows ran 2.5x slower).
            let in_place = matches!(row, Row::Noise(Emit::Store)) && chunk.len() == L;
            let dst = match <&mut [f32; L]>::try_from(&mut *chunk) {
                Ok(whole) if in_place => whole,
                _ => &mut block,
            };
            block_fn(cells, xs, ya, za, dst);
            if in_place {
                continue;
            }
            match row {
                Row::Noise(Emit::Store) => chunk.copy_from_slice(&block[..chunk.len()]),
                Row::Noise(Emit::Add(amp)) => {
                    for (s, &n) in chunk.iter_mut().zip(&block) {
                        *s += amp * n;
                    }
                }
                Row::Fbm(fbm) => {
                    let kind = fbm.kind();
                    let weight = (octave == fbm.full_octaves()).then_some(fbm.fraction() as f32);
                    for (s, &n) in chunk.iter_mut().zip(&block) {
                        let term = signal(kind, n) * amp;
                        *s = match weight {
                            Some(wt) => *s + term * wt,
                            None => *s + term,
                        };
                    }
                }
            }
        }
        freq *= lacunarity;
        amp *= gain;
    }
}

/// Defines `$name::<Z3>(cells, p, row, at, out)`: [`row_impl`] compiled for the
/// CPU features `$feature`, with `$module`'s block kernel on `$lanes` lanes and the cell fills
/// `$fill` (Perlin's lattice) and `$fill2d` (true 2D noise's).
macro_rules! simd_rows {
    ($feature:literal, $name:ident, $module:ident, $lanes:expr, $fill:path, $fill2d:path) => {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $feature)]
        fn $name<const Z3: bool>(
            cells: &mut CellGrads,
            p: &[u8; 512],
            row: Row<'_>,
            at: RowAt,
            out: &mut [f32],
        ) {
            row_impl::<Z3, { $lanes }>(
                // SAFETY: this function runs only where the CPU has `$feature`.
                |c, x, y, z, o| unsafe { $module::perlin_block::<Z3>(c, x, y, z, o) },
                |c, p, y, z, s, n| $fill(c, p, y, z, s, n),
                |c, p, y, z, s, n| $fill2d(c, p, y, z, s, n),
                cells,
                p,
                row,
                at,
                out,
            )
        }
    };
}

simd_rows!(
    "avx2",
    row_avx2,
    avx2,
    LANES,
    fill_scalar::<Z3>,
    fill_noise2d
);
simd_rows!(
    "avx512f",
    row_avx512,
    avx512,
    avx512::LANES,
    fill_scalar::<Z3>,
    fill_noise2d
);
simd_rows!(
    "avx512f,avx512bw,avx512vbmi",
    row_avx512_vbmi,
    avx512,
    avx512::LANES,
    fill_vbmi::fill::<Z3>,
    fill_vbmi::fill_noise2d
);

/// Row evaluation with its scratch data (the cell gradients of the row being evaluated, 17 KiB)
/// kept between rows, and the code path chosen once. The free functions ([`perlin3_row`], …)
/// build one per call; loops over many rows should keep one.
pub struct RowNoise {
    path: SimdPath,
    /// With [`SimdPath::Avx512`]: fill cells with the VBMI kernel (`fill_vbmi`).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // x86_64-only SIMD paths
    vbmi: bool,
    cells: Box<CellGrads>,
}

impl Default for RowNoise {
    fn default() -> Self {
        Self::new()
    }
}

impl RowNoise {
    /// Rows on the fastest path this CPU supports ([`SimdPath::detect`]).
    pub fn new() -> Self {
        Self::with_path(SimdPath::detect())
    }

    /// Rows on `path`, or on the portable path where this CPU does not support `path`. The
    /// AVX-512 path fills its cells with AVX-512 VBMI byte look-ups where the CPU has them
    /// (`avx512bw`, `avx512vbmi`), with scalar code otherwise; both give the same values.
    pub fn with_path(path: SimdPath) -> Self {
        Self::with_paths(path, true)
    }

    /// As [`RowNoise::with_path`]; `vbmi = false` keeps the scalar fill on any CPU (tests).
    fn with_paths(path: SimdPath, vbmi: bool) -> Self {
        let path = if path.is_supported() {
            path
        } else {
            SimdPath::Portable
        };
        #[cfg(target_arch = "x86_64")]
        let vbmi = vbmi
            && path == SimdPath::Avx512
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vbmi");
        #[cfg(not(target_arch = "x86_64"))]
        let vbmi = {
            let _ = vbmi;
            false
        };
        Self {
            path,
            vbmi,
            cells: Box::new(CellGrads::new()),
        }
    }

    /// The code path the rows run on.
    pub fn path(&self) -> SimdPath {
        self.path
    }

    /// `out[i] = perlin3(x0 + i·dx, y, z)` for a whole row (any length).
    pub fn perlin3_row(
        &mut self,
        perm: &Permutation,
        x0: f32,
        dx: f32,
        y: f32,
        z: f32,
        out: &mut [f32],
    ) {
        self.row::<true>(
            perm,
            Row::Noise(Emit::Store),
            RowAt {
                x0,
                dx,
                y,
                z,
                lattice: Lattice::Perlin,
            },
            out,
        )
    }

    /// `acc[i] = acc[i] + amp·perlin3(x0 + i·dx, y, z)` for a whole row: one octave added to
    /// a sum whose octaves place their samples freely (e.g. `perlin_tbl.c`'s
    /// `noise(i·f + 0.5, …)`, see [`super::workloads`]).
    #[allow(clippy::too_many_arguments)] // the row's geometry and the octave's amplitude
    pub fn perlin3_row_add(
        &mut self,
        perm: &Permutation,
        x0: f32,
        dx: f32,
        y: f32,
        z: f32,
        amp: f32,
        acc: &mut [f32],
    ) {
        self.row::<true>(
            perm,
            Row::Noise(Emit::Add(amp)),
            RowAt {
                x0,
                dx,
                y,
                z,
                lattice: Lattice::Perlin,
            },
            acc,
        )
    }

    /// `out[i] = perlin2(x0 + i·dx, y)` for a whole row.
    pub fn perlin2_row(&mut self, perm: &Permutation, x0: f32, dx: f32, y: f32, out: &mut [f32]) {
        self.row::<false>(
            perm,
            Row::Noise(Emit::Store),
            RowAt {
                x0,
                dx,
                y,
                z: 0.0,
                lattice: Lattice::Perlin,
            },
            out,
        )
    }

    /// `out[i] = fbm.fbm3(x0 + i·dx, y, z)` for a whole row.
    #[allow(clippy::too_many_arguments)] // the row's geometry, as for the other rows
    pub fn fbm3_row(
        &mut self,
        perm: &Permutation,
        fbm: &Fbm,
        x0: f32,
        dx: f32,
        y: f32,
        z: f32,
        out: &mut [f32],
    ) {
        self.row::<true>(
            perm,
            Row::Fbm(fbm),
            RowAt {
                x0,
                dx,
                y,
                z,
                lattice: Lattice::Perlin,
            },
            out,
        )
    }

    /// `out[i] = fbm.fbm2(x0 + i·dx, y)` for a whole row.
    pub fn fbm2_row(
        &mut self,
        perm: &Permutation,
        fbm: &Fbm,
        x0: f32,
        dx: f32,
        y: f32,
        out: &mut [f32],
    ) {
        self.row::<false>(
            perm,
            Row::Fbm(fbm),
            RowAt {
                x0,
                dx,
                y,
                z: 0.0,
                lattice: Lattice::Perlin,
            },
            out,
        )
    }

    /// `out[i] = noise2d(x0 + i·dx, y)` (true 2D noise, [`super::noise2d`]) for a whole row.
    pub fn noise2d_row(&mut self, perm: &Permutation, x0: f32, dx: f32, y: f32, out: &mut [f32]) {
        let at = RowAt {
            x0,
            dx,
            y,
            z: 0.0,
            lattice: Lattice::Noise2d,
        };
        self.row::<false>(perm, Row::Noise(Emit::Store), at, out)
    }

    /// `out[i] = fbm.fbm2d(x0 + i·dx, y)` (fBm of true 2D noise) for a whole row.
    pub fn fbm2d_row(
        &mut self,
        perm: &Permutation,
        fbm: &Fbm,
        x0: f32,
        dx: f32,
        y: f32,
        out: &mut [f32],
    ) {
        let at = RowAt {
            x0,
            dx,
            y,
            z: 0.0,
            lattice: Lattice::Noise2d,
        };
        self.row::<false>(perm, Row::Fbm(fbm), at, out)
    }

    fn row<const Z3: bool>(
        &mut self,
        perm: &Permutation,
        row: Row<'_>,
        at: RowAt,
        out: &mut [f32],
    ) {
        let (p, cells) = (perm.table(), &mut *self.cells);
        match self.path {
            // SAFETY (all three arms): `with_paths` keeps a SIMD path, and `vbmi`, only where
            // the CPU supports them.
            #[cfg(target_arch = "x86_64")]
            SimdPath::Avx512 if self.vbmi => unsafe {
                row_avx512_vbmi::<Z3>(cells, p, row, at, out)
            },
            #[cfg(target_arch = "x86_64")]
            SimdPath::Avx512 => unsafe { row_avx512::<Z3>(cells, p, row, at, out) },
            #[cfg(target_arch = "x86_64")]
            SimdPath::Avx2 => unsafe { row_avx2::<Z3>(cells, p, row, at, out) },
            _ => {
                let (block, fill) = (perlin_block::<Z3>, fill_scalar::<Z3>);
                row_impl::<Z3, LANES>(block, fill, fill_noise2d, cells, p, row, at, out)
            }
        }
    }
}

/// `out[i] = perlin3(x0 + i·dx, y, z)` for a whole row (any length).
pub fn perlin3_row(perm: &Permutation, x0: f32, dx: f32, y: f32, z: f32, out: &mut [f32]) {
    RowNoise::new().perlin3_row(perm, x0, dx, y, z, out)
}

/// `out[i] = perlin2(x0 + i·dx, y)` for a whole row.
pub fn perlin2_row(perm: &Permutation, x0: f32, dx: f32, y: f32, out: &mut [f32]) {
    RowNoise::new().perlin2_row(perm, x0, dx, y, out)
}

/// `out[i] = fbm.fbm3(x0 + i·dx, y, z)` for a whole row.
pub fn fbm3_row(perm: &Permutation, fbm: &Fbm, x0: f32, dx: f32, y: f32, z: f32, out: &mut [f32]) {
    RowNoise::new().fbm3_row(perm, fbm, x0, dx, y, z, out)
}

/// `out[i] = fbm.fbm2(x0 + i·dx, y)` for a whole row.
pub fn fbm2_row(perm: &Permutation, fbm: &Fbm, x0: f32, dx: f32, y: f32, out: &mut [f32]) {
    RowNoise::new().fbm2_row(perm, fbm, x0, dx, y, out)
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
    fbm_grid(Lattice::Perlin, perm, fbm, grid, threads, out)
}

/// fBm of true 2D noise ([`super::noise2d`]) over a grid:
/// `out[j·width + i] = fbm.fbm2d(grid.x(i), grid.y(j))`, row-major, `out.len() == width·height`.
///
/// # Errors
/// [`Error::Size`] when `out` has the wrong length.
pub fn fbm2d_grid(
    perm: &Permutation,
    fbm: &Fbm,
    grid: &GridSpec,
    threads: Threads,
    out: &mut [f32],
) -> Result<(), Error> {
    fbm_grid(Lattice::Noise2d, perm, fbm, grid, threads, out)
}

fn fbm_grid(
    lattice: Lattice,
    perm: &Permutation,
    fbm: &Fbm,
    grid: &GridSpec,
    threads: Threads,
    out: &mut [f32],
) -> Result<(), Error> {
    if out.len() != grid.width * grid.height {
        return Err(Error::length(
            "fbm grid output length",
            out.len(),
            grid.width * grid.height,
        ));
    }
    let row = |rows: &mut RowNoise, (j, r): (usize, &mut [f32])| {
        // On the rayon worker that computes the row.
        let _span = tracing::info_span!("terrain_row").entered();
        match lattice {
            Lattice::Perlin => rows.fbm2_row(perm, fbm, grid.x0, grid.dx, grid.y(j), r),
            Lattice::Noise2d => rows.fbm2d_row(perm, fbm, grid.x0, grid.dx, grid.y(j), r),
        }
    };
    match threads {
        Threads::One => {
            let mut rows = RowNoise::new();
            out.chunks_mut(grid.width)
                .enumerate()
                .for_each(|r| row(&mut rows, r))
        }
        Threads::All => out
            .par_chunks_mut(grid.width)
            .enumerate()
            .for_each_init(RowNoise::new, row),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::noise::{noise2d, perlin2, perlin3, FbmParams};

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
            let mut rows = RowNoise::new();
            for y in [11.5f32, -0.3, 255.9] {
                rows.noise2d_row(&perm, x0, dx, y, &mut row);
                for (i, &v) in row.iter().enumerate() {
                    let x = x0 + i as f32 * dx;
                    assert_eq!(v.to_bits(), noise2d(&perm, x, y).to_bits(), "{x} {y}");
                }
                rows.fbm2d_row(&perm, &fbm, x0, dx, y, &mut row);
                for (i, &v) in row.iter().enumerate() {
                    let x = x0 + i as f32 * dx;
                    assert_eq!(v.to_bits(), fbm.fbm2d(&perm, x, y).to_bits(), "{x} {y}");
                }
            }
        }
    }

    /// The true 2D grid is its scalar fBm sample for sample, and not the face of 3D noise
    /// (negative control: the same grid through `fbm2_grid` differs almost everywhere).
    #[test]
    fn fbm2d_grid_equals_scalar_and_differs_from_the_3d_face() {
        let perm = Permutation::reference();
        let fbm = Fbm::new(FbmParams::default()).unwrap();
        let grid = GridSpec::new(37, 9, [-5.5, 3.25], [0.01, 0.013]).unwrap();
        let (mut true2d, mut face) = (vec![0f32; 37 * 9], vec![0f32; 37 * 9]);
        fbm2d_grid(&perm, &fbm, &grid, Threads::All, &mut true2d).unwrap();
        fbm2_grid(&perm, &fbm, &grid, Threads::One, &mut face).unwrap();
        for j in 0..9 {
            for i in 0..37 {
                let s = fbm.fbm2d(&perm, grid.x(i), grid.y(j));
                assert_eq!(true2d[j * 37 + i].to_bits(), s.to_bits(), "{i} {j}");
            }
        }
        let differ = true2d.iter().zip(&face).filter(|(a, b)| a != b).count();
        assert!(differ > true2d.len() * 9 / 10, "{differ}");
    }

    /// Every path this CPU supports against the portable block, bit for bit: AVX-512 (one-cell
    /// broadcast, 16-cell window permute and gather) and AVX2 (broadcast-and-blend and gather).
    /// Spacings from 1e-4 to 3.1 put 1 to 47 cells in a block, forwards and backwards, rows that
    /// cross the 255 → 0 cell wrap, lengths that leave a partial block; perlin3 rows, octaves
    /// added to a sum, 3D fBm rows and 2D fBm heightmap rows.
    #[test]
    fn simd_paths_agree_bit_for_bit() {
        // (path, VBMI fill): every one this CPU runs; a missing one is a `cpu-simd` skip.
        #[cfg(target_arch = "x86_64")]
        let vbmi_cpu = std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vbmi");
        #[cfg(not(target_arch = "x86_64"))]
        let vbmi_cpu = false;
        let avx512 = SimdPath::Avx512.is_supported();
        let paths: Vec<(SimdPath, bool)> = sierra_testkit::skip::simd_paths([
            ((SimdPath::Avx512, true), "avx512vbmi", avx512 && vbmi_cpu),
            ((SimdPath::Avx512, false), "avx512", avx512),
            (
                (SimdPath::Avx2, false),
                "avx2",
                SimdPath::Avx2.is_supported(),
            ),
        ]);
        let perm = Permutation::from_seed(11);
        let fbm = Fbm::new(FbmParams {
            octaves: 6.5,
            lacunarity: 2.0,
            gain: 0.5,
        })
        .unwrap()
        .with_kind(FbmKind::Ridged);
        let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
        let mut compared = 0;
        for len in [301, 64] {
            let mut portable = vec![0f32; len];
            let mut fast = vec![0f32; len];
            for (x0, dx) in [
                (-37.3f32, 1e-4f32),
                (-37.3, 0.0371),
                (-37.3, 0.0731),
                (-37.3, 0.2),
                (250.3, 0.45),
                (-37.3, 0.6),
                (-37.3, 1.0),
                (-37.3, 1.5),
                (-37.3, 3.1),
                (3.0, -0.31),
            ] {
                for (y, z) in [(0.25f32, -3.7f32), (-100.5, 12.0), (7.0, 0.0), (3.3, 0.5)] {
                    let run = |(path, vbmi): (SimdPath, bool), out: &mut [f32]| {
                        let mut noise = RowNoise::with_paths(path, vbmi);
                        assert_eq!((noise.path(), noise.vbmi), (path, vbmi));
                        let mut rows = Vec::new();
                        noise.perlin3_row(&perm, x0, dx, y, z, out);
                        rows.push(bits(out));
                        out.iter_mut().enumerate().for_each(|(i, v)| *v = i as f32);
                        noise.perlin3_row_add(&perm, x0, dx, y, z, 0.25, out);
                        rows.push(bits(out));
                        noise.fbm3_row(&perm, &fbm, x0, dx, y, z, out);
                        rows.push(bits(out));
                        noise.fbm2_row(&perm, &fbm, x0, dx, y, out);
                        rows.push(bits(out));
                        noise.noise2d_row(&perm, x0, dx, y, out);
                        rows.push(bits(out));
                        noise.fbm2d_row(&perm, &fbm, x0, dx, y, out);
                        rows.push(bits(out));
                        rows
                    };
                    let want = run((SimdPath::Portable, false), &mut portable);
                    for &path in &paths {
                        let got = run(path, &mut fast);
                        for (what, (g, w)) in
                            ["perlin3", "perlin3 add", "fbm3", "fbm2", "noise2d", "fbm2d"]
                                .iter()
                                .zip(got.iter().zip(&want))
                        {
                            assert_eq!(g, w, "{path:?} {what} x0 {x0} dx {dx} y {y} z {z}");
                            compared += 1;
                        }
                    }
                }
            }
        }
        eprintln!("{compared} rows compared with the portable path");
    }

    /// Negative control for the agreement test: rows at a shifted y differ, so equal bits above
    /// are not an artefact of comparing a value with itself.
    #[test]
    fn rows_at_other_coordinates_differ() {
        let perm = Permutation::from_seed(11);
        let (mut a, mut b) = (vec![0f32; 64], vec![0f32; 64]);
        let mut noise = RowNoise::new();
        noise.perlin3_row(&perm, -37.3, 0.0731, 0.25, -3.7, &mut a);
        noise.perlin3_row(&perm, -37.3, 0.0731, 0.2501, -3.7, &mut b);
        assert!(a.iter().zip(&b).all(|(x, y)| x != y));
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
