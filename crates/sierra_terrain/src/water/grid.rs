//! The simulation state: terrain, two depth buffers and two flux buffers swapped each step.

use glam::Vec2;
use rayon::prelude::*;

use super::error::{Result, WaterError};
use super::params::WaterParams;
use super::pipes::{step_band, BandScratch, BandStats, FluxRef, StepConsts};
use super::sources::{drop_bump, WaterSource};
use crate::simd::SimdPath;

/// Outflow flux of every cell through its four pipes, m³/s, each `[rows * cols]` row-major.
#[derive(Debug, Clone, PartialEq)]
pub struct Flux {
    /// Towards `col - 1` (-X).
    pub left: Vec<f32>,
    /// Towards `col + 1` (+X).
    pub right: Vec<f32>,
    /// Towards `row - 1` (-Z).
    pub top: Vec<f32>,
    /// Towards `row + 1` (+Z).
    pub bottom: Vec<f32>,
}

impl Flux {
    fn zeros(n: usize) -> Self {
        Self {
            left: vec![0.0; n],
            right: vec![0.0; n],
            top: vec![0.0; n],
            bottom: vec![0.0; n],
        }
    }

    fn as_ref(&self) -> FluxRef<'_> {
        FluxRef {
            left: &self.left,
            right: &self.right,
            top: &self.top,
            bottom: &self.bottom,
        }
    }
}

/// Water columns over a terrain height field, simulated with virtual pipes on the CPU
/// (see [`super::pipes`] for the update and its sources). The reference for the GPU pass.
///
/// The state is double-buffered as in the thesis (seed 002, Annex E): each step reads
/// depth/flux buffer `i` and writes buffer `1 - i`, then swaps. Keeping the previous depth
/// gives the average depth Mei's velocity field needs.
#[derive(Debug, Clone)]
pub struct WaterSim {
    params: WaterParams,
    terrain: Vec<f32>,
    depth: [Vec<f32>; 2],
    flux: [Flux; 2],
    current: usize,
    /// One per band (a few bands per thread of the pool that runs the step).
    scratch: Vec<BandScratch>,
    /// Volume that left through open edges in the last step, m³, per row.
    row_outflow: Vec<f64>,
    max_depth: f32,
    rain_rate: f32,
    pub(super) sources: Vec<WaterSource>,
    time: f64,
    steps: u64,
    volume_added: f64,
    volume_removed: f64,
    /// The compiled band loop the steps run ([`SimdPath::detect`]).
    kernel: SimdPath,
}

impl WaterSim {
    /// Builds a simulation with zero flux.
    ///
    /// `terrain`: ground height, metres (world Y), `[rows * cols]` row-major;
    /// `depth`: initial water depth above the ground, metres, same layout.
    ///
    /// # Errors
    /// Invalid parameters ([`WaterParams::validate`]), arrays of the wrong length, NaN or
    /// infinite heights, negative depths.
    pub fn new(params: WaterParams, terrain: Vec<f32>, depth: Vec<f32>) -> Result<Self> {
        check_state(&params, &terrain, &depth)?;
        let n = params.cell_count();
        let max_depth = depth.iter().copied().fold(0.0, f32::max);
        Ok(Self {
            terrain,
            depth: [depth, vec![0.0; n]],
            flux: [Flux::zeros(n), Flux::zeros(n)],
            current: 0,
            scratch: Vec::new(),
            row_outflow: vec![0.0; params.rows],
            max_depth,
            rain_rate: 0.0,
            sources: Vec::new(),
            time: 0.0,
            steps: 0,
            volume_added: 0.0,
            volume_removed: 0.0,
            kernel: SimdPath::detect(),
            params,
        })
    }

    /// A flat sea floor at height 0 covered by `depth` (see [`Self::new`]).
    ///
    /// # Errors
    /// As [`Self::new`].
    pub fn flat(params: WaterParams, depth: Vec<f32>) -> Result<Self> {
        params.validate()?;
        Self::new(params, vec![0.0; params.cell_count()], depth)
    }

    /// The parameters.
    pub fn params(&self) -> &WaterParams {
        &self.params
    }

    /// The compiled band loop the steps run (AVX-512, AVX2 or portable, chosen at run time).
    pub fn kernel(&self) -> SimdPath {
        self.kernel
    }

