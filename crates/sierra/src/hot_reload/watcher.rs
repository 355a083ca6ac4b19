//! [`FileWatcher`]: the files under some folders that changed, from the operating system's
//! notifications (the `notify` crate: inotify on Linux), debounced ([`Debouncer`]).

use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver};
use std::time::Instant;

use anyhow::{Context, Result};
use notify::event::{AccessKind, AccessMode};
use notify::{Event, EventKind, RecommendedWatcher, RecursiveMode, Watcher};

use super::debounce::Debouncer;

/// Watches folders (recursively) and reports the files that changed once they settled.
pub struct FileWatcher {
    /// Kept alive: dropping it stops the notifications.
    _watcher: RecommendedWatcher,
    events: Receiver<notify::Result<Event>>,
    debouncer: Debouncer,
    /// Folders whose changes are dropped before the debouncer (a screenshot folder inside a
    /// watched one would otherwise keep every change from settling).
    ignore: Vec<PathBuf>,
}

impl std::fmt::Debug for FileWatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileWatcher").finish_non_exhaustive()
    }
}

/// Whether `kind` can change a file's contents (reads and opens cannot).
fn changes_contents(kind: &EventKind) -> bool {
    match kind {
        EventKind::Create(_) | EventKind::Modify(_) | EventKind::Remove(_) => true,
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) | EventKind::Any | EventKind::Other => false,
    }
}

impl FileWatcher {
    /// Watches every folder of `folders` and what lies under them.
    ///
    /// # Errors
    /// A folder that cannot be watched (missing, no permission, the system's watch limit),
    /// named.
    pub fn new<'a>(folders: impl IntoIterator<Item = &'a Path>) -> Result<Self> {
        let (sender, events) = channel();
        let mut watcher = notify::recommended_watcher(sender).context("starting a file watcher")?;
        for folder in folders {
            watcher
                .watch(folder, RecursiveMode::Recursive)
                .with_context(|| format!("watching {}", folder.display()))?;
        }
        Ok(Self {
            _watcher: watcher,
            events,
            debouncer: Debouncer::default(),
            ignore: Vec::new(),
        })
    }

    /// Drops changes under any of `folders` (as the notifications spell them: canonical).
    pub fn ignoring(mut self, folders: Vec<PathBuf>) -> Self {
        self.ignore = folders;
        self
    }

    /// The files that changed since the last call, once no change arrived for
    /// [`super::debounce::QUIET`]; `None` until then. Never blocks. A watcher error (events
    /// lost on overflow) is logged and skipped.
    pub fn changed(&mut self, now: Instant) -> Option<Vec<PathBuf>> {
        while let Ok(event) = self.events.try_recv() {
            match event {
                Ok(event) if changes_contents(&event.kind) => {
                    for path in event.paths {
                        if !self.ignore.iter().any(|dir| path.starts_with(dir)) {
                            self.debouncer.note(path, now);
                        }
                    }
                }
                Ok(_) => {}
                Err(e) => log::warn!("file watcher: {e}"),
            }
        }
        self.debouncer.settled(now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A write into a watched folder is reported (once settled); a write into a folder beside
    /// it, not watched, is not (the negative control).
    #[test]
    fn a_saved_file_is_reported_once_it_settles() {
        let dir = tempfile::tempdir().unwrap();
        let (watched, other) = (dir.path().join("watched"), dir.path().join("other"));
        std::fs::create_dir(&watched).unwrap();
        std::fs::create_dir(&other).unwrap();
        let mut watcher = FileWatcher::new([watched.as_path()]).unwrap();
        std::fs::write(other.join("b.json"), "{}").unwrap();
        std::fs::write(watched.join("a.json"), "{}").unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        let changed = loop {
            if let Some(changed) = watcher.changed(Instant::now()) {
                break changed;
            }
            assert!(Instant::now() < deadline, "no change reported");
            std::thread::sleep(Duration::from_millis(20));
        };
        let names: Vec<_> = changed.iter().filter_map(|p| p.file_name()).collect();
        assert_eq!(names, ["a.json"], "{changed:?}");
    }
}
