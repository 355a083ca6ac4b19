//! The GPU water columns (compute/water.wgsl) against the CPU reference
//! (sierra_terrain::water): same state in, same state out after 100 steps.

// The renderer tests' helpers (GPU context, frames, HDR targets), shared rather than copied.
#[path = "../../sierra_render/tests/support/mod.rs"]
mod support;
#[path = "common/water_scene.rs"]
mod water_scene;

use glam::Vec2;
use sierra_content::water::{water_compute, water_compute_from_sim};
use sierra_render::compute::water::WaterKernels;
use sierra_render::RenderError;
use sierra_terrain::water::{Boundary, WaterParams, WaterSim};
use sierra_testkit::diff::max_abs_diff;
use support::context;
use water_scene::scene;

fn compare_after_100_steps(boundary: Boundary, rain: f32, kernels: WaterKernels) {
    let ctx = context();
    let (p, terrain, depth) = scene(boundary);
    let mut cpu = WaterSim::new(p, terrain.clone(), depth.clone()).unwrap();
    let mut gpu = water_compute(&ctx, p, &terrain, &depth).unwrap();
    gpu.set_kernels(kernels);
    cpu.set_rain(rain).unwrap();
    gpu.set_rain(rain).unwrap();
    let dt = 0.8 * cpu.max_stable_dt();
    for _ in 0..100 {
        cpu.step(dt).unwrap();
    }
    gpu.step(&ctx, dt, 100).unwrap();

    let gpu_depth = gpu.read_depth(&ctx).unwrap();
    let scale = cpu.max_depth();
    let moved = max_abs_diff(cpu.depth(), &depth);
    assert!(
        moved > 0.05,
        "the water moved ({moved} m), so the comparison means something"
    );
    let diff = max_abs_diff(cpu.depth(), &gpu_depth);
    assert!(
        diff <= 1e-4 * scale,
        "depth differs by {diff} m (max depth {scale})"
    );

    let gpu_flux = gpu.read_flux(&ctx).unwrap();
    let f = cpu.flux();
    let cpu_flux: Vec<f32> = (0..p.cell_count())
        .flat_map(|i| [f.left[i], f.right[i], f.top[i], f.bottom[i]])
        .collect();
    let gpu_flux: Vec<f32> = gpu_flux.into_iter().flatten().collect();
    let flux_scale = cpu_flux.iter().copied().fold(0.0, f32::max);
    let flux_diff = max_abs_diff(&cpu_flux, &gpu_flux);
    assert!(
        flux_diff <= 1e-4 * flux_scale,
        "flux differs by {flux_diff} (max {flux_scale})"
    );

    let mut cpu_v = vec![Vec2::ZERO; p.cell_count()];
    cpu.velocity_field(&mut cpu_v);
    let gpu_v = gpu.read_velocity(&ctx).unwrap();
    let v_scale = cpu_v.iter().map(|v| v.length()).fold(0.0, f32::max);
    let v_diff = cpu_v
        .iter()
        .zip(&gpu_v)
        .map(|(a, b)| (*a - *b).length())
        .fold(0.0, f32::max);
    // Velocity divides by the depth, so very thin films amplify the 1e-7 depth differences.
    assert!(
        v_diff <= 1e-3 * v_scale,
        "velocity differs by {v_diff} (max {v_scale})"
    );
}

#[test]
fn gpu_matches_cpu_after_100_steps_closed() {
    compare_after_100_steps(Boundary::Closed, 0.0, WaterKernels::Staged);
}

#[test]
fn gpu_direct_kernels_match_cpu_after_100_steps() {
    compare_after_100_steps(Boundary::Closed, 0.0, WaterKernels::Direct);
}

#[test]
fn staged_and_direct_kernels_agree_exactly() {
    let ctx = context();
    let (p, terrain, depth) = scene(Boundary::Open);
    let run = |kernels| {
        let mut gpu = water_compute(&ctx, p, &terrain, &depth).unwrap();
        gpu.set_kernels(kernels);
        gpu.step(&ctx, 0.05, 50).unwrap();
        gpu.read_depth(&ctx).unwrap()
    };
    assert_eq!(run(WaterKernels::Staged), run(WaterKernels::Direct));
}

#[test]
fn gpu_matches_cpu_after_100_steps_open_with_rain() {
    compare_after_100_steps(Boundary::Open, 0.01, WaterKernels::Staged);
}

#[test]
fn gpu_drop_matches_cpu_drop_and_conserves_volume() {
    let ctx = context();
    let p = WaterParams::new(48, 48, 1.0);
    let mut cpu = WaterSim::flat(p, vec![1.0; 48 * 48]).unwrap();
    let mut gpu = water_compute_from_sim(&ctx, &cpu).unwrap();
    cpu.add_drop(Vec2::new(20.0, 26.0), 6.0, 0.5).unwrap();
    gpu.add_drop(&ctx, Vec2::new(20.0, 26.0), 6.0, 0.5).unwrap();
    assert!(max_abs_diff(cpu.depth(), &gpu.read_depth(&ctx).unwrap()) < 1e-6);
    let v0 = cpu.total_volume();
    gpu.step(&ctx, 0.1, 300).unwrap();
    let d = gpu.read_depth(&ctx).unwrap();
    let v: f64 = d.iter().map(|&x| f64::from(x)).sum();
    assert!((v - v0).abs() / v0 < 1e-5, "GPU volume {v} vs {v0}");
    assert!(d.iter().all(|&x| x >= 0.0));
}

#[test]
fn gpu_refuses_unstable_steps_and_bad_grids() {
    let ctx = context();
    let p = WaterParams::new(16, 16, 1.0);
    let mut gpu = water_compute(&ctx, p, &[0.0; 256], &[1.0; 256]).unwrap();
    let limit = gpu.max_stable_dt();
    assert!(matches!(
        gpu.step(&ctx, limit * 1.5, 1),
        Err(RenderError::InvalidInput(m)) if m.contains("stability limit")
    ));
    assert_eq!(gpu.steps(), 0);
    let e = water_compute(&ctx, WaterParams::new(0, 16, 1.0), &[], &[]).err();
    assert!(matches!(e, Some(RenderError::InvalidInput(m)) if m.contains("0x16")));
    let mut nan = vec![1.0; 256];
    nan[17] = f32::NAN;
    let e = water_compute(&ctx, p, &[0.0; 256], &nan).err();
    assert!(matches!(e, Some(RenderError::InvalidInput(m)) if m.contains("NaN")));
}
