use std::path::PathBuf;

/// Errors of the profiler.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The Chrome trace file could not be created or written.
    #[error("cannot write trace file {path}: {source}")]
    TraceFile {
        /// The requested `trace.json` path.
        path: PathBuf,
        /// The I/O failure.
        source: std::io::Error,
    },
    /// A finished trace file could not be read back or is not a JSON array of trace events.
    #[error("cannot read trace file {path}: {message}")]
    TraceRead {
        /// The trace file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// The statistics file could not be written.
    #[error("cannot write statistics file {path}: {source}")]
    StatsFile {
        /// The requested `stats.json` path.
        path: PathBuf,
        /// The I/O failure.
        source: std::io::Error,
    },
    /// A global `tracing` subscriber was already installed in this process (by an earlier
    /// [`Profiler::start`](crate::Profiler::start) or by the application).
    #[error("a global tracing subscriber is already installed; the profiler can start once per process ({0})")]
    AlreadyStarted(#[from] tracing::dispatcher::SetGlobalDefaultError),
}
