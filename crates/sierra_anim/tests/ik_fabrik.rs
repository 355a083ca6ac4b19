//! FABRIK behaviour (Must show 1): random reachable targets with and without limits, unreachable
//! targets, collinear starts, limits never exceeded, pole side. Reachable targets come from
//! forward kinematics of random poses within the joint limits.

mod ik_common;

use glam::{Quat, Vec3};
use ik_common::{bone_lengths, pole_side, random_chain, Rng, TestChain};
use sierra_anim::ik::{
    solve_positions, ChainPose, FabrikSettings, IkChain, IkGoal, IkSolver, JointLimit, SolveReport,
};

const CASES: usize = 1000;

fn ik_chain(chain: &TestChain) -> IkChain {
    let n = chain.len();
    IkChain::new((0..n).collect(), n, TestChain::parent)
        .unwrap()
        .with_limits(chain.limits.clone())
        .unwrap()
}

/// Solves through the skeleton-facing API and returns the new local rotations.
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

struct Stats {
    within: usize,
    iterations: u64,
    worst_distance: f32,
    worst_length: f32,
    worst_limit: f32,
}

/// 1,000 random chains of 3–10 joints, random start and target poses within the limits.
fn run_random(with_limits: bool, seed: u64) -> Stats {
    let mut rng = Rng::new(seed);
    let settings = FabrikSettings {
        tolerance: 1e-3,
        max_iterations: 200,
        ..Default::default()
    };
    let mut pose = ChainPose::default();
    let mut s = Stats {
        within: 0,
        iterations: 0,
        worst_distance: 0.0,
        worst_length: 0.0,
        worst_limit: 0.0,
    };
    for case in 0..CASES {
        let n = 3 + case % 8;
        let chain = random_chain(n, with_limits, &mut rng);
        let truth = chain.random_pose(&mut rng);
        let target = *chain.positions(&truth).last().unwrap();
        let start = chain.random_pose(&mut rng);
        let (local, report) = solve(&chain, &start, IkGoal::at(target), settings, &mut pose);
        assert!(local.iter().all(|q| q.is_finite()), "NaN in case {case}");
        // Independent check: forward kinematics of the returned rotations.
        let solved = chain.positions(&local);
        for (i, l) in bone_lengths(&solved).iter().enumerate() {
            s.worst_length = s
                .worst_length
                .max((l - chain.offsets[i + 1].length()).abs());
        }
        s.worst_limit = s.worst_limit.max(chain.limit_excess(&local));
        let distance = solved.last().unwrap().distance(target);
        assert!(
            (distance - report.distance).abs() < 1e-4,
            "report disagrees with FK"
        );
        s.worst_distance = s.worst_distance.max(distance);
        if distance <= settings.tolerance + 1e-5 {
            s.within += 1;
        }
        s.iterations += report.iterations as u64;
    }
    println!(
        "limits {}: {}/{CASES} within 1 mm, mean iterations {:.1}, worst distance {:.4} m, \
         worst bone length error {:e} m, worst limit excess {:e} rad",
        if with_limits { "on" } else { "off" },
        s.within,
        s.iterations as f64 / CASES as f64,
        s.worst_distance,
        s.worst_length,
        s.worst_limit
    );
    s
}

#[test]
fn random_reachable_targets_without_limits_all_reached() {
    let s = run_random(false, 0x5eed_0005);
    assert_eq!(s.within, CASES);
    assert!(
        s.worst_length < 1e-5,
        "bone length changed by {}",
        s.worst_length
    );
}

#[test]
fn random_reachable_targets_with_limits_all_reached() {
    // Limited chains have local minima (FABRIK + damped least squares from the animated pose stop
    // short of 1 of these 1,000 targets with the first seed); the solver's seeded random restarts
    // within the limits (TRAC-IK's remedy) reach all of them. Two more seeds show this is not
    // one lucky sequence.
    for seed in [0x5eed_0006, 0x5eed_0007, 0x5eed_0008] {
        let s = run_random(true, seed);
        assert!(
            s.worst_length < 1e-5,
            "bone length changed by {}",
            s.worst_length
        );
        assert!(
            s.worst_limit < 1e-5,
            "limit exceeded by {} rad",
            s.worst_limit
        );
        assert_eq!(
            s.within, CASES,
            "seed {seed:#x}: only {} of {CASES} reached (worst distance {} m)",
            s.within, s.worst_distance
        );
    }
}

#[test]
fn positions_api_reaches_random_targets_and_keeps_lengths() {
    let mut rng = Rng::new(7);
    let settings = FabrikSettings {
        tolerance: 1e-3,
        max_iterations: 200,
        ..Default::default()
    };
    for case in 0..CASES {
        let n = 3 + case % 8;
        let chain = random_chain(n, false, &mut rng);
        let target = *chain
            .positions(&chain.random_pose(&mut rng))
            .last()
            .unwrap();
        let mut p = chain.positions(&chain.random_pose(&mut rng));
        let lengths = bone_lengths(&p);
        let r = solve_positions(&mut p, &lengths, target, None, &settings).unwrap();
        assert!(r.converged, "case {case}: {r:?}");
        for (a, b) in bone_lengths(&p).iter().zip(&lengths) {
            assert!((a - b).abs() < 1e-5);
        }
    }
}

