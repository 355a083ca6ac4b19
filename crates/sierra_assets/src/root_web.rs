//! The web build's asset root (wasm32): the files fetched from the page's origin before an
//! import, by their path inside the served folder. The same API as the native root
//! (`root.rs`), so the resolver, its URI rules and the byte budgets are the same code; the
//! containment check is lexical ([`crate::served_path`]'s rule) because the files are only
//! names here: nothing outside the served folder was ever fetched.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::{AssetError, Budget};

/// Files served from one folder, by their normalised path inside it.
#[derive(Debug)]
pub struct AssetRoot {
    files: BTreeMap<PathBuf, Vec<u8>>,
    path: PathBuf,
    name: String,
}

/// Identity of a file inside its root: its index in the root's sorted names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FileId {
    dev: u64,
    ino: u64,
}

/// A file of a root, not yet read (its bytes are already in memory).
#[derive(Debug)]
pub struct OpenAsset {
    bytes: Vec<u8>,
    id: FileId,
    display: PathBuf,
}

impl AssetRoot {
    /// There is no filesystem on the web: always [`AssetError::Io`] (`Unsupported`), naming
    /// `path`. Use [`AssetRoot::served`].
    ///
    /// # Errors
    /// Always.
    pub fn open(path: &Path, name: &str) -> Result<Self, AssetError> {
        Err(AssetError::Io {
            file: path.to_owned(),
            source: std::io::Error::new(
                std::io::ErrorKind::Unsupported,
                format!("the web build has no folders to open as the {name}; its assets are fetched from the page's origin"),
            ),
        })
    }

    /// A root named `name`, shown as `base` in messages (the served folder's URL), holding
    /// `files` (path inside the served folder, bytes). Paths are normalised; one that leaves
    /// the folder is dropped (it can never be opened).
    pub fn served(
        name: &str,
        base: &str,
        files: impl IntoIterator<Item = (PathBuf, Vec<u8>)>,
    ) -> Self {
        let files = files
            .into_iter()
            .filter_map(|(p, b)| crate::served::normalise(&p).map(|p| (p, b)))
            .collect();
        Self {
            files,
            path: PathBuf::from(base),
            name: name.to_owned(),
        }
    }

    /// The served folder's URL.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The root's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// `relative` shown under the root, for messages.
    pub fn display(&self, relative: &Path) -> PathBuf {
        self.path.join(relative)
    }

    /// `path` inside the root (lexically: it must be relative and stay inside).
    ///
    /// # Errors
    /// [`AssetError::OutsideRoot`].
    pub fn relative_of(&self, path: &Path) -> Result<PathBuf, AssetError> {
        crate::served::normalise(path).ok_or_else(|| self.outside(path))
    }

    /// The file at `relative`.
    ///
    /// # Errors
    /// [`AssetError::OutsideRoot`] for an absolute path or a `..` climbing out,
    /// [`AssetError::NotFound`] when it was not fetched.
    pub fn open_file(&self, relative: &Path) -> Result<OpenAsset, AssetError> {
        let inside = self.relative_of(relative)?;
        let display = self.display(&inside);
        let Some((index, bytes)) = self
            .files
            .iter()
            .enumerate()
            .find_map(|(i, (p, b))| (*p == inside).then_some((i, b)))
        else {
            return Err(AssetError::NotFound {
                written: relative.display().to_string(),
                file: display,
                root: self.path.clone(),
                root_name: self.name.clone(),
            });
        };
        Ok(OpenAsset {
            bytes: bytes.clone(),
            id: FileId {
                dev: 0,
                ino: index as u64,
            },
            display,
        })
    }

    fn outside(&self, written: &Path) -> AssetError {
        AssetError::OutsideRoot {
            written: written.display().to_string(),
            file: self.display(written),
            root: self.path.clone(),
            root_name: self.name.clone(),
        }
    }
}

impl OpenAsset {
    /// The file's identity.
    pub fn id(&self) -> FileId {
        self.id
    }

    /// The file as a path under its root, for messages.
    pub fn display(&self) -> &Path {
        &self.display
    }

    /// Size, bytes.
    pub fn len(&self) -> u64 {
        self.bytes.len() as u64
    }

    /// Whether the file is empty.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The bytes, refused when longer than `max_bytes` (the same budget as native).
    ///
    /// # Errors
    /// [`AssetError::OverBudget`] (budget [`Budget::FileBytes`]).
    pub fn read(self, max_bytes: u64) -> Result<Vec<u8>, AssetError> {
        if self.len() > max_bytes {
            return Err(AssetError::OverBudget {
                file: self.display,
                what: "the file".into(),
                amount: format!("{} bytes", self.bytes.len()),
                limit: max_bytes,
                unit: "bytes",
                budget: Budget::FileBytes,
            });
        }
        Ok(self.bytes)
    }
}

/// Reads `relative` inside `root`, at most `max_bytes` of it ([`AssetRoot::open_file`] then
/// [`OpenAsset::read`]).
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
