//! Quick timing of scalar perlin3: `cargo run --release -p sierra_terrain --example perlin_speed`.
use sierra_terrain::noise::{perlin3, Permutation};
use std::hint::black_box;
fn main() {
    let perm = Permutation::reference();
    let n = 1 << 20;
    for _ in 0..3 {
        let t = std::time::Instant::now();
        let mut acc = 0.0f64;
        for i in 0..n {
            let x = i as f64 * 0.731;
            acc += perlin3(&perm, black_box(x), x * 0.5, 1.5);
        }
        black_box(acc);
        println!(
            "{:.2} ns/sample",
            t.elapsed().as_secs_f64() * 1e9 / n as f64
        );
    }
}
