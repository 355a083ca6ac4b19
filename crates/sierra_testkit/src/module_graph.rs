//! The module graph of a crate, read from its source, and the cycles in it.
//!
//! [`module_cycles`] reads a crate's `src/` folder and builds the graph "module A names module
//! B" from:
//! - every `use` tree that starts at `crate::`, `super::`, `self::` or a child module of the
//!   module it sits in (`pub use` re-exports included: a facade names what it re-exports);
//! - every inline path that starts the same way (`crate::a::f()`, `super::X`, `child::g()`),
//!
//! outside comments and `#[cfg(test)]` items. A path is resolved to the module that defines
//! the item: the longest prefix that is a module file, then through that module's `pub use`
//! re-exports (`graph::Node` re-exported from `graph::node` names `graph::node`, not the
//! facade `graph`). Edges to the crate root (`lib.rs`, the facade every module may name) are
//! left out. When a crate has both `lib.rs` and `main.rs`, `main.rs` is the binary (it names
//! the library by the crate's name) and is not read.
//!
//! A cycle is a strongly connected component of more than one module; each is reported with
//! its members and one concrete loop through them.
//!
//! The parser reads text, not a syntax tree: a `crate::` inside a string literal counts as a
//! path, and a block comment is read as code. Both are rare in this workspace; the tests
//! (`sierra_testkit`'s `module_graph` test) check that each crate's graph has edges at all.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// Module path (`crate` for the root, else `a::b`) → the module paths it names.
pub type Graph = BTreeMap<String, BTreeSet<String>>;

/// One cycle of a module graph: a strongly connected component of two or more modules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cycle {
    /// The component's modules, sorted.
    pub members: Vec<String>,
    /// A shortest loop through the first member: `[a, b, …, a]`.
    pub path: Vec<String>,
}

impl fmt::Display for Cycle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.join(" → "))?;
        if self.members.len() + 1 > self.path.len() {
            write!(f, " (component: {})", self.members.join(", "))?;
        }
        Ok(())
    }
}

/// The cycles of the crate whose source folder is `crate_src` (e.g. `crates/sierra/src`).
///
/// # Errors
/// A file or folder under `crate_src` that cannot be read.
pub fn module_cycles(crate_src: &Path) -> io::Result<Vec<Cycle>> {
    Ok(cycles(&graph(&modules(crate_src)?)))
}

/// `module path → source` of every `.rs` file under `src`: `src/a/b.rs` → `a::b`,
/// `src/a/mod.rs` → `a`, `src/lib.rs` → `crate` (`src/main.rs` too when there is no `lib.rs`).
///
/// # Errors
/// A file or folder that cannot be read.
pub fn modules(src: &Path) -> io::Result<BTreeMap<String, String>> {
    let has_lib = src.join("lib.rs").is_file();
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            if has_lib && path == src.join("main.rs") {
                continue;
            }
            out.insert(module_path(src, &path), std::fs::read_to_string(&path)?);
        }
    }
    Ok(out)
}

/// `src/a/b.rs` → `a::b`, `src/a/mod.rs` → `a`, `src/lib.rs` → `crate`.
fn module_path(src: &Path, file: &Path) -> String {
    let rel: PathBuf = file.strip_prefix(src).unwrap_or(file).with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.len() == 1 && (parts[0] == "lib" || parts[0] == "main") {
        parts.pop();
    }
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    if parts.is_empty() {
        "crate".to_owned()
    } else {
        parts.join("::")
    }
}

/// The code of `source` without line comments and without its `#[cfg(test)]` items (the
/// attribute up to the end of the item it marks: its `;` or its closing brace).
pub fn code_of(source: &str) -> String {
    let mut code = String::new();
    for line in source.lines() {
        let line = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        code.push_str(line);
        code.push('\n');
    }
    while let Some(start) = code.find("#[cfg(test)]") {
        let end = item_end(&code, start + "#[cfg(test)]".len());
        code.replace_range(start..end, "");
    }
    code
}

/// The byte just past the item that starts at `from`: its first `;` outside braces, or the
/// brace that closes its first block.
fn item_end(code: &str, from: usize) -> usize {
    let mut depth = 0usize;
    for (i, c) in code[from..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return from + i + 1;
                }
            }
            ';' if depth == 0 => return from + i + 1,
            _ => {}
        }
    }
    code.len()
}

