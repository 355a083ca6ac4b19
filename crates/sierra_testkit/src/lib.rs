//! Test helpers shared by Sierra's crates (a dev-dependency only).
//!
//! The Khronos sample models used by the tests live outside the repository, in
//! `../shared/assets` beside the checkout, or wherever `$SIERRA_SHARED/assets`
//! points. Tests ask for a file through [`shared_asset`]: when it is missing the
//! test is skipped through [`skip`], the one skip helper (said on stderr, counted in the
//! skip log `make test` summarises, and a failure under CI unless allow-listed).
//!
//! [`albedo`] computes, independently of the renderer, which base-colour texels a mesh shows
//! the camera, for unlit-albedo render tests.
//!
//! [`child`] runs a program (the `sierra` binary fed hostile input) under a memory limit and a
//! timeout, so that a regression fails a test instead of exhausting the machine.
//!
//! [`glb::glb`] writes glTF files built in tests as GLB; [`node_tools`] runs the pinned Node tools of `tools/js` (three.js, gltfpack).
//!
//! [`process`] runs a program a test needs to succeed (or to fail cleanly); [`json`] reads the
//! JSON it prints or writes and compares documents with a tolerance for numbers; [`diff`] says
//! how far two fields of numbers are apart; [`srgb`] decodes rendered bytes to linear light;
//! [`relief`] measures bumps on a lit plane in a rendered image; [`generated`] keeps committed
//! generated files (schemas) equal to what the code generates; [`module_graph`] finds the module
//! cycles of a crate from its source.

pub mod albedo;
pub mod alloc;
pub mod child;
pub mod diff;
pub mod generated;
pub mod glb;
pub mod image_diff;
pub mod json;
pub mod module_graph;
pub mod node_tools;
pub mod process;
pub mod relief;
pub mod skip;
pub mod srgb;

use std::path::PathBuf;

/// Root of the shared assets: `$SIERRA_SHARED/assets`, else `<workspace>/../shared/assets`.
pub fn shared_assets_root() -> PathBuf {
    if let Some(dir) = std::env::var_os("SIERRA_SHARED") {
        return PathBuf::from(dir).join("assets");
    }
    workspace_root().join("..").join("shared").join("assets")
}

/// The repository root (the folder holding the workspace `Cargo.toml`).
///
/// Taken from the running test's `CARGO_MANIFEST_DIR` (set by `cargo test`; every crate sits at
/// `crates/<name>`), so a build cached from another checkout cannot point elsewhere; falls
/// back to this crate's own folder at compile time.
pub fn workspace_root() -> PathBuf {
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    manifest.join("..").join("..")
}

/// Path of a shared asset, e.g. `shared_asset("gltf/Fox/Fox.glb")`:
/// [`skip::shared_asset_or_skip`].
///
/// Returns `None` when the file is absent, after a [`skip::Reason::SharedAssets`] skip, so the
/// caller returns at once: `let Some(path) = shared_asset(..) else { return };`.
///
/// # Panics
/// Under CI (`CI` set, not `false`/`0`): a CI run must never pass by skipping.
pub fn shared_asset(relative: &str) -> Option<PathBuf> {
    skip::shared_asset_or_skip(relative)
}

/// Like [`shared_asset`], for use at the top of a test:
/// `let Some(path) = sierra_testkit::require!("gltf/Fox/Fox.glb") else { return };`
#[macro_export]
macro_rules! require {
    ($rel:expr) => {
        $crate::shared_asset($rel)
    };
}
