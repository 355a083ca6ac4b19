//! Best-of-N timing of the crowd job and its stages (robust on a loaded machine):
//! `cargo run --release -p sierra_anim --example crowd_min`.

use std::time::Instant;

use glam::Mat4;
use sierra_anim::synthetic::Crowd;
use sierra_anim::*;

fn best<F: FnMut()>(runs: usize, mut f: F) -> f64 {
    f();
    (0..runs)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64()
        })
        .fold(f64::MAX, f64::min)
}

fn main() {
    let quick = std::env::var_os("CROWD_QUICK").is_some();
    let mut crowd = Crowd::new(1000, 68);
    let mut t = 0.0;
    let full = best(if quick { 5 } else { 100 }, || {
        t += 1.0 / 60.0;
        crowd.frame_sequential(t).unwrap();
    });
    println!(
        "full job, 1 thread: {:.3} µs/character",
        full * 1e6 / 1000.0
    );
    let skel = &crowd.skeleton;
    let n = 68;
    let reps = 1000;
    let mut ctx = [SamplingContext::new(n), SamplingContext::new(n)];
    let (mut a, mut b, mut out) = (
        vec![Transform::IDENTITY; n],
        vec![Transform::IDENTITY; n],
        vec![Transform::IDENTITY; n],
    );
    let s = best(30, || {
        for _ in 0..reps {
            t += 1.0 / 60.0;
            sample_clip(&crowd.clips[0], t, Playback::Loop, &mut ctx[0], &mut a).unwrap();
            sample_clip(&crowd.clips[1], t, Playback::Loop, &mut ctx[1], &mut b).unwrap();
        }
    });
    let bl = best(30, || {
        for _ in 0..reps {
            blend_poses(
                &[
                    BlendLayer::new(std::hint::black_box(&a), 0.3),
                    BlendLayer::new(&b, 0.7),
                ],
                skel.rest_pose(),
                &mut out,
            )
            .unwrap();
        }
    });
    let mut model = vec![Mat4::IDENTITY; n];
    let l = best(30, || {
        for _ in 0..reps {
            local_to_model(skel, std::hint::black_box(&out), Mat4::IDENTITY, &mut model).unwrap();
        }
    });
    let mut pal = vec![Mat4::IDENTITY; n];
    let p = best(30, || {
        for _ in 0..reps {
            skinning_palette(&crowd.skin, std::hint::black_box(&model), &mut pal).unwrap();
        }
    });
    let ns = |x: f64| x * 1e9 / reps as f64;
    println!("stages ns/character: sample 2 clips {:.0}, blend {:.0}, local-to-model {:.0}, palette {:.0}", ns(s), ns(bl), ns(l), ns(p));
}
