//! The committed `assets/anim/graph.schema.json` must equal what the code generates, and
//! every graph shipped in `assets/anim/` must load.

use std::path::PathBuf;

use sierra_anim::graph::{graph_schema, AnimGraph};

fn anim_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/anim")
}

#[test]
fn committed_graph_schema_matches_generated() {
    let generated = serde_json::to_string_pretty(&graph_schema()).unwrap() + "\n";
    sierra_testkit::generated::assert_committed_matches(
        &anim_dir().join("graph.schema.json"),
        &generated,
        "SIERRA_BLESS=1 cargo test --release -p sierra_anim --test graph_schema",
    );
}

#[test]
fn shipped_graphs_load() {
    let mut count = 0;
    for entry in std::fs::read_dir(anim_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.to_string_lossy().ends_with(".graph.json") {
            let text = std::fs::read_to_string(&path).unwrap();
            AnimGraph::from_json_str(&text, &path).unwrap_or_else(|e| panic!("{e}"));
            count += 1;
        }
    }
    assert!(count >= 1);
}
