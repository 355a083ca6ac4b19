use std::path::Path;

use serde_json::{json, Value};

use crate::error::Error;

/// One span of an extra trace track, e.g. a GPU pass timed with timestamp queries.
#[derive(Debug, Clone, PartialEq)]
pub struct TrackSpan {
    /// Span name shown in the viewer (e.g. the pass name).
    pub name: String,
    /// Start, microseconds since the trace origin ([`TraceGuard::origin`](crate::TraceGuard::origin)).
    pub start_us: f64,
    /// Duration, microseconds.
    pub duration_us: f64,
}

/// Appends `spans` to a finished Chrome trace file (after its [`TraceGuard`](crate::TraceGuard)
/// was dropped) as a separate process track named `track_name` (e.g. `"GPU"`), using complete
/// (`"ph": "X"`) events, so the viewer shows them in their own lane under the CPU threads.
///
/// # Errors
/// [`Error::TraceRead`] when the file cannot be read, is not a JSON array of events or
/// already uses process id `u64::MAX` (the track takes the largest id plus one),
/// [`Error::TraceFile`] when it cannot be written back.
pub fn append_track(trace_path: &Path, track_name: &str, spans: &[TrackSpan]) -> Result<(), Error> {
    let read_error = |message: String| Error::TraceRead {
        path: trace_path.to_path_buf(),
        message,
    };
    let text = std::fs::read_to_string(trace_path).map_err(|e| read_error(e.to_string()))?;
    let mut events: Vec<Value> =
        serde_json::from_str(&text).map_err(|e| read_error(e.to_string()))?;
    let pid = events
        .iter()
        .filter_map(|e| e["pid"].as_u64())
        .max()
        .map_or(Some(1), |max| max.checked_add(1))
        .ok_or_else(|| read_error("a process id of u64::MAX leaves no id for the track".into()))?;
    events.push(json!({"ph": "M", "pid": pid, "tid": 0, "name": "process_name", "args": {"name": track_name}}));
    events.push(json!({"ph": "M", "pid": pid, "tid": 0, "name": "thread_name", "args": {"name": track_name}}));
    for span in spans {
        events.push(json!({
            "ph": "X", "pid": pid, "tid": 0, "name": span.name, "cat": track_name,
            "ts": span.start_us, "dur": span.duration_us,
        }));
    }
    // Serialising JSON values into memory cannot fail.
    let json = serde_json::to_string(&events).unwrap_or_default();
    sierra_assets::write_atomic(trace_path, json.as_bytes()).map_err(|e| Error::TraceFile {
        path: e.path,
        source: e.source,
    })
}
