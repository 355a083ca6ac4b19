//! Behaviour of the thesis's 8-connection water columns (`water::columns8`): conservation,
//! a lake at rest, positivity on dry slopes, the thesis's initial condition, symmetry.

mod common;

use common::{dam_break_scene, lake_scene, min_value, run_tracking_volume, worst_asymmetry};
use glam::Vec2;
use sierra_terrain::water::{Columns8Sim, InitialState, WaterParams};
use sierra_testkit::diff::max_abs_diff;

#[test]
fn volume_is_conserved_over_10000_steps() {
    let (p, terrain, depth) = dam_break_scene();
    let mut sim = Columns8Sim::new(p, terrain, depth).unwrap();
    let dt = 0.9 * Columns8Sim::pipe_dt_limit(&p).min(p.cfl_dt_limit(1.6));
    let (rel, lowest) = run_tracking_volume(&mut sim, dt, 10_000);
    assert!(rel < 1e-5, "relative volume change {rel:e}");
    assert!(lowest >= 0.0, "negative depth {lowest}");
    assert!(sim.max_depth() < 1.5, "the dam spread: {}", sim.max_depth());
}

#[test]
fn lake_at_rest_stays_at_rest() {
    let (p, terrain, depth) = lake_scene();
    let start = depth.clone();
    let mut sim = Columns8Sim::new(p, terrain.clone(), depth).unwrap();
    for _ in 0..2_000 {
        sim.step(0.9 * sim.max_stable_dt()).unwrap();
    }
    let moved = max_abs_diff(sim.depth(), &start);
    assert!(moved < 1e-5, "a lake at rest moved by {moved} m");
    let flow = sim
        .flow()
        .iter()
        .flatten()
        .map(|q| q.abs())
        .fold(0.0, f32::max);
    assert!(flow < 1e-5, "flow {flow} m³/s in a lake at rest");
    // Negative control: the same lake tilted by a small step does move.
    let tilted: Vec<f32> = start
        .iter()
        .enumerate()
        .map(|(i, &d)| if d > 0.0 && i % 40 < 20 { d + 0.05 } else { d })
        .collect();
    let mut sim = Columns8Sim::new(p, terrain, tilted.clone()).unwrap();
    sim.step(0.9 * sim.max_stable_dt()).unwrap();
    let moved = max_abs_diff(sim.depth(), &tilted);
    assert!(moved > 1e-3, "a tilted lake must move: {moved}");
}

#[test]
fn the_thesis_bump_falls_and_never_goes_negative() {
    // The thesis's InitSim (Annex E.3) on its 256x256 grid: 40 sin(0.1 r) / (0.1 r) at
    // (32, 96) over a 10 m pool (the thesis's heights dip to -8.7 m; depth must stay >= 0).
    let p = WaterParams::new(256, 256, 1.0);
    let terrain = vec![0.0; p.cell_count()];
    let depth = InitialState::thesis(10.0).depth(&p, &terrain).unwrap();
    assert_eq!(
        depth[96 * 256 + 32],
        50.0,
        "the peak is 40 m above the 10 m rest level"
    );
    let mut sim = Columns8Sim::new(p, terrain, depth).unwrap();
    let v0 = sim.total_volume();
    for _ in 0..200 {
        sim.step(0.9 * sim.max_stable_dt()).unwrap();
    }
    assert!((sim.total_volume() - v0).abs() / v0 < 1e-5);
    assert!(min_value(sim.depth()) >= 0.0);
    assert!(sim.max_depth() < 45.0, "the bump fell: {}", sim.max_depth());
}

/// A centred bump keeps the square's symmetries: both mirrors and the diagonal (the diagonal
/// pipes carry as much as the axial ones, so the wave front is not a square).
#[test]
fn a_centred_bump_keeps_the_square_symmetries() {
    let n = 65;
    let p = WaterParams::new(n, n, 1.0);
    let terrain = vec![0.0; p.cell_count()];
    let depth = InitialState::Bump {
        level: 10.0,
        center: Vec2::splat(32.0),
        amplitude: 40.0,
        frequency: 0.1,
    }
    .depth(&p, &terrain)
    .unwrap();
    let start = depth.clone();
    let mut sim = Columns8Sim::new(p, terrain, depth).unwrap();
    for _ in 0..200 {
        sim.step(0.9 * sim.max_stable_dt()).unwrap();
    }
    let d = sim.depth();
    let worst = worst_asymmetry(d, n);
    assert!(worst < 1e-3, "asymmetry {worst} m");
    let moved = max_abs_diff(d, &start);
    assert!(moved > 1.0, "the water moved: {moved}");
}
