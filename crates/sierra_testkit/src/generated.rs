//! Committed files that code generates (the JSON schemas of levels and animation graphs): a
//! test regenerates the text and fails while the committed copy differs, so the file in the
//! repository never goes stale; with `SIERRA_BLESS` set it writes the file instead.

use std::path::Path;

/// Asserts that the file at `path` holds exactly `generated`; with `SIERRA_BLESS` set, first
/// writes `generated` there. A missing file counts as empty.
///
/// # Panics
/// When the committed text differs (the message names the file and says to regenerate it with
/// `regenerate`, a command line), or when blessing cannot write the file.
pub fn assert_committed_matches(path: &Path, generated: &str, regenerate: &str) {
    if std::env::var_os("SIERRA_BLESS").is_some() {
        std::fs::write(path, generated)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == generated,
        "{} is stale: regenerate it with `{regenerate}`",
        path.display()
    );
}

/// As [`assert_committed_matches`], for a binary file (a model Sierra writes itself, such as
/// `assets/models/mannequin.glb`): the committed bytes must equal `generated`.
///
/// # Panics
/// When the committed bytes differ or the file is missing (the message says how to regenerate
/// it), or when blessing cannot write the file.
pub fn assert_committed_bytes_match(path: &Path, generated: &[u8], regenerate: &str) {
    if std::env::var_os("SIERRA_BLESS").is_some() {
        std::fs::write(path, generated)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    }
    let committed = std::fs::read(path).unwrap_or_default();
    assert!(
        committed == generated,
        "{} is stale ({} bytes committed, {} generated): regenerate it with `{regenerate}`",
        path.display(),
        committed.len(),
        generated.len()
    );
}
