//! Noise timings robust to a shared machine: each figure is the fastest of several runs
//! (preempted runs only get slower), on the workloads of the C baseline `perlin_tbl.c`
//! ([`sierra_terrain::noise::workloads`]); `sierra bench noise` runs that C program in the same
//! invocation and prints the ratios. `cargo run --release -p sierra_terrain --example noise_speed
//! [RUNS] [grid|heightmap]` (both workloads unless one is named, e.g. for `perf stat`).
use sierra_terrain::noise::grid::SimdPath;
use sierra_terrain::noise::workloads::{
    perlin_tbl_grid, perlin_tbl_heightmap, GRID_SIDE, HEIGHTMAP_SIDE,
};
use sierra_terrain::noise::Permutation;
use std::time::Instant;

fn fastest_ns(runs: usize, mut f: impl FnMut()) -> f64 {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e9
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let perm = Permutation::reference();
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10);
    let only = std::env::args().nth(2).unwrap_or_default();
    let mut grid = vec![0f32; GRID_SIDE.pow(3)];
    let grid_ns = match only.as_str() {
        "heightmap" => f64::NAN,
        _ => fastest_ns(runs, || perlin_tbl_grid(&perm, &mut grid).unwrap()),
    };
    let mut height = vec![0f32; HEIGHTMAP_SIDE.pow(2)];
    let height_ns = match only.as_str() {
        "grid" => f64::NAN,
        _ => fastest_ns(runs, || perlin_tbl_heightmap(&perm, &mut height).unwrap()),
    };
    println!(
        "{:?}: perlin3 grid 128^3 {:.3} ns/sample; heightmap 1024^2 6 octaves {:.3} ns/sample",
        SimdPath::detect(),
        grid_ns / GRID_SIDE.pow(3) as f64,
        height_ns / HEIGHTMAP_SIDE.pow(2) as f64
    );
}
