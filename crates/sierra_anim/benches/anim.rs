//! Criterion benchmarks of the animation runtime on the structure-of-arrays path the job runs:
//! the anchor workload (1,000 characters, 68 joints, crossfading two 1 s clips keyed at 30 fps
//! on the rotation and translation of every joint), full job on one thread and on two, then per
//! character: the full job from raw and from compressed clips, and each stage on its own —
//! sampling one clip (raw vs compressed, time advancing at 60 Hz), blending two poses,
//! local-to-model, skinning palette.
//!
//! `cargo bench -p sierra_anim` — or `sierra bench anim [--json]` for the anchor figures with
//! their ratio to `skel.c`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use glam::Mat4;
use sierra_anim::synthetic::Crowd;
use sierra_anim::*;

const CHARACTERS: usize = 1000;
const JOINTS: usize = 68;

fn full_job(c: &mut Criterion) {
    let mut g = c.benchmark_group("crowd_1000x68_crossfade");
    g.throughput(Throughput::Elements(CHARACTERS as u64));
    for threads in [1usize, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut crowd = Crowd::new(CHARACTERS, JOINTS);
        let mut t = 0.0f32;
        g.bench_function(format!("full_job_{threads}_threads"), |b| {
            pool.install(|| {
                b.iter(|| {
                    t += 1.0 / 60.0;
                    crowd.frame(t).unwrap();
                })
            })
        });
    }
    g.finish();
}

/// One character's job with two layers of `C` clips at time `t` (weights 0.3 / 0.7).
fn run_job<C: ClipSource + ?Sized>(
    crowd: &Crowd,
    clips: [&C; 2],
    t: f32,
    pose: &mut CharacterPose,
) {
    let layers = [
        ClipLayer {
            clip: clips[0],
            time: t,
            playback: Playback::Loop,
            weight: 0.3,
        },
        ClipLayer {
            clip: clips[1],
            time: t * 1.1,
            playback: Playback::Loop,
            weight: 0.7,
        },
    ];
    CharacterJob {
        skeleton: &crowd.skeleton,
        skin: Some(&crowd.skin),
        layers: &layers,
        root: Mat4::IDENTITY,
        hook: &NoHook,
        character: 0,
    }
    .run(pose)
    .unwrap();
}

fn stages(c: &mut Criterion) {
    let crowd = Crowd::new(1, JOINTS);
    let skel = &crowd.skeleton;
    let compressed = crowd
        .clips
        .each_ref()
        .map(|clip| CompressedClip::compress(clip, skel, &CompressionSettings::default()).unwrap());
    let blocks = soa_blocks(JOINTS);
    let mut g = c.benchmark_group("soa_per_character_68_joints");
    let mut pose = CharacterPose::new(skel, JOINTS, 2);
    let mut t = 0.0f32;
    g.bench_function("full_job_raw", |bench| {
        bench.iter(|| {
            t += 1.0 / 60.0;
            run_job(&crowd, [&crowd.clips[0], &crowd.clips[1]], t, &mut pose);
        })
    });
    g.bench_function("full_job_compressed", |bench| {
        bench.iter(|| {
            t += 1.0 / 60.0;
            run_job(&crowd, [&compressed[0], &compressed[1]], t, &mut pose);
        })
    });
    let mut ctx = SamplingContext::new(JOINTS);
    let mut a = vec![SoaTransform::IDENTITY; blocks];
    let mut b = vec![SoaTransform::IDENTITY; blocks];
    g.bench_function("sample_one_clip_raw", |bench| {
        bench.iter(|| {
            t += 1.0 / 60.0;
            sample_clip_soa(&crowd.clips[0], t, Playback::Loop, &mut ctx, &mut a).unwrap();
        })
    });
    g.bench_function("sample_one_clip_compressed", |bench| {
        bench.iter(|| {
            t += 1.0 / 60.0;
            sample_clip_soa(&compressed[0], t, Playback::Loop, &mut ctx, &mut a).unwrap();
        })
    });
    sample_clip_soa(&crowd.clips[1], 0.3, Playback::Loop, &mut ctx, &mut b).unwrap();
    let mut out = vec![SoaTransform::IDENTITY; blocks];
    g.bench_function("blend_two_poses", |bench| {
        bench.iter(|| {
            let layer = |pose, weight| SoaBlendLayer {
                pose,
                weight,
                joint_weights: None,
            };
            blend_poses_soa(
                &[layer(&a, 0.3), layer(&b, 0.7)],
                &[],
                skel.soa_rest_pose(),
                &mut out,
            )
            .unwrap()
        })
    });
    let mut model = vec![Mat4::IDENTITY; JOINTS];
    g.bench_function("local_to_model", |bench| {
        bench.iter(|| local_to_model_soa(skel, &out, Mat4::IDENTITY, &mut model).unwrap())
    });
    let mut palette = vec![Mat4::IDENTITY; JOINTS];
    g.bench_function("skinning_palette", |bench| {
        bench.iter(|| skinning_palette(&crowd.skin, &model, &mut palette).unwrap())
    });
    g.finish();
}

criterion_group!(benches, full_job, stages);
criterion_main!(benches);
