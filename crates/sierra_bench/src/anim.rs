//! `sierra bench anim`: the anchor workload of issue #23 — N characters (default 1,000) on a
//! 68-joint skeleton, each crossfading two looping 1 s clips (31 keys on the rotation and
//! translation of every joint: 136 keyed tracks per clip) at its own random phases. Full job =
//! sample both clips + blend + local-to-model + skinning palette.
//!
//! Figures are fastest passes ("best"), compared best with best against the plain C baseline
//! `benchmarks/c/skeleton.c` (TRS → matrix, local-to-model, skinning multiply), which this
//! command builds with `gcc -O3 -march=native -fopenmp` and runs in the same invocation, before
//! and after Sierra's measurements (its best of both runs). Ratios, not absolute times, are what
//! carries between machines.

use std::hint::black_box;
use std::time::Instant;

use crate::c_baseline::{self, CBaseline};

use clap::Args;
use glam::Mat4;
use serde::Serialize;
use sierra_anim::synthetic::Crowd;
use sierra_anim::{
    blend_poses_soa, local_to_model_soa, local_to_palette_soa, sample_clip_soa, skinning_palette,
    soa_blocks, SamplingContext, SimdLevel, SoaBlendLayer, SoaTransform,
};

/// `sierra bench anim` arguments.
#[derive(Debug, Args)]
pub struct AnimBenchArgs {
    /// Number of characters.
    #[arg(long, default_value_t = 1000, value_parser = crate::limits::parse_characters)]
    pub characters: u32,
    /// Joints per skeleton (skeleton.c is fixed at 68: ratios are printed only for 68).
    #[arg(long, default_value_t = 68)]
    pub joints: usize,
    /// Passes measured per configuration (the fastest is reported; more passes find a quiet
    /// moment on a shared machine).
    #[arg(long, default_value_t = 200, value_parser = crate::limits::parse_frames)]
    pub frames: u32,
    /// Run without the C baseline (benchmarks/c/skeleton.c, built with gcc): no ratios.
    #[arg(long)]
    pub no_c_baseline: bool,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// Per-stage times, ns per character, one thread.
#[derive(Debug, Default, Serialize)]
pub struct StageTimes {
    /// Sampling both clips.
    pub sampling_two_clips_ns: f64,
    /// Blending the two poses (weights 0.3 / 0.7).
    pub blending_ns: f64,
    /// Local-to-model.
    pub local_to_model_ns: f64,
    /// Skinning palette.
    pub palette_ns: f64,
    /// Local-to-model and palette in one pass (`local_to_palette_soa`, what the job runs).
    pub l2m_palette_fused_ns: f64,
}

/// `skeleton.c` figures from the same invocation (best of its runs).
#[derive(Debug, Serialize)]
pub struct SkelC {
    /// ns per character, one thread.
    pub one_thread_ns_per_character: f64,
    /// ns per character, two threads.
    pub two_threads_ns_per_character: f64,
    /// One-thread time / two-thread time.
    pub two_thread_speedup: f64,
}

/// Ratios of Sierra's best to `skeleton.c`'s best (lower is faster; issue #23's targets in brackets).
#[derive(Debug, Serialize)]
pub struct Ratios {
    /// Full job per character, one thread [≤ 2.4].
    pub full_job: f64,
    /// Blending over the crowd [≤ 0.26].
    pub blending: f64,
    /// Local-to-model over the crowd [≤ 0.82].
    pub local_to_model: f64,
    /// Local-to-model + palette in one pass over the crowd [issue #43: ≤ 0.6].
    pub l2m_palette_fused: f64,
    /// Sierra's 2-thread speed-up / skeleton.c's [≥ 0.95].
    pub two_thread_speedup: f64,
}

/// Arithmetic floors of the job on this core (see [`crate::throughput`]), ns per character.
#[derive(Debug, Serialize)]
pub struct AnimLimits {
    /// 8-lane vector multiplies or adds per ns, one thread, measured in this run.
    pub vector_ops_per_ns: f64,
    /// Local-to-model + palette: joints × [`crate::throughput::L2M_PALETTE_OPS_PER_JOINT`] / rate.
    pub l2m_palette_ns: f64,
    /// Full job: the above plus [`crate::throughput::SAMPLE_BLEND_OPS_PER_JOINT`] per joint.
    pub full_job_ns: f64,
}

/// The figures.
#[derive(Debug, Serialize)]
pub struct AnimBench {
    /// Characters per frame.
    pub characters: usize,
    /// Joints per skeleton.
    pub joints: usize,
    /// Keyed tracks per clip.
    pub keyed_tracks_per_clip: usize,
    /// Instruction set the SoA kernels ran with (detected at run time).
    pub simd: String,
    /// Full job (fused sample-and-blend), one thread, fastest frame, µs per character.
    pub one_thread_us_per_character: f64,
    /// Full job, one thread, median frame, µs per character.
    pub one_thread_median_us_per_character: f64,
    /// Full job stage by stage (sample each clip, then blend), one thread, fastest frame.
    pub staged_one_thread_us_per_character: f64,
    /// Fused / staged (≤ 1: the fused path is not slower).
    pub fused_over_staged: f64,
    /// Full job, two threads, fastest frame, µs per character.
    pub two_threads_us_per_character: f64,
    /// One-thread best / two-thread best.
    pub two_thread_speedup: f64,
    /// Each stage run over all characters (their own buffers and phases), fastest pass.
    pub stages_over_crowd: StageTimes,
    /// Each stage repeated on one character (hot caches), fastest pass.
    pub stages_hot_one_character: StageTimes,
    /// The C baseline, `None` with `--no-c-baseline`.
    pub skel_c: Option<SkelC>,
    /// Sierra / skeleton.c.
    pub ratios: Option<Ratios>,
    /// Floors from the core's measured rate ([`crate::throughput`]), ns per character.
    pub limits: AnimLimits,
    /// 1-minute load average when measured (`/proc/loadavg`; a busy machine inflates figures).
    pub load_average_1min: Option<f64>,
}

/// Fastest wall time in milliseconds of `runs` calls of `f` (after one warm-up call).
fn best_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    f();
    (0..runs.max(1))
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e3
        })
        .fold(f64::MAX, f64::min)
}

