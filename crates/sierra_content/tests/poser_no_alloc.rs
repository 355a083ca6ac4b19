//! [`ModelPoser::palette`] and `node_morph_weights` allocate nothing once built: `sierra view`
//! poses every frame through them. One test per binary: the counting allocator is the binary's
//! global allocator (it counts the threads that opt in).

use sierra_anim::Playback;
use sierra_content::poser::{node_morph_weights, NodeClips};
use sierra_content::ModelPoser;
use sierra_testkit::alloc::{allocations, count_this_thread, Counting};

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn posing_a_frame_allocates_nothing() {
    count_this_thread();
    let asset = sierra_gltf::builtin::mannequin::load().unwrap();
    let mut poser = ModelPoser::new(&asset, 0).unwrap();
    let clips = NodeClips::new(&asset).unwrap();
    let clip = clips.clip(0).unwrap();
    let mut weights = Vec::with_capacity(4);
    let mut checksum = 0.0;
    // Warm up (SIMD level detection, sampling caches).
    checksum += poser.palette(0, 0.0, Playback::Loop).unwrap()[0].w_axis.x;
    let before = allocations();
    for frame in 0..120 {
        let t = frame as f32 / 60.0;
        for c in 0..poser.clip_count() {
            checksum += poser.palette(c, t, Playback::Loop).unwrap()[1].w_axis.y;
        }
        node_morph_weights(clip, 0, &[0.5, 0.25], t, Playback::Loop, &mut weights).unwrap();
        checksum += weights[0];
    }
    let after = allocations();
    assert!(checksum.is_finite());
    assert_eq!(after - before, 0, "allocations while posing 120 frames");
}
