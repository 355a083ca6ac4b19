//! A named asset root opened as a capability, and the one way to read a file inside it.

use std::path::{Component, Path, PathBuf};

use cap_std::fs::{Dir, OpenOptions};

use crate::{AssetError, Budget};

/// A folder every asset of a load must lie in, opened once as a [`Dir`] capability.
///
/// The name says where the root came from in messages: `level folder`, `model folder` or
/// `--asset-root`.
#[derive(Debug)]
pub struct AssetRoot {
    dir: Dir,
    path: PathBuf,
    name: String,
}

/// Identity of an opened file (device and inode from `fstat`): the same file however its path
/// is spelled, for caches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FileId {
    dev: u64,
    ino: u64,
}

/// A regular file opened inside a root, not yet read.
#[derive(Debug)]
pub struct OpenAsset {
    file: cap_std::fs::File,
    len: u64,
    id: FileId,
    display: PathBuf,
}

impl AssetRoot {
    /// Opens `path` (a folder) as a root named `name`.
    ///
    /// # Errors
    /// [`AssetError::Io`] when it is not an openable folder.
    pub fn open(path: &Path, name: &str) -> Result<Self, AssetError> {
        let io = |source| AssetError::Io {
            file: path.to_owned(),
            source,
        };
        let folder = if path.as_os_str().is_empty() {
            Path::new(".")
        } else {
            path
        };
        let dir = Dir::open_ambient_dir(folder, cap_std::ambient_authority()).map_err(io)?;
        let path = folder.canonicalize().map_err(io)?;
        Ok(Self {
            dir,
            path,
            name: name.to_owned(),
        })
    }

    /// The root folder (canonical).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The root's name (`level folder`, `model folder`, `--asset-root`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// `relative` shown as a path under the root, for messages.
    pub fn display(&self, relative: &Path) -> PathBuf {
        self.path.join(relative)
    }

    /// Where `path` (a file or folder the *user* named: a level on the command line, its
    /// folder) lies relative to the root.
    ///
    /// # Errors
    /// [`AssetError::OutsideRoot`] when it is not inside the root; [`AssetError::Io`] when it
    /// does not exist.
    pub fn relative_of(&self, path: &Path) -> Result<PathBuf, AssetError> {
        let folder = if path.as_os_str().is_empty() {
            Path::new(".")
        } else {
            path
        };
        let real = folder.canonicalize().map_err(|source| AssetError::Io {
            file: path.to_owned(),
            source,
        })?;
        real.strip_prefix(&self.path)
            .map(Path::to_path_buf)
            .map_err(|_| AssetError::OutsideRoot {
                written: path.display().to_string(),
                file: real.clone(),
                root: self.path.clone(),
                root_name: self.name.clone(),
            })
    }

    /// Opens `relative` inside the root and checks that it is a regular file.
    ///
    /// The open refuses absolute paths, `..` that leaves the root and symlinks that lead out
    /// of it; it is non-blocking (a FIFO does not wait for a writer) and the handle is
    /// `fstat`ed, so devices, FIFOs, sockets and folders are refused before any read.
    ///
    /// # Errors
    /// [`AssetError::OutsideRoot`], [`AssetError::NotFound`], [`AssetError::NotRegularFile`],
    /// [`AssetError::Io`].
    pub fn open_file(&self, relative: &Path) -> Result<OpenAsset, AssetError> {
        let display = self.display(relative);
        let outside = || AssetError::OutsideRoot {
            written: relative.display().to_string(),
            file: display.clone(),
            root: self.path.clone(),
            root_name: self.name.clone(),
        };
        if relative
            .components()
            .any(|c| matches!(c, Component::Prefix(_) | Component::RootDir))
        {
            return Err(outside());
        }
        let mut options = OpenOptions::new();
        options.read(true);
        #[cfg(unix)]
        {
            use cap_std::fs::OpenOptionsExt;
            options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
        }
        let file = self.dir.open_with(relative, &options).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                AssetError::NotFound {
                    written: relative.display().to_string(),
                    file: display.clone(),
                    root: self.path.clone(),
                    root_name: self.name.clone(),
                }
            } else if e.kind() == std::io::ErrorKind::PermissionDenied
                && e.to_string().contains("outside of the filesystem")
            {
                // cap-std's refusal of an escaping path (`..`, absolute or symlink target).
                outside()
            } else {
                AssetError::Io {
                    file: display.clone(),
                    source: e,
                }
            }
        })?;
        let meta = file.metadata().map_err(|source| AssetError::Io {
            file: display.clone(),
            source,
        })?;
        if !meta.is_file() {
            return Err(AssetError::NotRegularFile {
                file: display,
                kind: file_kind(&meta),
            });
        }
        #[cfg(unix)]
        let id = {
            use cap_std::fs::MetadataExt;
            FileId {
                dev: meta.dev(),
                ino: meta.ino(),
            }
        };
        #[cfg(not(unix))]
        let id = FileId { dev: 0, ino: 0 };
        Ok(OpenAsset {
            file,
            len: meta.len(),
            id,
            display,
        })
    }
}