    /// Ground height, metres, `[rows * cols]`.
    pub fn terrain(&self) -> &[f32] {
        &self.terrain
    }

    /// Current water depth, metres, `[rows * cols]`.
    pub fn depth(&self) -> &[f32] {
        &self.depth[self.current]
    }

    /// Depth before the last step, metres (equal to [`Self::depth`] before the first step).
    pub fn previous_depth(&self) -> &[f32] {
        if self.steps == 0 {
            self.depth()
        } else {
            &self.depth[1 - self.current]
        }
    }

    /// Current outflow flux.
    pub fn flux(&self) -> &Flux {
        &self.flux[self.current]
    }

    /// Water surface height `terrain + depth`, metres, written into `out` (`[rows * cols]`).
    pub fn surface_height(&self, out: &mut [f32]) {
        for ((o, &b), &d) in out.iter_mut().zip(&self.terrain).zip(self.depth()) {
            *o = b + d;
        }
    }

    /// Total water volume, m³ (summed in f64).
    pub fn total_volume(&self) -> f64 {
        let a = f64::from(self.params.cell_size).powi(2);
        self.depth().par_iter().map(|&d| f64::from(d)).sum::<f64>() * a
    }

    /// Largest depth after the last step, metres.
    pub fn max_depth(&self) -> f32 {
        self.max_depth
    }

    /// Simulated time, seconds.
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Steps taken.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Volume added by rain, sources and drops since creation, m³.
    pub fn volume_added(&self) -> f64 {
        self.volume_added
    }

    /// Volume removed by sinks and open edges since creation, m³.
    pub fn volume_removed(&self) -> f64 {
        self.volume_removed
    }

    /// Largest stable step for the current state, seconds
    /// ([`WaterParams::max_stable_dt`] at the current max depth).
    pub fn max_stable_dt(&self) -> f32 {
        self.params.max_stable_dt(self.max_depth)
    }

    /// Uniform rain, metres of water per second (>= 0).
    ///
    /// # Errors
    /// [`WaterError::Parameter`] for a negative or non-finite rate.
    pub fn set_rain(&mut self, rate: f32) -> Result<()> {
        self.rain_rate = check_rain(rate)?;
        Ok(())
    }

    /// One step of `dt` seconds.
    ///
    /// # Errors
    /// [`WaterError::TimeStep`] for a non-positive or NaN step, [`WaterError::TimeStepTooLarge`]
    /// above [`Self::max_stable_dt`] (nothing is changed then).
    pub fn step(&mut self, dt: f32) -> Result<()> {
        check_step(dt, self.max_stable_dt())?;
        self.step_unchecked(dt);
        Ok(())
    }

    /// Advances by `duration` seconds in equal sub-steps no larger than the stable limit
    /// (re-evaluated as the water moves). Returns the number of sub-steps.
    ///
    /// # Errors
    /// [`WaterError::TimeStep`] for a non-positive or NaN duration.
    pub fn advance(&mut self, duration: f32) -> Result<u32> {
        if !(duration > 0.0 && duration.is_finite()) {
            return Err(WaterError::TimeStep(duration));
        }
        let mut remaining = duration;
        let mut count = 0;
        while remaining > duration * 1e-6 {
            let substeps = (remaining / self.max_stable_dt()).ceil().max(1.0);
            let dt = remaining / substeps;
            self.step_unchecked(dt);
            remaining -= dt;
            count += 1;
        }
        Ok(count)
    }

