//! Virtual-pipes water step on the CPU: time per step at 256²..2048², 1 and 2 threads.
//! Divide by the cell count for ns/cell/step (`sierra bench water` prints that directly).
//! Reference: a plain C single-thread version takes 8–9 ns/cell/step at 1024² on the CI machine.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use sierra_terrain::water::{InitialState, WaterParams, WaterSim};

fn sim(n: usize) -> WaterSim {
    let p = WaterParams::new(n, n, 1.0);
    let terrain = vec![0.0; n * n];
    let init = InitialState::Bump {
        level: 1.0,
        center: glam::Vec2::splat(n as f32 * 0.5),
        amplitude: 0.5,
        frequency: 0.2,
    };
    let depth = init.depth(&p, &terrain).expect("valid bench state");
    WaterSim::new(p, terrain, depth).expect("valid bench sim")
}

fn water_step(c: &mut Criterion) {
    let mut group = c.benchmark_group("water_step");
    group.sample_size(10);
    for threads in [1usize, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("rayon pool");
        for n in [256usize, 512, 1024, 2048] {
            let mut s = sim(n);
            let dt = 0.5 * s.max_stable_dt();
            group.throughput(Throughput::Elements((n * n) as u64));
            group.bench_with_input(BenchmarkId::new(format!("{threads}t"), n), &n, |b, _| {
                pool.install(|| b.iter(|| s.step(dt).expect("stable step")))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, water_step);
criterion_main!(benches);
