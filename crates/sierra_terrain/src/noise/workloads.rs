//! The grid workloads of the scalar C baseline `perlin_tbl.c` (shared bench folder, not part of
//! the repository), sample for sample, so benches can report Sierra's time as a ratio to the C
//! time measured in the same run:
//!
//! - grid: `noise3(i·0.0371 + 0.5, j·0.0371 + 0.25, k·0.0371 + 0.125)` for `i, j, k` in
//!   `0..128` (x fastest);
//! - heightmap: `Σ_o a_o·noise3(i·f_o + 0.5, j·f_o + 0.25, 0.5)` for `i, j` in `0..1024` and
//!   6 octaves, `f_0 = 0.01`, `a_0 = 1`, `f_{o+1} = 2·f_o` (lacunarity 2), `a_{o+1} = a_o/2`
//!   (gain 0.5); 3D noise on the plane `z = 0.5`, offsets added after the frequency scaling.

use super::grid::RowNoise;
use super::Permutation;
use crate::error::Error;

/// Samples per side of [`perlin_tbl_grid`].
pub const GRID_SIDE: usize = 128;
/// Sample spacing of [`perlin_tbl_grid`].
pub const GRID_STEP: f32 = 0.0371;
/// Samples per side of [`perlin_tbl_heightmap`].
pub const HEIGHTMAP_SIDE: usize = 1024;
/// First octave's frequency of [`perlin_tbl_heightmap`].
pub const HEIGHTMAP_FREQUENCY: f32 = 0.01;
/// Octaves of [`perlin_tbl_heightmap`].
pub const HEIGHTMAP_OCTAVES: usize = 6;

/// `out[(k·128 + j)·128 + i]` = the grid sample `(i, j, k)` (see the module docs).
///
/// # Errors
/// [`Error::Size`] unless `out.len() == 128³`.
pub fn perlin_tbl_grid(perm: &Permutation, out: &mut [f32]) -> Result<(), Error> {
    let n = GRID_SIDE;
    check_len("perlin_tbl_grid output length", out.len(), n * n * n)?;
    let mut rows = RowNoise::new();
    for (r, row) in out.chunks_mut(n).enumerate() {
        let (j, k) = ((r % n) as f32, (r / n) as f32);
        let (y, z) = (j * GRID_STEP + 0.25, k * GRID_STEP + 0.125);
        rows.perlin3_row(perm, 0.5, GRID_STEP, y, z, row);
    }
    Ok(())
}

/// `out[j·1024 + i]` = the heightmap sample `(i, j)` (see the module docs), octaves summed in
/// the C program's order (`acc = acc + a·noise`, from `acc = 0`).
///
/// # Errors
/// [`Error::Size`] unless `out.len() == 1024²`.
pub fn perlin_tbl_heightmap(perm: &Permutation, out: &mut [f32]) -> Result<(), Error> {
    let m = HEIGHTMAP_SIDE;
    check_len("perlin_tbl_heightmap output length", out.len(), m * m)?;
    let mut rows = RowNoise::new();
    for (j, row) in out.chunks_mut(m).enumerate() {
        row.fill(0.0);
        let (mut f, mut a) = (HEIGHTMAP_FREQUENCY, 1.0f32);
        for _ in 0..HEIGHTMAP_OCTAVES {
            rows.perlin3_row_add(perm, 0.5, f, j as f32 * f + 0.25, 0.5, a, row);
            f *= 2.0;
            a *= 0.5;
        }
    }
    Ok(())
}

fn check_len(what: &str, got: usize, want: usize) -> Result<(), Error> {
    if got == want {
        Ok(())
    } else {
        Err(Error::length(what, got, want))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::noise::perlin3;

    /// Spot checks against scalar `perlin3` at the C program's coordinates.
    #[test]
    fn workloads_sample_the_c_programs_points() {
        let perm = Permutation::reference();
        let n = GRID_SIDE;
        let mut grid = vec![0f32; n * n * n];
        perlin_tbl_grid(&perm, &mut grid).unwrap();
        for (i, j, k) in [(0, 0, 0), (127, 3, 9), (17, 127, 64), (5, 80, 127)] {
            let c = |v: usize, o: f32| v as f32 * GRID_STEP + o;
            let want = perlin3(&perm, c(i, 0.5), c(j, 0.25), c(k, 0.125));
            assert_eq!(grid[(k * n + j) * n + i].to_bits(), want.to_bits());
        }
        let m = HEIGHTMAP_SIDE;
        let mut height = vec![0f32; m * m];
        perlin_tbl_heightmap(&perm, &mut height).unwrap();
        for (i, j) in [(0, 0), (1023, 7), (300, 1023), (511, 512)] {
            let (mut f, mut a, mut acc) = (0.01f32, 1.0f32, 0.0f32);
            for _ in 0..6 {
                acc += a * perlin3(&perm, i as f32 * f + 0.5, j as f32 * f + 0.25, 0.5);
                f *= 2.0;
                a *= 0.5;
            }
            assert_eq!(height[j * m + i].to_bits(), acc.to_bits(), "({i}, {j})");
        }
        assert!(matches!(
            perlin_tbl_grid(&perm, &mut height),
            Err(Error::Size { .. })
        ));
    }
}
