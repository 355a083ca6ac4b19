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
