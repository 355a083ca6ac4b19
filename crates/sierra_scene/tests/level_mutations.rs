//! Crafted level JSON never panics: every numeric field of the shipped levels set to edge
//! values, every string to edge strings, every object key removed in turn, and parents
//! pointed into cycles. Each variant must load to a `Level` and a `Scene` (with collision
//! world and scene-tree dump) or give an error naming the file, never panic.

use std::path::{Path, PathBuf};

use serde_json::Value;
use sierra_scene::assets::AssetCache;
use sierra_scene::collision::CollisionWorld;
use sierra_scene::{Level, Scene};

const NUMBERS: [f64; 9] = [
    0.0,
    -1.0,
    0.5,
    1e-30,
    1e30,
    -1e30,
    1e300,
    4_294_967_296.0,
    1e19,
];
const STRINGS: [&str; 6] = [
    "",
    "grid:0",
    "grid:4097",
    "../../../etc/passwd.glb",
    "/",
    "ü\u{0}",
];

fn levels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels")
}

fn leaves(v: &Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match v {
        Value::Object(m) => {
            for (k, c) in m {
                path.push(k.clone());
                out.push(path.clone());
                leaves(c, path, out);
                path.pop();
            }
        }
        Value::Array(a) => {
            for (i, c) in a.iter().enumerate() {
                path.push(i.to_string());
                out.push(path.clone());
                leaves(c, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn at<'v>(v: &'v mut Value, path: &[String]) -> Option<&'v mut Value> {
    path.iter().try_fold(v, |v, k| match v {
        Value::Array(a) => a.get_mut(k.parse::<usize>().ok()?),
        Value::Object(m) => m.get_mut(k),
        _ => None,
    })
}

/// The variants of one level: (description, JSON text).
fn variants(json: &Value) -> Vec<(String, String)> {
    let mut paths = Vec::new();
    leaves(json, &mut Vec::new(), &mut paths);
    let mut out = Vec::new();
    let mut push = |what: String, v: &Value| out.push((what, v.to_string()));
    for p in &paths {
        let name = p.join("/");
        let Some(original) = at(&mut json.clone(), p).map(|t| t.clone()) else {
            continue;
        };
        let replacements: Vec<(String, Value)> = match original {
            Value::Number(_) => NUMBERS
                .iter()
                .map(|&n| (format!("{name} = {n}"), n.into()))
                .collect(),
            Value::String(_) => STRINGS
                .iter()
                .map(|&s| (format!("{name} = {s:?}"), s.into()))
                .collect(),
            Value::Array(a) if !a.is_empty() => vec![(
                format!("{name} shortened"),
                Value::Array(a[..a.len() - 1].to_vec()),
            )],
            _ => Vec::new(),
        };
        for (what, replacement) in replacements {
            let mut v = json.clone();
            if let Some(target) = at(&mut v, p) {
                *target = replacement;
            }
            push(what, &v);
        }
        // Remove the key (or array element).
        let mut v = json.clone();
        let (last, parent) = p.split_last().expect("leaf paths are never empty");
        match at(&mut v, parent) {
            Some(Value::Object(m)) => {
                m.remove(last);
            }
            Some(Value::Array(a)) => {
                a.remove(last.parse::<usize>().expect("array paths are indices"));
            }
            _ => continue,
        }
        push(format!("{name} removed"), &v);
    }
    // Every object its own parent, and a two-object cycle.
    if let Some(objects) = json["objects"].as_array() {
        for i in 0..objects.len() {
            let mut v = json.clone();
            let name = v["objects"][i]["name"].clone();
            v["objects"][i]["parent"] = name;
            push(format!("objects/{i} is its own parent"), &v);
            if i + 1 < objects.len() {
                let mut v = json.clone();
                let (a, b) = (
                    v["objects"][i]["name"].clone(),
                    v["objects"][i + 1]["name"].clone(),
                );
                v["objects"][i]["parent"] = b;
                v["objects"][i + 1]["parent"] = a;
                push(
                    format!("objects/{i} and {} are each other's parent", i + 1),
                    &v,
                );
            }
        }
    }
    out
}

#[test]
fn level_field_mutations_never_panic() {
    let dir = levels_dir();
    let file = dir.join("mutated.json");
    let mut panics = Vec::new();
    let mut count = 0;
    for level in [
        "platforms.json",
        "player.json",
        "ik.json",
        "demo.json",
        "character.json",
    ] {
        let text = std::fs::read_to_string(dir.join(level)).expect("shipped level");
        let json: Value = serde_json::from_str(&text).expect("shipped level is JSON");
        for (what, text) in variants(&json) {
            count += 1;
            let outcome = std::panic::catch_unwind(|| -> Result<(), sierra_scene::Error> {
                let level = Level::from_json_str(&text, &file, &dir)?;
                let mut assets = AssetCache::for_level(&level);
                let scene = Scene::from_level(&level, &mut assets)?;
                let _ = CollisionWorld::from_scene(&scene);
                let _ = sierra_scene::inspect::scene_tree_json(&scene);
                Ok(())
            });
            match outcome {
                Err(_) => panics.push(format!("{level}: {what}")),
                Ok(Err(e)) => assert!(
                    e.to_string().contains("mutated.json"),
                    "{level}: {what}: {e}"
                ),
                Ok(Ok(())) => {}
            }
        }
    }
    assert!(count > 1000, "only {count} variants");
    assert!(
        panics.is_empty(),
        "{} panics:\n{}",
        panics.len(),
        panics.join("\n")
    );
}