/// Best and median frame (ms) of the full job on `threads` threads.
fn full_job_ms(
    crowd: &mut Crowd,
    threads: usize,
    frames: usize,
    fused: bool,
) -> anyhow::Result<(f64, f64)> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let mut t = 0.0f32;
    let mut times = Vec::with_capacity(frames + 1);
    pool.install(|| -> anyhow::Result<()> {
        for f in 0..=frames.max(1) {
            t += 1.0 / 60.0;
            let start = Instant::now();
            crowd.frame_with(t, fused)?;
            if f > 0 {
                times.push(start.elapsed().as_secs_f64() * 1e3);
            }
        }
        Ok(())
    })?;
    times.sort_by(f64::total_cmp);
    Ok((times[0], times[times.len() / 2]))
}

/// Per-character buffers of the stage-by-stage measurement.
struct StageBuffers {
    contexts: Vec<[SamplingContext; 2]>,
    a: Vec<Vec<SoaTransform>>,
    b: Vec<Vec<SoaTransform>>,
    local: Vec<Vec<SoaTransform>>,
    model: Vec<Vec<Mat4>>,
    palette: Vec<Vec<Mat4>>,
}

impl StageBuffers {
    fn new(characters: usize, joints: usize) -> Self {
        let poses = || vec![vec![SoaTransform::IDENTITY; soa_blocks(joints)]; characters];
        Self {
            contexts: (0..characters)
                .map(|_| [SamplingContext::new(joints), SamplingContext::new(joints)])
                .collect(),
            a: poses(),
            b: poses(),
            local: poses(),
            model: vec![vec![Mat4::IDENTITY; joints]; characters],
            palette: vec![vec![Mat4::IDENTITY; joints]; characters],
        }
    }
}

