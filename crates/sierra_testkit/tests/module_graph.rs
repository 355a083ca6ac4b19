//! No crate of the workspace has a module cycle.
//!
//! Reads every `crates/*/src` with [`sierra_testkit::module_graph`] (the graph "module A names
//! module B", paths through re-exports followed to the module that defines the item) and fails
//! naming each cycle found. The parser's own negative controls (a synthetic cycle is found, a
//! facade over its children is not one) are the unit tests of `module_graph.rs`; here each
//! crate's graph must also have edges, so a parser that reads nothing cannot pass.

use std::path::PathBuf;

use sierra_testkit::module_graph::{cycles, graph, modules};

/// `(crate name, its src folder)` for every crate of the workspace.
fn crates() -> Vec<(String, PathBuf)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(&root)
        .expect("read crates/")
        .map(|e| e.expect("crates/ entry").path())
        .filter(|p| p.join("Cargo.toml").is_file() && p.join("src").is_dir())
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                p.join("src"),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn every_crate_is_read() {
    let names: Vec<String> = crates().into_iter().map(|(n, _)| n).collect();
    for expected in [
        "sierra",
        "sierra_anim",
        "sierra_render",
        "sierra_scene",
        "sierra_testkit",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected} missing from {names:?}"
        );
    }
    assert!(names.len() >= 12, "only {} crates: {names:?}", names.len());
}

#[test]
fn no_crate_has_a_module_cycle() {
    let mut found = Vec::new();
    for (name, src) in crates() {
        let modules = modules(&src).unwrap_or_else(|e| panic!("reading {}: {e}", src.display()));
        let graph = graph(&modules);
        let edges: usize = graph.values().map(|e| e.len()).sum();
        // Every crate with more than a handful of modules names some of them from others.
        if modules.len() > 8 {
            assert!(
                edges > 0,
                "{name}: {} modules, no edges: the parser misses uses",
                modules.len()
            );
        }
        for cycle in cycles(&graph) {
            found.push(format!("{name}: {cycle}"));
        }
    }
    assert!(
        found.is_empty(),
        "{} module cycles:\n{}",
        found.len(),
        found.join("\n")
    );
}
