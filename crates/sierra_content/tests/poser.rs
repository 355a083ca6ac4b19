//! The animation job's palette ([`ModelPoser`], what `sierra view` draws) against the independent
//! raw-glTF computation of `sierra_gltf::pose` (joint world × inverse bind matrix) for every
//! shared sample model with a skin and the built-in mannequin: every skin, every clip, several
//! times including both ends.

#[path = "common/reference_palette.rs"]
mod reference_palette;

use std::path::{Path, PathBuf};

use glam::Mat4;
use reference_palette::reference_palette;
use sierra_anim::Playback;
use sierra_content::ModelPoser;
use sierra_gltf::{ClipSelector, GltfAsset, ImportOptions};

/// Tolerance relative to the matrix's largest element (at least 1).
const TOLERANCE: f32 = 1e-4;

/// The reference: `sierra_gltf::pose`'s joint world matrices times the inverse bind matrices.
fn reference(asset: &GltfAsset, clip: usize, time: f32, skin: usize) -> Vec<Mat4> {
    reference_palette(asset, &ClipSelector::Index(clip), time, skin)
}

/// Largest difference of two palettes relative to the reference's scale.
fn relative_error(a: &[Mat4], b: &[Mat4]) -> f32 {
    assert_eq!(a.len(), b.len(), "palette lengths");
    a.iter()
        .zip(b)
        .map(|(x, y)| {
            let scale = y.to_cols_array().iter().fold(1f32, |m, v| m.max(v.abs()));
            let diff = x
                .to_cols_array()
                .iter()
                .zip(y.to_cols_array())
                .fold(0f32, |m, (p, q)| m.max((p - q).abs()));
            diff / scale
        })
        .fold(0.0, f32::max)
}

/// Compares every skin × clip × time of `asset`; returns the number of palettes compared and
/// the largest relative error.
fn check(name: &str, asset: &GltfAsset) -> (usize, f32) {
    let mut compared = 0;
    let mut worst = 0f32;
    for skin in 0..asset.skins.len() {
        let mut poser = ModelPoser::new(asset, skin).unwrap();
        assert_eq!(poser.joint_count(), asset.skins[skin].joint_count());
        for clip in 0..asset.clips.len() {
            let d = asset.clips[clip].duration;
            for time in [0.0, 0.37 * d, 0.81 * d, d, 0.5 * d, 0.1 * d] {
                let expected = reference(asset, clip, time, skin);
                let got = poser.palette(clip, time, Playback::Once).unwrap();
                let error = relative_error(got, &expected);
                assert!(
                    error <= TOLERANCE,
                    "{name} skin {skin} clip {clip} t={time}: relative error {error}"
                );
                compared += 1;
                worst = worst.max(error);
            }
        }
    }
    (compared, worst)
}