/// Each stage over characters `0..count` of `buf` (count = 1 and many passes: hot figures).
fn stage_times(crowd: &Crowd, buf: &mut StageBuffers, count: usize, passes: usize) -> StageTimes {
    let per_char = |ms: f64| ms * 1e6 / count as f64;
    let mut t = 0.0f32;
    let sampling = best_ms(passes, || {
        t += 1.0 / 60.0;
        for i in 0..count {
            let [la, lb] = crowd.layers(i, t);
            let [ca, cb] = &mut buf.contexts[i];
            let _ = sample_clip_soa(la.clip, la.time, la.playback, ca, &mut buf.a[i]);
            let _ = sample_clip_soa(lb.clip, lb.time, lb.playback, cb, &mut buf.b[i]);
        }
    });
    let rest = crowd.skeleton.soa_rest_pose();
    let blending = best_ms(passes, || {
        for i in 0..count {
            let layers = [
                SoaBlendLayer {
                    pose: black_box(&buf.a[i]),
                    weight: 0.3,
                    joint_weights: None,
                },
                SoaBlendLayer {
                    pose: &buf.b[i],
                    weight: 0.7,
                    joint_weights: None,
                },
            ];
            let _ = blend_poses_soa(&layers, &[], rest, &mut buf.local[i]);
        }
    });
    let l2m = best_ms(passes, || {
        for i in 0..count {
            let _ = local_to_model_soa(
                &crowd.skeleton,
                black_box(&buf.local[i]),
                Mat4::IDENTITY,
                &mut buf.model[i],
            );
        }
    });
    let palette = best_ms(passes, || {
        for i in 0..count {
            let _ = skinning_palette(&crowd.skin, black_box(&buf.model[i]), &mut buf.palette[i]);
        }
    });
    let fused = best_ms(passes, || {
        for i in 0..count {
            let _ = local_to_palette_soa(
                &crowd.skeleton,
                black_box(&buf.local[i]),
                Mat4::IDENTITY,
                &crowd.skin,
                &mut buf.model[i],
                &mut buf.palette[i],
            );
        }
    });
    StageTimes {
        sampling_two_clips_ns: per_char(sampling),
        blending_ns: per_char(blending),
        local_to_model_ns: per_char(l2m),
        palette_ns: per_char(palette),
        l2m_palette_fused_ns: per_char(fused),
    }
}

/// Builds `skeleton.c` with gcc and runs it for `characters` characters:
/// `(ns per character on 1 thread, on 2 threads)`.
fn run_skeleton_c(characters: usize) -> Result<(f64, f64), String> {
    let text = c_baseline::build_and_run(CBaseline::Skeleton, &[&characters.to_string()])?;
    Ok((
        c_baseline::require(&text, "threads=1:", " ns/character")?,
        c_baseline::require(&text, "threads=2:", " ns/character")?,
    ))
}

