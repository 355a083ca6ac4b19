//! Criterion benchmarks of the animation runtime: issue #4's scenario
//! (1,000 characters, 68-joint skeleton, crossfading two clips, full job),
//! on one thread and on two, plus each stage on its own.
//!
//! `cargo bench -p sierra_anim` — or `sierra bench anim --characters N [--json]`
//! for the same figures as a table/JSON.

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

fn stages(c: &mut Criterion) {
    let crowd = Crowd::new(1, JOINTS);
    let skel = &crowd.skeleton;
    let mut g = c.benchmark_group("stages_per_character_68_joints");
    let mut ctx = SamplingContext::new(JOINTS);
    let mut a = vec![Transform::IDENTITY; JOINTS];
    let mut b = vec![Transform::IDENTITY; JOINTS];
    let mut t = 0.0f32;
    g.bench_function("sample_one_clip", |bench| {
        bench.iter(|| {
            t += 1.0 / 60.0;
            sample_clip(&crowd.clips[0], t, Playback::Loop, &mut ctx, &mut a).unwrap();
        })
    });
    sample_clip(&crowd.clips[1], 0.3, Playback::Loop, &mut ctx, &mut b).unwrap();
    let mut out = vec![Transform::IDENTITY; JOINTS];
    g.bench_function("blend_two_poses", |bench| {
        bench.iter(|| {
            blend_poses(
                &[BlendLayer::new(&a, 0.3), BlendLayer::new(&b, 0.7)],
                skel.rest_pose(),
                &mut out,
            )
            .unwrap()
        })
    });
    let mut model = vec![Mat4::IDENTITY; JOINTS];
    g.bench_function("local_to_model", |bench| {
        bench.iter(|| local_to_model(skel, &out, Mat4::IDENTITY, &mut model).unwrap())
    });
    let mut palette = vec![Mat4::IDENTITY; JOINTS];
    g.bench_function("skinning_palette", |bench| {
        bench.iter(|| skinning_palette(&crowd.skin, &model, &mut palette).unwrap())
    });
    g.finish();
}

criterion_group!(benches, full_job, stages);
criterion_main!(benches);
