//! Every skin and clip of every sample model loads and poses to finite values.

use glam::Mat4;
use sierra_anim::{
    local_to_model, sample_clip, skinning_palette, Playback, SamplingContext, Transform,
};
use sierra_gltf::GltfAsset;

const SAMPLES: &[&str] = &[
    "gltf/AnimatedCube/AnimatedCube.gltf",
    "gltf/AnimatedMorphCube/AnimatedMorphCube.glb",
    "gltf/AnimatedTriangle/AnimatedTriangle.gltf",
    "gltf/BoxAnimated/BoxAnimated.glb",
    "gltf/CesiumMan/CesiumMan.glb",
    "gltf/Fox/Fox.glb",
    "gltf/InterpolationTest/InterpolationTest.glb",
    "gltf/MorphPrimitivesTest/MorphPrimitivesTest.glb",
    "gltf/NegativeScaleTest/NegativeScaleTest.glb",
    "gltf/NormalTangentMirrorTest/NormalTangentMirrorTest.glb",
    "gltf/NormalTangentTest/NormalTangentTest.glb",
    "gltf/RecursiveSkeletons/RecursiveSkeletons.glb",
    "gltf/RiggedSimple/RiggedSimple.glb",
    "gltf/SimpleMorph/SimpleMorph.gltf",
    "gltf/SimpleSkin/SimpleSkin.gltf",
    "gltf/SimpleSparseAccessor/SimpleSparseAccessor.gltf",
];

#[test]
fn every_sample_loads_and_every_skin_and_clip_poses_finite() {
    for rel in SAMPLES {
        let Some(path) = sierra_testkit::shared_asset(rel) else {
            return;
        };
        let asset = GltfAsset::load(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(!asset.nodes.is_empty(), "{rel}");
        for m in &asset.meshes {
            for p in &m.primitives {
                assert!(p.positions.iter().all(|v| v.is_finite()), "{rel}");
                assert_eq!(p.indices.len() % 3, 0, "{rel}");
            }
        }
        // Plain-node animation: every clip on the whole node tree.
        let (nodes_skel, node_of_joint) = asset.node_skeleton().unwrap();
        for c in 0..asset.clips.len() {
            let clip = asset.build_clip(c, &nodes_skel, &node_of_joint).unwrap();
            let n = nodes_skel.joint_count();
            let (mut local, mut model) = (vec![Transform::IDENTITY; n], vec![Mat4::IDENTITY; n]);
            let mut ctx = SamplingContext::new(n);
            for k in 0..=8 {
                let t = clip.duration() * k as f32 / 8.0;
                sample_clip(&clip, t, Playback::Once, &mut ctx, &mut local).unwrap();
                local_to_model(&nodes_skel, &local, Mat4::IDENTITY, &mut model).unwrap();
                assert!(model.iter().all(|m| m.is_finite()), "{rel} clip {c} t {t}");
            }
        }
        for (s, skin) in asset.skins.iter().enumerate() {
            let n = skin.skeleton.joint_count();
            let mut palette = vec![Mat4::IDENTITY; skin.joint_count()];
            for c in 0..asset.clips.len() {
                let clip = asset.skin_clip(s, c).unwrap();
                let (mut local, mut model) =
                    (vec![Transform::IDENTITY; n], vec![Mat4::IDENTITY; n]);
                let mut ctx = SamplingContext::new(n);
                for k in 0..=8 {
                    let t = clip.duration() * k as f32 / 8.0;
                    sample_clip(&clip, t, Playback::Loop, &mut ctx, &mut local).unwrap();
                    local_to_model(&skin.skeleton, &local, Mat4::IDENTITY, &mut model).unwrap();
                    skinning_palette(&skin.skin, &model, &mut palette).unwrap();
                    assert!(
                        palette.iter().all(|m| m.is_finite()),
                        "{rel} skin {s} clip {c} t {t}"
                    );
                }
            }
        }
        eprintln!(
            "{rel}: {} nodes, {} skins, {} clips, {} meshes, {} images",
            asset.nodes.len(),
            asset.skins.len(),
            asset.clips.len(),
            asset.meshes.len(),
            asset.images.len()
        );
    }
}
