//! The module graph of `sierra_render` has no cycles.
//!
//! Reads the crate's own `src/`, builds the graph "module A names module B" from every
//! `use crate::…` / `use super::…` tree and every inline `crate::…` path outside comments and
//! `#[cfg(test)]` code (paths through the crate root's re-exports are followed to the module
//! that defines the item), and fails naming a cycle when one exists. Leaf modules (the mesh and
//! material stores, the plain frame data) stay leaves only while nothing above them is named
//! from below.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// `[module path] → source`, e.g. `passes::forward` → the text of `src/passes/forward.rs`.
fn modules(src: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_some_and(|e| e == "rs") {
                out.insert(
                    module_path(src, &path),
                    std::fs::read_to_string(&path).unwrap(),
                );
            }
        }
    }
    out
}

/// `src/a/b.rs` → `a::b`, `src/a/mod.rs` → `a`, `src/lib.rs` → `crate`.
fn module_path(src: &Path, file: &Path) -> String {
    let rel: PathBuf = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    if parts.is_empty() {
        "crate".to_owned()
    } else {
        parts.join("::")
    }
}

/// The code of `source` without comments and without what follows its first `#[cfg(test)]`.
fn code_of(source: &str) -> String {
    let mut code = String::new();
    for line in source.lines() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        let line = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        code.push_str(line);
        code.push('\n');
    }
    code
}

/// Expands a use tree (`a::{b::C, d, self}`) into its paths (`a::b::C`, `a::d`, `a`).
fn expand(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = tree.find('{') else {
        return vec![tree.trim_end_matches("::self").to_owned()];
    };
    let prefix = tree[..open].trim_end_matches("::");
    let inner = &tree[open + 1..tree.rfind('}').unwrap()];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| {
            expand(p).into_iter().map(move |q| match q.as_str() {
                "self" => prefix.to_owned(),
                _ => format!("{prefix}::{q}"),
            })
        })
        .collect()
}

/// Every path `code` names from the crate root or a parent: the trees of its `use crate::…` and
/// `use super::…` items and its inline `crate::…` paths, with `super` made absolute.
fn named_paths(module: &str, code: &str) -> Vec<String> {
    let parent = match module.rsplit_once("::") {
        Some((p, _)) => format!("crate::{p}"),
        None => "crate".to_owned(),
    };
    let mut paths = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("use ") {
        let after = &rest[i + 4..];
        let before_ok = i == 0 || !rest.as_bytes()[i - 1].is_ascii_alphanumeric();
        let end = after.find(';').unwrap_or(after.len());
        if before_ok && (after.starts_with("crate::") || after.starts_with("super::")) {
            paths.extend(expand(&after[..end]));
        }
        rest = &after[end.min(after.len())..];
    }
    let bytes = code.as_bytes();
    for (i, _) in code.match_indices("crate::") {
        if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
            continue;
        }
        let tail: String = code[i..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        paths.push(tail);
    }
    paths
        .into_iter()
        .map(|p| match p.strip_prefix("super") {
            Some(rest) => format!("{parent}{rest}"),
            None => p,
        })
        .collect()
}

/// The module a path names: the longest prefix that is a module, the crate root's
/// re-exports (`crate::Name`) followed to their module.
fn resolve(
    path: &str,
    modules: &BTreeMap<String, String>,
    reexports: &BTreeMap<String, String>,
) -> Option<String> {
    let rel = path.strip_prefix("crate::")?;
    let segments: Vec<&str> = rel.split("::").filter(|s| !s.is_empty()).collect();
    for n in (1..=segments.len()).rev() {
        let candidate = segments[..n].join("::");
        if modules.contains_key(&candidate) {
            return Some(candidate);
        }
    }
    reexports.get(*segments.first()?).cloned()
}

