//! The thesis's water columns: every column connected to its 8 neighbours, 4 shared flows
//! stored per column (seed 002, Annex E.2.1, figure 49; the model of Zink, Pettineo & Hoxley,
//! "Practical Rendering and Computation with Direct3D 11", ch. 12, that the thesis follows).
//!
//! Each pipe between two columns is stored once, by the column above-left of it: column
//! `(col, row)` keeps the signed flows towards `(col+1, row)` (E), `(col+1, row+1)` (SE),
//! `(col, row+1)` (S) and `(col-1, row+1)` (SW), m³/s, positive from the column to the
//! neighbour ([`PIPES`]). Its other four pipes are the stored flows of its W, NW, N and NE
//! neighbours, read with the opposite sign. Because a pipe is one value, whatever leaves one
//! column enters the other: volume is conserved by construction (to f32 rounding).
//!
//! One step of `dt`, with `h = terrain + depth` (the three passes the GPU runs as three
//! dispatches, `sierra_render::compute::water8`):
//! ```text
//! 1. q'  = q * damp + dt * A * g * (h_i - h_j) / l        every stored pipe i -> j (E.1)
//! 2. K_i = min(1, d_i * cell² / (dt * sum of i's outgoing q' over its 8 pipes))
//! 3. q'' = q' * (K_i if q' > 0 else K_j)          (no column drains more than it holds)
//!    d_i' = max(0, d_i + dt * (sum of q'' into i - sum of q'' out of i) / cell² + rain * dt)
//! ```
//! Step 1 is the thesis's flow update (the same pipe constants for the diagonal pipes, as the
//! thesis's shader); step 3's volume change uses the new flow (symplectic Euler, as the
//! thesis's shader does: the trapezoid of E.1, `dt * (Q^t + Q^{t+dt}) / 2`, grows every mode
//! by `1 + (ω dt)² / 2` per step without damping). Step 2 is Mei's limiter applied per pipe,
//! so dry land stays dry rather than going negative (the thesis's flat pool never dries).
//!
//! Edges are closed (reflective walls): no pipe leaves the grid.
//!
//! Stability: the linearised heights follow `d'' = (A g / (l cell²)) L(h)` with `L` the
//! 9-point Laplacian of unit weights, whose largest eigenvalue magnitude is 12 (the mode that
//! alternates along one axis: 4 from the two axial neighbours, 8 from the four diagonal ones).
//! Symplectic Euler is stable while `ω dt <= 2`: `dt <= sqrt(l cell² / (3 A g))`
//! ([`Columns8Sim::pipe_dt_limit`], checked on both sides by a unit test), and the CFL bound.

use rayon::prelude::*;

use super::error::{Result, WaterError};
use super::grid::{check_rain, check_state, check_step};
use super::params::{Boundary, WaterParams};

/// The four stored pipes of a column, `(d_col, d_row)` to the neighbour: E, SE, S, SW.
pub const PIPES: [(isize, isize); 4] = [(1, 0), (1, 1), (0, 1), (-1, 1)];

/// Per-step constants (the GPU's `WaterUniforms` hold the same values).
#[derive(Debug, Clone, Copy)]
struct Consts {
    cols: usize,
    rows: usize,
    gravity_coef: f32,
    damp: f32,
    dt: f32,
    cell_area: f32,
    dt_over_area: f32,
    rain_dt: f32,
}

impl Consts {
    /// Row-major index of the neighbour of `(x, y)` through pipe offset `(dx, dy)`, if inside.
    #[inline(always)]
    fn neighbour(&self, x: usize, y: usize, (dx, dy): (isize, isize)) -> Option<usize> {
        let nx = x.checked_add_signed(dx)?;
        let ny = y.checked_add_signed(dy)?;
        (nx < self.cols && ny < self.rows).then_some(ny * self.cols + nx)
    }
}

