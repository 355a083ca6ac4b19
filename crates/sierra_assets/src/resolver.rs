//! What importers take instead of a path: a root, a folder inside it, and the budgets.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::{decode_uri, AssetError, AssetRoot, Budgets, OpenAsset, UriTarget};

/// Resolves the references of one file: paths relative to `folder` (a folder inside the
/// root), opened only through [`AssetRoot::open_file`], read within [`Budgets::file_bytes`].
///
/// A path written `shared:PATH` ([`crate::SHARED_PREFIX`]) is `PATH` inside the shared
/// assets folder ([`crate::shared_assets_dir`]) instead, opened as its own root (named
/// [`crate::SHARED_ROOT_NAME`]) with the same containment rules; the resolver of such a file
/// ([`Resolver::for_file`]) stays in that root.
///
/// A *detached* resolver ([`Resolver::detached`]) has no root: it is for data built in
/// memory (the built-in mannequin), and refuses every file reference.
#[derive(Clone, Debug)]
pub struct Resolver {
    root: Option<Arc<AssetRoot>>,
    folder: PathBuf,
    budgets: Budgets,
}

impl Resolver {
    /// References resolve from `folder` (relative to `root`).
    pub fn new(root: Arc<AssetRoot>, folder: impl Into<PathBuf>, budgets: Budgets) -> Self {
        Self {
            root: Some(root),
            folder: folder.into(),
            budgets,
        }
    }

    /// A resolver for `path`, a file the user named directly (`sierra view MODEL`, `sierra
    /// pose MODEL`): the root is `asset_root` when given (named `--asset-root`), else the
    /// file's own folder (named `model folder`). Returns the resolver for the file's folder
    /// and the file's path relative to the root.
    ///
    /// # Errors
    /// [`AssetError::Io`] when the folder cannot be opened, [`AssetError::OutsideRoot`] when
    /// the file is not inside `asset_root`.
    pub fn for_user_file(
        path: &Path,
        asset_root: Option<&Path>,
        budgets: Budgets,
    ) -> Result<(Self, PathBuf), AssetError> {
        let parent = path.parent().unwrap_or(Path::new(""));
        let name = path.file_name().map(PathBuf::from).unwrap_or_default();
        let root = match asset_root {
            Some(r) => AssetRoot::open(r, "--asset-root")?,
            None => AssetRoot::open(parent, "model folder")?,
        };
        let folder = root.relative_of(parent)?;
        let relative = folder.join(name);
        Ok((Self::new(Arc::new(root), folder, budgets), relative))
    }

    /// A resolver without a root: every file reference is refused.
    pub fn detached(budgets: Budgets) -> Self {
        Self {
            root: None,
            folder: PathBuf::new(),
            budgets,
        }
    }

    /// The budgets.
    pub fn budgets(&self) -> &Budgets {
        &self.budgets
    }

    /// The root, if any.
    pub fn root(&self) -> Option<&Arc<AssetRoot>> {
        self.root.as_ref()
    }

    /// The folder references start from, relative to the root.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// The resolver of a file at `relative` (from this resolver's folder): same root and
    /// budgets, references from that file's folder. For a `shared:` path whose shared folder
    /// cannot be opened, a detached resolver (the file itself could not be opened either).
    pub fn for_file(&self, relative: &Path) -> Resolver {
        let (root, path) = match crate::shared_path(relative) {
            Some(inner) => match shared_root() {
                Ok(root) => (Some(root), inner.to_path_buf()),
                Err(_) => (None, inner.to_path_buf()),
            },
            None => (self.root.clone(), self.folder.join(relative)),
        };
        Resolver {
            root,
            folder: path.parent().map(Path::to_path_buf).unwrap_or_default(),
            budgets: self.budgets,
        }
    }

    /// `relative` (from the folder) as a path relative to the root.
    pub fn join(&self, relative: &Path) -> PathBuf {
        self.folder.join(relative)
    }

    /// `relative` (from the folder) shown under the root, for messages.
    pub fn display(&self, relative: &Path) -> PathBuf {
        if let Some(inner) = crate::shared_path(relative) {
            return crate::shared_assets_dir().join(inner);
        }
        let joined = self.join(relative);
        match &self.root {
            Some(root) => root.display(&joined),
            None => joined,
        }
    }

    /// Opens `relative` (from the folder) inside the root: see [`AssetRoot::open_file`];
    /// `shared:PATH` opens `PATH` inside the shared assets folder.
    ///
    /// # Errors
    /// As [`AssetRoot::open_file`]; a detached resolver refuses with
    /// [`AssetError::BadUri`]; [`AssetError::SharedFolderMissing`] naming the reference and
    /// the shared folder when a `shared:` path is used and that folder cannot be opened.
    pub fn open(&self, relative: &Path) -> Result<OpenAsset, AssetError> {
        if let Some(inner) = crate::shared_path(relative) {
            let root = shared_root().map_err(|e| match e {
                AssetError::Io { file, source } => AssetError::SharedFolderMissing {
                    written: relative.display().to_string(),
                    folder: file,
                    source,
                },
                other => other,
            })?;
            return root.open_file(inner);
        }
        self.open_in_root(relative)
    }

    /// Opens `relative` (from the folder) inside this resolver's own root (no `shared:`).
    fn open_in_root(&self, relative: &Path) -> Result<OpenAsset, AssetError> {
        match &self.root {
            Some(root) => root.open_file(&self.join(relative)),
            None => Err(AssetError::BadUri {
                file: relative.to_owned(),
                reason:
                    "this asset was built in memory and has no folder, so it cannot reference files"
                        .into(),
            }),
        }
    }

