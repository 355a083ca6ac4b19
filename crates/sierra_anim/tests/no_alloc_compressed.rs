//! Zero heap allocations per frame in the steady state when the job samples compressed clips
//! (its own test binary: the counting allocator is global, so no other test may run beside it).

use sierra_testkit::alloc::{allocations, count_this_thread, Counting};

use sierra_anim::synthetic::Crowd;

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn steady_state_compressed_clip_frames_allocate_nothing() {
    count_this_thread();
    use sierra_anim::*;
    let crowd = Crowd::new(1, 68);
    let skel = &crowd.skeleton;
    let compressed = crowd
        .clips
        .each_ref()
        .map(|clip| CompressedClip::compress(clip, skel, &CompressionSettings::default()).unwrap());
    let mut pose = CharacterPose::new(skel, 68, 2);
    let frame = |t: f32, pose: &mut CharacterPose| {
        let layers = [
            ClipLayer {
                clip: &compressed[0],
                time: t,
                playback: Playback::Loop,
                weight: 0.3,
            },
            ClipLayer {
                clip: &compressed[1],
                time: t * 1.1,
                playback: Playback::LoopWithPeriod(1.2),
                weight: 0.7,
            },
        ];
        CharacterJob {
            skeleton: skel,
            skin: Some(&crowd.skin),
            layers: &layers,
            root: glam::Mat4::IDENTITY,
            hook: &NoHook,
            character: 0,
        }
        .run(pose)
        .unwrap();
    };
    frame(0.0, &mut pose); // binds the contexts (the only allocation)
    let before = allocations();
    for f in 1..400 {
        frame(f as f32 / 60.0, &mut pose);
    }
    assert_eq!(allocations() - before, 0, "compressed frames allocated");
    assert!(pose.palette.iter().all(|m| m.is_finite()));
}