/// One leaf of a use tree: the path it names and the name it binds (`a::B as C` → `C`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UseLeaf {
    /// The full path, `self` leaves folded into their prefix: `a::b::C`.
    pub path: String,
    /// The name the item is bound to: its last segment, or the `as` alias.
    pub name: String,
}

/// Expands a use tree (`a::{b::C, d::{self, E as F}, G}`) into its leaves.
pub fn expand(tree: &str) -> Vec<UseLeaf> {
    let tree = normalise(tree);
    expand_normalised(&tree)
}

/// Whitespace cut to single spaces and removed around `::`, `{`, `}` and `,`.
fn normalise(tree: &str) -> String {
    let words: Vec<&str> = tree.split_whitespace().collect();
    let mut out = words.join(" ");
    for token in ["::", "{", "}", ","] {
        out = out.replace(&format!(" {token}"), token);
        out = out.replace(&format!("{token} "), token);
    }
    out
}

fn expand_normalised(tree: &str) -> Vec<UseLeaf> {
    let Some(open) = tree.find('{') else {
        let (path, alias) = match tree.split_once(" as ") {
            Some((p, a)) => (p, Some(a)),
            None => (tree, None),
        };
        let path = path.trim_end_matches("::self").to_owned();
        let name = alias
            .map(str::to_owned)
            .unwrap_or_else(|| path.rsplit("::").next().unwrap_or("").to_owned());
        return vec![UseLeaf { path, name }];
    };
    let prefix = tree[..open].trim_end_matches("::");
    let close = tree.rfind('}').unwrap_or(tree.len());
    let inner = &tree[open + 1..close.max(open + 1)];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
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
        .flat_map(expand_normalised)
        .map(|leaf| {
            if leaf.path == "self" {
                let name = if leaf.name == "self" {
                    prefix.rsplit("::").next().unwrap_or("").to_owned()
                } else {
                    leaf.name
                };
                UseLeaf {
                    path: prefix.to_owned(),
                    name,
                }
            } else if prefix.is_empty() {
                leaf
            } else {
                UseLeaf {
                    path: format!("{prefix}::{}", leaf.path),
                    name: leaf.name,
                }
            }
        })
        .collect()
}

/// The modules `module` may name without a prefix: its child modules' last segments.
fn children(module: &str, modules: &BTreeMap<String, String>) -> BTreeSet<String> {
    let prefix = if module == "crate" {
        String::new()
    } else {
        format!("{module}::")
    };
    modules
        .keys()
        .filter_map(|m| m.strip_prefix(&prefix))
        .filter(|rest| !rest.is_empty() && !rest.contains("::") && *rest != "crate")
        .map(str::to_owned)
        .collect()
}

/// `path` (starting `crate`, `super`, `self` or a child of `module`) made absolute
/// (`crate::…`); `None` for a path that starts elsewhere (another crate, `std`, a local name).
fn absolute(module: &str, path: &str, children: &BTreeSet<String>) -> Option<String> {
    let mut segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let first = *segments.first()?;
    let mut base: Vec<&str> = if module == "crate" {
        Vec::new()
    } else {
        module.split("::").collect()
    };
    match first {
        "crate" => {
            base.clear();
            segments.remove(0);
        }
        "self" => {
            segments.remove(0);
        }
        "super" => {
            while segments.first() == Some(&"super") {
                segments.remove(0);
                base.pop()?;
            }
        }
        child if children.contains(child) => {}
        _ => return None,
    }
    base.extend(segments);
    Some(format!("crate::{}", base.join("::")))
}

/// Every path `code` (the code of `module`) names inside the crate, made absolute: the
/// leaves of its use trees and its inline paths.
pub fn named_paths(module: &str, code: &str, children: &BTreeSet<String>) -> Vec<String> {
    let mut paths = Vec::new();
    let (leaves, code) = use_leaves(code);
    for leaf in leaves {
        paths.extend(absolute(module, &leaf.path, children));
    }
    let code = code.as_str();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let starts = (c.is_ascii_alphabetic() || c == b'_')
            && (i == 0
                || !(bytes[i - 1].is_ascii_alphanumeric() || matches!(bytes[i - 1], b'_' | b':')));
        if !starts {
            i += 1;
            continue;
        }
        let tail: String = code[i..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        i += tail.len().max(1);
        if tail.contains("::") {
            paths.extend(absolute(module, tail.trim_end_matches(':'), children));
        }
    }
    paths
}

