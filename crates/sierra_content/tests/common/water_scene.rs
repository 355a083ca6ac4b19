//! The water scene the GPU water tests (`water_gpu.rs`, `water8_gpu.rs`) compare against the
//! CPU reference: one state in for both, so each GPU model is held to the same start.

use glam::Vec2;
use sierra_terrain::water::{Boundary, InitialState, WaterParams};

/// Ground with dry islands under a bump of water, on a 70×45 grid of 0.5 m cells (sides that
/// are not multiples of 16: partial workgroups), damping 0.05, edges as `boundary` says.
/// Returns the parameters, the terrain heights and the water depths, row-major.
pub fn scene(boundary: Boundary) -> (WaterParams, Vec<f32>, Vec<f32>) {
    let mut p = WaterParams::new(70, 45, 0.5);
    p.boundary = boundary;
    p.damping = 0.05;
    let terrain: Vec<f32> = (0..p.cell_count())
        .map(|i| {
            let (x, y) = ((i % p.cols) as f32, (i / p.cols) as f32);
            0.5 + 0.4 * (x * 0.31).sin() * (y * 0.27).cos()
        })
        .collect();
    let depth = InitialState::Bump {
        level: 0.7,
        center: Vec2::new(20.0, 30.0),
        amplitude: 0.6,
        frequency: 0.4,
    }
    .depth(&p, &terrain)
    .unwrap();
    (p, terrain, depth)
}
