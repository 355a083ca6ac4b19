use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A monotonic time source for the [`StatsLayer`](crate::StatsLayer).
///
/// Real runs use [`MonotonicClock`]; tests inject a [`ManualClock`] so that span durations are
/// known exactly without sleeping.
pub trait Clock: Send + Sync + 'static {
    /// Time elapsed since an arbitrary fixed origin; never decreases.
    fn now(&self) -> Duration;
}

/// [`Clock`] on [`std::time::Instant`], origin at construction.
#[derive(Debug, Clone, Copy)]
pub struct MonotonicClock {
    origin: Instant,
}

impl MonotonicClock {
    /// A clock whose origin is now.
    pub fn new() -> Self {
        Self {
            origin: Instant::now(),
        }
    }
}

impl Default for MonotonicClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for MonotonicClock {
    fn now(&self) -> Duration {
        self.origin.elapsed()
    }
}

/// A [`Clock`] that only moves when told to (for tests); clones share the same time.
#[derive(Debug, Clone, Default)]
pub struct ManualClock {
    nanos: Arc<AtomicU64>,
}

impl ManualClock {
    /// A clock at time zero.
    pub fn new() -> Self {
        Self::default()
    }

    /// Moves the clock forward by `step`.
    pub fn advance(&self, step: Duration) {
        let step = u64::try_from(step.as_nanos()).unwrap_or(u64::MAX);
        self.nanos.fetch_add(step, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Duration {
        Duration::from_nanos(self.nanos.load(Ordering::SeqCst))
    }
}
