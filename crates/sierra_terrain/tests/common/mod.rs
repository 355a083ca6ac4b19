//! Helpers shared by the water simulation tests (`water.rs` for the 4-pipe model,
//! `water_columns8.rs` for the thesis's 8-connection columns): the same grounds, initial
//! states and measures, so both models are held to the same checks.

use glam::Vec2;
use sierra_terrain::water::{InitialState, WaterParams};

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
