//! glTF import from bytes: `.gltf` JSON and `.glb` binaries (the importer tells them apart by
//! the `glTF` magic). No base folder, so external URIs fail instead of reading files.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sierra_gltf::{GltfAsset, ImportOptions};

fuzz_target!(|data: &[u8]| {
    let file = std::path::Path::new("fuzz.glb");
    if let Ok(asset) = GltfAsset::from_bytes(
        data,
        file,
        &sierra_gltf::Resolver::default(),
        ImportOptions::default(),
    ) {
        // What `sierra view`/`pose` do next with an imported file: every clip built for the
        // node hierarchy, and the rest pose.
        let _ = asset.rest_world_matrices();
        if let Ok((skeleton, nodes)) = asset.node_skeleton() {
            for clip in 0..asset.clips.len() {
                let _ = asset.build_clip(clip, &skeleton, &nodes);
            }
        }
    }
});
