//! Transform propagation: 4,000 rigs × 68 nodes, half of the rigs moving each frame.
//!
//! Reports time per frame and, through criterion's throughput, updated nodes per second;
//! ns per updated node = 1e9 / (elements per second), then the best frame in ns per updated
//! node. The ratios to the C baseline `benchmarks/c/skeleton.c` are
//! `sierra bench propagation`'s (the same rigs, [`sierra_scene::synthetic`]).
//!
//! Run: `cargo bench -p sierra_scene --bench propagation`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sierra_scene::graph::{NodeId, SceneGraph};
use sierra_scene::synthetic::{add_rig, turn_roots, RIG_NODES};

const RIGS: usize = 4000;

fn propagation(c: &mut Criterion) {
    run(c, RIGS, "propagation_4000x68");
    // The same work on 250 rigs (17k nodes, cache-resident): the compute cost per node
    // without the memory traffic of the 4,000-rig case.
    run(c, 250, "propagation_250x68");
}

fn run(c: &mut Criterion, rigs: usize, name: &str) {
    let mut graph = SceneGraph::new();
    let roots: Vec<NodeId> = (0..rigs)
        .map(|r| add_rig(&mut graph, r).expect("fresh graph"))
        .collect();
    graph.propagate();
    let moving: Vec<NodeId> = roots.iter().step_by(2).copied().collect();
    let updated = moving.len() * RIG_NODES;

    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(updated as u64));
    let mut frame = 0u32;
    group.bench_function("half_moving", |b| {
        b.iter(|| {
            frame = frame.wrapping_add(1);
            turn_roots(&mut graph, &moving, frame as f32 * 0.01);
            let stats = graph.propagate();
            debug_assert_eq!(stats.recomputed, updated);
            black_box(stats)
        })
    });
    group.finish();

    let mut group = c.benchmark_group(name);
    group.bench_function("no_edits", |b| b.iter(|| black_box(graph.propagate())));
    group.finish();

    // One-off figures in the report's unit: mean and best frame (the best frame is the
    // figure least disturbed by other processes on a shared machine).
    let frames = 200;
    let mut total = 0.0f64;
    let mut best = f64::MAX;
    for f in 0..frames {
        let start = std::time::Instant::now();
        turn_roots(&mut graph, &moving, f as f32 * 0.02);
        black_box(graph.propagate());
        let ns = start.elapsed().as_nanos() as f64 / updated as f64;
        total += ns;
        best = best.min(ns);
    }
    println!(
        "{name}/half_moving: {:.2} ns per updated node mean, {best:.2} best frame ({updated} nodes per frame)",
        total / frames as f64
    );
}

criterion_group!(benches, propagation);
criterion_main!(benches);
