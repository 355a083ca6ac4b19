//! CPU profiler for the Sierra frame loop.
//!
//! Scopes are ordinary [`tracing`] spans (opened with [`profile_scope!`] or any `tracing` span macro).
//! Two layers watch them:
//! - [`StatsLayer`] adds each span's busy time (enter → exit) to a [`StatsAccumulator`] owned by the
//!   application through its [`Profiler`]; [`Profiler::end_frame`] closes a frame, and
//!   [`Profiler::stats`] reports per scope the average, maximum and 95th percentile of the per-frame
//!   times in milliseconds ([`ScopeStats`], written as `stats.json`);
//! - optionally the `tracing-chrome` layer, which writes every span enter/exit of every thread
//!   (main thread, rayon workers, …) as Chrome trace events (`trace.json`) that open in
//!   `chrome://tracing` and <https://ui.perfetto.dev>. Thread tracks carry the thread names
//!   (name rayon workers with `ThreadPoolBuilder::thread_name`); [`append_track`] adds a GPU
//!   track (pass timings from timestamp queries) to the finished file.
//!
//! This is seed document 000's `PROFILE_SCOPE(name)` profiler ("collects stats once per frame, and
//! works out the average and max", "every start and stop also writes an event … in Chrome's trace
//! format"), built on `tracing` instead of a singleton: the only global is the `tracing`
//! subscriber itself, installed by [`Profiler::start`].
//!
//! # Example: wiring it into a game loop
//! ```no_run
//! use sierra_profile::{profile_scope, Profiler};
//! # fn main() -> Result<(), sierra_profile::Error> {
//! let (profiler, trace_guard) = Profiler::start(Some(std::path::Path::new("out/trace.json")))?;
//! for _frame in 0..3 {
//!     {
//!         profile_scope!("frame");
//!         {
//!             profile_scope!("animation");
//!             // … jobs on rayon workers open their own scopes; each worker is a trace thread
//!         }
//!         {
//!             profile_scope!("render");
//!         }
//!     } // scopes close before the frame ends, so they count in this frame
//!     profiler.end_frame();
//! }
//! profiler.write_stats(std::path::Path::new("out/stats.json"))?;
//! drop(trace_guard); // finishes and closes trace.json
//! # Ok(())
//! # }
//! ```
//! Scope names are `&'static str` (tracing span names); a scope run several times in a frame, or
//! on several threads, adds up.
#![warn(missing_docs)]

mod accumulator;
mod clock;
mod error;
mod layer;
mod profiler;
pub mod progress;
mod startup;
mod stats;
mod track;

pub use accumulator::StatsAccumulator;
pub use clock::{Clock, ManualClock, MonotonicClock};
pub use error::Error;
pub use layer::StatsLayer;
pub use profiler::{Profiler, ProfilerConfig, TraceGuard};
pub use startup::StartupTimes;
pub use stats::{ScopeStat, ScopeStats};
pub use track::{append_track, TrackSpan};

#[doc(hidden)]
pub use tracing as __tracing;

/// Times the rest of the enclosing block as the profiler scope `name` (a string literal).
///
/// Expands to an entered `tracing` span at INFO level that lives until the end of the block,
/// so it is recorded by the [`StatsLayer`] and the Chrome trace; outside a profiled run it costs
/// one check of the current subscriber.
///
/// ```
/// fn update() {
///     sierra_profile::profile_scope!("gameplay");
///     // … timed work
/// }
/// # update();
/// ```
#[macro_export]
macro_rules! profile_scope {
    ($name:literal) => {
        let _sierra_profile_scope = $crate::__tracing::info_span!($name).entered();
    };
}
