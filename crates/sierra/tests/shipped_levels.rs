//! A user's clone has no `../shared`: every level shipped in `assets/levels/` loads as a game —
//! its glTF models, textures and environment images read — with the shared samples out of
//! reach, so none may lean on a `shared:` model. The interoperability example that does
//! (`examples/interop/fox.json`) is the control: it is refused the same way.

use std::path::PathBuf;

use sierra::game::Game;

fn repo(path: &str) -> PathBuf {
    sierra_testkit::workspace_root().join(path)
}

/// Loads `level` with `SIERRA_SHARED` naming an empty folder (one test binary, one thread at a
/// time through the lock, so the variable is never seen half-set).
fn load_without_shared(level: &std::path::Path) -> anyhow::Result<Game> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let empty = tempfile::tempdir()?;
    std::env::set_var("SIERRA_SHARED", empty.path());
    Game::load(level, 60.0).map_err(Into::into)
}

#[test]
fn every_shipped_level_loads_without_the_shared_samples() {
    let mut levels: Vec<PathBuf> = std::fs::read_dir(repo("assets/levels"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "json")
                && p.file_name().is_some_and(|n| n != "schema.json")
        })
        .collect();
    levels.sort();
    for level in &levels {
        if let Err(e) = load_without_shared(level) {
            panic!("{}: {e:#}", level.display());
        }
    }
    assert!(levels.len() >= 5, "{levels:?}");
}

#[test]
fn a_level_placing_a_shared_model_is_refused_without_the_shared_samples() {
    let err = match load_without_shared(&repo("examples/interop/fox.json")) {
        Ok(_) => panic!("the Fox level loaded without the shared samples"),
        Err(e) => format!("{e:#}"),
    };
    assert!(
        err.contains("shared:gltf/Fox/Fox.glb") && err.contains("SIERRA_SHARED"),
        "{err}"
    );
}
