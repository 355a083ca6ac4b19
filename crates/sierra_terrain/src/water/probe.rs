//! A bandwidth reference for the water step: a copy that moves the same bytes as one
//! [`WaterSim::step`](super::WaterSim::step) with the same bands of rows and threads, so a
//! benchmark can report the step's achieved bandwidth as a fraction of what the memory system
//! delivered to a plain copy in the same run.

use rayon::prelude::*;

use super::grid::band_rows;

/// Bytes one step must move per cell at least: it reads terrain, depth and the four old flux
/// channels (6 × f32) and writes the new depth and flux (5 × f32).
pub const STEP_BYTES_PER_CELL: usize = 11 * 4;

/// Six source and five destination arrays of `cols * rows` f32, like one step's state.
#[derive(Debug, Clone)]
pub struct CopyProbe {
    cols: usize,
    src: [Vec<f32>; 6],
    dst: [Vec<f32>; 5],
}

impl CopyProbe {
    /// Arrays for a `cols × rows` grid (every page written once here, not during timing).
    pub fn new(cols: usize, rows: usize) -> Self {
        let n = cols * rows;
        let src = std::array::from_fn(|k| vec![k as f32 + 0.5; n]);
        let dst = std::array::from_fn(|_| vec![0.0; n]);
        Self {
            cols: cols.max(1),
            src,
            dst,
        }
    }

    /// Bytes [`run`](Self::run) moves: [`STEP_BYTES_PER_CELL`] per cell.
    pub fn bytes(&self) -> usize {
        self.src[0].len() * STEP_BYTES_PER_CELL
    }

    /// One copy in the step's bands of rows for the current rayon pool:
    /// `dst[0] = src[0] + src[1]` (terrain + depth) and `dst[1..5] = src[2..6]` (flux).
    pub fn run(&mut self) {
        let rows = self.src[0].len() / self.cols;
        let band = band_rows(rows, rayon::current_num_threads()) * self.cols;
        let [s0, s1, s2, s3, s4, s5] = &self.src;
        let [d0, d1, d2, d3, d4] = &mut self.dst;
        d0.par_chunks_mut(band)
            .zip(d1.par_chunks_mut(band))
            .zip(d2.par_chunks_mut(band))
            .zip(d3.par_chunks_mut(band))
            .zip(d4.par_chunks_mut(band))
            .enumerate()
            .for_each(|(i, ((((d0, d1), d2), d3), d4))| {
                let r = i * band..i * band + d0.len();
                for ((o, &a), &b) in d0.iter_mut().zip(&s0[r.clone()]).zip(&s1[r.clone()]) {
                    *o = a + b;
                }
                d1.copy_from_slice(&s2[r.clone()]);
                d2.copy_from_slice(&s3[r.clone()]);
                d3.copy_from_slice(&s4[r.clone()]);
                d4.copy_from_slice(&s5[r]);
            });
    }

    /// The destination arrays (for tests).
    pub fn destination(&self) -> &[Vec<f32>; 5] {
        &self.dst
    }
}
