//! IK in the character job (Must show 4 helper, 5): a small character walks (root moving, arm
//! swinging from a clip) while its right arm reaches for an orb flying a figure-eight, through
//! [`IkHook`] in [`CharacterJob`]. Checks per frame: the chain end touches the orb when in reach,
//! the elbow never bends backwards, joint rotations change smoothly (no popping), and a sword
//! attached to the hand has world = hand world × offset.

mod ik_common;

use glam::{Mat4, Quat, Vec3};
use ik_common::skeleton_of;
use sierra_anim::ik::{
    max_rotation_change, Attachment, FabrikSettings, IkChain, IkGoal, IkHook, IkSolver, IkTask,
    JointLimit, RotationChangeTracker,
};
use sierra_anim::*;

const SOFT_REACH: f32 = 0.05;

const NAMES: [&str; 8] = [
    "pelvis",
    "spine",
    "head",
    "shoulder_r",
    "upperarm_r",
    "forearm_r",
    "hand_r",
    "middle_r",
];

/// Y up, facing +Z, right arm along −X in the rest pose (T-pose).
fn character() -> Skeleton {
    skeleton_of(&[
        (NAMES[0], None, Vec3::new(0.0, 1.0, 0.0)),
        (NAMES[1], Some(0), Vec3::new(0.0, 0.4, 0.0)),
        (NAMES[2], Some(1), Vec3::new(0.0, 0.3, 0.0)),
        (NAMES[3], Some(1), Vec3::new(-0.15, 0.2, 0.0)),
        (NAMES[4], Some(3), Vec3::new(-0.1, 0.0, 0.0)),
        (NAMES[5], Some(4), Vec3::new(-0.3, 0.0, 0.0)),
        (NAMES[6], Some(5), Vec3::new(-0.27, 0.0, 0.0)),
        (NAMES[7], Some(6), Vec3::new(-0.09, 0.0, 0.0)),
    ])
}

/// A 1 s walk-like loop: the spine sways about Y and the upper arm swings about Z.
fn walk_clip(skel: &Skeleton) -> Clip {
    let times: Vec<f32> = (0..=8).map(|i| i as f32 / 8.0).collect();
    let track = |joint: &str, axis: Vec3, amplitude: f32| RawJointTrack {
        joint: skel.find_joint(joint).unwrap(),
        rotation: RawTrack {
            interpolation: Interpolation::Linear,
            times: times.clone(),
            values: times
                .iter()
                .map(|t| Quat::from_axis_angle(axis, amplitude * (std::f32::consts::TAU * t).sin()))
                .collect(),
        },
        ..Default::default()
    };
    Clip::build(
        &RawClip {
            name: "walk".into(),
            tracks: vec![
                track("spine", Vec3::Y, 0.15),
                track("upperarm_r", Vec3::Z, 0.35),
            ],
            ..Default::default()
        },
        skel,
    )
    .unwrap()
}

/// The arm's limits: shoulder ball-and-socket, elbow hinge (forearm along −X turns towards +Z,
/// the front, about +Y: 0..150°), wrist ball-and-socket.
fn arm_limits() -> Vec<JointLimit> {
    vec![
        JointLimit::ball_socket(0, 100f32.to_radians(), 60f32.to_radians()).unwrap(),
        JointLimit::hinge(1, Vec3::Y, 0.0, 150f32.to_radians()).unwrap(),
        JointLimit::ball_socket(2, 60f32.to_radians(), 30f32.to_radians()).unwrap(),
    ]
}