    fn step_unchecked(&mut self, dt: f32) {
        let p = self.params;
        let c = StepConsts {
            cols: p.cols,
            rows: p.rows,
            gravity_coef: dt * p.pipe_area * p.gravity / p.pipe_length,
            damp: (1.0 - p.damping * dt).max(0.0),
            dt,
            cell_area: p.cell_size * p.cell_size,
            dt_over_area: dt / (p.cell_size * p.cell_size),
            rain_dt: self.rain_rate * dt,
            boundary: p.boundary,
            kernel: self.kernel,
        };
        let (d_old, d_new) = pair(&mut self.depth, self.current);
        let (f_old, f_new) = pair(&mut self.flux, self.current);
        let old = f_old.as_ref();
        let terrain = &self.terrain[..];
        // Contiguous bands of rows, a few per thread (see `band_rows`).
        let band_rows = band_rows(p.rows, rayon::current_num_threads());
        let bands = p.rows.div_ceil(band_rows);
        if self.scratch.len() != bands {
            self.scratch = vec![BandScratch::new(p.cols); bands];
        }
        let band = band_rows * p.cols;
        let stats = d_new
            .par_chunks_mut(band)
            .zip(f_new.left.par_chunks_mut(band))
            .zip(f_new.right.par_chunks_mut(band))
            .zip(f_new.top.par_chunks_mut(band))
            .zip(f_new.bottom.par_chunks_mut(band))
            .zip(self.scratch.par_iter_mut())
            .zip(self.row_outflow.par_chunks_mut(band_rows))
            .enumerate()
            .map(|(i, ((((((dn, l), r), t), b), s), out))| {
                step_band(
                    &c,
                    terrain,
                    d_old,
                    old,
                    i * band_rows,
                    dn,
                    [l, r, t, b],
                    s,
                    out,
                )
            })
            .reduce(BandStats::default, BandStats::merge);
        self.current = 1 - self.current;
        self.max_depth = stats.max_depth;
        // Summed in row order: the same bits for any number of threads.
        self.volume_removed += self.row_outflow.iter().sum::<f64>();
        self.volume_added += f64::from(c.rain_dt) * f64::from(c.cell_area) * p.cell_count() as f64;
        self.apply_sources(dt);
        self.time += f64::from(dt);
        self.steps += 1;
    }

    /// Applies every source and sink for `dt` seconds (after the pipe update).
    fn apply_sources(&mut self, dt: f32) {
        let area = self.params.cell_size * self.params.cell_size;
        let depth = &mut self.depth[self.current];
        for s in &self.sources {
            let (added, removed, max) = s.apply(depth, area, dt);
            self.volume_added += added;
            self.volume_removed += removed;
            self.max_depth = self.max_depth.max(max);
        }
    }

    /// Adds a constant source (`rate > 0`) or sink (`rate < 0`), m³/s, over a disc.
    ///
    /// # Errors
    /// [`WaterError::Parameter`](super::error::WaterError::Parameter) for a non-finite centre
    /// or rate, a non-positive radius or a centre outside the grid.
    pub fn add_source(&mut self, center: Vec2, radius: f32, rate: f32) -> Result<()> {
        let source = WaterSource::new(&self.params, center, radius, rate)?;
        self.sources.push(source);
        Ok(())
    }

    /// Removes every source and sink.
    pub fn clear_sources(&mut self) {
        self.sources.clear();
    }

    /// Drops water: a raised-cosine bump `amplitude * (1 + cos(pi * r / radius)) / 2` metres
    /// added around `center` (grid metres), as a bird dropping into the sea or the thesis's
    /// initial disturbance. The volume is counted in [`WaterSim::volume_added`].
    ///
    /// # Errors
    /// [`WaterError::Parameter`](super::error::WaterError::Parameter) for a non-finite centre,
    /// a non-positive radius, a negative or non-finite amplitude, or a centre outside the grid.
    pub fn add_drop(&mut self, center: Vec2, radius: f32, amplitude: f32) -> Result<()> {
        let cells = drop_bump(&self.params, center, radius, amplitude)?;
        self.add_depth(cells.into_iter());
        Ok(())
    }

    /// Adds `amount` metres of water to the cells in `cells` (a drop), keeping the books.
    fn add_depth(&mut self, cells: impl Iterator<Item = (usize, f32)>) {
        let area = f64::from(self.params.cell_size).powi(2);
        let depth = &mut self.depth[self.current];
        let mut added = 0.0;
        for (i, amount) in cells {
            depth[i] += amount;
            added += f64::from(amount) * area;
            self.max_depth = self.max_depth.max(depth[i]);
        }
        self.volume_added += added;
    }