/// The leaves of every `use …;` item in `code`, and `code` without those items.
fn use_leaves(code: &str) -> (Vec<UseLeaf>, String) {
    let mut leaves = Vec::new();
    let mut rest_of_code = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(i) = rest.find("use ") {
        let bytes = rest.as_bytes();
        let after = &rest[i + 4..];
        let before_ok = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        let end = after.find(';').unwrap_or(after.len());
        if before_ok {
            leaves.extend(expand(&after[..end]));
            rest_of_code.push_str(&rest[..i]);
        } else {
            rest_of_code.push_str(&rest[..i + 4 + end]);
        }
        rest = &after[end..];
    }
    rest_of_code.push_str(rest);
    (leaves, rest_of_code)
}

/// Per module, its re-exports: bound name → the absolute path it re-exports.
fn reexports(modules: &BTreeMap<String, String>) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for (module, source) in modules {
        let kids = children(module, modules);
        let code = code_of(source);
        let mut names = BTreeMap::new();
        for item in code.split(';') {
            let item = item.trim_start();
            let Some(tree) = item
                .strip_prefix("pub use ")
                .or_else(|| item.strip_prefix("pub(crate) use "))
                .or_else(|| item.strip_prefix("pub(super) use "))
            else {
                continue;
            };
            for leaf in expand(tree) {
                if let Some(path) = absolute(module, &leaf.path, &kids) {
                    names.insert(leaf.name, path);
                }
            }
        }
        out.insert(module.clone(), names);
    }
    out
}

/// The module that defines what `path` (`crate::…`) names: the longest prefix that is a
/// module, then through that module's re-exports.
fn resolve(
    path: &str,
    modules: &BTreeMap<String, String>,
    reexports: &BTreeMap<String, BTreeMap<String, String>>,
    depth: usize,
) -> Option<String> {
    let rel = path
        .strip_prefix("crate::")
        .or(path.strip_prefix("crate"))?;
    let segments: Vec<&str> = rel.split("::").filter(|s| !s.is_empty()).collect();
    for n in (0..=segments.len()).rev() {
        let module = if n == 0 {
            "crate".to_owned()
        } else {
            segments[..n].join("::")
        };
        if !modules.contains_key(&module) {
            continue;
        }
        let followed = segments
            .get(n)
            .and_then(|name| reexports.get(&module)?.get(*name));
        return match followed {
            Some(target) if depth < 16 && target != path => {
                resolve(target, modules, reexports, depth + 1).or(Some(module))
            }
            _ => Some(module),
        };
    }
    None
}

/// Module → the modules it names (itself and the crate root left out).
pub fn graph(modules: &BTreeMap<String, String>) -> Graph {
    let reexports = reexports(modules);
    let mut graph = Graph::new();
    for (module, source) in modules {
        if module == "crate" {
            continue;
        }
        let kids = children(module, modules);
        let edges: BTreeSet<String> = named_paths(module, &code_of(source), &kids)
            .iter()
            .filter_map(|p| resolve(p, modules, &reexports, 0))
            .filter(|m| m != module && m != "crate")
            .collect();
        graph.insert(module.clone(), edges);
    }
    graph
}

/// The cycles of `graph`: its strongly connected components of two or more modules (Tarjan),
/// sorted by their first member.
pub fn cycles(graph: &Graph) -> Vec<Cycle> {
    let mut out: Vec<Cycle> = components(graph)
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|mut members| {
            members.sort();
            let path = shortest_loop(graph, &members);
            Cycle { members, path }
        })
        .collect();
    out.sort_by(|a, b| a.members.cmp(&b.members));
    out
}

/// Tarjan's strongly connected components, iterative.
fn components(graph: &Graph) -> Vec<Vec<String>> {
    let nodes: Vec<&String> = graph.keys().collect();
    let index_of: BTreeMap<&str, usize> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let succ: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| {
            graph[*n]
                .iter()
                .filter_map(|m| index_of.get(m.as_str()).copied())
                .collect()
        })
        .collect();
    let count = nodes.len();
    let (mut index, mut low) = (vec![usize::MAX; count], vec![0; count]);
    let mut on_stack = vec![false; count];
    let (mut stack, mut out, mut next) = (Vec::new(), Vec::new(), 0);
    for root in 0..count {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0usize)];
        while let Some(&mut (v, ref mut edge)) = work.last_mut() {
            if *edge == 0 && index[v] == usize::MAX {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = succ[v].get(*edge) {
                *edge += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component.push(nodes[w].clone());
                    if w == v {
                        break;
                    }
                }
                out.push(component);
            }
        }
    }
    out
}

