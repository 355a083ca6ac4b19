//! FABRIK behaviour: random reachable targets with limits, unreachable targets, collinear
//! starts, limits, pole side. Targets come from forward kinematics of random poses within the
//! limits, so every target is reachable with the limits on.

mod ik_common;

use glam::{Quat, Vec3};
use ik_common::{bone_lengths, random_chain, Rng, TestChain};
use sierra_anim::ik::{
    solve_positions, ChainPose, FabrikSettings, IkChain, IkGoal, IkSolver, JointLimit, SolveReport,
};

fn ik_chain(chain: &TestChain) -> IkChain {
    let n = chain.len();
    IkChain::new((0..n).collect(), n, TestChain::parent)
        .unwrap()
        .with_limits(chain.limits.clone())
        .unwrap()
}

fn solve(
    chain: &TestChain,
    start: &[Quat],
    goal: IkGoal,
    settings: FabrikSettings,
    pose: &mut ChainPose,
) -> (Vec<Quat>, SolveReport) {
    let mut local = start.to_vec();
    let model = chain.model(start);
    let report = ik_chain(chain)
        .solve_rotations(
            &IkSolver::Fabrik(settings),
            &goal,
            &model,
            &mut local,
            &chain.rest,
            pose,
        )
        .unwrap();
    (local, report)
}

#[test]
fn random_reachable_targets_with_limits() {
    let mut rng = Rng::new(0x5eed_0006);
    let settings = FabrikSettings {
        tolerance: 1e-3,
        max_iterations: 200,
    };
    let mut pose = ChainPose::default();
    let (mut converged, mut iterations, cases) = (0, 0u64, 1000);
    let mut worst_len = 0.0f32;
    let mut worst_limit = 0.0f32;
    let mut worst_dist = 0.0f32;
    for case in 0..cases {
        let n = 3 + case % 8;
        let chain = random_chain(n, std::env::var("NOLIM").is_err(), &mut rng);
        let truth = chain.random_pose(&mut rng);
        let target = *chain.positions(&truth).last().unwrap();
        let start = chain.random_pose(&mut rng);
        let (local, report) = solve(&chain, &start, IkGoal::at(target), settings, &mut pose);
        let solved = chain.positions(&local);
        let lengths = bone_lengths(&solved);
        for (i, l) in lengths.iter().enumerate() {
            worst_len = worst_len.max((l - chain.offsets[i + 1].length()).abs());
        }
        let ex = chain.limit_excess(&local);
        if ex > 1e-4 && std::env::var("DBG").is_ok() {
            println!("case {case} n {n} excess {ex} limits {:?}", chain.limits);
        }
        worst_limit = worst_limit.max(ex);
        let dist = solved.last().unwrap().distance(target);
        worst_dist = worst_dist.max(dist);
        if dist <= settings.tolerance + 1e-5 {
            converged += 1;
        } else if std::env::var("DBG").is_ok() {
            let (l2, r2) = solve(&chain, &chain.rest, IkGoal::at(target), settings, &mut pose);
            let d2 = chain.positions(&l2).last().unwrap().distance(target);
            let mut near = truth.clone();
            near[0] = near[0] * Quat::from_axis_angle(Vec3::X, 0.05);
            let (l3, _) = solve(&chain, &near, IkGoal::at(target), settings, &mut pose);
            println!(
                "near truth: {:.4} excess truth {} limits {:?} truth {:?} sol {:?}",
                chain.positions(&l3).last().unwrap().distance(target),
                chain.limit_excess(&truth),
                chain.limits,
                truth,
                l3
            );
            println!("fail case {case} n {n} dist {dist:.4} reach {:.3} root-target {:.3} | from rest: {d2:.4} it {}", chain.reach(), target.length(), r2.iterations);
        }
        iterations += report.iterations as u64;
    }
    println!(
        "limits on: {converged}/{cases} within 1 mm, mean iterations {:.1}, worst distance {worst_dist:.4} m, \
         worst bone length error {worst_len:e} m, worst limit excess {worst_limit:e} rad",
        iterations as f64 / cases as f64
    );
    assert!(worst_len < 1e-5, "bone length changed by {worst_len}");
    assert!(worst_limit < 1e-4, "limit exceeded by {worst_limit} rad");
    assert_eq!(converged, cases);
}
