//! `sierra bench anim --characters N`: the animation job of issue #4 — N characters on a
//! 68-joint skeleton, each crossfading two clips; full job = sample both clips + blend +
//! local-to-model + skinning palette. Reference on this machine: ozz-animation 0.16 takes
//! about 3.5 µs per character on one core (sampling 2.3, blending 0.37, local-to-model 0.58,
//! palette 0.26) and is 1.95× faster on 2 threads.

use std::hint::black_box;

use clap::Args;
use glam::Mat4;
use serde::Serialize;
use sierra_anim::synthetic::Crowd;
use sierra_anim::{
    blend_poses, local_to_model, sample_clip, skinning_palette, BlendLayer, Playback,
    SamplingContext, Transform,
};

use super::median_ms;

/// `sierra bench anim` arguments.
#[derive(Debug, Args)]
pub struct AnimBenchArgs {
    /// Number of characters.
    #[arg(long, default_value_t = 1000, value_parser = crate::cli::limits::parse_characters)]
    pub characters: usize,
    /// Joints per skeleton.
    #[arg(long, default_value_t = 68)]
    pub joints: usize,
    /// Frames measured per configuration (the median frame is reported).
    #[arg(long, default_value_t = 60, value_parser = |s: &str| crate::cli::limits::parse_frames(s).map(|f| f as usize))]
    pub frames: usize,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// The figures.
#[derive(Debug, Serialize)]
pub struct AnimBench {
    /// Characters per frame.
    pub characters: usize,
    /// Joints per skeleton.
    pub joints: usize,
    /// Full job, one thread: median frame.
    pub one_thread_ms_per_frame: f64,
    /// Full job, one thread, per character.
    pub one_thread_us_per_character: f64,
    /// Full job, one thread, per joint.
    pub one_thread_ns_per_joint: f64,
    /// Full job, two threads: median frame.
    pub two_threads_ms_per_frame: f64,
    /// One-thread time / two-thread time.
    pub two_thread_speedup: f64,
    /// Stage: sampling both clips, one character, one thread.
    pub sampling_two_clips_ns_per_character: f64,
    /// Stage: blending two poses.
    pub blending_ns_per_character: f64,
    /// Stage: local-to-model.
    pub local_to_model_ns_per_character: f64,
    /// Stage: skinning palette.
    pub palette_ns_per_character: f64,
    /// Full job, one thread: fastest frame (least disturbed by other processes).
    pub one_thread_best_us_per_character: f64,
    /// Reference: ozz-animation 0.16 on this machine, same job, one core.
    pub ozz_reference_us_per_character: f64,
    /// 1-minute load average when measured (`/proc/loadavg`; timings on a busy machine are inflated).
    pub load_average_1min: Option<f64>,
}

/// Runs the measurements.
///
/// # Errors
/// Thread-pool creation or job errors.
pub fn measure(args: &AnimBenchArgs) -> anyhow::Result<AnimBench> {
    let characters = args.characters.max(1);
    let joints = args.joints.clamp(1, 65_000);
    let mut crowd = Crowd::new(characters, joints);
    let mut frame_ms = |threads: usize| -> anyhow::Result<f64> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()?;
        let mut t = 0.0f32;
        let mut result = Ok(());
        let ms = pool.install(|| {
            median_ms(args.frames, || {
                t += 1.0 / 60.0;
                if let Err(e) = crowd.frame(t) {
                    result = Err(e);
                }
            })
        });
        result?;
        Ok(ms)
    };
    let one = frame_ms(1)?;
    let two = frame_ms(2)?;
    let best_one = {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build()?;
        let mut best = f64::MAX;
        let mut t = 0.0f32;
        pool.install(|| {
            for _ in 0..args.frames.max(1) {
                t += 1.0 / 60.0;
                let start = std::time::Instant::now();
                let _ = crowd.frame(t);
                best = best.min(start.elapsed().as_secs_f64() * 1e3);
            }
        });
        best
    };

