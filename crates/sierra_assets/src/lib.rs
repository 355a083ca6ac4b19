//! Sierra's trust boundary for files: every asset the engine reads (level meshes, normal maps,
//! character and crowd models, glTF buffers and images, sounds) is opened through this crate.
//!
//! - [`AssetRoot`]: a named folder, opened once as a capability ([`cap_std::fs::Dir`]). Files
//!   are opened *relative to it*, and the open itself refuses absolute paths, `..` that climbs
//!   out of it and symlinks that lead out of it (Linux: `openat2(RESOLVE_BENEATH)`; elsewhere
//!   cap-std's component-by-component resolution). Nothing checks a path string and then
//!   opens it, so a path cannot change meaning between the check and the open.
//! - [`open_within`]: the one way to read an asset file: open within the root (non-blocking,
//!   so a FIFO cannot hang the open), `fstat` the handle and require a regular file (not a
//!   device such as `/dev/zero`, a FIFO or a directory), then read through
//!   [`std::io::Read::take`]`(max_bytes + 1)` so no file can be longer than its budget, as one
//!   snapshot: a file that changes while it is read is read again, and refused
//!   ([`AssetError::Changed`]) if it keeps changing.
//! - [`Budgets`]: the documented limits (bytes per file, decoded bytes per glTF, image
//!   dimensions, vertices per generated mesh), with the CLI flag and level setting that
//!   change each.
//! - [`Resolver`]: what importers take instead of a path: a root, the folder (inside it)
//!   that relative references start from, and the budgets. [`Resolver::read_uri`] resolves
//!   glTF URIs (RFC 3986 relative references, percent-decoded; `data:` URIs; any scheme such
//!   as `file:` refused).
//!
//! - On the web (wasm32) a root is the set of files fetched from the page's origin before an
//!   import (`root_web.rs`, [`AssetRoot::served`]); [`served_path`] is the check every URL passes
//!   before it is fetched: relative, inside the served folder, no `..` that climbs out.
//!
//! - [`SHARED_PREFIX`]: a path written `shared:PATH` names `PATH` inside the shared sample
//!   assets ([`shared_assets_dir`]), opened through that folder as its own root.
//!
//! - [`AtomicFile`], [`write_atomic`]: the one way outputs are written: to a temporary name in
//!   the same folder, renamed when complete, so a failed write leaves no partial file.
//!
//! Errors ([`AssetError`]) name the file as the user wrote it under its root, and for budget
//! refusals the amount, the limit and how to raise it.

#![warn(missing_docs)]

mod atomic_write;
mod budgets;
mod error;
mod resolver;
#[cfg(not(target_arch = "wasm32"))]
mod root;
#[cfg(target_arch = "wasm32")]
#[path = "root_web.rs"]
mod root;
mod served;
mod shared;
#[cfg(not(target_arch = "wasm32"))]
mod snapshot;
mod uri;

pub use atomic_write::{write_atomic, write_atomic_with, AtomicFile, WriteError, TEMP_MARKER};
pub use budgets::{Budget, BudgetOverrides, Budgets, MAX_CROWD_INSTANCES_LIMIT};
pub use error::AssetError;
pub use resolver::Resolver;
pub use root::{open_within, AssetRoot, FileId, OpenAsset};
pub use served::served_path;
pub use shared::{shared_assets_dir, shared_path, SHARED_PREFIX, SHARED_ROOT_NAME};
pub use uri::{decode_uri, UriTarget};