#[test]
fn hand_follows_orb_while_walking_without_popping() {
    let skel = character();
    let clip = walk_clip(&skel);
    let chain = IkChain::from_joint_names(&skel, &NAMES[4..])
        .unwrap()
        .with_limits(arm_limits())
        .unwrap();
    let reach = 0.3 + 0.27 + 0.09;
    let mut hook = IkHook::new(vec![IkTask {
        character: 0,
        chain,
        solver: IkSolver::Fabrik(FabrikSettings {
            tolerance: 1e-3,
            max_iterations: 64,
            // Eases the last 5 cm before full extension, where joint angles change fastest.
            soft_reach: SOFT_REACH,
        }),
        goal: IkGoal::at(Vec3::ZERO),
    }]);
    let sword = Attachment {
        joint: skel.find_joint("hand_r").unwrap(),
        offset: Mat4::from_rotation_translation(
            Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
            Vec3::new(-0.05, 0.0, 0.02),
        ),
    };
    let (upperarm, forearm) = (
        skel.find_joint("upperarm_r").unwrap(),
        skel.find_joint("forearm_r").unwrap(),
    );
    let mut pose = CharacterPose::new(&skel, 0, 1);
    let mut tracker = RotationChangeTracker::new();
    let mut rotations = vec![Quat::IDENTITY; skel.joint_count()];
    let mut previous = rotations.clone();
    let (mut worst_inside, mut worst_rim) = (0.0f32, 0.0f32);
    let (mut in_reach, mut touched) = (0, 0);
    let dt = 1.0 / 60.0;
    for frame in 0..300 {
        let t = frame as f32 * dt;
        // The character walks along +Z at 1 m/s; the orb flies a figure-eight in front of its
        // right shoulder (period 4 s), sometimes beyond the arm's reach.
        let root = Mat4::from_translation(Vec3::new(0.0, 0.0, t));
        let w = std::f32::consts::TAU / 4.0;
        let orb = Vec3::new(-0.3, 1.55, t)
            + Vec3::new(
                0.35 * (w * t).sin(),
                0.2 * (2.0 * w * t).sin(),
                0.45 + 0.15 * (w * t).cos(),
            );
        hook.tasks_mut()[0].goal = IkGoal {
            target: orb,
            pole: Some(Vec3::new(-0.6, 0.9, t - 0.3)),
            weight: 1.0,
        };
        let layers = [ClipLayer {
            clip: &clip,
            time: t,
            playback: Playback::Loop,
            weight: 1.0,
        }];
        CharacterJob {
            skeleton: &skel,
            skin: None,
            layers: &layers,
            root,
            hook: &hook,
            character: 0,
        }
        .run(&mut pose)
        .unwrap();
        let report = hook.last_result(0).unwrap().unwrap();

        // The job's model matrices are those of the IK-edited local pose.
        let mut model = vec![Mat4::IDENTITY; skel.joint_count()];
        local_to_model(&skel, &pose.local, root, &mut model).unwrap();
        for (a, b) in model.iter().zip(&pose.model) {
            assert!(a.abs_diff_eq(*b, 1e-5));
        }
        // Touches the orb when it is comfortably in reach (the limits shrink the reachable set).
        let shoulder = model[upperarm].w_axis.truncate();
        if shoulder.distance(orb) < reach - SOFT_REACH {
            in_reach += 1;
            let effector = model[skel.find_joint("middle_r").unwrap()]
                .w_axis
                .truncate();
            assert!((effector.distance(orb) - report.distance).abs() < 1e-4);
            if report.converged {
                touched += 1;
            }
        }
        // The elbow never bends backwards: the forearm's rotation relative to rest is a turn
        // about +Y within [0°, 150°].
        let q = skel.rest_pose()[forearm].rotation.conjugate() * pose.local[forearm].rotation;
        let (axis, angle) = q.to_axis_angle();
        assert!(
            angle < 1e-3 || axis.dot(Vec3::Y) > 0.999,
            "frame {frame}: elbow axis {axis}"
        );
        assert!(
            angle <= 150f32.to_radians() + 1e-3,
            "frame {frame}: elbow {angle}"
        );
        // The sword follows the IK-adjusted hand.
        let hand_world = model[sword.joint];
        let sword_world = sword.world(Mat4::IDENTITY, &pose.model).unwrap();
        assert!(sword_world.abs_diff_eq(hand_world * sword.offset, 1e-5));
        assert!(
            sword_world
                .w_axis
                .truncate()
                .distance(hand_world.w_axis.truncate())
                < 0.06
        );

        for (r, l) in rotations.iter_mut().zip(&pose.local) {
            *r = l.rotation;
        }
        // Per-frame change, split into frames well inside the reach and frames near its rim
        // (where a redundant limited chain must straighten and joint angles change fastest).
        if let Some((_, change)) = max_rotation_change(&previous, &rotations) {
            if frame > 0 {
                let rim = shoulder.distance(orb) > 0.85 * reach;
                let worst = if rim {
                    &mut worst_rim
                } else {
                    &mut worst_inside
                };
                *worst = worst.max(change);
            }
        }
        previous.copy_from_slice(&rotations);
        tracker.push(&rotations);
    }
    let (joint, frame, change) = tracker.worst().unwrap();
    println!(
        "orb in reach in {in_reach} of 300 frames, touched in {touched}; worst per-frame rotation \
         change {:.2} deg ({} at frame {frame}); {:.2} deg with the orb within 85 % of the reach, \
         {:.2} deg near the rim",
        change.to_degrees(),
        NAMES[joint],
        worst_inside.to_degrees(),
        worst_rim.to_degrees(),
    );
    assert!(
        in_reach > 150,
        "the path should keep the orb mostly in reach"
    );
    // Near the rim of the limited arm's workspace (91-94 % of the reach) some frames stop 1-11 mm
    // short: the limits make the reachable set smaller than the sphere.
    assert!(
        touched * 100 >= in_reach * 90,
        "touched {touched} of {in_reach}"
    );
    // A pop is a jump far beyond the motion of the target (~1-2 deg per frame here): a 180 deg
    // flip or a switch between solution branches. Measured: up to ~9 deg per frame inside 85 %
    // of the reach and ~17 deg near the rim, where the wrist turns quickly (over several frames,
    // not in one jump) as the chain straightens.
    assert!(
        worst_inside < 12f32.to_radians(),
        "pop of {} deg",
        worst_inside.to_degrees()
    );
    assert!(
        worst_rim < 25f32.to_radians(),
        "pop of {} deg near the rim",
        worst_rim.to_degrees()
    );
}

