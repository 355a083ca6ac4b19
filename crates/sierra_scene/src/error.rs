//! The crate's one error type.

use std::path::PathBuf;

/// Everything that can go wrong while loading levels and assets or building a scene.
///
/// Every variant that comes from a file names that file; level errors also carry the
/// JSON path (`objects[2].components[0].degreesPerSecond`) of the offending value and,
/// where the parser knows it, the line and column (1-based).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read.
    #[error("{}: cannot read file: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The level JSON does not match the format (syntax, unknown field, wrong type,
    /// missing field, unknown component type or mesh primitive).
    #[error("{}:{line}:{column}: at `{json_path}`: {message}", file.display())]
    Json {
        /// The level file.
        file: PathBuf,
        /// JSON path of the value, e.g. `objects[1].rotation` (`.` is the document root).
        json_path: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What was expected, from serde.
        message: String,
    },
    /// Two objects share a name, so `parent` references and paths would be ambiguous.
    #[error("{}: at `{json_path}`: duplicate object name `{name}` (names must be unique within a level)", file.display())]
    DuplicateName {
        /// The level file.
        file: PathBuf,
        /// JSON path of the second object's `name`.
        json_path: String,
        /// The repeated name.
        name: String,
    },
    /// An object names something (a `parent`, a `FollowCamera.target`) that no object is called.
    #[error("{}: at `{json_path}`: no object is named `{name}` (objects: {known})", file.display())]
    UnknownObject {
        /// The level file.
        file: PathBuf,
        /// JSON path of the reference.
        json_path: String,
        /// The missing name.
        name: String,
        /// Comma-separated names of the level's objects.
        known: String,
    },
    /// The `parent` references form a cycle.
    #[error("{}: at `{json_path}`: parent cycle: {}", file.display(), cycle.join(" -> "))]
    ParentCycle {
        /// The level file.
        file: PathBuf,
        /// JSON path of the `parent` field that closes the cycle.
        json_path: String,
        /// Object names along the cycle, first repeated at the end.
        cycle: Vec<String>,
    },
    /// An asset referenced by a level failed to resolve or load; `source` says why.
    #[error("{}: at `{json_path}`: {source}", file.display())]
    InLevel {
        /// The level file.
        file: PathBuf,
        /// JSON path of the asset reference, e.g. `objects[3].mesh`.
        json_path: String,
        /// The asset error ([`Error::AssetNotFound`], [`Error::OutsideAssetRoot`], [`Error::Gltf`], ...).
        source: Box<Error>,
    },
    /// An asset path does not name an existing file.
    #[error("asset `{asset}` does not exist (looked for {})", resolved.display())]
    AssetNotFound {
        /// The path as written.
        asset: String,
        /// Where it was looked for.
        resolved: PathBuf,
    },
    /// An asset path resolves outside the asset root (`..`, absolute paths, symlinks); the
    /// open itself refuses it (`sierra_assets`), so nothing outside is read.
    #[error("asset `{asset}` ({}) is outside the asset root {} ({root_name}); asset paths are relative and stay inside it (pass --asset-root to choose a larger root)", resolved.display(), root.display())]
    OutsideAssetRoot {
        /// The path as written.
        asset: String,
        /// Where it would have been.
        resolved: PathBuf,
        /// The asset root it must stay in.
        root: PathBuf,
        /// The root's name (`level folder`, `--asset-root`).
        root_name: String,
    },
    /// Any other refusal of `sierra_assets` (not a regular file, over a budget, unreadable).
    #[error("{0}")]
    Asset(sierra_assets::AssetError),
    /// A value that parses but is refused: a number out of the 32-bit float range, a generated
    /// mesh over its vertex budget.
    #[error("{}: at `{json_path}`: {message}", file.display())]
    Invalid {
        /// The level file.
        file: PathBuf,
        /// JSON path of the value.
        json_path: String,
        /// What is wrong, with the amount and the limit.
        message: String,
    },
    /// A glTF file could not be imported (truncated, malformed, unsupported).
    #[error("{}: glTF import failed: {message}", path.display())]
    Gltf {
        /// The glTF file.
        path: PathBuf,
        /// The importer's message.
        message: String,
    },
    /// A scene-graph edit was refused (stale id, re-parenting under a descendant).
    #[error("scene graph: {0}")]
    Graph(String),
}

impl From<sierra_assets::AssetError> for Error {
    /// Outside-the-root and not-found refusals keep their own variants; the rest are [`Error::Asset`].
    fn from(e: sierra_assets::AssetError) -> Self {
        use sierra_assets::AssetError as A;
        match e {
            A::OutsideRoot {
                written,
                file,
                root,
                root_name,
            } => Error::OutsideAssetRoot {
                asset: written,
                resolved: file,
                root,
                root_name,
            },
            A::NotFound { written, file, .. } => Error::AssetNotFound {
                asset: written,
                resolved: file,
            },
            A::Io { file, source } => Error::Io { path: file, source },
            other => Error::Asset(other),
        }
    }
}

/// The error of [`crate::level::load_level`]: the crate's [`Error`].
pub type LevelError = Error;
