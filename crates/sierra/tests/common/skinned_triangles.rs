//! Counting what a model file gives the skinned draws, independently of the renderer's stats.

use sierra_gltf::GltfAsset;

/// The triangles of every primitive of every skinned mesh instance of `asset`, from its index
/// lists.
pub fn skinned_triangles(asset: &GltfAsset) -> u64 {
    asset
        .skin_instances()
        .iter()
        .flat_map(|i| &asset.meshes[i.mesh].primitives)
        .map(|p| p.indices.len() as u64 / 3)
        .sum()
}
