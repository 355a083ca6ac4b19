//! Zero heap allocations per frame in the steady state, counted by a global
//! allocator on the pool's threads (its own test binary, since it installs the allocator).

use sierra_testkit::alloc::{allocations, count_this_thread, Counting};

use sierra_anim::synthetic::Crowd;

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn steady_state_frames_allocate_nothing() {
    let mut crowd = Crowd::new(200, 68);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .start_handler(|_| count_this_thread())
        .build()
        .unwrap();
    // Every worker runs once before the window: a worker that first steals inside it would
    // register with crossbeam's epoch collector there (one allocation), which on a loaded
    // machine happens when the warm-up frames all ran on the other worker.
    pool.broadcast(|_| ());
    pool.install(|| {
        // Warm-up: first use of the pool and of each sampling context.
        for f in 0..10 {
            crowd.frame(f as f32 / 60.0).unwrap();
            crowd.frame_sequential(f as f32 / 60.0).unwrap();
        }
        let before = allocations();
        for f in 10..110 {
            crowd.frame(f as f32 / 60.0).unwrap();
        }
        let parallel = allocations() - before;
        let before = allocations();
        for f in 110..210 {
            crowd.frame_sequential(f as f32 / 60.0).unwrap();
        }
        let sequential = allocations() - before;
        assert_eq!(sequential, 0, "sequential frames allocated");
        assert_eq!(parallel, 0, "parallel frames allocated");
    });
    assert!(crowd
        .poses
        .iter()
        .all(|p| p.palette.iter().all(|m| m.is_finite())));
    // The counter works: an allocation on a counted thread is seen.
    count_this_thread();
    let before = allocations();
    let v = std::hint::black_box(vec![1u8; 10]);
    assert!(allocations() > before && v.len() == 10);
}