#[test]
fn unreachable_targets_give_straight_chain_toward_target() {
    let mut rng = Rng::new(11);
    let mut pose = ChainPose::default();
    for case in 0..200 {
        let chain = random_chain(3 + case % 8, false, &mut rng);
        let target = rng.unit() * chain.reach() * rng.range(1.01, 3.0);
        let start = chain.random_pose(&mut rng);
        let (local, report) = solve(
            &chain,
            &start,
            IkGoal::at(target),
            FabrikSettings::default(),
            &mut pose,
        );
        assert!(!report.reachable && !report.converged);
        let p = chain.positions(&local);
        let dir = (target - p[0]).normalize();
        for w in p.windows(2) {
            assert!(
                (w[1] - w[0]).normalize().dot(dir) > 1.0 - 1e-5,
                "case {case} not straight"
            );
        }
        let expected = target.distance(p[0]) - chain.reach();
        assert!((report.distance - expected).abs() < 1e-4);
    }
}

#[test]
fn collinear_start_converges_without_nan() {
    // Folding a chain onto its own root converges slowly: allow more iterations.
    let settings = FabrikSettings {
        tolerance: 1e-3,
        max_iterations: 200,
        ..Default::default()
    };
    // Straight chain along +X; targets on the line (in front, behind the root), off it, at the root.
    let straight: Vec<Vec3> = (0..5).map(|i| Vec3::X * i as f32).collect();
    let lengths = [1.0; 4];
    for target in [
        Vec3::X * 2.5,
        Vec3::X * 0.5,
        -Vec3::X * 3.0,
        Vec3::new(0.0, 2.0, 0.0),
        Vec3::ZERO,
    ] {
        for pole in [None, Some(Vec3::new(1.0, 0.0, 3.0))] {
            let mut p = straight.clone();
            let r = solve_positions(&mut p, &lengths, target, pole, &settings).unwrap();
            assert!(p.iter().all(|v| v.is_finite()));
            assert!(r.converged, "target {target} pole {pole:?}: {r:?}");
            for (a, b) in bone_lengths(&p).iter().zip(&lengths) {
                assert!((a - b).abs() < 1e-5);
            }
        }
    }
    // Same through the skeleton API: a straight chain whose joints all have identity rotations.
    let chain = TestChain {
        offsets: vec![Vec3::ZERO, Vec3::Y, Vec3::Y, Vec3::Y],
        rest: vec![Quat::IDENTITY; 4],
        limits: vec![JointLimit::None; 3],
    };
    let mut pose = ChainPose::default();
    for target in [Vec3::Y * 1.5, -Vec3::Y * 2.0, Vec3::Y * 0.2] {
        let (local, r) = solve(&chain, &chain.rest, IkGoal::at(target), settings, &mut pose);
        assert!(local.iter().all(|q| q.is_finite()));
        assert!(r.converged, "target {target}: {r:?}");
    }
}

/// An arm: shoulder (ball-and-socket) → elbow (hinge about Z, 0..150°) → wrist, bones along +X.
fn arm(elbow_min: f32, elbow_max: f32) -> TestChain {
    TestChain {
        offsets: vec![Vec3::ZERO, Vec3::X * 0.3, Vec3::X * 0.25],
        rest: vec![Quat::IDENTITY; 3],
        limits: vec![
            JointLimit::ball_socket(0, 1.5, 0.5).unwrap(),
            JointLimit::hinge(1, Vec3::Z, elbow_min, elbow_max).unwrap(),
        ],
    }
}

#[test]
fn elbow_hinge_never_bends_backwards() {
    let chain = arm(0.0, 150f32.to_radians());
    let mut pose = ChainPose::default();
    let mut rng = Rng::new(3);
    for _ in 0..500 {
        // Targets everywhere around the shoulder, reachable or not.
        let target = rng.unit() * rng.range(0.05, 0.7);
        let start = chain.random_pose(&mut rng);
        let (local, _) = solve(
            &chain,
            &start,
            IkGoal::at(target),
            FabrikSettings::default(),
            &mut pose,
        );
        assert!(chain.limit_excess(&local) < 1e-5);
        // The elbow angle, measured from the bone directions: the forearm turns only towards +Z
        // rotation (counter-clockwise in the arm's plane), never the other way.
        let p = chain.positions(&local);
        let upper = (p[1] - p[0]).normalize();
        let fore = (p[2] - p[1]).normalize();
        let model = chain.model(&local);
        let hinge_axis = model[1].transform_vector3(Vec3::Z);
        assert!(
            upper.cross(fore).dot(hinge_axis) >= -1e-5,
            "elbow bent backwards"
        );
    }
}