#[test]
fn attachment_world_is_joint_world_times_offset() {
    let skel = character();
    let mut model = vec![Mat4::IDENTITY; skel.joint_count()];
    local_to_model(&skel, skel.rest_pose(), Mat4::IDENTITY, &mut model).unwrap();
    let hand = skel.find_joint("hand_r").unwrap();
    let character_world =
        Mat4::from_rotation_translation(Quat::from_rotation_y(0.7), Vec3::new(3.0, 0.0, -2.0));
    let offset =
        Mat4::from_rotation_translation(Quat::from_rotation_z(0.3), Vec3::new(0.0, 0.1, 0.0));
    let sword = Attachment {
        joint: hand,
        offset,
    };
    let world = sword.world(character_world, &model).unwrap();
    // Independent value: the hand in the rest pose is at (-0.82, 1.6, 0) in model space.
    let expected_hand = Vec3::new(-0.15 - 0.1 - 0.3 - 0.27, 1.6, 0.0);
    assert!(model[hand]
        .w_axis
        .truncate()
        .abs_diff_eq(expected_hand, 1e-6));
    let expected = character_world * Mat4::from_translation(expected_hand) * offset;
    assert!(world.abs_diff_eq(expected, 1e-5));
    // Attaching without moving the node.
    let node_world = Mat4::from_translation(Vec3::new(1.0, 2.0, 3.0));
    let kept = Attachment::keeping_world(hand, node_world, character_world, &model).unwrap();
    assert!(kept
        .world(character_world, &model)
        .unwrap()
        .abs_diff_eq(node_world, 1e-5));
    assert!(Attachment { joint: 99, offset }
        .world(character_world, &model)
        .is_err());
}
