//! The asset cache: every file is read once; later requests share the same `Arc`.
//!
//! Seed 000's `AssetCache<T>::Load` keyed raw pointers by file name; here the key is the
//! file's identity plus the asset type, the value an `Arc<T>`, and files are opened inside
//! an asset root through `sierra_assets` (a path that leaves it, by `..`, an absolute path
//! or a symlink, is refused by the open itself).

mod asset;
mod gltf_scene;

pub use asset::Asset;
pub use gltf_scene::{
    node_extras, ColliderDef, ColliderShape, ConstraintDef, ConstraintType, GltfNode, GltfScene,
};

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use sierra_assets::{AssetRoot, Budgets, FileId, Resolver};

use crate::error::Error;
use crate::level::Level;

/// Loads files once and hands out shared handles (`Arc<T>`). Files are opened only through
/// `sierra_assets` (inside the root, regular files, within [`Budgets::file_bytes`]) and keyed
/// by their identity (device and inode), so one file under two spellings is read once.
#[derive(Default)]
pub struct AssetCache {
    root_path: PathBuf,
    root_name: String,
    root: Option<Arc<AssetRoot>>,
    budgets: Budgets,
    entries: HashMap<(FileId, TypeId), Arc<dyn Any + Send + Sync>>,
    /// The file each entry was read from (as [`AssetCache::forget`] compares it).
    sources: HashMap<(FileId, TypeId), PathBuf>,
    file_reads: usize,
}

impl std::fmt::Debug for AssetCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AssetCache")
            .field("root", &self.root_path)
            .field("entries", &self.entries.len())
            .finish()
    }
}

impl AssetCache {
    /// A cache whose assets must lie inside `root` (named `asset root` in messages), with the
    /// default budgets.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self {
            root_path: root.into(),
            root_name: "asset root".into(),
            ..Default::default()
        }
    }

    /// A cache rooted at the level's asset root, with the level's budgets.
    pub fn for_level(level: &Level) -> Self {
        Self {
            root_path: level.asset_root.clone(),
            root_name: level.asset_root_name.clone(),
            budgets: level.budgets,
            ..Default::default()
        }
    }

    /// The asset root.
    pub fn root(&self) -> &Path {
        &self.root_path
    }

    /// How many files the cache has read (each distinct asset once).
    pub fn file_reads(&self) -> usize {
        self.file_reads
    }

    /// The resolver of `folder` (a folder inside the root, e.g. the level's folder).
    ///
    /// # Errors
    /// [`Error::Asset`] when the root cannot be opened, [`Error::OutsideAssetRoot`] when
    /// `folder` is not inside it.
    pub fn resolver(&mut self, folder: &Path) -> Result<Resolver, Error> {
        let root = match &self.root {
            Some(root) => root.clone(),
            None => {
                let root = Arc::new(AssetRoot::open(&self.root_path, &self.root_name)?);
                self.root = Some(root.clone());
                root
            }
        };
        let relative = root.relative_of(folder)?;
        Ok(Resolver::new(root, relative, self.budgets))
    }

    /// Loads `asset` (a path relative to `folder`, e.g. the level's folder) as a `T`,
    /// reading the file only the first time; later calls for the same file (however
    /// spelled) return the same `Arc`.
    ///
    /// # Errors
    /// [`Error::OutsideAssetRoot`], [`Error::AssetNotFound`], [`Error::Asset`] (not a
    /// regular file, over budget, unreadable), or the asset's own error (e.g.
    /// [`Error::Gltf`]). Failed loads are not cached.
    pub fn load<T: Asset>(&mut self, folder: &Path, asset: &Path) -> Result<Arc<T>, Error> {
        let resolver = self.resolver(folder)?;
        let file = resolver.open(asset)?;
        let key = (file.id(), TypeId::of::<T>());
        if let Some(hit) = self.entries.get(&key) {
            if let Ok(shared) = hit.clone().downcast::<T>() {
                return Ok(shared);
            }
        }
        let display = file.display().to_path_buf();
        let bytes = file.read(self.budgets.file_bytes)?;
        self.file_reads += 1;
        let loaded = Arc::new(T::from_bytes(&bytes, &display, &resolver.for_file(asset))?);
        self.entries.insert(key, loaded.clone());
        self.sources.insert(key, comparable(&display));
        Ok(loaded)
    }

    /// Drops what was read from `file` (however spelled), so the next [`AssetCache::load`] reads
    /// it again: a file edited in place keeps its identity, and the hot reload
    /// (`sierra::hot_reload`) must not be served the old contents. Returns how many entries
    /// were dropped (0 for a file the cache never read). Handles already given out stay valid.
    pub fn forget(&mut self, file: &Path) -> usize {
        let file = comparable(file);
        let stale: Vec<_> = self
            .sources
            .iter()
            .filter(|(_, source)| **source == file)
            .map(|(key, _)| *key)
            .collect();
        for key in &stale {
            self.entries.remove(key);
            self.sources.remove(key);
        }
        stale.len()
    }

    /// The files the cache holds assets of (canonical where they still exist).
    pub fn sources(&self) -> impl Iterator<Item = &Path> + '_ {
        self.sources.values().map(PathBuf::as_path)
    }
}