/// Water columns with 8 connections each over a terrain height field, on the CPU: the
/// reference of the GPU kernel `sierra_render::compute::water8` (see the module docs for the
/// update and its sources).
///
/// Shares [`WaterParams`] with [`super::WaterSim`] (Mei's 4 pipes); `boundary` must be
/// [`Boundary::Closed`].
#[derive(Debug, Clone)]
pub struct Columns8Sim {
    params: WaterParams,
    terrain: Vec<f32>,
    depth: [Vec<f32>; 2],
    current: usize,
    /// Limited flows of the last step, `[rows * cols]` of (E, SE, S, SW), m³/s.
    flow: Vec<[f32; 4]>,
    /// Unlimited flows of this step (pass 1).
    raw: Vec<[f32; 4]>,
    /// Limiter of each column (pass 2).
    limit: Vec<f32>,
    max_depth: f32,
    rain_rate: f32,
    steps: u64,
    time: f64,
}

impl Columns8Sim {
    /// Builds a simulation with zero flow.
    ///
    /// `terrain`: ground height, metres, `[rows * cols]` row-major; `depth`: water depth above
    /// it, metres, same layout.
    ///
    /// # Errors
    /// As [`super::WaterSim::new`], and [`WaterError::Parameter`] for open edges (the
    /// 8-connection model has closed edges only).
    pub fn new(params: WaterParams, terrain: Vec<f32>, depth: Vec<f32>) -> Result<Self> {
        params.validate()?;
        if params.boundary != Boundary::Closed {
            return Err(WaterError::Parameter {
                name: "boundary",
                value: 1.0,
                reason: "the 8-connection columns have closed edges only",
            });
        }
        check_state(&params, &terrain, &depth)?;
        let n = params.cell_count();
        Ok(Self {
            max_depth: depth.iter().copied().fold(0.0, f32::max),
            terrain,
            depth: [depth, vec![0.0; n]],
            current: 0,
            flow: vec![[0.0; 4]; n],
            raw: vec![[0.0; 4]; n],
            limit: vec![1.0; n],
            rain_rate: 0.0,
            steps: 0,
            time: 0.0,
            params,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &WaterParams {
        &self.params
    }

    /// Ground height, metres, `[rows * cols]`.
    pub fn terrain(&self) -> &[f32] {
        &self.terrain
    }

    /// Current water depth, metres, `[rows * cols]`.
    pub fn depth(&self) -> &[f32] {
        &self.depth[self.current]
    }

    /// Flows of the last step, `[rows * cols]` of (E, SE, S, SW) ([`PIPES`]), m³/s, positive
    /// away from the column.
    pub fn flow(&self) -> &[[f32; 4]] {
        &self.flow
    }

    /// Total water volume, m³ (summed in f64).
    pub fn total_volume(&self) -> f64 {
        let a = f64::from(self.params.cell_size).powi(2);
        self.depth().iter().map(|&d| f64::from(d)).sum::<f64>() * a
    }

    /// Largest depth after the last step, metres.
    pub fn max_depth(&self) -> f32 {
        self.max_depth
    }

    /// Steps taken.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Simulated time, seconds.
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Uniform rain, metres of water per second (>= 0).
    ///
    /// # Errors
    /// [`WaterError::Parameter`] for a negative or non-finite rate.
    pub fn set_rain(&mut self, rate: f32) -> Result<()> {
        self.rain_rate = check_rain(rate)?;
        Ok(())
    }

    /// Largest step the 8-pipe flow update allows, seconds: `sqrt(l cell² / (3 A g))`
    /// (module docs).
    pub fn pipe_dt_limit(params: &WaterParams) -> f32 {
        let p = params;
        (p.pipe_length * p.cell_size * p.cell_size / (3.0 * p.pipe_area * p.gravity)).sqrt()
    }

    /// The stable limit for the current state, seconds: [`Self::pipe_dt_limit`] and the CFL
    /// bound at the current max depth, whichever is smaller.
    pub fn max_stable_dt(&self) -> f32 {
        Self::pipe_dt_limit(&self.params).min(self.params.cfl_dt_limit(self.max_depth))
    }

    /// One step of `dt` seconds.
    ///
    /// # Errors
    /// [`WaterError::TimeStep`] for a non-positive or NaN step,
    /// [`WaterError::TimeStepTooLarge`] above [`Self::max_stable_dt`] (nothing changes then).
    pub fn step(&mut self, dt: f32) -> Result<()> {
        check_step(dt, self.max_stable_dt())?;
        self.step_unchecked(dt);
        Ok(())
    }

    fn step_unchecked(&mut self, dt: f32) {
        let p = self.params;
        let area = p.cell_size * p.cell_size;
        let c = Consts {
            cols: p.cols,
            rows: p.rows,
            gravity_coef: dt * p.pipe_area * p.gravity / p.pipe_length,
            damp: (1.0 - p.damping * dt).max(0.0),
            dt,
            cell_area: area,
            dt_over_area: dt / area,
            rain_dt: self.rain_rate * dt,
        };
        let (old, new) = {
            let [a, b] = &mut self.depth;
            if self.current == 0 {
                (&*a, b)
            } else {
                (&*b, a)
            }
        };
        flow_pass(&c, &self.terrain, old, &self.flow, &mut self.raw);
        limit_pass(&c, old, &self.raw, &mut self.limit);
        depth_pass(&c, old, &self.raw, &self.limit, &mut self.flow, new);
        self.max_depth = new.par_iter().copied().reduce(|| 0.0, f32::max);
        self.current = 1 - self.current;
        self.steps += 1;
        self.time += f64::from(dt);
    }
}

/// Pass 1: the unlimited flow of every stored pipe from the old heights and old flow.
fn flow_pass(c: &Consts, terrain: &[f32], depth: &[f32], flow: &[[f32; 4]], raw: &mut [[f32; 4]]) {
    raw.par_chunks_mut(c.cols).enumerate().for_each(|(y, row)| {
        for (x, out) in row.iter_mut().enumerate() {
            let i = y * c.cols + x;
            let h = terrain[i] + depth[i];
            for (k, &offset) in PIPES.iter().enumerate() {
                out[k] = match c.neighbour(x, y, offset) {
                    Some(j) => flow[i][k] * c.damp + c.gravity_coef * (h - (terrain[j] + depth[j])),
                    None => 0.0,
                };
            }
        }
    });
}

/// `max(v, 0)`.
#[inline(always)]
fn pos(v: f32) -> f32 {
    if v > 0.0 {
        v
    } else {
        0.0
    }
}

/// The stored pipes of the neighbours that point at `(x, y)`: `(index of the neighbour, pipe)`
/// for pipe `k` stored at `(x, y) - PIPES[k]` (W's E, NW's SE, N's S, NE's SW).
#[inline(always)]
fn incoming(c: &Consts, x: usize, y: usize, k: usize) -> Option<usize> {
    let (dx, dy) = PIPES[k];
    c.neighbour(x, y, (-dx, -dy))
}

/// Pass 2: each column's limiter K (Mei eq. 3 over its 8 pipes).
fn limit_pass(c: &Consts, depth: &[f32], raw: &[[f32; 4]], limit: &mut [f32]) {
    limit
        .par_chunks_mut(c.cols)
        .enumerate()
        .for_each(|(y, row)| {
            for (x, k_out) in row.iter_mut().enumerate() {
                let i = y * c.cols + x;
                let own = raw[i];
                let own_out = ((pos(own[0]) + pos(own[1])) + pos(own[2])) + pos(own[3]);
                // Then the incoming pipes in order (the GPU adds them in the same order).
                let out = (0..4).fold(own_out, |acc, k| match incoming(c, x, y, k) {
                    Some(j) => acc + pos(-raw[j][k]),
                    None => acc,
                });
                let out_volume = out * c.dt;
                let held = depth[i] * c.cell_area;
                *k_out = if out_volume > held {
                    held / out_volume
                } else {
                    1.0
                };
            }
        });
}

/// The limited flow of a pipe from `from` (limiter `k_from`) to a neighbour (`k_to`).
#[inline(always)]
fn limited(q: f32, k_from: f32, k_to: f32) -> f32 {
    q * if q > 0.0 { k_from } else { k_to }
}

/// Pass 3: limited flows (stored for the next step) and the new depths.
fn depth_pass(
    c: &Consts,
    depth: &[f32],
    raw: &[[f32; 4]],
    limit: &[f32],
    flow: &mut [[f32; 4]],
    new_depth: &mut [f32],
) {
    flow.par_chunks_mut(c.cols)
        .zip(new_depth.par_chunks_mut(c.cols))
        .enumerate()
        .for_each(|(y, (flow_row, depth_row))| {
            for x in 0..c.cols {
                let i = y * c.cols + x;
                let mut own = [0.0f32; 4];
                let mut inflow = [0.0f32; 4];
                for k in 0..4 {
                    if let Some(j) = c.neighbour(x, y, PIPES[k]) {
                        own[k] = limited(raw[i][k], limit[i], limit[j]);
                    }
                    if let Some(j) = incoming(c, x, y, k) {
                        inflow[k] = limited(raw[j][k], limit[j], limit[i]);
                    }
                }
                flow_row[x] = own;
                depth_row[x] = new_column_depth(depth[i], own, inflow, c);
            }
        });
}

/// `d + (sum in - sum out) * dt / cell² + rain`, summed in the order the GPU repeats.
#[inline(always)]
fn new_column_depth(d: f32, own: [f32; 4], inflow: [f32; 4], c: &Consts) -> f32 {
    let outflow = ((own[0] + own[1]) + own[2]) + own[3];
    let inflow = ((inflow[0] + inflow[1]) + inflow[2]) + inflow[3];
    pos(d + (inflow - outflow) * c.dt_over_area + c.rain_dt)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Largest deviation from the 1 m rest depth after 400 unchecked steps of
    /// `factor * pipe_dt_limit`, started from the stiffest mode (alternating columns).
    fn stripes_spread(factor: f32) -> f32 {
        let p = WaterParams::new(16, 16, 1.0);
        let depth = (0..256)
            .map(|i| 1.0 + if i % 2 == 0 { 0.01 } else { -0.01 })
            .collect();
        let mut sim = Columns8Sim::new(p, vec![0.0; 256], depth).unwrap();
        for _ in 0..400 {
            sim.step_unchecked(factor * Columns8Sim::pipe_dt_limit(&p));
        }
        sim.depth()
            .iter()
            .map(|d| (d - 1.0).abs())
            .fold(0.0, f32::max)
    }

    #[test]
    fn the_8_pipe_bound_is_where_the_update_turns_unstable() {
        let below = stripes_spread(0.97);
        let above = stripes_spread(1.05);
        // Symplectic Euler near its limit swings wider than the start (0.01) but stays bounded.
        assert!(below < 0.1, "bounded below the limit: {below}");
        assert!(above > 0.5, "grows above the limit: {above}");
    }

    #[test]
    fn a_pipe_carries_water_both_ways_and_diagonals_count() {
        // One full column in a dry 3x3 basin: after one step every neighbour, diagonal ones
        // included, received water, and the centre lost what they gained.
        let p = WaterParams::new(3, 3, 1.0);
        let mut depth = vec![0.0; 9];
        depth[4] = 1.0;
        let mut sim = Columns8Sim::new(p, vec![0.0; 9], depth).unwrap();
        sim.step(0.05).unwrap();
        let d = sim.depth();
        for (i, &v) in d.iter().enumerate() {
            if i != 4 {
                assert!(v > 0.0, "neighbour {i} got water: {d:?}");
            }
        }
        assert!(
            (d[0] - d[8]).abs() < 1e-7 && (d[1] - d[3]).abs() < 1e-7,
            "{d:?}"
        );
        assert!((sim.total_volume() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn open_edges_are_refused() {
        let mut p = WaterParams::new(4, 4, 1.0);
        p.boundary = Boundary::Open;
        let e = Columns8Sim::new(p, vec![0.0; 16], vec![1.0; 16]).unwrap_err();
        assert!(e.to_string().contains("closed edges only"), "{e}");
    }
}
