//! Transform propagation: 4,000 rigs × 68 nodes, half of the rigs moving each frame.
//!
//! Reports time per frame and, through criterion's throughput, updated nodes per second;
//! ns per updated node = 1e9 / (elements per second). Then prints the best frame in ns per
//! updated node beside `../shared/bench/skel.c` (compiled with gcc and run in this same
//! invocation, one thread, as many characters as there are moving rigs, so both compute the
//! same number of matrices per frame): the ratio to its full loop (TRS → matrix, parent
//! multiply, skinning multiply) and to `-DNO_SKIN` (TRS → matrix, parent multiply), best frame
//! against best frame.
//!
//! Run: `cargo bench -p sierra_scene --bench propagation`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use glam::{Quat, Vec3};
use sierra_scene::graph::{NodeId, SceneGraph, Transform};
use sierra_testkit::c_bench;

const RIGS: usize = 4000;
const NODES_PER_RIG: usize = 68;

/// A humanoid-like rig: a root, a spine chain, and limbs/fingers branching off it.
fn build(graph: &mut SceneGraph, rig: usize) -> NodeId {
    let root = graph
        .add(
            format!("rig{rig}"),
            Transform::from_translation(Vec3::new(rig as f32, 0.0, 0.0)),
            None,
        )
        .expect("fresh graph");
    let mut nodes = vec![root];
    for j in 1..NODES_PER_RIG {
        // Parent: mostly the previous node (chains), every 6th branches from the spine.
        let parent = if j % 6 == 0 {
            nodes[j / 6]
        } else {
            nodes[j - 1]
        };
        let local = Transform::new(
            Vec3::new(0.0, 0.1, 0.02 * (j % 3) as f32),
            Quat::from_rotation_z(0.05 * (j % 7) as f32),
            Vec3::ONE,
        );
        nodes.push(
            graph
                .add(format!("j{j}"), local, Some(parent))
                .expect("parent exists"),
        );
    }
    root
}

fn propagation(c: &mut Criterion) {
    run(c, RIGS, "propagation_4000x68");
    // The same work on 250 rigs (17k nodes, cache-resident): the compute cost per node
    // without the memory traffic of the 4,000-rig case.
    run(c, 250, "propagation_250x68");
}

/// Moves every second rig's root by a rotation about Y.
fn edit(graph: &mut SceneGraph, moving: &[NodeId], angle: f32) {
    for &root in moving {
        if let Some(mut t) = graph.local(root) {
            t.rotation = Quat::from_rotation_y(angle);
            graph.set_local(root, t);
        }
    }
}

fn run(c: &mut Criterion, rigs: usize, name: &str) {
    let mut graph = SceneGraph::new();
    let roots: Vec<NodeId> = (0..rigs).map(|r| build(&mut graph, r)).collect();
    graph.propagate();
    let moving: Vec<NodeId> = roots.iter().step_by(2).copied().collect();
    let updated = moving.len() * NODES_PER_RIG;

    let skel_before = skel(moving.len());
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(updated as u64));
    let mut frame = 0u32;
    group.bench_function("half_moving", |b| {
        b.iter(|| {
            frame = frame.wrapping_add(1);
            edit(&mut graph, &moving, frame as f32 * 0.01);
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
        edit(&mut graph, &moving, f as f32 * 0.02);
        black_box(graph.propagate());
        let ns = start.elapsed().as_nanos() as f64 / updated as f64;
        total += ns;
        best = best.min(ns);
    }
    println!(
        "{name}/half_moving: {:.2} ns per updated node mean, {best:.2} best frame ({updated} nodes per frame)",
        total / frames as f64
    );
    let skel_after = skel(moving.len());
    match (skel_before, skel_after) {
        (Ok(a), Ok(b)) => {
            let full = a.0.min(b.0);
            let no_skin = a.1.min(b.1);
            println!(
                "  skel.c, {} characters, 1 thread, best: {full:.2} ns/bone full, {no_skin:.2} ns/bone -DNO_SKIN \
                 -> propagation = {:.2}x full, {:.2}x NO_SKIN",
                moving.len(),
                best / full,
                best / no_skin
            );
        }
        (Err(e), _) | (_, Err(e)) => println!("  skel.c baseline not run: {e}"),
    }
}

/// skel.c's one-thread ns per bone, full and `-DNO_SKIN`, for `characters` characters.
fn skel(characters: usize) -> Result<(f64, f64), String> {
    let n = characters.to_string();
    let parse = |out: String| {
        c_bench::number_before(&out, "threads=1", " ns/bone")
            .ok_or_else(|| format!("unexpected skel.c output: {out}"))
    };
    let full = parse(c_bench::build_and_run("skel.c", &[], &[&n])?)?;
    let no_skin = parse(c_bench::build_and_run("skel.c", &["-DNO_SKIN"], &[&n])?)?;
    Ok((full, no_skin))
}

criterion_group!(benches, propagation);
criterion_main!(benches);
