//! Convergence figure (Must show 2): mean iterations of FABRIK and CCD for reachable targets on a
//! 10-joint chain at a tolerance of 1e-3 of the chain length, against Aristidou & Lasenby 2011,
//! Table 1 (FABRIK ≈ 15.5 iterations, CCD ≈ 26). `cargo test --release -p sierra_anim --test
//! ik_convergence -- --nocapture` prints the figures; `cargo bench -p sierra_anim --bench ik`
//! times the solves.

mod ik_common;

use glam::{Quat, Vec3};
use ik_common::Rng;
use sierra_anim::ik::{solve_ccd, solve_positions, FabrikSettings};

const JOINTS: usize = 10;
const TARGETS: usize = 1000;

/// Start pose: the chain straight along +X with unit bones. Targets: end effector of random poses
/// (each joint turned by a random rotation of up to `max_angle` relative to its parent), so every
/// target is reachable.
fn setup(rng: &mut Rng, max_angle: f32) -> (Vec<Vec3>, Vec<Vec3>) {
    let start: Vec<Vec3> = (0..JOINTS).map(|i| Vec3::X * i as f32).collect();
    let targets = (0..TARGETS)
        .map(|_| {
            let (mut p, mut rot) = (Vec3::ZERO, Quat::IDENTITY);
            for _ in 1..JOINTS {
                rot *= Quat::from_axis_angle(rng.unit(), rng.range(0.0, max_angle));
                p += rot * Vec3::X;
            }
            p
        })
        .collect();
    (start, targets)
}

/// Mean iterations of (FABRIK, CCD) over the targets.
fn mean_iterations(max_angle: f32) -> (f64, f64) {
    let mut rng = Rng::new(2011);
    let (start, targets) = setup(&mut rng, max_angle);
    let reach = (JOINTS - 1) as f32;
    let settings = FabrikSettings {
        tolerance: 1e-3 * reach,
        max_iterations: 10_000,
        ..Default::default()
    };
    let lengths = vec![1.0; JOINTS - 1];
    let (mut fabrik, mut ccd) = (0u64, 0u64);
    for &target in &targets {
        let mut p = start.clone();
        let r = solve_positions(&mut p, &lengths, target, None, &settings).unwrap();
        assert!(r.converged, "FABRIK: {r:?}");
        fabrik += r.iterations as u64;
        let mut p = start.clone();
        let r = solve_ccd(&mut p, target, &settings).unwrap();
        assert!(r.converged, "CCD: {r:?}");
        ccd += r.iterations as u64;
    }
    let (fabrik, ccd) = (fabrik as f64 / TARGETS as f64, ccd as f64 / TARGETS as f64);
    println!(
        "{JOINTS}-joint chain, {TARGETS} reachable targets (joint turns up to {:.0} deg), tolerance \
         1e-3 x chain length: mean iterations FABRIK {fabrik:.1} (paper Table 1: 15.5), CCD {ccd:.1} (paper: 26)",
        max_angle.to_degrees()
    );
    (fabrik, ccd)
}

#[test]
fn fabrik_needs_fewer_iterations_than_ccd() {
    for max_angle in [std::f32::consts::FRAC_PI_2, std::f32::consts::PI] {
        let (fabrik, ccd) = mean_iterations(max_angle);
        assert!(fabrik < ccd, "FABRIK {fabrik} vs CCD {ccd}");
    }
}
