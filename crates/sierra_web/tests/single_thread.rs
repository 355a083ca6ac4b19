//! The web build has no threads: rayon's global pool then runs every job on the calling thread
//! (rayon-core 1.13 `default_global_registry`: one `use_current_thread` worker when spawning is
//! unsupported). Sierra's parallel loops split work into independent rows, chunks and a `max`
//! reduction, so one thread gives the same bits; this test runs a parallel loop (the fBm grid,
//! `Threads::All`) in exactly that pool and compares it with the native multi-thread pool.

use sierra_terrain::noise::grid::{fbm2_grid, GridSpec, Threads};
use sierra_terrain::noise::{Fbm, FbmParams, Permutation};

fn grid(seed: u64) -> Vec<f32> {
    let perm = Permutation::from_seed(seed);
    let fbm = Fbm::new(FbmParams::default()).unwrap();
    let spec = GridSpec::new(97, 61, [-3.5, 1.25], [0.031, 0.027]).unwrap();
    let mut out = vec![0f32; 97 * 61];
    fbm2_grid(&perm, &fbm, &spec, Threads::All, &mut out).unwrap();
    out
}

#[test]
fn one_current_thread_pool_gives_the_multithreaded_bits() {
    let threads = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    let native = threads.install(|| grid(7));
    let web_like = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .use_current_thread()
        .build()
        .unwrap();
    let single = web_like.install(|| grid(7));
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
    assert_eq!(bits(&native), bits(&single));
    // Negative control: another permutation changes the grid.
    let other = threads.install(|| grid(8));
    assert_ne!(bits(&native), bits(&other));
}