/// `path` made comparable with another spelling of the same file: canonical when it exists.
fn comparable(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Text(String);
    impl Asset for Text {
        fn from_bytes(bytes: &[u8], _: &Path, _: &Resolver) -> Result<Self, Error> {
            Ok(Text(String::from_utf8_lossy(bytes).into_owned()))
        }
    }

    #[test]
    fn same_file_twice_is_read_once_and_shared() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("a.txt"), "hello").unwrap();
        std::fs::write(dir.path().join("b.txt"), "other").unwrap();
        let mut cache = AssetCache::new(dir.path());
        let a1 = cache.load::<Text>(dir.path(), Path::new("a.txt")).unwrap();
        let a2 = cache
            .load::<Text>(&dir.path().join("sub"), Path::new("../a.txt"))
            .unwrap();
        assert!(Arc::ptr_eq(&a1, &a2));
        assert_eq!(cache.file_reads(), 1);
        let b = cache.load::<Text>(dir.path(), Path::new("b.txt")).unwrap();
        assert_eq!(b.0, "other");
        assert_eq!(a1.0, "hello");
        assert_eq!(cache.file_reads(), 2);
    }

    /// A file edited in place keeps its identity: only `forget` makes the cache read it again;
    /// the negative control (another file forgotten) leaves the stale entry in place.
    #[test]
    fn a_forgotten_file_is_read_again_with_its_new_contents() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let file = dir.path().join("a.txt");
        std::fs::write(&file, "old").unwrap();
        let mut cache = AssetCache::new(dir.path());
        let first = cache.load::<Text>(dir.path(), Path::new("a.txt")).unwrap();
        std::fs::write(&file, "new").unwrap();
        assert_eq!(cache.forget(&dir.path().join("b.txt")), 0);
        let stale = cache.load::<Text>(dir.path(), Path::new("a.txt")).unwrap();
        assert_eq!(stale.0, "old");
        assert_eq!(cache.forget(&dir.path().join("sub/../a.txt")), 1);
        let fresh = cache.load::<Text>(dir.path(), Path::new("a.txt")).unwrap();
        assert_eq!((first.0.as_str(), fresh.0.as_str()), ("old", "new"));
        assert_eq!(cache.file_reads(), 2);
    }

    #[test]
    fn escaping_paths_and_missing_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir(&root).unwrap();
        std::fs::write(dir.path().join("outside.txt"), "x").unwrap();
        let mut cache = AssetCache::new(&root);
        let err = cache
            .load::<Text>(&root, Path::new("../outside.txt"))
            .unwrap_err();
        assert!(matches!(err, Error::OutsideAssetRoot { .. }), "{err}");
        let err = cache
            .load::<Text>(&root, &dir.path().join("outside.txt"))
            .unwrap_err();
        assert!(matches!(err, Error::OutsideAssetRoot { .. }), "{err}");
        let err = cache
            .load::<Text>(&root, Path::new("nope.txt"))
            .unwrap_err();
        assert!(matches!(err, Error::AssetNotFound { .. }), "{err}");
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.path().join("outside.txt"), root.join("link.txt"))
                .unwrap();
            let err = cache
                .load::<Text>(&root, Path::new("link.txt"))
                .unwrap_err();
            assert!(matches!(err, Error::OutsideAssetRoot { .. }), "{err}");
        }
        assert_eq!(cache.file_reads(), 0);
    }
}
