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

#[test]
fn shipped_levels_load() {
    // `fox.json` uses `shared:` (the samples, `$SIERRA_SHARED/assets`): cargo runs tests in the
    // crate's folder, not beside ../shared, so name the samples' folder (skipped without them).
    let have_shared = sierra_testkit::shared_asset("gltf/Fox/Fox.glb").is_some();
    std::env::set_var(
        "SIERRA_SHARED",
        sierra_testkit::shared_assets_root().join(".."),
    );
    let mut count = 0;
    for entry in std::fs::read_dir(levels_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json")
            && path.file_name().is_some_and(|n| n != "schema.json")
            && (have_shared || path.file_name().is_some_and(|n| n != "fox.json"))
        {
            sierra_scene::load_level(&path).unwrap_or_else(|e| panic!("{e}"));
            count += 1;
        }
    }
    assert!(count >= 1);
}