#[test]
fn pole_puts_elbow_on_pole_side() {
    let settings = FabrikSettings::default();
    // Straight start (the pole alone decides) and a start bent away from the pole.
    for start_bend in [0.0f32, -0.8] {
        for pole_dir in [
            Vec3::Z,
            -Vec3::Z,
            Vec3::Y,
            Vec3::new(0.0, -1.0, 1.0).normalize(),
        ] {
            let target = Vec3::new(0.35, 0.0, 0.0);
            let pole = Vec3::new(0.2, 0.0, 0.0) + pole_dir;
            // Positions API.
            let mut p = vec![
                Vec3::ZERO,
                Quat::from_rotation_z(-start_bend) * Vec3::X * 0.3,
                Vec3::ZERO,
            ];
            p[2] = p[1] + Vec3::X * 0.25;
            let r = solve_positions(&mut p, &[0.3, 0.25], target, Some(pole), &settings).unwrap();
            assert!(r.converged);
            assert!(
                pole_side(p[0], p[1], target, pole) > 0.0,
                "pole {pole_dir}: elbow {}",
                p[1]
            );
            // Skeleton API without limits.
            let chain = TestChain {
                offsets: vec![Vec3::ZERO, Vec3::X * 0.3, Vec3::X * 0.25],
                rest: vec![Quat::IDENTITY; 3],
                limits: vec![JointLimit::None; 2],
            };
            let start = [
                Quat::from_rotation_z(-start_bend),
                Quat::IDENTITY,
                Quat::IDENTITY,
            ];
            let goal = IkGoal {
                target,
                pole: Some(pole),
                weight: 1.0,
            };
            let (local, r) = solve(&chain, &start, goal, settings, &mut ChainPose::default());
            assert!(r.converged);
            let q = chain.positions(&local);
            assert!(
                pole_side(q[0], q[1], target, pole) > 0.0,
                "pole {pole_dir}: elbow {}",
                q[1]
            );
        }
    }
}

#[test]
fn weight_blends_animated_and_solved_rotations() {
    let chain = arm(0.0, 2.5);
    let start = vec![Quat::IDENTITY; 3];
    let target = Vec3::new(0.2, 0.3, 0.0);
    let mut pose = ChainPose::default();
    let (full, _) = solve(
        &chain,
        &start,
        IkGoal::at(target),
        FabrikSettings::default(),
        &mut pose,
    );
    let half_goal = IkGoal {
        weight: 0.5,
        ..IkGoal::at(target)
    };
    let (half, _) = solve(
        &chain,
        &start,
        half_goal,
        FabrikSettings::default(),
        &mut pose,
    );
    let (none, _) = solve(
        &chain,
        &start,
        IkGoal {
            weight: 0.0,
            ..half_goal
        },
        FabrikSettings::default(),
        &mut pose,
    );
    for j in 0..2 {
        let expected = start[j].slerp(full[j], 0.5);
        assert!(half[j].dot(expected).abs() > 1.0 - 1e-6);
        assert!(none[j].dot(start[j]).abs() > 1.0 - 1e-6);
    }
}

#[test]
fn target_sweeping_through_the_opposite_direction_does_not_flip() {
    // One bone along +X; the target circles the root in the XY plane, passing exactly behind the
    // bone (−X) at frame 180, where the smallest rotation is not unique.
    let chain = TestChain {
        offsets: vec![Vec3::ZERO, Vec3::X],
        rest: vec![Quat::IDENTITY; 2],
        limits: vec![JointLimit::None],
    };
    for warm_start in [false, true] {
        let mut pose = ChainPose::default();
        pose.warm_start = warm_start;
        let mut tracker = sierra_anim::ik::RotationChangeTracker::new();
        let mut local = chain.rest.clone();
        for frame in 0..=360 {
            let a = (frame as f32).to_radians();
            let target = Vec3::new(a.cos(), a.sin(), 0.0) * 0.5;
            // Each frame starts from the animated (rest) pose, as in the character job.
            let start = chain.rest.clone();
            let (solved, _) = solve(
                &chain,
                &start,
                IkGoal::at(target),
                FabrikSettings::default(),
                &mut pose,
            );
            assert!(solved.iter().all(|q| q.is_finite()));
            let dir = chain.positions(&solved)[1].normalize();
            assert!(dir.distance(target.normalize()) < 1e-3, "frame {frame}");
            local.copy_from_slice(&solved);
            tracker.push(&local);
        }
        let (_, frame, change) = tracker.worst().unwrap();
        println!(
            "warm start {warm_start}: worst per-frame change {:.2} deg at frame {frame}",
            change.to_degrees()
        );
        if warm_start {
            // 1 deg of target motion per frame: the joint turns by about as much, never flips.
            assert!(
                change < 2f32.to_radians(),
                "flip of {} deg at frame {frame}",
                change.to_degrees()
            );
        }
    }
}
