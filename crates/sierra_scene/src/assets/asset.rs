//! What the cache loads: a type built from a file's bytes ([`Asset`]).

use std::any::Any;
use std::path::Path;

use sierra_assets::Resolver;

use crate::error::Error;

/// A type the cache can load from a file's bytes.
pub trait Asset: Any + Send + Sync + Sized {
    /// Builds the asset from the file's bytes; `path` names the file in errors, `resolver`
    /// reads the files it references itself (from its folder, inside the same root, within
    /// the same budgets).
    ///
    /// # Errors
    /// The asset's own errors, naming `path`.
    fn from_bytes(bytes: &[u8], path: &Path, resolver: &Resolver) -> Result<Self, Error>;
}
