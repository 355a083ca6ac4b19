//! Reading a file that may change while it is read (an exporter saving over a model, a level
//! edited during a load) as one snapshot, or refusing it.
//!
//! The file is opened once. Around each read of it, `fstat` gives its size, modification and
//! change times; the read counts only when they are equal before and after and the bytes read
//! are the `fstat` size. File times on Linux advance in coarse steps (a few milliseconds), so a
//! write landing in the same step as the previous one can leave them unchanged, and a program
//! overwriting a file in place leaves states between its writes that are neither the old nor
//! the new version: a file changed within the last [`RECENT`] is therefore read a second time
//! after a [`QUIET`] pause and must give the same bytes. A file still changing after [`TRIES`]
//! reads is [`AssetError::Changed`]. What comes back is a state the file held at rest (a
//! truncated one is refused by the importer's own validation), not a torn read of a write in
//! progress. (A writer that pauses longer than [`QUIET`] half way through an in-place rewrite
//! cannot be told from a finished one by any reader; exporters that write a temporary file and
//! rename it, as Sierra's own outputs do, are always read whole.)

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::time::{Duration, SystemTime};

use crate::AssetError;

/// Reads of a changing file before it is refused.
pub const TRIES: u32 = 8;

/// A file whose change time is this close to now is read twice, [`QUIET`] apart, and must
/// give the same bytes.
pub const RECENT: Duration = Duration::from_millis(100);

/// The pause between the two reads of a recently changed file: longer than a scheduler time
/// slice on a loaded machine (a writer descheduled between two of its writes for 5 ms was once
/// read as finished while eight builds shared two cores).
pub const QUIET: Duration = Duration::from_millis(20);

/// Pause between reads of a changing file (doubling each try).
const BACKOFF: Duration = Duration::from_millis(2);

/// What `fstat` says about the file's content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
    changed: Option<(i64, i64)>,
}

impl Stamp {
    fn of(file: &cap_std::fs::File) -> std::io::Result<Self> {
        let meta = file.metadata()?;
        #[cfg(unix)]
        let changed = {
            use cap_std::fs::MetadataExt;
            Some((meta.ctime(), meta.ctime_nsec()))
        };
        #[cfg(not(unix))]
        let changed = None;
        Ok(Self {
            len: meta.len(),
            modified: meta.modified().ok().map(|t| t.into_std()),
            changed,
        })
    }

    /// Changed within [`RECENT`] of now (or times unknown).
    fn recent(&self) -> bool {
        let Some((secs, nanos)) = self.changed else {
            return true;
        };
        let changed = SystemTime::UNIX_EPOCH.checked_add(Duration::new(
            secs.max(0) as u64,
            nanos.clamp(0, 999_999_999) as u32,
        ));
        changed.is_none_or(|c| c.elapsed().map_or(true, |age| age < RECENT))
    }
}

/// The outcome of one read.
enum Read1 {
    /// The bytes, and whether the file was stable around the read.
    Bytes(Vec<u8>, Option<Stamp>),
    /// Longer than `max_bytes`.
    Over(u64),
}

fn read_once(file: &mut cap_std::fs::File, max_bytes: u64) -> std::io::Result<Read1> {
    let before = Stamp::of(file)?;
    if before.len > max_bytes {
        return Ok(Read1::Over(before.len));
    }
    file.seek(SeekFrom::Start(0))?;
    let mut bytes = Vec::with_capacity(before.len as usize);
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        return Ok(Read1::Over(bytes.len() as u64));
    }
    let after = Stamp::of(file)?;
    let stable = (before == after && bytes.len() as u64 == after.len).then_some(after);
    Ok(Read1::Bytes(bytes, stable))
}

/// Reads all of `file` (at most `max_bytes`) as one snapshot; see the module documentation.
/// `Ok(Err(len))`: the file is longer than `max_bytes` (`len`, or more).
///
/// # Errors
/// [`AssetError::Io`], [`AssetError::Changed`], naming `display`.
pub(crate) fn read_snapshot(
    mut file: cap_std::fs::File,
    max_bytes: u64,
    display: &Path,
) -> Result<Result<Vec<u8>, u64>, AssetError> {
    let io = |source| AssetError::Io {
        file: display.to_path_buf(),
        source,
    };
    let mut pause = BACKOFF;
    for _ in 0..TRIES {
        let (bytes, stamp) = match read_once(&mut file, max_bytes).map_err(io)? {
            Read1::Over(len) => return Ok(Err(len)),
            Read1::Bytes(bytes, Some(stamp)) => (bytes, stamp),
            Read1::Bytes(_, None) => {
                std::thread::sleep(pause);
                pause *= 2;
                continue;
            }
        };
        if !stamp.recent() {
            return Ok(Ok(bytes));
        }
        // Changed a moment ago: possibly still being written (an in-place writer leaves
        // states that are neither version between its writes). Accept it only if it reads
        // the same after a quiet pause.
        std::thread::sleep(QUIET);
        match read_once(&mut file, max_bytes).map_err(io)? {
            Read1::Bytes(again, Some(s)) if s == stamp && again == bytes => return Ok(Ok(bytes)),
            Read1::Over(len) => return Ok(Err(len)),
            _ => {}
        }
        std::thread::sleep(pause);
        pause *= 2;
    }
    Err(AssetError::Changed {
        file: display.to_path_buf(),
        tries: TRIES,
    })
}
