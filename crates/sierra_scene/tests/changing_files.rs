//! A model file that changes while a level loads it (issue #44: an exporter saving over the
//! model during a load). A thread rewrites the model over and over — two valid versions of the
//! same length, written whole (truncate + write) and overwritten in place (no truncation, so
//! only the bytes change), and truncated states in between — while the level is loaded in a
//! loop. Every load must either succeed with one consistent version (the node name and the
//! vertex positions of the same version) or fail with a message naming the model; never panic.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use glam::Vec3;
use sierra_scene::assets::{AssetCache, GltfScene};
use sierra_scene::{load_level, Scene};

const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn base64(data: &[u8]) -> String {
    let mut s = String::new();
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            s.push(if i <= chunk.len() {
                B64[(n >> (18 - 6 * i) & 63) as usize] as char
            } else {
                '='
            });
        }
    }
    s
}

/// A triangle scaled by `scale`, in a node named `name`; versions of equal `name` length and
/// equal byte length.
fn positions(scale: f32) -> Vec<Vec3> {
    [Vec3::ZERO, Vec3::X, Vec3::Y]
        .iter()
        .map(|p| *p * scale)
        .collect()
}

fn model(name: &str, scale: f32) -> Vec<u8> {
    let bytes: Vec<u8> = positions(scale)
        .iter()
        .flat_map(|p| p.to_array())
        .flat_map(f32::to_le_bytes)
        .collect();
    format!(
        r#"{{"asset": {{"version": "2.0"}}, "scene": 0, "scenes": [{{"nodes": [0]}}],
"nodes": [{{"name": "{name}", "mesh": 0}}],
"extras": {{"padding": "{}"}},
"meshes": [{{"primitives": [{{"attributes": {{"POSITION": 0}}}}]}}],
"buffers": [{{"byteLength": 36, "uri": "data:application/octet-stream;base64,{}"}}],
"bufferViews": [{{"buffer": 0, "byteLength": 36}}],
"accessors": [{{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
  "min": [0, 0, 0], "max": [{scale:.1}, {scale:.1}, 0]}}]}}"#,
        " ".repeat(PADDING),
        base64(&bytes)
    )
    .into_bytes()
}

/// Bytes between the node name and the vertex data, so a read takes long enough for a
/// rewrite to land in the middle of it.
const PADDING: usize = 512 << 10;

/// The two versions: (node name, scale).
const VERSIONS: [(&str, f32); 2] = [("versionA", 1.0), ("versionB", 2.0)];

/// Loads `level` once: `Ok(Some(version index))` for a consistent load, `Ok(None)` for a
/// refusal naming the model, `Err(what is wrong)` otherwise.
fn load(level: &Path) -> Result<Option<usize>, String> {
    load_or_refusal(level).map(|r| r.ok())
}

/// As [`load`], with the refusal's message.
fn load_or_refusal(level: &Path) -> Result<Result<usize, String>, String> {
    let result = load_level(level)
        .map_err(|e| e.to_string())
        .and_then(|level| {
            let mut assets = AssetCache::for_level(&level);
            Scene::from_level(&level, &mut assets).map_err(|e| e.to_string())?;
            assets
                .load::<GltfScene>(level.folder(), Path::new("m.gltf"))
                .map_err(|e| e.to_string())
        });
    let gltf = match result {
        Ok(gltf) => gltf,
        Err(message) if message.contains("m.gltf") => return Ok(Err(message)),
        Err(message) => return Err(format!("a refusal that does not name the model: {message}")),
    };
    consistent_version(
        &gltf.nodes[0].name,
        &gltf.import.meshes[0].primitives[0].positions,
    )
    .map(Ok)
}

/// Which version a (node name, positions) pair is wholly from.
fn consistent_version(name: &str, got: &[Vec3]) -> Result<usize, String> {
    let v = VERSIONS
        .iter()
        .position(|(n, _)| *n == name)
        .ok_or_else(|| format!("node name {name:?} is neither version's"))?;
    if got == positions(VERSIONS[v].1) {
        Ok(v)
    } else {
        Err(format!(
            "node {name:?} with the positions {got:?}: a mix of two versions"
        ))
    }
}

/// Rewrites `path` until `stop`: each version whole (truncate + write), truncated to half,
/// and overwritten in place over the other whole version (same length: only the bytes change,
/// 64 KiB at a time).
fn rewrite(path: &Path, stop: &AtomicBool) {
    let versions: Vec<Vec<u8>> = VERSIONS.iter().map(|(n, s)| model(n, *s)).collect();
    assert_eq!(versions[0].len(), versions[1].len());
    let (a, b) = (&versions[0], &versions[1]);
    let steps: [(&[u8], bool); 6] = [
        (&b[..b.len() / 2], false),
        (b, false),
        (a, true),
        (&a[..a.len() / 2], false),
        (a, false),
        (b, true),
    ];
    for (bytes, in_place) in steps.iter().cycle() {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        if *in_place {
            let mut f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
            // Chunk by chunk, as an exporter writes; no deliberate pause between chunks (a
            // `yield_now` here gave the CPU away for a whole time slice on a loaded machine: a
            // writer paused half way for longer than `QUIET` cannot be told from a finished one
            // by any reader, see sierra_assets' snapshot module).
            for chunk in bytes.chunks(64 << 10) {
                f.write_all(chunk).unwrap();
            }
        } else {
            std::fs::write(path, bytes).unwrap();
        }
        // At rest a moment (longer than the reader's `QUIET`), as between an exporter's saves
        // (the in-place steps' intermediate states are not).
        std::thread::sleep(Duration::from_millis(30));
    }
}

#[test]
fn a_model_rewritten_during_loads_is_read_as_one_version_or_refused() {
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("level.json");
    std::fs::write(&level, r#"{"objects": [{"name": "M", "mesh": "m.gltf"}]}"#).unwrap();
    let model_path = dir.path().join("m.gltf");
    std::fs::write(&model_path, model(VERSIONS[0].0, VERSIONS[0].1)).unwrap();

    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let (stop, path) = (stop.clone(), model_path.clone());
        std::thread::spawn(move || rewrite(&path, &stop))
    };
    let (mut loaded, mut refused) = ([0usize; 2], 0usize);
    let start = Instant::now();
    let mut problems = Vec::new();
    // A load refused for a file that keeps changing waits about half a second first: run at
    // least 20 loads, and keep loading for 3 s.
    let mut loads = 0;
    while (loads < 20 || start.elapsed() < Duration::from_secs(3)) && problems.is_empty() {
        loads += 1;
        match load_or_refusal(&level) {
            Ok(Ok(v)) => loaded[v] += 1,
            Ok(Err(message)) => {
                refused += 1;
                if refused <= 3 {
                    eprintln!("refused: {message}");
                }
            }
            Err(problem) => problems.push(problem),
        }
    }
    stop.store(true, Ordering::Relaxed);
    writer.join().expect("the writer thread");
    assert!(problems.is_empty(), "{problems:?}");
    let loads = loaded[0] + loaded[1] + refused;
    eprintln!(
        "{loads} loads: version A {}, version B {}, refused {refused}",
        loaded[0], loaded[1]
    );
    assert!(loads >= 20, "only {loads} loads ran while the file changed");

    // Negative controls: once the writer has stopped and the file holds a whole version, the
    // load succeeds with it; and the consistency check does see a mix.
    std::fs::write(&model_path, model(VERSIONS[1].0, VERSIONS[1].1)).unwrap();
    assert_eq!(load(&level), Ok(Some(1)));
    assert!(consistent_version("versionA", &positions(2.0)).is_err());
}
