//! [`Debouncer`]: collects changed paths and hands them over once the files have been quiet for
//! a while, so an editor's save (truncate, several writes, a rename) reloads once, from the
//! finished file.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How long no event may arrive before the changed files are handed over: longer than the gap
/// between an editor's writes of one save, short enough to feel immediate.
pub const QUIET: Duration = Duration::from_millis(150);

/// Changed paths waiting for [`QUIET`] to pass since the last event.
#[derive(Debug)]
pub struct Debouncer {
    quiet: Duration,
    pending: BTreeSet<PathBuf>,
    last_event: Option<Instant>,
}

impl Default for Debouncer {
    fn default() -> Self {
        Self::new(QUIET)
    }
}

impl Debouncer {
    /// A debouncer waiting `quiet` after the last event.
    pub fn new(quiet: Duration) -> Self {
        Self {
            quiet,
            pending: BTreeSet::new(),
            last_event: None,
        }
    }

    /// Records that `path` changed at `now`.
    pub fn note(&mut self, path: PathBuf, now: Instant) {
        self.pending.insert(path);
        self.last_event = Some(now);
    }

    /// The changed paths (sorted, each once) when `quiet` has passed since the last event at
    /// `now`, emptying the debouncer; `None` while events are still arriving or none came.
    pub fn settled(&mut self, now: Instant) -> Option<Vec<PathBuf>> {
        let last = self.last_event?;
        if now.saturating_duration_since(last) < self.quiet {
            return None;
        }
        self.last_event = None;
        Some(std::mem::take(&mut self.pending).into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three events 50 ms apart (one save's writes) settle once, 150 ms after the last, with
    /// each path once; nothing is handed over before that, nor again after.
    #[test]
    fn a_burst_of_events_settles_once_after_the_quiet_time() {
        let t0 = Instant::now();
        let ms = |n| t0 + Duration::from_millis(n);
        let mut d = Debouncer::new(Duration::from_millis(150));
        assert_eq!(d.settled(ms(0)), None);
        d.note("level.json".into(), ms(0));
        d.note("level.json".into(), ms(50));
        d.note("model.glb".into(), ms(100));
        assert_eq!(d.settled(ms(200)), None, "100 ms after the last event");
        let settled = d.settled(ms(250)).unwrap();
        assert_eq!(settled, [PathBuf::from("level.json"), "model.glb".into()]);
        assert_eq!(d.settled(ms(1000)), None);
    }
}
