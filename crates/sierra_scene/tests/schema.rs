//! The committed `assets/levels/schema.json` must equal what the code generates, and
//! every level shipped in `assets/levels/` must load.

use std::path::PathBuf;

fn levels_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels")
}

#[test]
fn committed_schema_matches_generated() {
    let generated =
        serde_json::to_string_pretty(&sierra_scene::level::level_schema()).unwrap() + "\n";
    sierra_testkit::generated::assert_committed_matches(
        &levels_dir().join("schema.json"),
        &generated,
        "SIERRA_BLESS=1 cargo test --release -p sierra_scene --test schema",
    );
}

#[test]
fn schema_lists_every_component_type() {
    let schema = serde_json::to_string(&sierra_scene::level::level_schema()).unwrap();
    for t in sierra_scene::COMPONENT_TYPES {
        assert!(
            schema.contains(&format!("\"const\":\"{t}\"")),
            "schema lacks component {t}"
        );
    }
}

/// The `.json` levels of a folder (the schema left out).
fn levels_in(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut levels: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.extension().is_some_and(|e| e == "json")
                && path.file_name().is_some_and(|n| n != "schema.json")
        })
        .collect();
    levels.sort();
    levels
}

/// Every shipped level parses and validates with the shared samples out of reach
/// (`SIERRA_SHARED` names an empty folder); `sierra/tests/shipped_levels.rs` also loads the
/// models they place.
#[test]
fn shipped_levels_load_without_the_shared_samples() {
    let empty = tempfile::tempdir().unwrap();
    std::env::set_var("SIERRA_SHARED", empty.path());
    let levels = levels_in(&levels_dir());
    for path in &levels {
        sierra_scene::load_level(path).unwrap_or_else(|e| panic!("{e}"));
    }
    assert!(levels.len() >= 5, "{levels:?}");
}
