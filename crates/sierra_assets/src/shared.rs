//! The named asset root `shared:`: the shared sample assets (Khronos glTF samples and such),
//! kept outside the repository so shipped example levels can use them without copies.
//!
//! A path written `shared:gltf/Fox/Fox.glb` is `gltf/Fox/Fox.glb` inside
//! `$SIERRA_SHARED/assets`, else inside `../shared/assets` (from the current folder: the
//! repository root beside `../shared`, where `make` and the tests run). It is opened through
//! its own [`AssetRoot`] with the same containment rules as any other root: `shared:../x`,
//! absolute paths and symlinks leading out of the shared folder are refused, and the file's
//! own references (glTF buffers and images) resolve inside the shared folder.

use std::path::{Path, PathBuf};

/// The prefix of a path under the shared assets.
pub const SHARED_PREFIX: &str = "shared:";

/// The root name in messages.
pub const SHARED_ROOT_NAME: &str = "shared assets: $SIERRA_SHARED/assets, else ../shared/assets";

/// The shared assets folder: `$SIERRA_SHARED/assets`, else `../shared/assets`.
pub fn shared_assets_dir() -> PathBuf {
    std::env::var_os("SIERRA_SHARED")
        .map(|d| PathBuf::from(d).join("assets"))
        .unwrap_or_else(|| PathBuf::from("../shared/assets"))
}

/// The path inside the shared folder when `path` is written `shared:PATH`.
pub fn shared_path(path: &Path) -> Option<&Path> {
    path.to_str()?.strip_prefix(SHARED_PREFIX).map(Path::new)
}
