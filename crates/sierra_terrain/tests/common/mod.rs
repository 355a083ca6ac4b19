//! Helpers shared by the water simulation tests (`water.rs` for the 4-pipe model,
//! `water_columns8.rs` for the thesis's 8-connection columns): the same grounds, initial
//! states and measures, so both models are held to the same checks.

use glam::Vec2;
use sierra_terrain::water::{Columns8Sim, InitialState, WaterParams, WaterSim};

/// Rolling ground with islands above 0.6 m: exercises wet and dry cells.
pub fn bumpy_terrain(p: &WaterParams) -> Vec<f32> {
    (0..p.cell_count())
        .map(|i| {
            let (x, y) = ((i % p.cols) as f32, (i / p.cols) as f32);
            0.5 + 0.4 * (x * 0.37).sin() * (y * 0.23).cos()
        })
        .collect()
}

/// A dam break: a disc of water 1.6 m high (surface) of `radius` m at `center` (metres from
/// the grid's corner) in a pool 0.7 m high.
pub fn dam(center: Vec2, radius: f32) -> InitialState {
    InitialState::Dam {
        low: 0.7,
        high: 1.6,
        center,
        radius,
    }
}

/// The smallest value (`+∞` for none): the shallowest column of a depth field.
pub fn min_value(values: &[f32]) -> f32 {
    values.iter().copied().fold(f32::INFINITY, f32::min)
}

/// The largest difference between the square `n`×`n` row-major field `d` and its images in
/// the square's symmetries (the mirror in x, the mirror in y, the main diagonal): 0 for a
/// field that keeps them.
pub fn worst_asymmetry(d: &[f32], n: usize) -> f32 {
    let at = |x: usize, y: usize| d[y * n + x];
    let mut worst = 0.0f32;
    for y in 0..n {
        for x in 0..n {
            let v = at(x, y);
            for m in [at(n - 1 - x, y), at(x, n - 1 - y), at(y, x)] {
                worst = worst.max((v - m).abs());
            }
        }
    }
    worst
}

/// The conservation scene: a 48×40 grid of 0.5 m cells over [`bumpy_terrain`], a [`dam`] of
/// radius 4 m at (8, 10) m. Returns the parameters, the terrain and the water depths.
pub fn dam_break_scene() -> (WaterParams, Vec<f32>, Vec<f32>) {
    let p = WaterParams::new(48, 40, 0.5);
    let terrain = bumpy_terrain(&p);
    let depth = dam(Vec2::new(8.0, 10.0), 4.0).depth(&p, &terrain).unwrap();
    (p, terrain, depth)
}

/// The lake at rest: a 40×40 grid of 1 m cells over [`bumpy_terrain`] under still water at
/// 0.6 m, so some cells are dry islands and the rest one flat lake (both asserted). Returns
/// the parameters, the terrain and the water depths.
pub fn lake_scene() -> (WaterParams, Vec<f32>, Vec<f32>) {
    let p = WaterParams::new(40, 40, 1.0);
    let terrain = bumpy_terrain(&p);
    let depth = InitialState::Still { level: 0.6 }
        .depth(&p, &terrain)
        .unwrap();
    assert!(depth.contains(&0.0) && depth.iter().any(|&d| d > 0.1));
    (p, terrain, depth)
}

/// A water model as the shared checks drive it.
pub trait Model {
    /// One step of `dt` seconds, which must be accepted.
    fn step_ok(&mut self, dt: f32);
    /// Water depth per cell, metres.
    fn depths(&self) -> &[f32];
    /// Water volume, m³.
    fn volume(&self) -> f64;
}

/// Implements [`Model`] for simulations with `step`, `depth` and `total_volume` methods.
macro_rules! impl_model {
    ($($sim:ty),*) => {$(
        impl Model for $sim {
            fn step_ok(&mut self, dt: f32) {
                self.step(dt).unwrap();
            }
            fn depths(&self) -> &[f32] {
                self.depth()
            }
            fn volume(&self) -> f64 {
                self.total_volume()
            }
        }
    )*};
}

impl_model!(WaterSim, Columns8Sim);

/// Steps `sim` `steps` times by `dt`; returns the relative change of its volume over the run
/// and the shallowest depth any cell had after any step.
pub fn run_tracking_volume(sim: &mut impl Model, dt: f32, steps: usize) -> (f64, f32) {
    let v0 = sim.volume();
    let mut lowest = f32::INFINITY;
    for _ in 0..steps {
        sim.step_ok(dt);
        lowest = lowest.min(min_value(sim.depths()));
    }
    ((sim.volume() - v0).abs() / v0, lowest)
}
