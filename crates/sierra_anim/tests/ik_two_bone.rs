//! Analytic two-bone IK (Must show 3): exact reach when reachable, straight when not, the
//! middle joint on the pole's side, soft reach, and rotations written through the chain API.

mod ik_common;

use glam::{Quat, Vec3};
use ik_common::{pole_side, Rng, TestChain};
use sierra_anim::ik::{solve_two_bone, ChainPose, IkChain, IkGoal, IkSolver, JointLimit};

#[test]
fn reaches_exactly_keeps_lengths_and_bends_towards_pole() {
    let mut rng = Rng::new(21);
    for _ in 0..1000 {
        let root = rng.unit();
        let mid = root + rng.unit() * rng.range(0.2, 1.0);
        let end = mid + rng.unit() * rng.range(0.2, 1.0);
        let (l1, l2) = (root.distance(mid), mid.distance(end));
        // A target inside the reachable shell |l1 - l2| < d < l1 + l2.
        let d = rng.range((l1 - l2).abs() + 1e-3, l1 + l2 - 1e-3);
        let target = root + rng.unit() * d;
        let pole = root + rng.unit() * 2.0;
        let s = solve_two_bone(root, mid, end, target, Some(pole), 0.0).unwrap();
        assert!(s.reached);
        assert!(
            s.end.distance(target) < 1e-5,
            "missed by {}",
            s.end.distance(target)
        );
        assert!((root.distance(s.mid) - l1).abs() < 1e-5);
        assert!((s.mid.distance(s.end) - l2).abs() < 1e-5);
        // The middle joint lies in the plane of root, target and pole, on the pole's side.
        let normal = (target - root).cross(pole - root).normalize();
        assert!((s.mid - root).dot(normal).abs() < 1e-4);
        assert!(pole_side(root, s.mid, target, pole) > 0.0);
    }
}

#[test]
fn unreachable_target_gives_straight_limb_towards_it() {
    let (root, mid, end) = (
        Vec3::ZERO,
        Vec3::new(0.0, -0.45, 0.05),
        Vec3::new(0.0, -0.9, 0.0),
    );
    let target = Vec3::new(0.3, -2.0, 0.4);
    let s = solve_two_bone(root, mid, end, target, Some(Vec3::Z), 0.0).unwrap();
    assert!(!s.reached);
    let dir = target.normalize();
    let (l1, l2) = (root.distance(mid), mid.distance(end));
    assert!((s.mid - dir * l1).length() < 1e-5);
    assert!((s.end - dir * (l1 + l2)).length() < 1e-5);
    // Too close (inside |l1 - l2|): as close as the bones allow, still finite.
    let (root, mid, end) = (Vec3::ZERO, Vec3::X, Vec3::X * 1.5);
    let s = solve_two_bone(root, mid, end, Vec3::X * 0.1, None, 0.0).unwrap();
    assert!(s.mid.is_finite() && (s.end.length() - 0.5).abs() < 1e-5);
}

#[test]
fn soft_reach_eases_into_full_extension() {
    let (root, mid, end) = (
        Vec3::ZERO,
        Vec3::new(0.5, 0.1, 0.0),
        Vec3::new(1.0, 0.0, 0.0),
    );
    let l = root.distance(mid) + mid.distance(end);
    let softness = 0.1;
    let mut previous = 0.0;
    for i in 0..=60 {
        let d = l - 0.2 + i as f32 * 0.01;
        let s = solve_two_bone(root, mid, end, Vec3::X * d, None, softness).unwrap();
        let reach = s.end.length();
        // Exact below the soft zone, never past full extension, monotonic, no jumps.
        if d <= l - softness {
            assert!((reach - d).abs() < 1e-5);
        }
        assert!(reach <= l + 1e-5 && reach >= previous - 1e-6);
        assert!(reach - previous < 0.0101 || i == 0);
        previous = reach;
    }
    assert!(previous < l, "soft reach should not fully straighten");
}

#[test]
fn chain_api_writes_rotations_that_reach() {
    // A leg: hip → knee → ankle along −Y; the knee should bend forwards (+Z pole).
    let chain = TestChain {
        offsets: vec![Vec3::new(0.1, 1.0, 0.0), -Vec3::Y * 0.45, -Vec3::Y * 0.42],
        rest: vec![Quat::IDENTITY; 3],
        limits: vec![JointLimit::None; 2],
    };
    let ik = IkChain::new(vec![0, 1, 2], 3, TestChain::parent).unwrap();
    let mut pose = ChainPose::default();
    for target in [
        Vec3::new(0.1, 0.3, 0.2),
        Vec3::new(0.0, 0.2, -0.1),
        Vec3::new(0.3, 0.4, 0.0),
    ] {
        let mut local = chain.rest.clone();
        let model = chain.model(&local);
        let goal = IkGoal {
            target,
            pole: Some(Vec3::new(0.1, 0.5, 2.0)),
            weight: 1.0,
        };
        let r = ik
            .solve_rotations(
                &IkSolver::TwoBone { softness: 0.0 },
                &goal,
                &model,
                &mut local,
                &chain.rest,
                &mut pose,
            )
            .unwrap();
        assert!(r.converged, "{r:?}");
        let p = chain.positions(&local);
        assert!(p[2].distance(target) < 1e-4);
        assert!(
            pole_side(p[0], p[1], target, goal.pole.unwrap()) > 0.0,
            "knee behind"
        );
    }
}
