//! Output folders that never destroy a user's files.
//!
//! Sierra writes into a folder only when it is new, empty, or holds a manifest Sierra wrote
//! there ([`MANIFEST`], JSON: `{"sierra_output_manifest": 1, "files": ["frame_0000.png", ...]}`)
//! listing every other file in it. Any other file is refused with an error naming it and
//! `--force`; `--force` lets a run overwrite files under the names it writes itself and leaves
//! every other file alone (it never deletes a file no manifest lists).
//!
//! A replacing run ([`OutputDir::replace`]: `render`, `view`, `demo`, `export-obj`, `water`)
//! first removes every file its folder's manifest lists, so the folder never mixes two runs
//! (a 2-frame run after a 4-frame run leaves no `frame_0002.png`). An appending run
//! ([`OutputDir::append`]: window screenshots) keeps earlier files and never overwrites one.
//!
//! Every file, the manifest included, is written under a temporary name in the folder and
//! renamed when complete ([`sierra_assets::write_atomic`]), so a failed write (disk full,
//! `EFBIG`) leaves no partial file under a name the manifest lists; a temporary file left by a
//! killed run is removed by the next run. The manifest lists the names a run plans before it
//! writes them, so it stays true whichever file a failure stops at: every file in the folder
//! is one it lists. The first manifest write is also the check that the folder is writable.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

/// File name of the manifest in an output folder.
pub const MANIFEST: &str = ".sierra-manifest.json";

/// Most foreign file names one refusal lists.
const LISTED_MAX: usize = 5;

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    /// Format version; also what marks the file as Sierra's.
    sierra_output_manifest: u32,
    /// Plain file names (no folders) Sierra wrote in this folder.
    files: Vec<String>,
}

/// An output folder prepared for one run; see the module documentation.
#[derive(Debug)]
pub struct OutputDir {
    dir: PathBuf,
    files: BTreeSet<String>,
}

impl OutputDir {
    /// Prepares `dir` for a run writing the plain file names `planned`: creates it, refuses
    /// foreign files (unless `force`), removes the previous run's files, and writes a manifest
    /// listing `planned`.
    ///
    /// # Errors
    /// A folder that cannot be created or written; a file in it that no Sierra manifest lists
    /// (without `force`), named in the message; a planned name that is a folder.
    pub fn replace(dir: &Path, planned: &[String], force: bool) -> Result<Self> {
        let previous = open(dir, force)?;
        for name in &previous {
            remove_file_if_present(dir, name)?;
        }
        if force {
            for name in planned {
                remove_file_if_present(dir, name)?;
            }
        }
        let out = Self {
            dir: dir.to_path_buf(),
            files: planned.iter().cloned().collect(),
        };
        out.write_manifest()?;
        Ok(out)
    }

    /// Prepares `dir` for a run that adds files with [`OutputDir::add`] and keeps the ones
    /// there (window screenshots).
    ///
    /// # Errors
    /// As [`OutputDir::replace`].
    pub fn append(dir: &Path, force: bool) -> Result<Self> {
        let previous = open(dir, force)?;
        let files = previous
            .into_iter()
            .filter(|name| dir.join(name).exists())
            .collect();
        let out = Self {
            dir: dir.to_path_buf(),
            files,
        };
        out.write_manifest()?;
        Ok(out)
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Path of `name`, one of the names this run planned or added.
    pub fn file(&self, name: &str) -> PathBuf {
        debug_assert!(self.files.contains(name), "{name} was not planned");
        self.dir.join(name)
    }

    /// Records a new file for an appending run: `stem.ext`, or `stem_2.ext`, `stem_3.ext`, ...
    /// when that name is taken (no existing file is ever overwritten). Returns its path.
    ///
    /// # Errors
    /// The manifest cannot be written.
    pub fn add(&mut self, stem: &str, ext: &str) -> Result<PathBuf> {
        let name = (1..)
            .map(|k| match k {
                1 => format!("{stem}.{ext}"),
                k => format!("{stem}_{k}.{ext}"),
            })
            .find(|n| !self.files.contains(n) && !self.dir.join(n).exists())
            .unwrap_or_default();
        self.files.insert(name.clone());
        self.write_manifest()?;
        Ok(self.dir.join(name))
    }

    /// Writes the manifest through a uniquely named temporary file renamed into place.
    fn write_manifest(&self) -> Result<()> {
        let manifest = Manifest {
            sierra_output_manifest: 1,
            files: self.files.iter().cloned().collect(),
        };
        let json = serde_json::to_string_pretty(&manifest).context("serialising the manifest")?;
        sierra_assets::write_atomic(&self.dir.join(MANIFEST), json.as_bytes())
            .with_context(|| format!("output folder {} is not writable", self.dir.display()))?;
        Ok(())
    }
}

/// Refuses, unless `path` does not exist or `force` is set, a single output file (`export-mannequin
/// OUT.glb`), and creates its parent folder.
///
/// # Errors
/// An existing file without `force` (naming it and `--force`), an existing folder, or a parent
/// folder that cannot be created.
pub fn check_single_file(path: &Path, force: bool) -> Result<()> {
    if path.is_dir() {
        bail!("{} is a folder, not a file name", path.display());
    }
    if path.symlink_metadata().is_ok() && !force {
        bail!(
            "{} already exists; Sierra does not overwrite files unasked: choose another name or pass --force to overwrite it",
            path.display()
        );
    }
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create folder {}", parent.display()))?;
    }
    Ok(())
}

