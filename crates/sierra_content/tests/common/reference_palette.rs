//! The reference palette of the skinning tests: glTF joint matrices computed from the
//! importer's pose report, independently of the poser, the bounds and the GPU skinning code
//! under test.

use glam::Mat4;
use sierra_gltf::{pose, ClipSelector, GltfAsset};

/// `[skin joint]` joint matrices of skin `skin` at `time` s into `clip`: each joint's world
/// matrix times its inverse bind matrix. The mesh node's own transform is not applied, as
/// glTF 2.0 §3.7.3.3 requires.
///
/// # Panics
/// When the clip or the skin does not exist (a test's own mistake).
pub fn reference_palette(
    asset: &GltfAsset,
    clip: &ClipSelector,
    time: f32,
    skin: usize,
) -> Vec<Mat4> {
    let report = pose::pose(asset, clip, time, skin).unwrap_or_else(|e| panic!("{e}"));
    report
        .joints
        .iter()
        .zip(&asset.skins[skin].skin.inverse_bind_matrices)
        .map(|(j, m)| j.world * *m)
        .collect()
}
