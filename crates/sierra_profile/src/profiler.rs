use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use tracing::Dispatch;
use tracing_chrome::{ChromeLayerBuilder, FlushGuard};
use tracing_subscriber::layer::SubscriberExt;

use crate::accumulator::StatsAccumulator;
use crate::clock::{Clock, MonotonicClock};
use crate::error::Error;
use crate::layer::StatsLayer;
use crate::stats::ScopeStats;

/// How to build a [`Profiler`].
#[derive(Clone)]
pub struct ProfilerConfig {
    /// Where to write the Chrome trace (`trace.json`); `None` records statistics only.
    pub trace_path: Option<PathBuf>,
    /// Frames kept per scope for the statistics (see [`StatsAccumulator::new`]).
    pub window_frames: usize,
    /// Time source of the statistics (the Chrome trace always uses real time).
    pub clock: Arc<dyn Clock>,
}

impl Default for ProfilerConfig {
    fn default() -> Self {
        Self {
            trace_path: None,
            window_frames: StatsAccumulator::DEFAULT_WINDOW,
            clock: Arc::new(MonotonicClock::new()),
        }
    }
}

/// Keeps the Chrome trace open; [`TraceGuard::finish`] (or dropping it) writes the closing
/// bracket, closes the file and renames it from its temporary name to `trace.json`, so hold it
/// until the last frame has ended. The trace is written under a temporary name in the same
/// folder ([`sierra_assets::AtomicFile`]): a run that fails, or a write that fails part way,
/// leaves no partial `trace.json`.
pub struct TraceGuard {
    flush: Option<FlushGuard>,
    path: Option<PathBuf>,
    origin: Instant,
    writer: Option<TraceWriter>,
}

/// What the Chrome layer's writer thread writes into. That thread unwraps every write, so a
/// failed write (disk full, `EFBIG`) is latched here instead of panicking it, later writes are
/// dropped, and [`TraceGuard::finish`] reports the error naming the file.
#[derive(Clone)]
struct TraceWriter(Arc<Mutex<TraceOutput>>);

struct TraceOutput {
    file: Option<sierra_assets::AtomicFile>,
    error: Option<std::io::Error>,
}

impl TraceWriter {
    fn with(&self, op: impl FnOnce(&mut sierra_assets::AtomicFile) -> std::io::Result<()>) {
        let mut out = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let out = &mut *out;
        if let (None, Some(file)) = (&out.error, &mut out.file) {
            if let Err(e) = op(file) {
                out.error = Some(e);
            }
        }
    }

    /// Commits the file (after the writer thread has ended), or reports the latched error.
    fn commit(&self) -> Result<(), Error> {
        let mut out = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(file) = out.file.take() else {
            return Ok(());
        };
        let fail = |path: &Path, source| Error::TraceFile {
            path: path.to_path_buf(),
            source,
        };
        match out.error.take() {
            // Dropping the file removes the temporary.
            Some(source) => Err(fail(file.path(), source)),
            None => file.commit().map_err(|e| fail(&e.path, e.source)),
        }
    }
}

impl std::io::Write for TraceWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.with(|f| f.write_all(buf));
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.with(std::io::Write::flush);
        Ok(())
    }
}

impl Drop for TraceGuard {
    fn drop(&mut self) {
        if let Err(e) = self.close() {
            eprintln!("error: {e}");
        }
    }
}

impl TraceGuard {
    /// Closes the trace (the closing bracket written, the writer thread ended) and renames it
    /// to its final name.
    ///
    /// # Errors
    /// [`Error::TraceFile`] naming `trace.json` when a write failed; nothing is then left
    /// under that name.
    pub fn finish(mut self) -> Result<(), Error> {
        self.close()
    }

    fn close(&mut self) -> Result<(), Error> {
        drop(self.flush.take());
        match self.writer.take() {
            Some(writer) => writer.commit(),
            None => Ok(()),
        }
    }

    /// The trace file being written, if any.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The instant trace timestamps count from (`ts` 0), within a few microseconds: taken just
    /// before the trace layer starts its own clock. Use it to place GPU timings on the trace
    /// ([`append_track`](crate::append_track)).
    pub fn origin(&self) -> Instant {
        self.origin
    }

    /// Asks the trace writer thread to flush what it has so far (the file stays open and is not
    /// yet valid JSON until the guard is dropped).
    pub fn flush(&self) {
        if let Some(flush) = &self.flush {
            flush.flush();
        }
    }
}

