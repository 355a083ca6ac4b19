//! Quick timing of the 1024² six-octave fBm heightmap (one thread):
//! `cargo run --release -p sierra_terrain --example grid_speed`.
use sierra_terrain::noise::grid::{fbm2_grid, GridSpec, Threads};
use sierra_terrain::noise::{Fbm, FbmParams, Permutation};
fn main() {
    let perm = Permutation::reference();
    let fbm = Fbm::new(FbmParams::default()).unwrap();
    let grid = GridSpec::new(1024, 1024, [0.0, 0.0], [1.0 / 128.0; 2]).unwrap();
    let mut out = vec![0f32; 1024 * 1024];
    let only_one = std::env::args().any(|a| a == "one");
    let modes: &[Threads] = if only_one {
        &[Threads::One]
    } else {
        &[Threads::One, Threads::All]
    };
    for &threads in modes {
        for _ in 0..5 {
            let t = std::time::Instant::now();
            fbm2_grid(&perm, &fbm, &grid, threads, &mut out).unwrap();
            println!("{threads:?}: {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
        }
    }
}
