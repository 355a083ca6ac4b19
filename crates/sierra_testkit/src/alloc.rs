//! A counting global allocator for zero-allocation tests.
//!
//! A test binary installs it with
//! `#[global_allocator] static GLOBAL: sierra_testkit::alloc::Counting = sierra_testkit::alloc::Counting;`
//! (one per binary, so such tests live in their own file), calls [`count_this_thread`] on every
//! thread that runs the code under test (the test's own thread, and a rayon pool's workers through
//! `ThreadPoolBuilder::start_handler`), and reads [`allocations`] around the code that must not
//! allocate.
//!
//! Only counted threads count: the test harness's own threads allocate whenever the scheduler lets
//! them (libtest's main thread records each running test in a hash map), and on a loaded machine
//! that lands inside a measured window.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Whether this thread's allocations count (const-initialised, no destructor: reading it
    /// never allocates).
    static COUNTED: Cell<bool> = const { Cell::new(false) };
}

/// Counts this thread's allocations from now on, until it ends.
pub fn count_this_thread() {
    COUNTED.with(|c| c.set(true));
}

fn count() {
    if COUNTED.try_with(Cell::get).unwrap_or(false) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

/// The system allocator, counting every `alloc` and `realloc` made on a counted thread.
pub struct Counting;

// SAFETY: every call is forwarded unchanged to the system allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Allocations (and reallocations) counted so far on the threads that called
/// [`count_this_thread`].
pub fn allocations() -> usize {
    ALLOCATIONS.load(Ordering::SeqCst)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[global_allocator]
    static GLOBAL: Counting = Counting;

    #[test]
    fn only_counted_threads_count() {
        // Another thread allocates, uncounted, then counted.
        let before = allocations();
        let v = std::thread::spawn(|| std::hint::black_box(vec![1u8; 10]).len())
            .join()
            .unwrap();
        let uncounted = allocations() - before;
        let before = allocations();
        let w = std::thread::spawn(|| {
            count_this_thread();
            std::hint::black_box(vec![1u8; 10]).len()
        })
        .join()
        .unwrap();
        let counted = allocations() - before;
        assert_eq!((v, w), (10, 10));
        assert_eq!(uncounted, 0);
        assert!(counted >= 1, "{counted}");
    }
}
