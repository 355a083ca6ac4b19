//! The GPU 8-connection water columns (compute/water8.wgsl) against the CPU reference
//! (sierra_terrain::water::columns8): same state in, same state out after 100 steps; the GPU
//! conserves volume.

// The renderer tests' helpers (GPU context, frames, HDR targets), shared rather than copied.
#[path = "../../sierra_render/tests/support/mod.rs"]
mod support;
#[path = "common/water_scene.rs"]
mod water_scene;

use sierra_content::water::water8_compute;
use sierra_terrain::water::{Boundary, Columns8Sim, WaterParams};
use sierra_testkit::diff::max_abs_diff;
use support::context;
use water_scene::scene;

#[test]
fn gpu_matches_cpu_after_100_steps() {
    let ctx = context();
    let (p, terrain, depth) = scene(Boundary::Closed);
    assert!(depth.contains(&0.0), "dry islands exercise the limiter");
    let mut cpu = Columns8Sim::new(p, terrain.clone(), depth.clone()).unwrap();
    let mut gpu = water8_compute(&ctx, p, &terrain, &depth).unwrap();
    cpu.set_rain(0.01).unwrap();
    gpu.set_rain(0.01).unwrap();
    let dt = 0.8 * cpu.max_stable_dt();
    for _ in 0..100 {
        cpu.step(dt).unwrap();
    }
    gpu.step(&ctx, dt, 100).unwrap();
    let gpu_depth = gpu.read_depth(&ctx).unwrap();
    let scale = cpu.max_depth();
    let moved = max_abs_diff(cpu.depth(), &depth);
    assert!(moved > 0.05, "the water moved ({moved} m)");
    let diff = max_abs_diff(cpu.depth(), &gpu_depth);
    assert!(
        diff <= 1e-4 * scale,
        "depth differs by {diff} m (max depth {scale})"
    );

    let cpu_flow: Vec<f32> = cpu.flow().iter().flatten().copied().collect();
    let gpu_flow: Vec<f32> = gpu.read_flow(&ctx).unwrap().into_iter().flatten().collect();
    let flow_scale = cpu_flow.iter().map(|q| q.abs()).fold(0.0, f32::max);
    let flow_diff = max_abs_diff(&cpu_flow, &gpu_flow);
    assert!(flow_scale > 0.0);
    assert!(
        flow_diff <= 1e-4 * flow_scale,
        "flow differs by {flow_diff} (max {flow_scale})"
    );
}

#[test]
fn gpu_conserves_volume_and_refuses_open_edges() {
    let ctx = context();
    let (p, terrain, depth) = scene(Boundary::Closed);
    let volume = |d: &[f32]| d.iter().map(|&x| f64::from(x)).sum::<f64>();
    let v0 = volume(&depth);
    let mut gpu = water8_compute(&ctx, p, &terrain, &depth).unwrap();
    gpu.step(&ctx, 0.9 * gpu.max_stable_dt(), 1000).unwrap();
    let d = gpu.read_depth(&ctx).unwrap();
    assert!(d.iter().all(|&x| x >= 0.0));
    let rel = (volume(&d) - v0).abs() / v0;
    assert!(rel < 1e-5, "relative volume change {rel:e}");

    let open = WaterParams {
        boundary: Boundary::Open,
        ..p
    };
    let e = water8_compute(&ctx, open, &terrain, &depth).err().unwrap();
    assert!(e.to_string().contains("closed edges only"), "{e}");
    let too_big = gpu.max_stable_dt() * 1.5;
    assert!(gpu.step(&ctx, too_big, 1).is_err());
}
