use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tracing::span;
use tracing::Subscriber;
use tracing_subscriber::layer::Context;
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::Layer;

use crate::accumulator::StatsAccumulator;
use crate::clock::Clock;

/// Time at which a span was last entered, kept in the span's registry extensions.
struct EnteredAt(Duration);

/// A `tracing` [`Layer`] that adds every span's busy time (enter → exit, by the injected
/// [`Clock`]) to a shared [`StatsAccumulator`] under the span's name.
///
/// The accumulator is shared with the application's [`Profiler`](crate::Profiler); no global state.
/// A span entered again before it exits (the same span on two threads at once) is timed from its
/// latest entry; give each thread its own span, as [`profile_scope!`](crate::profile_scope) does.
pub struct StatsLayer {
    accumulator: Arc<Mutex<StatsAccumulator>>,
    clock: Arc<dyn Clock>,
}

impl StatsLayer {
    /// A layer recording into `accumulator`, timing with `clock`.
    pub fn new(accumulator: Arc<Mutex<StatsAccumulator>>, clock: Arc<dyn Clock>) -> Self {
        Self { accumulator, clock }
    }
}

impl<S> Layer<S> for StatsLayer
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_enter(&self, id: &span::Id, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(id) else { return };
        let now = self.clock.now();
        span.extensions_mut().replace(EnteredAt(now));
    }

    fn on_exit(&self, id: &span::Id, ctx: Context<'_, S>) {
        let now = self.clock.now();
        let Some(span) = ctx.span(id) else { return };
        let Some(EnteredAt(entered)) = span.extensions_mut().remove::<EnteredAt>() else {
            return;
        };
        let busy = now.saturating_sub(entered);
        // A panic elsewhere while holding the lock leaves consistent data (plain counters).
        self.accumulator
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .record(span.name(), busy);
    }
}