/// A shortest loop from `members[0]` back to itself inside `members` (breadth first).
fn shortest_loop(graph: &Graph, members: &[String]) -> Vec<String> {
    let inside: BTreeSet<&str> = members.iter().map(String::as_str).collect();
    let start = members[0].as_str();
    let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(node) = queue.pop_front() {
        for next in graph.get(node).into_iter().flatten() {
            let next = next.as_str();
            if !inside.contains(next) {
                continue;
            }
            if next == start {
                let mut path = vec![start.to_owned()];
                let mut at = node;
                while at != start {
                    path.push(at.to_owned());
                    at = came_from[at];
                }
                path.push(start.to_owned());
                path.reverse();
                return path;
            }
            if next != start && !came_from.contains_key(next) {
                came_from.insert(next, node);
                queue.push_back(next);
            }
        }
    }
    members.to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn use_tree_expansion() {
        let paths: Vec<String> = expand("crate::a::{b::C, d::{self, E as F}, G}")
            .into_iter()
            .map(|l| format!("{} as {}", l.path, l.name))
            .collect();
        assert_eq!(
            paths,
            [
                "crate::a::b::C as C",
                "crate::a::d as d",
                "crate::a::d::E as F",
                "crate::a::G as G"
            ]
        );
        assert_eq!(
            named_paths(
                "passes::forward",
                "use super::{Pass, x::Y};\nlet v = crate::z::W; let s = shadow::f(); other::shadow::g();",
                &set(&["shadow"])
            ),
            [
                "crate::passes::Pass",
                "crate::passes::x::Y",
                "crate::z::W",
                "crate::passes::forward::shadow::f"
            ]
        );
    }

    #[test]
    fn test_items_are_cut_and_the_rest_kept() {
        let code = code_of(
            "use a;\n#[cfg(test)]\nuse b;\n#[cfg(test)]\nmod t { fn x() {} }\nuse c; // use d;\n",
        );
        assert!(code.contains("use a;") && code.contains("use c;"), "{code}");
        assert!(
            !code.contains("use b") && !code.contains("fn x") && !code.contains("use d"),
            "{code}"
        );
    }

    fn modules_of(files: &[(&str, &str)]) -> BTreeMap<String, String> {
        files
            .iter()
            .map(|(m, s)| (m.to_string(), s.to_string()))
            .collect()
    }

    #[test]
    fn a_cycle_is_found() {
        let mut modules = modules_of(&[
            ("crate", "pub use c::Thing;"),
            ("a", "use crate::b::X;"),
            ("b", "fn f() -> crate::Thing {}"),
            ("c", "use super::a;"),
            ("d", "use crate::a;"),
        ]);
        let found = cycles(&graph(&modules));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].path, ["a", "b", "c", "a"]);
        assert_eq!(found[0].members, ["a", "b", "c"]);
        modules.insert("c".to_owned(), "#[cfg(test)]\nuse super::a;".to_owned());
        assert_eq!(cycles(&graph(&modules)), []);
    }

    #[test]
    fn a_facade_and_its_child_form_a_cycle_only_when_the_child_names_the_facade_code() {
        // `graph` defines `Node` itself and calls its child: a cycle.
        let mut modules = modules_of(&[
            ("crate", "pub mod graph;"),
            (
                "graph",
                "mod propagate; pub struct Node; fn f() { propagate::run() }",
            ),
            ("graph::propagate", "use super::Node; pub fn run() {}"),
        ]);
        let found = cycles(&graph(&modules));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].path, ["graph", "graph::propagate", "graph"]);
        // `Node` moved into `graph::node`, re-exported by the facade: no cycle.
        modules.insert(
            "graph".to_owned(),
            "mod node; mod propagate; pub use node::Node; fn f() { propagate::run() }".to_owned(),
        );
        modules.insert("graph::node".to_owned(), "pub struct Node;".to_owned());
        let g = graph(&modules);
        assert_eq!(g["graph::propagate"], set(&["graph::node"]));
        assert_eq!(cycles(&g), []);
    }

    #[test]
    fn two_components_are_two_cycles() {
        let modules = modules_of(&[
            ("crate", ""),
            ("a", "use crate::b;"),
            ("b", "use crate::a;"),
            ("c", "use crate::d::X;"),
            ("d", "use crate::e::Y;"),
            ("e", "use super::c::Z;"),
        ]);
        let found = cycles(&graph(&modules));
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[1].to_string(), "c → d → e → c");
    }
}
