//! Compressed clips: the anchor workload's clips stay within 0.1 mm at ACL's virtual vertices
//! and take at most a quarter of the raw storage; the runtime samples them (single layer,
//! crossfades, loops) close to the raw clip; the measure sees a real error.

use glam::Mat4;
use sierra_anim::offline::compress::*;
use sierra_anim::*;

fn settings() -> CompressionSettings {
    CompressionSettings::default()
}

#[test]
fn anchor_clips_compress_within_a_tenth_of_a_millimetre_at_a_quarter_of_the_size() {
    let skel = synthetic::skeleton(68);
    for (name, seed) in [("walk", 1), ("run", 2)] {
        let clip = synthetic::clip(&skel, name, 1.0, 30.0, seed);
        let c = CompressedClip::compress(&clip, &skel, &settings()).unwrap();
        let err = max_vertex_error(&skel, &clip, &c, &settings());
        let (raw, packed) = (raw_bytes(&clip), c.byte_size());
        println!(
            "{name}: {raw} -> {packed} bytes ({:.3}), max error {:.4} mm",
            packed as f64 / raw as f64,
            err * 1e3
        );
        assert!(err <= 1e-4, "{name}: {err} m");
        assert!(
            err > 0.0,
            "compression changed nothing: the measure cannot fail"
        );
        assert!(packed * 4 <= raw, "{name}: {packed} of {raw} bytes");
        // Negative control: a clip from another seed is far off.
        let other = synthetic::clip(&skel, name, 1.0, 30.0, seed + 7);
        let off = max_vertex_error(&skel, &clip, &other, &settings());
        assert!(off > 1e-3, "{name}: another clip is only {off} m away");
    }
}

/// Model matrices of `layers` through the job.
fn pose_of<C: ClipSource + ?Sized>(
    skel: &Skeleton,
    layers: &[ClipLayer<'_, C>],
    pose: &mut CharacterPose,
) -> Vec<Mat4> {
    CharacterJob {
        skeleton: skel,
        skin: None,
        layers,
        root: Mat4::IDENTITY,
        hook: &NoHook,
        character: 0,
    }
    .run(pose)
    .unwrap();
    pose.model.clone()
}

fn layer<C: ?Sized>(clip: &C, time: f32, playback: Playback, weight: f32) -> ClipLayer<'_, C> {
    ClipLayer {
        clip,
        time,
        playback,
        weight,
    }
}

fn max_diff(a: &[Mat4], b: &[Mat4]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x.w_axis - y.w_axis).abs().max_element())
        .fold(0.0, f32::max)
}

#[test]
fn compressed_crossfades_and_loops_follow_the_raw_clips_forward_backward_and_at_random() {
    let skel = synthetic::skeleton(68);
    let a = synthetic::clip(&skel, "walk", 1.0, 30.0, 1);
    let b = synthetic::clip(&skel, "run", 0.7, 22.0, 2);
    let ca = CompressedClip::compress(&a, &skel, &settings()).unwrap();
    let cb = CompressedClip::compress(&b, &skel, &settings()).unwrap();
    let mut raw_pose = CharacterPose::new(&skel, 0, 2);
    let mut pose = CharacterPose::new(&skel, 0, 2);
    let mut mixed_pose = CharacterPose::new(&skel, 0, 2);
    let mut times: Vec<f32> = (0..200).map(|i| i as f32 / 60.0).collect();
    times.extend((0..100).rev().map(|i| i as f32 * 0.037));
    times.extend((0..100).map(|i| ((i * 7919) % 1000) as f32 * 0.0031 - 0.2));
    for playback in [
        Playback::Once,
        Playback::Loop,
        Playback::LoopWithPeriod(1.3),
    ] {
        for &t in &times {
            let raw = pose_of(
                &skel,
                &[
                    layer(&a, t, playback, 0.3),
                    layer(&b, t * 1.1, playback, 0.7),
                ],
                &mut raw_pose,
            );
            let comp = pose_of(
                &skel,
                &[
                    layer(&ca, t, playback, 0.3),
                    layer(&cb, t * 1.1, playback, 0.7),
                ],
                &mut pose,
            );
            let mixed = pose_of(
                &skel,
                &[
                    ClipLayer {
                        clip: &ClipRef::Raw(&a),
                        time: t,
                        playback,
                        weight: 0.3,
                    },
                    ClipLayer {
                        clip: &ClipRef::Compressed(&cb),
                        time: t * 1.1,
                        playback,
                        weight: 0.7,
                    },
                ],
                &mut mixed_pose,
            );
            assert!(
                max_diff(&raw, &comp) < 1e-4,
                "{playback:?} t={t}: {}",
                max_diff(&raw, &comp)
            );
            assert!(max_diff(&raw, &mixed) < 1e-4, "{playback:?} t={t}");
            let single = pose_of(&skel, &[layer(&ca, t, playback, 1.0)], &mut pose);
            let single_raw = pose_of(&skel, &[layer(&a, t, playback, 1.0)], &mut raw_pose);
            assert!(max_diff(&single, &single_raw) < 1e-4, "{playback:?} t={t}");
        }
    }
    // Negative control: the compressed clip of another clip is far off.
    let far = pose_of(
        &skel,
        &[ClipLayer {
            clip: &cb,
            time: 0.4,
            playback: Playback::Once,
            weight: 1.0,
        }],
        &mut pose,
    );
    let near = pose_of(
        &skel,
        &[ClipLayer {
            clip: &a,
            time: 0.4,
            playback: Playback::Once,
            weight: 1.0,
        }],
        &mut raw_pose,
    );
    assert!(max_diff(&far, &near) > 1e-2);
}