/// Runs the measurements.
///
/// # Errors
/// Thread-pool creation or job errors.
pub fn measure(args: &AnimBenchArgs) -> anyhow::Result<AnimBench> {
    let characters = args.characters.max(1) as usize;
    let joints = args.joints.clamp(1, 65_000);
    let frames = args.frames.max(1) as usize;
    // Before and after Sierra's figures (best of both); a C baseline that cannot run is an
    // error unless `--no-c-baseline` says to go without.
    let skel = || -> anyhow::Result<Option<(f64, f64)>> {
        if args.no_c_baseline {
            Ok(None)
        } else {
            run_skeleton_c(characters)
                .map(Some)
                .map_err(anyhow::Error::msg)
        }
    };
    let skel_before = skel()?;

    let mut crowd = Crowd::new(characters, joints);
    let (one, one_median) = full_job_ms(&mut crowd, 1, frames, true)?;
    let (staged, _) = full_job_ms(&mut crowd, 1, frames, false)?;
    let (two, _) = full_job_ms(&mut crowd, 2, frames, true)?;
    // Second fused pass, interleaved, so a burst of load on the shared machine hits both.
    let (one_again, _) = full_job_ms(&mut crowd, 1, frames, true)?;
    let (staged_again, _) = full_job_ms(&mut crowd, 1, frames, false)?;
    let (one, staged) = (one.min(one_again), staged.min(staged_again));

    let mut buf = StageBuffers::new(characters, joints);
    let over_crowd = stage_times(&crowd, &mut buf, characters, (frames / 4).max(1));
    let hot = {
        let reps = 2000;
        let mut t = StageTimes::default();
        // One character is below timer resolution: time batches of `reps` repetitions.
        let batch =
            |f: &mut dyn FnMut()| best_ms(9, || (0..reps).for_each(|_| f())) * 1e6 / reps as f64;
        let rest = crowd.skeleton.soa_rest_pose();
        let mut time = 0.0f32;
        let (a, b, local, model, palette) = (
            &mut buf.a[0],
            &mut buf.b[0],
            &mut buf.local[0],
            &mut buf.model[0],
            &mut buf.palette[0],
        );
        let [ca, cb] = &mut buf.contexts[0];
        t.sampling_two_clips_ns = batch(&mut || {
            time += 1.0 / 60.0;
            let [la, lb] = crowd.layers(0, time);
            let _ = sample_clip_soa(la.clip, la.time, la.playback, ca, a);
            let _ = sample_clip_soa(lb.clip, lb.time, lb.playback, cb, b);
        });
        t.blending_ns = batch(&mut || {
            let layers = [
                SoaBlendLayer {
                    pose: black_box(&*a),
                    weight: 0.3,
                    joint_weights: None,
                },
                SoaBlendLayer {
                    pose: &*b,
                    weight: 0.7,
                    joint_weights: None,
                },
            ];
            let _ = blend_poses_soa(&layers, &[], rest, local);
        });
        t.local_to_model_ns = batch(&mut || {
            let _ = local_to_model_soa(&crowd.skeleton, black_box(&*local), Mat4::IDENTITY, model);
        });
        t.palette_ns = batch(&mut || {
            let _ = skinning_palette(&crowd.skin, black_box(&*model), palette);
        });
        t.l2m_palette_fused_ns = batch(&mut || {
            let _ = local_to_palette_soa(
                &crowd.skeleton,
                black_box(&*local),
                Mat4::IDENTITY,
                &crowd.skin,
                model,
                palette,
            );
        });
        t
    };

    let skel_after = skel()?;
    let skel_c = skel_before.zip(skel_after).map(|(a, b)| {
        let (one, two) = (a.0.min(b.0), a.1.min(b.1));
        SkelC {
            one_thread_ns_per_character: one,
            two_threads_ns_per_character: two,
            two_thread_speedup: one / two,
        }
    });
    let us = |ms: f64| ms * 1e3 / characters as f64;
    let speedup = one / two;
    let ratios = skel_c.as_ref().filter(|_| joints == 68).map(|c| Ratios {
        full_job: us(one) * 1e3 / c.one_thread_ns_per_character,
        blending: over_crowd.blending_ns / c.one_thread_ns_per_character,
        local_to_model: over_crowd.local_to_model_ns / c.one_thread_ns_per_character,
        l2m_palette_fused: over_crowd.l2m_palette_fused_ns / c.one_thread_ns_per_character,
        two_thread_speedup: speedup / c.two_thread_speedup,
    });
    Ok(AnimBench {
        characters,
        joints,
        keyed_tracks_per_clip: 2 * joints,
        simd: format!("{:?}", SimdLevel::detect()),
        one_thread_us_per_character: us(one),
        one_thread_median_us_per_character: us(one_median),
        staged_one_thread_us_per_character: us(staged),
        fused_over_staged: one / staged,
        two_threads_us_per_character: us(two),
        two_thread_speedup: speedup,
        stages_over_crowd: over_crowd,
        stages_hot_one_character: hot,
        skel_c,
        ratios,
        limits: {
            use crate::throughput::{
                vector_ops_per_ns, L2M_PALETTE_OPS_PER_JOINT, SAMPLE_BLEND_OPS_PER_JOINT,
            };
            let rate = vector_ops_per_ns(8);
            let j = joints as f64;
            AnimLimits {
                vector_ops_per_ns: rate,
                l2m_palette_ns: j * L2M_PALETTE_OPS_PER_JOINT / rate,
                full_job_ns: j * (L2M_PALETTE_OPS_PER_JOINT + SAMPLE_BLEND_OPS_PER_JOINT) / rate,
            }
        },
        load_average_1min: std::fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|s| s.split_whitespace().next()?.parse().ok()),
    })
}

