//! Virtual-pipes water step on the CPU: time per step at 256²..2048², 1 and 2 threads.
//! Divide by the cell count for ns/cell/step (`sierra bench water` prints that directly).
//!
//! Then, at 1024² and 2048², one-off figures measured in this same invocation, best against
//! best: the 2-thread speed-up and the achieved bandwidth of the 2-thread step (44 bytes per
//! cell: 6 arrays read, 5 written) as a fraction of a 2-thread banded copy of the same bytes
//! ([`CopyProbe`]), the step and the copy timed alternately. The ratios to the C baseline
//! `benchmarks/c/pipes.c` are `sierra bench water`'s.

use std::time::Instant;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use sierra_terrain::water::{CopyProbe, InitialState, WaterParams, WaterSim};

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

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("rayon pool")
}

fn water_step(c: &mut Criterion) {
    let mut group = c.benchmark_group("water_step");
    group.sample_size(10);
    for threads in [1usize, 2] {
        let pool = pool(threads);
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
    for n in [1024, 2048] {
        bandwidth(n);
    }
}

/// Best of `reps` timings of `f` after one untimed call (page faults of the second
/// buffers), in ns per cell.
fn best_ns_per_cell(cells: usize, reps: usize, mut f: impl FnMut()) -> f64 {
    f();
    (0..reps)
        .map(|_| ns_per_cell(cells, &mut f))
        .fold(f64::MAX, f64::min)
}

/// One timing of `f`, in ns per cell.
fn ns_per_cell(cells: usize, f: &mut impl FnMut()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64() * 1e9 / cells as f64
}

fn bandwidth(n: usize) {
    let cells = n * n;
    let reps = 30;
    let mut s = sim(n);
    let dt = 0.5 * s.max_stable_dt();
    let one = pool(1).install(|| best_ns_per_cell(cells, reps, || s.step(dt).expect("stable")));
    // Two threads: the step and the copy alternate, so that both see the same load from
    // other processes on a shared machine (best against best).
    let mut s = sim(n);
    let mut probe = CopyProbe::new(n, n);
    let (two, copy) = pool(2).install(|| {
        let mut step_once = || s.step(dt).expect("stable");
        let mut best = (f64::MAX, f64::MAX);
        step_once();
        probe.run();
        // More pairs than the one-thread reps: on a loaded machine the pairs that ran with both
        // cores free are few, and they are the ones the best-against-best ratio needs.
        for _ in 0..3 * reps {
            best.0 = best.0.min(ns_per_cell(cells, &mut step_once));
            best.1 = best.1.min(ns_per_cell(cells, &mut || probe.run()));
        }
        best
    });
    let gb_s = |ns_per_cell: f64| probe.bytes() as f64 / cells as f64 / ns_per_cell;
    println!(
        "water {n}²: 1 thread {one:.2} ns/cell, 2 threads {two:.2} (speed-up {:.2}x); \
         2-thread step {:.1} GB/s = {:.0} % of a 2-thread copy of the same bytes ({:.1} GB/s)",
        one / two,
        gb_s(two),
        100.0 * copy / two,
        gb_s(copy)
    );
}

criterion_group!(benches, water_step);
criterion_main!(benches);
