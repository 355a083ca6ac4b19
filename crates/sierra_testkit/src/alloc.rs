//! A counting global allocator for zero-allocation tests.
//!
//! A test binary installs it with
//! `#[global_allocator] static GLOBAL: sierra_testkit::alloc::Counting = sierra_testkit::alloc::Counting;`
//! (one per binary, so such tests live in their own file) and reads [`allocations`] around the
//! code that must not allocate.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

/// The system allocator, counting every `alloc` and `realloc`.
pub struct Counting;

// SAFETY: every call is forwarded unchanged to the system allocator.
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

/// Allocations (and reallocations) counted so far in this process, on every thread.
pub fn allocations() -> usize {
    ALLOCATIONS.load(Ordering::SeqCst)
}
