//! The one way Sierra writes an output file (frames, contact sheet, `stats.json`, `trace.json`,
//! `audio.wav`, the output manifest, OBJ/MTL exports, GLB exports, screenshots): the bytes go to
//! a temporary file in the same folder (`.NAME.sierra-tmp-PID-N`), which is flushed, synced and
//! renamed over `NAME` only when complete. A write that fails part way (disk full, `EFBIG`
//! under a file-size limit, a permission change) is an [`WriteError`] naming the final file,
//! the temporary file is removed, and nothing appears under the final name: a reader never sees
//! a half-written file that looks valid. (`rename` within one folder is atomic on POSIX.)

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Marker in the name of every temporary file [`AtomicFile`] creates (so an output folder can
/// recognise one left by a killed process as Sierra's own).
pub const TEMP_MARKER: &str = ".sierra-tmp-";

/// A failed output write, naming the final file.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {}: {source}", path.display())]
pub struct WriteError {
    /// The file that was to be written (its final name).
    pub path: PathBuf,
    /// The OS error.
    pub source: io::Error,
}

/// An output file being written under a temporary name; [`AtomicFile::commit`] renames it into
/// place. Dropped without a commit (an error on the way), the temporary file is removed.
#[derive(Debug)]
pub struct AtomicFile {
    path: PathBuf,
    temp: PathBuf,
    file: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Creates the temporary file beside `path` (which is not touched yet).
    ///
    /// # Errors
    /// [`WriteError`] naming `path` when the folder cannot be written.
    pub fn create(path: &Path) -> Result<Self, WriteError> {
        let temp = temp_path(path);
        let file = File::options()
            .write(true)
            .create_new(true)
            .open(&temp)
            .map_err(|source| WriteError {
                path: path.to_path_buf(),
                source,
            })?;
        Ok(Self {
            path: path.to_path_buf(),
            temp,
            file: Some(BufWriter::new(file)),
        })
    }

    /// The final path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The temporary file's path (for writers that reopen it by name).
    pub fn temp_path(&self) -> &Path {
        &self.temp
    }

    /// A [`WriteError`] naming the final file.
    pub fn error(&self, source: io::Error) -> WriteError {
        WriteError {
            path: self.path.clone(),
            source,
        }
    }

    /// Flushes, syncs and renames the file to its final name.
    ///
    /// # Errors
    /// [`WriteError`] naming the final file; the temporary file is then removed.
    pub fn commit(mut self) -> Result<(), WriteError> {
        let Some(buffered) = self.file.take() else {
            return Ok(());
        };
        let finished = buffered
            .into_inner()
            .map_err(io::IntoInnerError::into_error)
            .and_then(|file| file.sync_all())
            .and_then(|()| std::fs::rename(&self.temp, &self.path));
        finished.map_err(|source| {
            let _ = std::fs::remove_file(&self.temp);
            self.error(source)
        })
    }

    fn writer(&mut self) -> io::Result<&mut BufWriter<File>> {
        self.file
            .as_mut()
            .ok_or_else(|| io::Error::other("the file was already committed"))
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writer()?.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer()?.flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

/// Writes `bytes` to `path` through an [`AtomicFile`].
///
/// # Errors
/// [`WriteError`] naming `path`; nothing is left under `path` or a temporary name.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// Writes `path` through an [`AtomicFile`] filled by `fill` (an encoder streaming into it).
///
/// # Errors
/// [`WriteError`] naming `path` when `fill` or the commit fails; nothing is left under `path`
/// or a temporary name.
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut AtomicFile) -> io::Result<()>,
) -> Result<(), WriteError> {
    let mut file = AtomicFile::create(path)?;
    fill(&mut file).map_err(|e| file.error(e))?;
    file.commit()
}

/// `DIR/.NAME.sierra-tmp-PID-N`: hidden, in the same folder (so the rename never crosses a
/// file system), unique per process and call.
fn temp_path(path: &Path) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy());
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    path.with_file_name(format!(".{name}{TEMP_MARKER}{}-{n}", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_complete_write_appears_under_its_name_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        write_atomic(&path, b"hello").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"hello");
        write_atomic(&path, b"again").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"again");
        assert_eq!(names(dir.path()), ["a.txt"]);
    }

    #[test]
    fn a_failed_write_leaves_nothing_and_keeps_the_previous_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.bin");
        let err = write_atomic_with(&path, |w| {
            w.write_all(b"partial")?;
            Err(io::Error::other("disk full"))
        })
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("cannot write {}: disk full", path.display())
        );
        assert!(names(dir.path()).is_empty(), "{:?}", names(dir.path()));
        // An earlier complete file under the name survives a failed rewrite untouched.
        write_atomic(&path, b"good").unwrap();
        write_atomic_with(&path, |_| Err(io::Error::other("no"))).unwrap_err();
        assert_eq!(std::fs::read(&path).unwrap(), b"good");
        assert_eq!(names(dir.path()), ["b.bin"]);
    }

    #[test]
    fn an_unwritable_folder_names_the_final_file() {
        let path = Path::new("/nonexistent-folder-for-sierra/c.txt");
        let err = write_atomic(path, b"x").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("cannot write /nonexistent-folder-for-sierra/c.txt: "),
            "{err}"
        );
    }
}
