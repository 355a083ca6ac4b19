//! Quantised clips: the anchor workload's clips stay within 0.1 mm at ACL's virtual vertices
//! and take at most a quarter of the raw storage; the measure sees a real error.

use sierra_anim::compress::*;
use sierra_anim::synthetic;

#[test]
fn anchor_clips_quantise_within_a_tenth_of_a_millimetre_at_a_quarter_of_the_size() {
    let skel = synthetic::skeleton(68);
    for (name, seed) in [("walk", 1), ("run", 2)] {
        let clip = synthetic::clip(&skel, name, 1.0, 30.0, seed);
        let (q, packed) = quantized_clip(&clip);
        let err = max_vertex_error(&skel, &clip, &q, 1.0);
        let raw = raw_bytes(&clip);
        println!(
            "{name}: {raw} -> {packed} bytes, max error {:.4} mm",
            err * 1e3
        );
        assert!(err <= 1e-4, "{name}: {err} m");
        assert!(
            err > 0.0,
            "quantisation changed nothing: the measure cannot fail"
        );
        assert!(packed * 4 <= raw, "{name}: {packed} of {raw} bytes");
        // Negative control: a clip from another seed is far off.
        let other = synthetic::clip(&skel, name, 1.0, 30.0, seed + 7);
        let off = max_vertex_error(&skel, &clip, &other, 1.0);
        assert!(off > 1e-3, "{name}: another clip is only {off} m away");
    }
}
