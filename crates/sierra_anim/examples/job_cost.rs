//! Full-job cost for callgrind: `job_cost FRAMES` runs the anchor workload's job (two raw clips
//! crossfading, blend, local-to-model, palette) for one character FRAMES times at 60 Hz, on
//! this thread. Under `valgrind --tool=callgrind` with two frame counts, the difference of the
//! instruction counts over the difference of the frame counts is the cost of one job.

use sierra_anim::synthetic::Crowd;

fn main() {
    let frames: usize = std::env::args()
        .nth(1)
        .and_then(|f| f.parse().ok())
        .unwrap_or(600);
    let mut crowd = Crowd::new(1, 68);
    for f in 0..frames {
        crowd.frame_sequential(f as f32 / 60.0).unwrap();
    }
    println!("{frames} {:?}", crowd.poses[0].palette[5].w_axis);
}
