//! Bad input gives clear errors, never a panic (Must show 6).

mod ik_common;

use glam::{Mat4, Vec3};
use ik_common::skeleton_of;
use sierra_anim::ik::{
    solve_positions, solve_two_bone, ChainPose, ConstraintDef, ConstraintType, FabrikSettings,
    IkChain, IkError, IkGoal, IkSolver, JointLimit,
};
use sierra_anim::Skeleton;

/// root → a → b, and root → c (a separate branch).
fn skeleton() -> Skeleton {
    skeleton_of(&[
        ("root", None, Vec3::ZERO),
        ("a", Some(0), Vec3::Y),
        ("b", Some(1), Vec3::ZERO), // coincides with `a`: zero-length bone a → b
        ("c", Some(0), Vec3::X),
    ])
}

#[test]
fn chain_that_is_not_a_parent_chain_is_rejected() {
    let s = skeleton();
    let (a, c) = (s.find_joint("a").unwrap(), s.find_joint("c").unwrap());
    let err = IkChain::from_skeleton(&s, vec![a, c]).unwrap_err();
    assert_eq!(
        err,
        IkError::NotAParentChain {
            position: 1,
            joint: c,
            expected_ancestor: a
        }
    );
    assert!(err.to_string().contains("not a parent chain"), "{err}");
    // Reversed order (child before parent) is not a chain either.
    let root = s.find_joint("root").unwrap();
    assert!(matches!(
        IkChain::from_skeleton(&s, vec![a, root]),
        Err(IkError::NotAParentChain { .. })
    ));
    assert!(matches!(
        IkChain::from_skeleton(&s, vec![root, 17]),
        Err(IkError::JointOutOfRange { joint: 17, .. })
    ));
    assert!(matches!(
        IkChain::from_skeleton(&s, vec![root]),
        Err(IkError::ChainTooShort { len: 1, min: 2 })
    ));
}

#[test]
fn unknown_joint_name_is_reported_by_name() {
    let s = skeleton();
    let err = IkChain::from_joint_names(&s, &["root", "forearm_r"]).unwrap_err();
    assert_eq!(
        err,
        IkError::UnknownJoint {
            position: 1,
            name: "forearm_r".into()
        }
    );
    assert!(err.to_string().contains("\"forearm_r\""), "{err}");
}

#[test]
fn zero_length_bone_is_an_error_not_a_nan() {
    let s = skeleton();
    let chain = IkChain::from_joint_names(&s, &["root", "a", "b"]).unwrap();
    let mut model = vec![Mat4::IDENTITY; s.joint_count()];
    sierra_anim::local_to_model(&s, s.rest_pose(), Mat4::IDENTITY, &mut model).unwrap();
    let mut local = s.rest_pose().to_vec();
    let err = chain
        .solve_pose(
            &IkSolver::default(),
            &IkGoal::at(Vec3::X),
            &s,
            &mut local,
            &model,
            &mut ChainPose::default(),
        )
        .unwrap_err();
    assert!(
        matches!(err, IkError::ZeroLengthBone { position: 1, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("zero length"));
    assert!(matches!(
        ChainPose::from_positions(&[Vec3::ZERO, Vec3::ZERO]),
        Err(IkError::ZeroLengthBone { position: 0, .. })
    ));
    assert!(matches!(
        solve_two_bone(Vec3::ZERO, Vec3::Y, Vec3::Y, Vec3::X, None, 0.0),
        Err(IkError::ZeroLengthBone { position: 1, .. })
    ));
}

#[test]
fn limit_with_min_above_max_is_rejected() {
    let err = JointLimit::hinge(2, Vec3::Z, 0.5, -0.5).unwrap_err();
    assert_eq!(
        err,
        IkError::LimitMinGreaterThanMax {
            position: 2,
            what: "hinge",
            min: 0.5,
            max: -0.5
        }
    );
    assert!(err.to_string().contains("min"), "{err}");
    // Also when built by hand and handed to a chain, or read from a seed 001 ConstraintDef.
    let s = skeleton();
    let chain = IkChain::from_joint_names(&s, &["root", "c"]).unwrap();
    let bad = JointLimit::Hinge {
        axis: Vec3::Z,
        min: 1.0,
        max: 0.0,
    };
    assert!(matches!(
        chain.clone().with_limits(vec![bad]),
        Err(IkError::LimitMinGreaterThanMax { position: 0, .. })
    ));
    let def = ConstraintDef {
        kind: ConstraintType::Hinge,
        hinge_min_deg: 30.0,
        hinge_max_deg: 10.0,
        ..Default::default()
    };
    assert!(matches!(
        chain.clone().with_constraint_defs(&[def]),
        Err(IkError::LimitMinGreaterThanMax { .. })
    ));
    assert!(matches!(
        chain.with_limits(vec![]),
        Err(IkError::LimitCountMismatch {
            bones: 1,
            limits: 0
        })
    ));
}

#[test]
fn non_finite_targets_and_wrong_buffers_are_errors() {
    let mut p = [Vec3::ZERO, Vec3::X, Vec3::X * 2.0];
    let s = FabrikSettings::default();
    assert!(matches!(
        solve_positions(&mut p, &[1.0, 1.0], Vec3::NAN, None, &s),
        Err(IkError::NotFinite { name: "target" })
    ));
    assert!(matches!(
        solve_positions(&mut p, &[1.0, 1.0], Vec3::X, Some(Vec3::INFINITY), &s),
        Err(IkError::NotFinite { name: "pole" })
    ));
    assert!(matches!(
        solve_positions(&mut p, &[1.0], Vec3::X, None, &s),
        Err(IkError::BufferSize { .. })
    ));
    let sk = skeleton();
    let chain = IkChain::from_joint_names(&sk, &["root", "c"]).unwrap();
    let mut local = sk.rest_pose().to_vec();
    let err = chain
        .solve_pose(
            &IkSolver::default(),
            &IkGoal::at(Vec3::X),
            &sk,
            &mut local,
            &[Mat4::IDENTITY; 2],
            &mut ChainPose::default(),
        )
        .unwrap_err();
    assert!(
        matches!(err, IkError::BufferSize { name: "model", .. }),
        "{err}"
    );
    // Two-bone needs three joints.
    let mut model = vec![Mat4::IDENTITY; sk.joint_count()];
    sierra_anim::local_to_model(&sk, sk.rest_pose(), Mat4::IDENTITY, &mut model).unwrap();
    assert!(matches!(
        chain.solve_pose(
            &IkSolver::TwoBone { softness: 0.0 },
            &IkGoal::at(Vec3::X),
            &sk,
            &mut local,
            &model,
            &mut ChainPose::default()
        ),
        Err(IkError::ChainTooShort { min: 3, .. })
    ));
}