/// The application's handle on the CPU profiler: closes frames and reads the statistics.
///
/// Cheap to clone (clones share the same statistics).
#[derive(Clone)]
pub struct Profiler {
    accumulator: Arc<Mutex<StatsAccumulator>>,
}

impl Profiler {
    /// Starts profiling the whole process: installs the statistics layer and, when `trace_path`
    /// is given, the Chrome trace writer as the global `tracing` subscriber, so spans on every
    /// thread (rayon workers included) are recorded.
    ///
    /// # Errors
    /// [`Error::TraceFile`] when the trace file cannot be created; [`Error::AlreadyStarted`]
    /// when a global subscriber already exists (call once per process, or use [`Profiler::build`]).
    pub fn start(trace_path: Option<&Path>) -> Result<(Profiler, TraceGuard), Error> {
        let config = ProfilerConfig {
            trace_path: trace_path.map(Path::to_path_buf),
            ..ProfilerConfig::default()
        };
        let (profiler, dispatch, guard) = Self::build(config)?;
        tracing::dispatcher::set_global_default(dispatch)?;
        Ok((profiler, guard))
    }

    /// Builds the profiler and its subscriber without installing it, for callers that scope it
    /// themselves (`tracing::dispatcher::with_default`) or run several profilers in one process.
    ///
    /// # Errors
    /// [`Error::TraceFile`] when the trace file cannot be created.
    pub fn build(config: ProfilerConfig) -> Result<(Profiler, Dispatch, TraceGuard), Error> {
        let accumulator = Arc::new(Mutex::new(StatsAccumulator::new(config.window_frames)));
        let stats_layer = StatsLayer::new(accumulator.clone(), config.clock);
        let origin = Instant::now();
        let (chrome_layer, flush, writer) = match &config.trace_path {
            Some(path) => {
                let file =
                    sierra_assets::AtomicFile::create(path).map_err(|e| Error::TraceFile {
                        path: e.path,
                        source: e.source,
                    })?;
                let writer = TraceWriter(Arc::new(Mutex::new(TraceOutput {
                    file: Some(file),
                    error: None,
                })));
                let (layer, flush) = ChromeLayerBuilder::new()
                    .writer(writer.clone())
                    .include_args(false)
                    .build();
                (Some(layer), Some(flush), Some(writer))
            }
            None => (None, None, None),
        };
        let subscriber = tracing_subscriber::registry()
            .with(stats_layer)
            .with(chrome_layer);
        let guard = TraceGuard {
            flush,
            path: config.trace_path,
            origin,
            writer,
        };
        Ok((Profiler { accumulator }, Dispatch::new(subscriber), guard))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, StatsAccumulator> {
        self.accumulator
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Closes the current frame of the statistics (call once per frame, after its scopes closed).
    pub fn end_frame(&self) {
        self.lock().end_frame();
    }

    /// Time of scope `name` in the last frame it ran in, milliseconds (for a live overlay).
    pub fn last_frame_ms(&self, name: &str) -> Option<f64> {
        self.lock().last_frame_ms(name)
    }

    /// Per-frame times of scope `name`, oldest first, as `(frame index, milliseconds)`
    /// ([`StatsAccumulator::history_ms`]); for frame-time plots.
    pub fn history_ms(&self, name: &str) -> Option<Vec<(u64, f64)>> {
        self.lock().history_ms(name)
    }

    /// Names of the scopes seen so far, in order of first appearance.
    pub fn scope_names(&self) -> Vec<&'static str> {
        self.lock().scope_names().collect()
    }

    /// Average, maximum and 95th percentile per scope, milliseconds.
    pub fn stats(&self) -> ScopeStats {
        self.lock().stats()
    }

    /// Writes [`stats`](Self::stats) as pretty JSON to `path` (`stats.json`).
    ///
    /// # Errors
    /// [`Error::StatsFile`] when the file cannot be written.
    pub fn write_stats(&self, path: &Path) -> Result<(), Error> {
        let stats = self.stats();
        // Serialising plain numbers and strings into memory cannot fail.
        let json = serde_json::to_string_pretty(&stats).unwrap_or_default();
        sierra_assets::write_atomic(path, json.as_bytes()).map_err(|e| Error::StatsFile {
            path: e.path,
            source: e.source,
        })
    }
}