fn print_stages(label: &str, s: &StageTimes) -> std::io::Result<()> {
    outln!(
        "  {label}: sampling 2 clips {:.0} ns, blending {:.0} ns, local-to-model {:.0} ns, palette {:.0} ns, local-to-model + palette fused {:.0} ns",
        s.sampling_two_clips_ns, s.blending_ns, s.local_to_model_ns, s.palette_ns, s.l2m_palette_fused_ns
    )
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
    outln!(
        "animation job: {} characters × {} joints, two 1 s clips × {} keyed tracks (31 keys), random phases, crossfading; SoA kernels: {}",
        r.characters, r.joints, r.keyed_tracks_per_clip, r.simd
    )?;
    outln!("  full job (sample ×2 + blend + local-to-model + palette), fastest frame:")?;
    outln!(
        "    1 thread : {:7.3} µs/character (median frame {:.3})",
        r.one_thread_us_per_character,
        r.one_thread_median_us_per_character
    )?;
    outln!(
        "    staged   : {:7.3} µs/character (sample each clip, then blend); fused / staged = {:.2}",
        r.staged_one_thread_us_per_character,
        r.fused_over_staged
    )?;
    outln!(
        "    2 threads: {:7.3} µs/character, speed-up {:.2}×",
        r.two_threads_us_per_character,
        r.two_thread_speedup
    )?;
    outln!("  stages per character, 1 thread, fastest pass:")?;
    print_stages("over all characters  ", &r.stages_over_crowd)?;
    print_stages("one character (hot)  ", &r.stages_hot_one_character)?;
    match (&r.skel_c, &r.ratios) {
        (Some(c), ratios) => {
            outln!(
                "  skeleton.c (same run, best of two): 1 thread {:.1} ns/character, 2 threads {:.1}, speed-up {:.2}×",
                c.one_thread_ns_per_character, c.two_threads_ns_per_character, c.two_thread_speedup
            )?;
            if let Some(q) = ratios {
                outln!(
                    "  ratios to skeleton.c: full job {:.2}× [target ≤ 2.4], blending {:.2}× [≤ 0.26], local-to-model {:.2}× [≤ 0.82], local-to-model + palette fused {:.2}× [≤ 0.6], 2-thread speed-up {:.2} of skeleton.c's [≥ 0.95]",
                    q.full_job, q.blending, q.local_to_model, q.l2m_palette_fused, q.two_thread_speedup
                )?;
            }
        }
        (None, _) => outln!("  C baseline skeleton.c not run (--no-c-baseline): no ratios")?,
    }
    outln!(
        "  arithmetic floors at this core's measured {:.1} vector ops/ns: full job {:.0} ns/character, local-to-model + palette {:.0} ns/character",
        r.limits.vector_ops_per_ns, r.limits.full_job_ns, r.limits.l2m_palette_ns
    )?;
    if let Some(load) = r.load_average_1min {
        outln!("  load average (1 min) while measuring: {load:.2} (a busy machine inflates every figure)")?;
    }
    Ok(())
}