/// Whether `name` is a temporary file of [`sierra_assets::AtomicFile`] (`.NAME.sierra-tmp-…`).
fn is_leftover_temporary(name: &str) -> bool {
    name.starts_with('.') && name.contains(sierra_assets::TEMP_MARKER)
}

/// Creates `dir` and returns the names its manifest lists, refusing files no manifest lists
/// unless `force`.
fn open(dir: &Path, force: bool) -> Result<Vec<String>> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create output folder {}", dir.display()))?;
    let listed = read_manifest(dir)?;
    let mut foreign = Vec::new();
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot list {}", dir.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if is_leftover_temporary(&name) {
            // A write Sierra never finished (the process was killed): never a user's file.
            remove_file_if_present(dir, &name)?;
            continue;
        }
        let ours = name == MANIFEST && listed.is_some()
            || listed.as_ref().is_some_and(|l| l.contains(&name));
        if !ours {
            foreign.push(name);
        }
    }
    if !foreign.is_empty() && !force {
        foreign.sort();
        let shown: Vec<&str> = foreign
            .iter()
            .take(LISTED_MAX)
            .map(String::as_str)
            .collect();
        let more = match foreign.len().saturating_sub(LISTED_MAX) {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        bail!(
            "output folder {} holds {}{more}, which Sierra did not write (no {MANIFEST} there lists it); \
             Sierra does not overwrite or delete your files: choose a new or empty folder, or pass --force \
             to overwrite only the names this run writes and leave every other file alone",
            dir.display(),
            shown.join(", ")
        );
    }
    Ok(listed.unwrap_or_default())
}

/// The file names `dir`'s manifest lists: `None` without a manifest or with a file of that
/// name that is not one (a foreign file). Names that are not plain file names are dropped, so
/// a crafted manifest cannot make Sierra remove anything outside the folder.
fn read_manifest(dir: &Path) -> Result<Option<Vec<String>>> {
    let path = dir.join(MANIFEST);
    if !path.is_file() {
        return Ok(None);
    }
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(_) => return Ok(None),
    };
    let Ok(manifest) = serde_json::from_str::<Manifest>(&text) else {
        return Ok(None);
    };
    Ok(Some(
        manifest
            .files
            .into_iter()
            .filter(|n| is_plain_name(n))
            .collect(),
    ))
}

/// A single normal file name: no separators, not `.`/`..`, not the manifest.
fn is_plain_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && name != MANIFEST
        && !name.contains(['/', '\\', '\0'])
}

/// Removes `dir/name` when it is a file or a link (never a folder).
fn remove_file_if_present(dir: &Path, name: &str) -> Result<()> {
    let path = dir.join(name);
    match path.symlink_metadata() {
        Ok(meta) if meta.is_dir() => bail!(
            "{} is a folder; Sierra needs that name for a file",
            path.display()
        ),
        Ok(_) => std::fs::remove_file(&path)
            .with_context(|| format!("cannot replace {}", path.display())),
        Err(_) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn plain_names_only() {
        assert!(is_plain_name("frame_0000.png"));
        for bad in ["", ".", "..", "../x", "a/b", MANIFEST] {
            assert!(!is_plain_name(bad), "{bad}");
        }
    }

    #[test]
    fn crafted_manifest_cannot_reach_outside() {
        let tmp = tempfile::tempdir().unwrap();
        let outside = tmp.path().join("keep.txt");
        std::fs::write(&outside, "mine").unwrap();
        let dir = tmp.path().join("out");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(
            dir.join(MANIFEST),
            r#"{"sierra_output_manifest": 1, "files": ["../keep.txt"]}"#,
        )
        .unwrap();
        OutputDir::replace(&dir, &names(&["a.png"]), false).unwrap();
        assert_eq!(std::fs::read_to_string(outside).unwrap(), "mine");
    }

    #[test]
    fn append_never_overwrites() {
        let tmp = tempfile::tempdir().unwrap();
        let mut out = OutputDir::append(tmp.path(), false).unwrap();
        let first = out.add("shot", "png").unwrap();
        std::fs::write(&first, "1").unwrap();
        let second = out.add("shot", "png").unwrap();
        assert_eq!(second.file_name().unwrap(), "shot_2.png");
        // A later run in the same folder: the manifest makes the earlier shots Sierra's.
        let mut again = OutputDir::append(tmp.path(), false).unwrap();
        assert_eq!(
            again.add("shot", "png").unwrap().file_name().unwrap(),
            "shot_2.png"
        );
        assert_eq!(std::fs::read_to_string(first).unwrap(), "1");
    }

    #[test]
    fn foreign_manifest_is_a_foreign_file() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join(MANIFEST), "my notes").unwrap();
        let err = OutputDir::replace(tmp.path(), &names(&["a.png"]), false).unwrap_err();
        assert!(format!("{err:#}").contains(MANIFEST), "{err:#}");
    }
}
