//! Zero heap allocations per frame in the steady state, counted by a global
//! allocator (its own test binary, since it installs the allocator).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use sierra_anim::synthetic::Crowd;

struct Counting;
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn steady_state_frames_allocate_nothing() {
    let mut crowd = Crowd::new(200, 68);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    pool.install(|| {
        // Warm-up: first use of the pool and of each sampling context.
        for f in 0..10 {
            crowd.frame(f as f32 / 60.0).unwrap();
            crowd.frame_sequential(f as f32 / 60.0).unwrap();
        }
        let before = ALLOCATIONS.load(Ordering::SeqCst);
        for f in 10..110 {
            crowd.frame(f as f32 / 60.0).unwrap();
        }
        let parallel = ALLOCATIONS.load(Ordering::SeqCst) - before;
        let before = ALLOCATIONS.load(Ordering::SeqCst);
        for f in 110..210 {
            crowd.frame_sequential(f as f32 / 60.0).unwrap();
        }
        let sequential = ALLOCATIONS.load(Ordering::SeqCst) - before;
        assert_eq!(sequential, 0, "sequential frames allocated");
        assert_eq!(parallel, 0, "parallel frames allocated");
    });
    assert!(crowd
        .poses
        .iter()
        .all(|p| p.palette.iter().all(|m| m.is_finite())));
    // The counter works: an allocation is seen.
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    let v = std::hint::black_box(vec![1u8; 10]);
    assert!(ALLOCATIONS.load(Ordering::SeqCst) > before && v.len() == 10);
}