/// The crate root's `pub use module::{Name, …}` items: `Name` → `module`.
fn root_reexports(modules: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    let root = code_of(&modules["crate"]);
    let mut out = BTreeMap::new();
    for item in root.split(';') {
        let Some(tree) = item.trim().strip_prefix("pub use ") else {
            continue;
        };
        for path in expand(tree) {
            if let Some((module, name)) = path.rsplit_once("::") {
                if modules.contains_key(module) {
                    out.insert(name.to_owned(), module.to_owned());
                }
            }
        }
    }
    out
}

/// Module → the modules it names (itself and the facade root left out).
fn graph(modules: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let reexports = root_reexports(modules);
    let mut graph = BTreeMap::new();
    for (module, source) in modules {
        if module == "crate" {
            continue;
        }
        let edges: BTreeSet<String> = named_paths(module, &code_of(source))
            .iter()
            .filter_map(|p| resolve(p, modules, &reexports))
            .filter(|m| m != module && m != "crate")
            .collect();
        graph.insert(module.clone(), edges);
    }
    graph
}

/// A cycle of `graph` as its modules in order (first repeated at the end), if one exists.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        marks: &mut BTreeMap<String, Mark>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match marks.get(node) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let start = stack.iter().position(|m| m == node).unwrap();
                let mut cycle = stack[start..].to_vec();
                cycle.push(node.to_owned());
                return Some(cycle);
            }
            None => {}
        }
        marks.insert(node.to_owned(), Mark::Open);
        stack.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, marks, stack) {
                return Some(cycle);
            }
        }
        stack.pop();
        marks.insert(node.to_owned(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut marks, &mut Vec::new()))
}

#[test]
fn use_tree_expansion() {
    assert_eq!(
        expand("crate::a::{b::C, d::{self, E}, F}"),
        [
            "crate::a::b::C",
            "crate::a::d",
            "crate::a::d::E",
            "crate::a::F"
        ]
    );
    assert_eq!(
        named_paths(
            "passes::forward",
            "use super::{Pass, x::Y};\nlet v = crate::z::W;"
        ),
        ["crate::passes::Pass", "crate::passes::x::Y", "crate::z::W"]
    );
}

#[test]
fn a_cycle_is_found() {
    let mut modules = BTreeMap::new();
    modules.insert("crate".to_owned(), "pub use c::Thing;".to_owned());
    modules.insert("a".to_owned(), "use crate::b::X;".to_owned());
    modules.insert("b".to_owned(), "fn f() -> crate::Thing {}".to_owned());
    modules.insert("c".to_owned(), "use super::a;".to_owned());
    let cycle = find_cycle(&graph(&modules)).expect("a → b → c → a");
    assert_eq!(cycle, ["a", "b", "c", "a"]);
    modules.insert("c".to_owned(), "#[cfg(test)]\nuse super::a;".to_owned());
    assert_eq!(find_cycle(&graph(&modules)), None);
}

#[test]
fn sierra_render_modules_form_no_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let modules = modules(&src);
    assert!(modules.len() > 20, "read {} modules", modules.len());
    let graph = graph(&modules);
    let edges: usize = graph.values().map(BTreeSet::len).sum();
    assert!(edges > 40, "only {edges} edges: the parser misses uses");
    if let Some(cycle) = find_cycle(&graph) {
        panic!("import cycle in sierra_render: {}", cycle.join(" → "));
    }
}

#[test]
fn every_pipeline_and_shader_module_is_created_through_the_counting_context() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut uncounted = Vec::new();
    for (module, source) in modules(&src) {
        if module == "context" {
            continue;
        }
        let code = code_of(&source);
        for call in [
            "device.create_render_pipeline(",
            "device.create_compute_pipeline(",
            "device.create_shader_module(",
        ] {
            if code.contains(call) {
                uncounted.push(format!("{module}: {call}"));
            }
        }
    }
    assert!(
        uncounted.is_empty(),
        "create these with GpuContext's counting methods (stats.json's pipelines_created): {uncounted:?}"
    );
}