/// Every `.glb`/`.gltf` under the shared glTF samples.
fn sample_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in std::fs::read_dir(root).unwrap().flatten() {
        let Ok(entries) = std::fs::read_dir(dir.path()) else {
            continue;
        };
        for f in entries.flatten() {
            let p = f.path();
            if matches!(p.extension().and_then(|e| e.to_str()), Some("glb" | "gltf")) {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn the_job_palette_equals_the_raw_gltf_pose_for_every_skinned_sample() {
    // The models the view and the game draw skinned must be there (CI refuses to skip).
    let named = [
        "gltf/Fox/Fox.glb",
        "gltf/CesiumMan/CesiumMan.glb",
        "gltf/RiggedSimple/RiggedSimple.glb",
        "gltf/RecursiveSkeletons/RecursiveSkeletons.glb",
        "gltf/SimpleSkin/SimpleSkin.gltf",
    ];
    let Some(first) = sierra_testkit::shared_asset(named[0]) else {
        return;
    };
    for n in &named[1..] {
        assert!(sierra_testkit::shared_asset(n).is_some(), "{n}");
    }
    let root = first.parent().unwrap().parent().unwrap().to_path_buf();
    let mut skinned = Vec::new();
    let (mut compared, mut worst) = (0, 0f32);
    for file in sample_files(&root) {
        let asset = GltfAsset::load_with(&file, ImportOptions::ANIMATION_ONLY)
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        if asset.skins.is_empty() || asset.clips.is_empty() {
            continue;
        }
        let (n, error) = check(&file.display().to_string(), &asset);
        compared += n;
        worst = worst.max(error);
        skinned.push(file.file_name().unwrap().to_string_lossy().into_owned());
    }
    eprintln!("{compared} palettes compared over {skinned:?}, largest relative error {worst:e}");
    for n in named {
        let file = Path::new(n).file_name().unwrap().to_string_lossy();
        assert!(skinned.iter().any(|s| *s == file), "{n} was not compared");
    }
}

#[test]
fn the_job_palette_equals_the_raw_gltf_pose_for_the_mannequin() {
    let asset = sierra_gltf::builtin::mannequin::load().unwrap();
    assert!(asset.clips.len() >= 3);
    let (compared, worst) = check("builtin:mannequin", &asset);
    eprintln!("mannequin: {compared} palettes, largest relative error {worst:e}");
    assert!(compared >= 18);
}

#[test]
fn the_comparison_tells_poses_apart() {
    // Negative control: the walk at two times differs far beyond the tolerance, and the
    // poser's palette is not the reference of another time.
    let asset = sierra_gltf::builtin::mannequin::load().unwrap();
    let walk = asset.find_clip(&ClipSelector::Name("walk".into())).unwrap();
    let d = asset.clips[walk].duration;
    let mut poser = ModelPoser::new(&asset, 0).unwrap();
    let at_quarter = poser
        .palette(walk, 0.25 * d, Playback::Once)
        .unwrap()
        .to_vec();
    let error = relative_error(&at_quarter, &reference(&asset, walk, 0.5 * d, 0));
    assert!(error > 100.0 * TOLERANCE, "{error}");
    // Out-of-range clip and skin are errors, not panics.
    assert!(poser
        .palette(asset.clips.len(), 0.0, Playback::Once)
        .is_err());
    assert!(ModelPoser::new(&asset, asset.skins.len()).is_err());
}

#[test]
fn node_morph_weights_sample_the_nodes_channel_else_the_defaults() {
    use sierra_anim::{Clip, Interpolation, RawClip, RawJoint, RawMorphTrack, RawSkeleton};
    use sierra_anim::{Skeleton, Transform};
    use sierra_content::poser::node_morph_weights;
    let skeleton = Skeleton::build(&RawSkeleton {
        joints: vec![RawJoint {
            name: "root".into(),
            parent: None,
            rest: Transform::IDENTITY,
        }],
    })
    .unwrap();
    // Node 5's two weights go linearly from (0, 0) at 0 s to (1, 0.5) at 2 s.
    let clip = Clip::build(
        &RawClip {
            name: "blink".into(),
            morph_tracks: vec![RawMorphTrack {
                target: 5,
                weight_count: 2,
                interpolation: Interpolation::Linear,
                times: vec![0.0, 2.0],
                values: vec![0.0, 0.0, 1.0, 0.5],
            }],
            ..Default::default()
        },
        &skeleton,
    )
    .unwrap();
    let mut out = Vec::new();
    node_morph_weights(&clip, 5, &[0.3, 0.3], 0.5, Playback::Once, &mut out).unwrap();
    assert_eq!(out, [0.25, 0.125]);
    // Looping wraps 2.5 s to 0.5 s; playing once clamps it to the end.
    node_morph_weights(&clip, 5, &[0.3, 0.3], 2.5, Playback::Loop, &mut out).unwrap();
    assert_eq!(out, [0.25, 0.125]);
    node_morph_weights(&clip, 5, &[0.3, 0.3], 2.5, Playback::Once, &mut out).unwrap();
    assert_eq!(out, [1.0, 0.5]);
    // Another node, or a track whose weight count is not the mesh's: the defaults.
    node_morph_weights(&clip, 4, &[0.3, 0.7], 0.5, Playback::Once, &mut out).unwrap();
    assert_eq!(out, [0.3, 0.7]);
    node_morph_weights(&clip, 5, &[0.1, 0.2, 0.3], 0.5, Playback::Once, &mut out).unwrap();
    assert_eq!(out, [0.1, 0.2, 0.3]);
}