    /// Reads `relative` (from the folder) within [`Budgets::file_bytes`].
    ///
    /// # Errors
    /// As [`Resolver::open`] and [`OpenAsset::read`].
    pub fn read(&self, relative: &Path) -> Result<Vec<u8>, AssetError> {
        self.open(relative)?.read(self.budgets.file_bytes)
    }

    /// The bytes a glTF `uri` refers to ([`decode_uri`], then [`Resolver::read`]). `place`
    /// names the reference in errors, e.g. `model.gltf: buffers[0].uri`.
    ///
    /// # Errors
    /// [`AssetError::BadUri`] (naming `place`) and those of [`Resolver::read`].
    pub fn read_uri(&self, uri: &str, place: &str) -> Result<Vec<u8>, AssetError> {
        let bad = |reason: String| AssetError::BadUri {
            file: PathBuf::from(place),
            reason,
        };
        match decode_uri(uri, self.budgets.file_bytes).map_err(bad)? {
            UriTarget::Data(bytes) => Ok(bytes),
            // A file's own references stay in its root: no `shared:` from inside a glTF.
            UriTarget::Relative(path) => self.open_in_root(&path)?.read(self.budgets.file_bytes),
        }
    }
}

/// The shared assets folder opened as a root.
fn shared_root() -> Result<Arc<AssetRoot>, AssetError> {
    AssetRoot::open(&crate::shared_assets_dir(), crate::SHARED_ROOT_NAME).map(Arc::new)
}

impl Default for Resolver {
    /// [`Resolver::detached`] with the default budgets.
    fn default() -> Self {
        Self::detached(Budgets::DEFAULT)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_resolve_from_the_files_folder_and_stay_in_the_root() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("root/models")).unwrap();
        std::fs::create_dir_all(d.path().join("root/textures")).unwrap();
        std::fs::write(d.path().join("root/textures/My Tex.png"), "png").unwrap();
        std::fs::write(d.path().join("root/x.bin"), "x").unwrap();
        std::fs::write(d.path().join("secret.bin"), "secret").unwrap();
        let (r, rel) = Resolver::for_user_file(
            &d.path().join("root/models/m.gltf"),
            Some(&d.path().join("root")),
            Budgets::DEFAULT,
        )
        .unwrap();
        assert_eq!(rel, Path::new("models/m.gltf"));
        let place = "m.gltf: images[0].uri";
        assert_eq!(
            r.read_uri("../textures/My%20Tex.png", place).unwrap(),
            b"png"
        );
        assert_eq!(r.read_uri("..%2Fx.bin", place).unwrap(), b"x");
        let err = r.read_uri("../../secret.bin", place).unwrap_err();
        assert!(matches!(err, AssetError::OutsideRoot { .. }), "{err}");
        // Without --asset-root the model's folder is the root.
        let (r, _) =
            Resolver::for_user_file(&d.path().join("root/models/m.gltf"), None, Budgets::DEFAULT)
                .unwrap();
        let err = r.read_uri("../x.bin", place).unwrap_err();
        assert!(err.to_string().contains("(model folder)"), "{err}");
        let err = Resolver::detached(Budgets::DEFAULT)
            .read_uri("x.bin", place)
            .unwrap_err();
        assert!(err.to_string().contains("built in memory"), "{err}");
    }

    #[test]
    fn shared_paths_open_inside_the_shared_folder_and_stay_there() {
        let d = tempfile::tempdir().unwrap();
        let shared = d.path().join("shared");
        std::fs::create_dir_all(shared.join("assets/gltf/M")).unwrap();
        std::fs::create_dir_all(d.path().join("level")).unwrap();
        std::fs::write(shared.join("assets/gltf/M/m.bin"), "mesh").unwrap();
        std::fs::write(shared.join("secret.txt"), "secret").unwrap();
        // The variable is read at each use; this test is the only one in the crate that sets it.
        std::env::set_var("SIERRA_SHARED", &shared);
        let root = Arc::new(AssetRoot::open(&d.path().join("level"), "level folder").unwrap());
        let r = Resolver::new(root, "", Budgets::DEFAULT);
        assert_eq!(r.read(Path::new("shared:gltf/M/m.bin")).unwrap(), b"mesh");
        // The file's own references resolve from its folder inside the shared root.
        let inner = r.for_file(Path::new("shared:gltf/M/m.bin"));
        assert_eq!(
            inner.read_uri("m.bin", "m.gltf: buffers[0].uri").unwrap(),
            b"mesh"
        );
        let err = inner.read_uri("../../../secret.txt", "m.gltf").unwrap_err();
        assert!(matches!(err, AssetError::OutsideRoot { .. }), "{err}");
        for escape in ["shared:../secret.txt", "shared:/etc/passwd"] {
            let err = r.read(Path::new(escape)).unwrap_err();
            assert!(
                matches!(err, AssetError::OutsideRoot { .. }),
                "{escape}: {err}"
            );
            assert!(err.to_string().contains("shared assets"), "{err}");
        }
        // A glTF URI cannot name the shared root (a scheme, or percent-encoded).
        for uri in ["shared:gltf/M/m.bin", "shared%3Agltf/M/m.bin"] {
            assert!(inner.read_uri(uri, "m.gltf").is_err(), "{uri}");
        }
        std::env::set_var("SIERRA_SHARED", d.path().join("nowhere"));
        let err = r.read(Path::new("shared:gltf/M/m.bin")).unwrap_err();
        assert!(err.to_string().contains("nowhere"), "{err}");
        std::env::remove_var("SIERRA_SHARED");
    }
}
