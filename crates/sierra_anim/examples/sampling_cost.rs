//! Sampling cost for callgrind: `sampling_cost raw|compressed FRAMES` samples clip A of the
//! anchor workload (68 joints, 31 keys per second on rotation and translation of every joint)
//! FRAMES times at 60 Hz into an SoA pose. Run it under `valgrind --tool=callgrind` with two
//! frame counts: the difference of the instruction counts divided by the difference of the
//! frame counts is the cost of one sample, setup (and compression) excluded.

use sierra_anim::synthetic::Crowd;
use sierra_anim::*;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map(String::as_str).unwrap_or("raw");
    let frames: usize = args.get(2).and_then(|f| f.parse().ok()).unwrap_or(600);
    let crowd = Crowd::new(1, 68);
    let clip = &crowd.clips[0];
    let compressed =
        CompressedClip::compress(clip, &crowd.skeleton, &CompressionSettings::default()).unwrap();
    let mut ctx = SamplingContext::new(68);
    let mut out = vec![SoaTransform::IDENTITY; soa_blocks(68)];
    let mut sum = 0.0f32;
    for f in 0..frames {
        let t = f as f32 / 60.0;
        match mode {
            "compressed" => {
                sample_clip_soa(&compressed, t, Playback::Loop, &mut ctx, &mut out).unwrap()
            }
            _ => sample_clip_soa(clip, t, Playback::Loop, &mut ctx, &mut out).unwrap(),
        }
        sum += out[3].rotation[0].0[2];
    }
    println!("{mode} {frames} {sum}");
}
