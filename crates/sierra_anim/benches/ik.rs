//! IK timings: ns per solve of FABRIK and CCD on a 10-joint chain (the convergence set of
//! `tests/ik_convergence.rs`), FABRIK with limits on a 4-joint arm, and analytic two-bone IK.
//! Run: `cargo bench -p sierra_anim --bench ik`.

use criterion::{criterion_group, criterion_main, Criterion};
use glam::{Quat, Vec3};
use sierra_anim::ik::{
    solve_ccd, solve_positions, solve_two_bone, ChainPose, FabrikSettings, JointLimit,
};
use std::hint::black_box;

const JOINTS: usize = 10;

/// Deterministic targets: end effectors of poses with every joint turned 60° about a varying axis.
fn targets() -> Vec<Vec3> {
    (0..64)
        .map(|k| {
            let (mut p, mut rot) = (Vec3::ZERO, Quat::IDENTITY);
            for j in 1..JOINTS {
                let a = (k * 7 + j * 3) as f32;
                let axis = Vec3::new(a.sin(), (a * 1.3).cos(), (a * 0.7).sin()).normalize();
                rot *= Quat::from_axis_angle(axis, 1.0);
                p += rot * Vec3::X;
            }
            p
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let targets = targets();
    let start: Vec<Vec3> = (0..JOINTS).map(|i| Vec3::X * i as f32).collect();
    let lengths = vec![1.0; JOINTS - 1];
    let settings = FabrikSettings {
        tolerance: 1e-3 * (JOINTS - 1) as f32,
        max_iterations: 10_000,
        ..Default::default()
    };
    let mut p = start.clone();
    let mut k = 0;
    c.bench_function("fabrik_10_joints", |b| {
        b.iter(|| {
            p.copy_from_slice(&start);
            k = (k + 1) % targets.len();
            black_box(solve_positions(&mut p, &lengths, targets[k], None, &settings).unwrap())
        })
    });
    c.bench_function("ccd_10_joints", |b| {
        b.iter(|| {
            p.copy_from_slice(&start);
            k = (k + 1) % targets.len();
            black_box(solve_ccd(&mut p, targets[k], &settings).unwrap())
        })
    });

    // A limited arm: shoulder ball-and-socket, elbow hinge, wrist ball-and-socket.
    let arm = [Vec3::ZERO, Vec3::X * 0.3, Vec3::X * 0.57, Vec3::X * 0.66];
    let limits = [
        JointLimit::ball_socket(0, 1.7, 1.0).unwrap(),
        JointLimit::hinge(1, Vec3::Y, -2.6, 0.0).unwrap(),
        JointLimit::ball_socket(2, 1.0, 0.5).unwrap(),
    ];
    let mut pose = ChainPose::from_positions(&arm).unwrap();
    let arm_targets: Vec<Vec3> = (0..64)
        .map(|i| {
            let a = i as f32 * 0.1;
            Vec3::new(
                0.35 + 0.1 * a.cos(),
                0.1 * (2.0 * a).sin(),
                0.3 + 0.1 * a.sin(),
            )
        })
        .collect();
    let arm_settings = FabrikSettings {
        max_iterations: 64,
        ..Default::default()
    };
    c.bench_function("fabrik_limited_arm_4_joints", |b| {
        b.iter(|| {
            pose.set_positions(&arm).unwrap();
            k = (k + 1) % arm_targets.len();
            black_box(
                sierra_anim::ik::fabrik::solve_chain(
                    &mut pose,
                    &limits,
                    arm_targets[k],
                    None,
                    &arm_settings,
                )
                .unwrap(),
            )
        })
    });
    c.bench_function("two_bone", |b| {
        b.iter(|| {
            k = (k + 1) % arm_targets.len();
            black_box(
                solve_two_bone(
                    arm[0],
                    arm[1],
                    arm[2],
                    arm_targets[k],
                    Some(Vec3::NEG_Y),
                    0.0,
                )
                .unwrap(),
            )
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