    /// Mei's velocity field (§3.2), m/s, written into `out` (`[rows * cols]`, `x` along +X,
    /// `y` along +Z): `u = (f_R(x-1) - f_L(x) + f_R(x) - f_L(x+1)) / (2 * cell * d_avg)` with
    /// `d_avg` the mean of the depths before and after the last step; 0 where
    /// `d_avg < 1e-4` m (dry cells have no meaningful velocity).
    pub fn velocity_field(&self, out: &mut [Vec2]) {
        let (cols, rows) = (self.params.cols, self.params.rows);
        let f = self.flux();
        let (d, d_prev) = (self.depth(), self.previous_depth());
        let cell = self.params.cell_size;
        out.par_chunks_mut(cols).enumerate().for_each(|(y, row)| {
            for (x, v) in row.iter_mut().enumerate() {
                let i = y * cols + x;
                let from_left = if x > 0 { f.right[i - 1] } else { 0.0 };
                let from_right = if x + 1 < cols { f.left[i + 1] } else { 0.0 };
                let from_top = if y > 0 { f.bottom[i - cols] } else { 0.0 };
                let from_bottom = if y + 1 < rows { f.top[i + cols] } else { 0.0 };
                let wx = 0.5 * (from_left - f.left[i] + f.right[i] - from_right);
                let wz = 0.5 * (from_top - f.top[i] + f.bottom[i] - from_bottom);
                let d_avg = 0.5 * (d[i] + d_prev[i]);
                *v = if d_avg < 1e-4 {
                    Vec2::ZERO
                } else {
                    Vec2::new(wx, wz) / (cell * d_avg)
                };
            }
        });
    }
}

/// Bands per thread: a few, so that when one thread is held up (another process on its core)
/// the others take over its remaining bands (rayon work stealing) instead of waiting for it.
/// Each band still streams its own contiguous rows; the halo costs two flux rows per band.
const BANDS_PER_THREAD: usize = 4;

/// Fewest rows in a band (below it the halo rows would be a large share of the work).
const MIN_BAND_ROWS: usize = 32;

/// Rows per band for `threads` threads: contiguous, as equal as possible, the same number
/// of bands for every thread, up to [`BANDS_PER_THREAD`] each while bands keep at least
/// [`MIN_BAND_ROWS`] rows (one band per thread below that).
pub(crate) fn band_rows(rows: usize, threads: usize) -> usize {
    let threads = threads.clamp(1, rows.max(1));
    let per_thread = rows.div_ceil(threads);
    let per_thread_bands = (rows / MIN_BAND_ROWS / threads).clamp(1, BANDS_PER_THREAD);
    rows.div_ceil(threads * per_thread_bands)
        .min(per_thread)
        .max(1)
}

fn pair<T>(buffers: &mut [T; 2], current: usize) -> (&T, &mut T) {
    let [a, b] = buffers;
    if current == 0 {
        (a, b)
    } else {
        (b, a)
    }
}

/// Parameters, field lengths and values, and non-negative depths of an initial state.
pub(super) fn check_state(params: &WaterParams, terrain: &[f32], depth: &[f32]) -> Result<()> {
    params.validate()?;
    check_field(params, "terrain", terrain)?;
    check_field(params, "depth", depth)?;
    if let Some(i) = depth.iter().position(|&d| d < 0.0) {
        return Err(WaterError::NegativeDepth {
            index: i,
            col: i % params.cols,
            row: i / params.cols,
            value: depth[i],
        });
    }
    Ok(())
}

/// A rain rate, m/s, if finite and >= 0.
pub(super) fn check_rain(rate: f32) -> Result<f32> {
    if !(rate >= 0.0 && rate.is_finite()) {
        return Err(WaterError::Parameter {
            name: "rain",
            value: rate,
            reason: "must be finite and >= 0 (m/s)",
        });
    }
    Ok(rate)
}

/// A time step `dt`, seconds, if positive, finite and at most `max_dt`.
pub(super) fn check_step(dt: f32, max_dt: f32) -> Result<()> {
    if !(dt > 0.0 && dt.is_finite()) {
        return Err(WaterError::TimeStep(dt));
    }
    if dt > max_dt {
        return Err(WaterError::TimeStepTooLarge { dt, max_dt });
    }
    Ok(())
}

