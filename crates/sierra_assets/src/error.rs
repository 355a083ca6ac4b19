//! The crate's error type: every variant names the file (or URI) and what was refused.

use std::path::PathBuf;

/// Why an asset could not be opened or read.
#[derive(Debug, thiserror::Error)]
pub enum AssetError {
    /// The path leaves its asset root (absolute path, `..` climbing out, a symlink leading out).
    #[error("{}: refused: `{written}` is outside the asset root {} ({root_name}); asset paths are relative and stay inside it{}", file.display(), root.display(), hint(.root_name))]
    OutsideRoot {
        /// The path as written (relative to the referring file's folder).
        written: String,
        /// Where it would have been (root joined with the path, for the message).
        file: PathBuf,
        /// The root folder.
        root: PathBuf,
        /// The root's name, e.g. `level folder` or `--asset-root`.
        root_name: String,
    },
    /// No such file inside the root.
    #[error("{}: no such file (asset root {} ({root_name}))", file.display(), root.display())]
    NotFound {
        /// The path as written.
        written: String,
        /// The file looked for.
        file: PathBuf,
        /// The root folder.
        root: PathBuf,
        /// The root's name.
        root_name: String,
    },
    /// The path names something other than a regular file (device, FIFO, socket, folder).
    #[error("{}: refused: it is {kind}, not a regular file", file.display())]
    NotRegularFile {
        /// The file.
        file: PathBuf,
        /// What it is, e.g. `a character device`.
        kind: &'static str,
    },
    /// The file (or decoded data) is larger than its budget.
    #[error("{}: refused: {what} is {amount}, more than the limit of {limit} {unit} ({})", file.display(), .budget.how_to_raise())]
    OverBudget {
        /// The file (or `file (place)`).
        file: PathBuf,
        /// What was measured, e.g. `the file` or `accessor 3 (mesh 0 primitive 1 POSITION)`.
        what: String,
        /// The amount, formatted (`at least N bytes` when reading stopped at the limit).
        amount: String,
        /// The limit.
        limit: u64,
        /// Unit of `limit`, e.g. `bytes`.
        unit: &'static str,
        /// Which budget.
        budget: crate::Budget,
    },
    /// A glTF URI that is not a relative reference or a `data:` URI, or is malformed.
    #[error("{}: {reason}", file.display())]
    BadUri {
        /// The referring file and the place, e.g. `model.gltf (buffers[0].uri "file:///x")`.
        file: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A `shared:PATH` reference while the shared sample assets folder cannot be opened (a
    /// user's clone has none: only the interoperability examples use `shared:`).
    #[error("{}: `{written}` names the shared sample assets, but their folder {} cannot be opened ({source}); set SIERRA_SHARED to the folder holding `assets/`, or run beside `../shared`", written.trim_start_matches(crate::SHARED_PREFIX), folder.display())]
    SharedFolderMissing {
        /// The reference as written, `shared:PATH`.
        written: String,
        /// The shared assets folder looked for.
        folder: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The file kept changing while it was read (another program writing it): no consistent
    /// snapshot could be read.
    #[error("{}: the file changed while it was being read ({tries} tries); another program is writing it: load it again once it is saved", file.display())]
    Changed {
        /// The file.
        file: PathBuf,
        /// Reads tried.
        tries: u32,
    },
    /// The root itself cannot be opened, or any other I/O error.
    #[error("{}: cannot read: {source}", file.display())]
    Io {
        /// The file or folder.
        file: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
}

fn hint(root_name: &str) -> &'static str {
    if root_name == "--asset-root" || root_name == crate::SHARED_ROOT_NAME {
        ""
    } else {
        " (to let assets share a folder above it, pass --asset-root)"
    }
}