    // Stages on one character, repeated to get above timer resolution.
    let reps = 2000;
    let skel = &crowd.skeleton;
    let mut ctx = [SamplingContext::new(joints), SamplingContext::new(joints)];
    let mut a = vec![Transform::IDENTITY; joints];
    let mut b = vec![Transform::IDENTITY; joints];
    let mut t = 0.0f32;
    let sampling = median_ms(9, || {
        for _ in 0..reps {
            t += 1.0 / 60.0;
            let _ = sample_clip(&crowd.clips[0], t, Playback::Loop, &mut ctx[0], &mut a);
            let _ = sample_clip(&crowd.clips[1], t, Playback::Loop, &mut ctx[1], &mut b);
        }
    });
    let mut local = vec![Transform::IDENTITY; joints];
    let blending = median_ms(9, || {
        for _ in 0..reps {
            let _ = blend_poses(
                &[
                    BlendLayer {
                        pose: black_box(&a),
                        weight: 0.3,
                    },
                    BlendLayer {
                        pose: &b,
                        weight: 0.7,
                    },
                ],
                skel.rest_pose(),
                &mut local,
            );
        }
    });
    let mut model = vec![Mat4::IDENTITY; joints];
    let l2m = median_ms(9, || {
        for _ in 0..reps {
            let _ = local_to_model(skel, black_box(&local), Mat4::IDENTITY, &mut model);
        }
    });
    let mut palette = vec![Mat4::IDENTITY; joints];
    let pal = median_ms(9, || {
        for _ in 0..reps {
            let _ = skinning_palette(&crowd.skin, black_box(&model), &mut palette);
        }
    });
    let per_char = |ms: f64| ms * 1e6 / reps as f64;
    Ok(AnimBench {
        characters,
        joints,
        one_thread_ms_per_frame: one,
        one_thread_us_per_character: one * 1e3 / characters as f64,
        one_thread_ns_per_joint: one * 1e6 / (characters * joints) as f64,
        two_threads_ms_per_frame: two,
        two_thread_speedup: one / two,
        sampling_two_clips_ns_per_character: per_char(sampling),
        blending_ns_per_character: per_char(blending),
        local_to_model_ns_per_character: per_char(l2m),
        palette_ns_per_character: per_char(pal),
        one_thread_best_us_per_character: best_one * 1e3 / characters as f64,
        ozz_reference_us_per_character: 3.5,
        load_average_1min: std::fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|s| s.split_whitespace().next()?.parse().ok()),
    })
}

/// Runs `sierra bench anim`.
///
/// # Errors
/// See [`measure`].
pub fn run(args: AnimBenchArgs) -> anyhow::Result<()> {
    let r = measure(&args)?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&r)?)?;
        return Ok(());
    }
    outln!("animation job: {} characters × {} joints, crossfading two clips (sample ×2 + blend + local-to-model + palette)", r.characters, r.joints)?;
    outln!(
        "  1 thread : {:8.3} ms/frame  {:7.3} µs/character  {:6.2} ns/joint",
        r.one_thread_ms_per_frame,
        r.one_thread_us_per_character,
        r.one_thread_ns_per_joint
    )?;
    outln!(
        "  1 thread, fastest frame: {:.3} µs/character",
        r.one_thread_best_us_per_character
    )?;
    outln!(
        "  2 threads: {:8.3} ms/frame  speed-up {:.2}×",
        r.two_threads_ms_per_frame,
        r.two_thread_speedup
    )?;
    outln!("  stages per character (1 thread): sampling 2 clips {:.0} ns, blending {:.0} ns, local-to-model {:.0} ns, palette {:.0} ns", r.sampling_two_clips_ns_per_character, r.blending_ns_per_character, r.local_to_model_ns_per_character, r.palette_ns_per_character)?;
    outln!(
        "  reference: ozz-animation 0.16, same job, one core: {:.1} µs/character",
        r.ozz_reference_us_per_character
    )?;
    if let Some(load) = r.load_average_1min {
        outln!("  load average (1 min) while measuring: {load:.2} (a busy machine inflates every figure)")?;
    }
    Ok(())
}
