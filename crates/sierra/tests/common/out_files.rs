//! What a run left in its output folder, for tests that check which files a failed run kept.
// Each test binary reads the parts it needs.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The names of the files in `dir`, sorted.
pub fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Frame `i`'s PNG in `dir`, as `render` and `demo` name it.
pub fn frame(dir: &Path, i: usize) -> PathBuf {
    dir.join(format!("frame_{i:04}.png"))
}

/// The files `dir`'s `.sierra-manifest.json` lists (`{"files": [name, …]}`).
pub fn manifest(dir: &Path) -> Vec<String> {
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join(".sierra-manifest.json")).unwrap()).unwrap();
    manifest["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

/// Asserts that the manifest stays true after a failed run: it lists every file left in `dir`
/// (so the next run into the folder needs no `--force`).
pub fn assert_manifest_lists_every_file(dir: &Path) {
    let listed = manifest(dir);
    for name in names(dir) {
        assert!(
            name == ".sierra-manifest.json" || listed.contains(&name),
            "{name} is in {} but not in its manifest {listed:?}",
            dir.display()
        );
    }
}