pub(super) fn check_field(p: &WaterParams, what: &'static str, values: &[f32]) -> Result<()> {
    if values.len() != p.cell_count() {
        return Err(WaterError::Length {
            what,
            expected: p.cell_count(),
            found: values.len(),
        });
    }
    if let Some(i) = values.iter().position(|v| !v.is_finite()) {
        return Err(WaterError::NonFinite {
            what,
            index: i,
            col: i % p.cols,
            row: i / p.cols,
            value: values[i],
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_cover_the_rows_a_few_per_thread() {
        // (rows, threads) -> rows per band.
        for (rows, threads, want) in [
            (2048, 2, 256), // 8 bands: 4 per thread
            (1024, 2, 128), // 8 bands
            (100, 2, 50),   // as many bands for each thread
            (29, 2, 15),    // under 32 rows a thread: one band per thread
            (29, 1, 29),
            (3, 8, 1), // more threads than rows
            (1, 1, 1),
        ] {
            let band = band_rows(rows, threads);
            assert_eq!(band, want, "{rows} rows, {threads} threads");
            assert!(rows.div_ceil(band) >= threads.min(rows));
        }
    }

    /// Largest deviation from the mean depth 1 m after 400 unchecked steps of
    /// `factor * pipe_dt_limit` from a checkerboard disturbance (the fastest mode).
    fn checkerboard_spread(factor: f32) -> f32 {
        let p = WaterParams::new(16, 16, 1.0);
        let depth = (0..256)
            .map(|i| {
                1.0 + if (i % 16 + i / 16) % 2 == 0 {
                    0.01
                } else {
                    -0.01
                }
            })
            .collect();
        let mut sim = WaterSim::flat(p, depth).unwrap();
        for _ in 0..400 {
            sim.step_unchecked(factor * p.pipe_dt_limit());
        }
        sim.depth()
            .iter()
            .map(|d| (d - 1.0).abs())
            .fold(0.0, f32::max)
    }

    /// Every band-loop kernel this CPU runs against the portable one, bit for bit, on a dam
    /// break with rain and open edges over a sloped bed (31 columns: partial vectors).
    #[test]
    fn every_step_kernel_gives_the_same_bits() {
        let run = |kernel: SimdPath| {
            let mut p = WaterParams::new(31, 23, 1.0);
            p.boundary = super::super::params::Boundary::Open;
            let terrain: Vec<f32> = (0..31 * 23).map(|i| (i % 31) as f32 * 0.02).collect();
            let depth = (0..31 * 23)
                .map(|i| if i % 31 < 9 { 1.5 } else { 0.3 })
                .collect();
            let mut sim = WaterSim::new(p, terrain, depth).unwrap();
            sim.kernel = kernel;
            sim.set_rain(0.01).unwrap();
            for _ in 0..50 {
                sim.step(0.9 * sim.max_stable_dt()).unwrap();
            }
            let f = sim.flux();
            let bits: Vec<u32> = [sim.depth(), &f.left, &f.right, &f.top, &f.bottom]
                .iter()
                .flat_map(|c| c.iter().map(|v| v.to_bits()))
                .collect();
            (bits, sim.volume_removed().to_bits())
        };
        let kernels = SimdPath::compared();
        let want = run(SimdPath::Portable);
        // Water moved and left through the open edges: equal bits are not vacuous.
        assert!(f64::from_bits(want.1) > 0.0);
        for &k in &kernels[1..] {
            assert!(run(k) == want, "{k:?} differs from the portable kernel");
        }
    }

    /// The step's running maximum depth (which sets the stable time step) is the largest new
    /// depth, wherever the peak lies: first or last column, inside a 16-cell chunk of the
    /// vectorised row, or in the remainder after the chunks (37 columns: 35 interior cells).
    #[test]
    fn the_step_tracks_the_largest_depth() {
        for peak in [0usize, 5, 17, 33, 35, 36, 3 * 37 + 20] {
            let p = WaterParams::new(37, 5, 1.0);
            let mut depth = vec![0.5f32; 37 * 5];
            depth[peak] = 2.0 + peak as f32 * 1e-3;
            let mut sim = WaterSim::flat(p, depth).unwrap();
            for kernel in SimdPath::compared() {
                sim.kernel = kernel;
                sim.step(0.1 * sim.max_stable_dt()).unwrap();
                let want = sim.depth().iter().fold(0.0f32, |m, &d| m.max(d));
                assert_eq!(sim.max_depth.to_bits(), want.to_bits(), "{kernel:?} {peak}");
            }
        }
    }

    #[test]
    fn the_pipe_bound_is_where_the_update_turns_unstable() {
        let below = checkerboard_spread(0.97);
        let above = checkerboard_spread(1.1);
        assert!(below <= 0.0101, "bounded below the limit: {below}");
        assert!(above > 0.5, "grows above the limit: {above}");
    }
}