fn file_kind(meta: &cap_std::fs::Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use cap_std::fs::FileTypeExt;
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

impl OpenAsset {
    /// The file's identity (same file, same id).
    pub fn id(&self) -> FileId {
        self.id
    }

    /// The file as a path under its root, for messages.
    pub fn display(&self) -> &Path {
        &self.display
    }

    /// Size from `fstat`, bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the file is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Reads the whole file as one snapshot (`crate::snapshot`: a file changing during the
    /// read is read again, and refused if it keeps changing), refusing it when it is longer
    /// than `max_bytes` (by its `fstat` size, and again while reading through
    /// `take(max_bytes + 1)`, in case it grows).
    ///
    /// # Errors
    /// [`AssetError::OverBudget`] (budget [`Budget::FileBytes`]), [`AssetError::Changed`],
    /// [`AssetError::Io`].
    pub fn read(self, max_bytes: u64) -> Result<Vec<u8>, AssetError> {
        let over = |amount: String, display: PathBuf| AssetError::OverBudget {
            file: display,
            what: "the file".into(),
            amount,
            limit: max_bytes,
            unit: "bytes",
            budget: Budget::FileBytes,
        };
        if self.len > max_bytes {
            return Err(over(format!("{} bytes", self.len), self.display));
        }
        match crate::snapshot::read_snapshot(self.file, max_bytes, &self.display)? {
            Ok(bytes) => Ok(bytes),
            Err(_) => Err(over(format!("more than {max_bytes} bytes"), self.display)),
        }
    }
}

/// Reads `relative` inside `root`, at most `max_bytes` of it: the one way Sierra reads an
/// asset file ([`AssetRoot::open_file`] then [`OpenAsset::read`]).
///
/// # Errors
/// As [`AssetRoot::open_file`] and [`OpenAsset::read`].
pub fn open_within(
    root: &AssetRoot,
    relative: &Path,
    max_bytes: u64,
) -> Result<Vec<u8>, AssetError> {
    root.open_file(relative)?.read(max_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> (tempfile::TempDir, AssetRoot) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("root/sub")).unwrap();
        std::fs::write(dir.path().join("root/a.txt"), "inside").unwrap();
        std::fs::write(dir.path().join("outside.txt"), "outside").unwrap();
        let root = AssetRoot::open(&dir.path().join("root"), "level folder").unwrap();
        (dir, root)
    }

    #[test]
    fn files_inside_read_and_dotdot_inside_is_fine() {
        let (_d, root) = setup();
        assert_eq!(
            open_within(&root, Path::new("a.txt"), 100).unwrap(),
            b"inside"
        );
        assert_eq!(
            open_within(&root, Path::new("sub/../a.txt"), 100).unwrap(),
            b"inside"
        );
        let a = root.open_file(Path::new("a.txt")).unwrap().id();
        let b = root.open_file(Path::new("sub/../a.txt")).unwrap().id();
        assert_eq!(a, b);
    }

    #[test]
    fn escapes_are_refused_at_open() {
        let (d, root) = setup();
        let outside = d.path().join("outside.txt");
        #[cfg(unix)]
        std::os::unix::fs::symlink(&outside, d.path().join("root/link.txt")).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(d.path(), d.path().join("root/up")).unwrap();
        let mut cases = vec!["../outside.txt", "sub/../../outside.txt"];
        let abs = outside.display().to_string();
        cases.push(&abs);
        #[cfg(unix)]
        cases.extend(["link.txt", "up/outside.txt"]);
        for case in cases {
            let err = open_within(&root, Path::new(case), 100).unwrap_err();
            assert!(
                matches!(err, AssetError::OutsideRoot { .. }),
                "{case}: {err}"
            );
            assert!(err.to_string().contains("outside the asset root"), "{err}");
        }
    }

    #[test]
    fn missing_files_and_budgets() {
        let (_d, root) = setup();
        let err = open_within(&root, Path::new("nope.txt"), 100).unwrap_err();
        assert!(matches!(err, AssetError::NotFound { .. }), "{err}");
        let err = open_within(&root, Path::new("a.txt"), 5).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "{}: refused: the file is 6 bytes, more than the limit of 5 bytes (default 268435456; raise it with --max-file-bytes)",
                root.path().join("a.txt").display()
            )
        );
        assert_eq!(
            open_within(&root, Path::new("a.txt"), 6).unwrap(),
            b"inside"
        );
    }

    #[cfg(unix)]
    #[test]
    fn devices_fifos_and_folders_are_not_read() {
        let dev = AssetRoot::open(Path::new("/dev"), "model folder").unwrap();
        let err = open_within(&dev, Path::new("zero"), 1 << 30).unwrap_err();
        assert!(err.to_string().contains("a character device"), "{err}");
        let (d, root) = setup();
        let fifo = d.path().join("root/pipe");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: mkfifo on a NUL-terminated path we own.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        // Blocking here would hang the test: the open is non-blocking, then refused.
        let err = open_within(&root, Path::new("pipe"), 100).unwrap_err();
        assert!(err.to_string().contains("FIFO"), "{err}");
        let err = open_within(&root, Path::new("sub"), 100).unwrap_err();
        assert!(err.to_string().contains("a folder"), "{err}");
    }
}
