//! Behaviour of the runtime on small hand-built data.

use glam::{Mat4, Quat, Vec3};
use sierra_anim::*;

fn chain(n: usize) -> Skeleton {
    Skeleton::build(&RawSkeleton {
        joints: (0..n)
            .map(|i| RawJoint {
                name: format!("j{i}"),
                parent: i.checked_sub(1),
                rest: Transform::from_trs(Vec3::Y, Quat::IDENTITY, Vec3::ONE),
            })
            .collect(),
    })
    .unwrap()
}

fn translation_clip(skel: &Skeleton, times: Vec<f32>, xs: Vec<f32>) -> Clip {
    let raw = RawClip {
        name: "x".into(),
        tracks: vec![RawJointTrack {
            joint: 0,
            translation: RawTrack {
                interpolation: Interpolation::Linear,
                times,
                values: xs.into_iter().map(|x| Vec3::new(x, 0.0, 0.0)).collect(),
            },
            ..Default::default()
        }],
        ..Default::default()
    };
    Clip::build(&raw, skel).unwrap()
}

fn x_at(clip: &Clip, skel: &Skeleton, t: f32, playback: Playback) -> f32 {
    let mut out = vec![Transform::IDENTITY; skel.joint_count()];
    sample_clip(
        clip,
        t,
        playback,
        &mut SamplingContext::new(skel.joint_count()),
        &mut out,
    )
    .unwrap();
    out[0].translation.x
}

#[test]
fn skeleton_sorts_parents_first_from_any_order_and_supports_300_joints() {
    // Raw order: children before parents.
    let raw = RawSkeleton {
        joints: vec![
            RawJoint {
                name: "hand".into(),
                parent: Some(2),
                rest: Transform::IDENTITY,
            },
            RawJoint {
                name: "root".into(),
                parent: None,
                rest: Transform::IDENTITY,
            },
            RawJoint {
                name: "arm".into(),
                parent: Some(1),
                rest: Transform::IDENTITY,
            },
            RawJoint {
                name: "leg".into(),
                parent: Some(1),
                rest: Transform::IDENTITY,
            },
        ],
    };
    let s = Skeleton::build(&raw).unwrap();
    assert_eq!(s.names(), ["root", "arm", "hand", "leg"]);
    assert_eq!(s.parents(), [NO_PARENT, 0, 1, 0]);
    assert_eq!(s.raw_index(), [1, 2, 0, 3]);
    assert_eq!(s.subtree_len(1), 2);
    assert_eq!(s.subtree_len(0), 4);
    let big = chain(300);
    assert_eq!(big.joint_count(), 300);
    let mut model = vec![Mat4::IDENTITY; 300];
    local_to_model(&big, big.rest_pose(), Mat4::IDENTITY, &mut model).unwrap();
    assert!((model[299].w_axis.y - 300.0).abs() < 1e-3);
}

#[test]
fn skeleton_errors() {
    let cyc = RawSkeleton {
        joints: vec![
            RawJoint {
                name: "a".into(),
                parent: Some(1),
                rest: Transform::IDENTITY,
            },
            RawJoint {
                name: "b".into(),
                parent: Some(0),
                rest: Transform::IDENTITY,
            },
        ],
    };
    assert!(matches!(
        Skeleton::build(&cyc),
        Err(AnimError::ParentCycle { .. })
    ));
    let oob = RawSkeleton {
        joints: vec![RawJoint {
            name: "a".into(),
            parent: Some(5),
            rest: Transform::IDENTITY,
        }],
    };
    assert!(matches!(
        Skeleton::build(&oob),
        Err(AnimError::ParentOutOfRange { parent: 5, .. })
    ));
}

#[test]
fn clip_validation_errors() {
    let skel = chain(2);
    let bad_times = RawClip {
        name: "c".into(),
        tracks: vec![RawJointTrack {
            joint: 1,
            translation: RawTrack {
                interpolation: Interpolation::Linear,
                times: vec![0.0, 0.0],
                values: vec![Vec3::ZERO; 2],
            },
            ..Default::default()
        }],
        ..Default::default()
    };
    assert!(Clip::build(&bad_times, &skel)
        .unwrap_err()
        .to_string()
        .contains("not strictly increasing"));
    let nan = RawClip {
        name: "c".into(),
        tracks: vec![RawJointTrack {
            joint: 1,
            scale: RawTrack {
                interpolation: Interpolation::Step,
                times: vec![0.0],
                values: vec![Vec3::NAN],
            },
            ..Default::default()
        }],
        ..Default::default()
    };
    assert!(Clip::build(&nan, &skel)
        .unwrap_err()
        .to_string()
        .contains("scale"));
    let oob = RawClip {
        name: "c".into(),
        tracks: vec![RawJointTrack {
            joint: 9,
            ..Default::default()
        }],
        ..Default::default()
    };
    assert!(Clip::build(&oob, &skel).is_err());
}

#[test]
fn playback_clamps_loops_and_wraps_last_to_first() {
    let skel = chain(1);
    let clip = translation_clip(&skel, vec![0.5, 1.0, 2.0], vec![1.0, 2.0, 4.0]);
    assert_eq!(clip.duration(), 2.0);
    // Before the first key: the first value; after the last: the last (one-shot).
    assert_eq!(x_at(&clip, &skel, 0.0, Playback::Once), 1.0);
    assert_eq!(x_at(&clip, &skel, 5.0, Playback::Once), 4.0);
    assert!((x_at(&clip, &skel, 1.5, Playback::Once) - 3.0).abs() < 1e-6);
    // Loop wraps modulo the duration.
    assert!((x_at(&clip, &skel, 3.5, Playback::Loop) - 3.0).abs() < 1e-6);
    assert!((x_at(&clip, &skel, -0.5, Playback::Loop) - 3.0).abs() < 1e-6);
    // A longer period adds a last → first segment over [2, 3].
    assert!((x_at(&clip, &skel, 2.5, Playback::LoopWithPeriod(3.0)) - 2.5).abs() < 1e-6);
    assert!((x_at(&clip, &skel, 5.5, Playback::LoopWithPeriod(3.0)) - 2.5).abs() < 1e-6);
}

#[test]
fn cursor_gives_the_same_values_as_fresh_sampling_in_any_time_order() {
    let skel = chain(1);
    let times: Vec<f32> = (0..50).map(|i| i as f32 * 0.1).collect();
    let xs: Vec<f32> = (0..50).map(|i| ((i * 37) % 11) as f32).collect();
    let clip = translation_clip(&skel, times, xs);
    let mut ctx = SamplingContext::new(1);
    let mut out = [Transform::IDENTITY];
    let mut t = 0.0f32;
    for step in [0.013f32, 0.5, -0.3, 0.001, 2.0, -4.0, 0.07] {
        for _ in 0..20 {
            t = (t + step).clamp(0.0, 4.9);
            sample_clip(&clip, t, Playback::Once, &mut ctx, &mut out).unwrap();
            assert_eq!(
                out[0].translation.x,
                x_at(&clip, &skel, t, Playback::Once),
                "t={t}"
            );
        }
    }
}

#[test]
fn crossfade_moves_weight_from_a_to_b() {
    let mut f = Crossfade::new(0.5);
    assert_eq!(f.weights(), (1.0, 0.0));
    f.advance(0.25);
    assert_eq!(f.weights(), (0.5, 0.5));
    f.advance(1.0);
    assert!(f.is_finished());
    assert_eq!(Crossfade::new(0.0).weights(), (0.0, 1.0));
}

#[test]
fn blend_fixes_hemisphere_and_falls_back_to_rest() {
    let q = Quat::from_rotation_z(0.3);
    let a = [Transform::from_trs(Vec3::ZERO, q, Vec3::ONE)];
    let b = [Transform::from_trs(Vec3::X, -q, Vec3::ONE)];
    let rest = [Transform::from_trs(Vec3::Y, Quat::IDENTITY, Vec3::ONE)];
    let mut out = [Transform::IDENTITY];
    blend_poses(
        &[BlendLayer::new(&a, 0.5), BlendLayer::new(&b, 0.5)],
        &rest,
        &mut out,
    )
    .unwrap();
    assert!(
        out[0].rotation.dot(q).abs() > 1.0 - 1e-6,
        "q and -q blend to q, not to a zero quaternion"
    );
    assert!((out[0].translation.x - 0.5).abs() < 1e-6);
    blend_poses(&[BlendLayer::new(&a, 0.0)], &rest, &mut out).unwrap();
    assert_eq!(out, rest);
}

#[test]
fn palette_and_joint_matrices() {
    let skel = chain(3);
    let skin = Skin {
        joints: vec![2, 0],
        inverse_bind_matrices: vec![
            Mat4::from_translation(-3.0 * Vec3::Y),
            Mat4::from_translation(-Vec3::Y),
        ],
    };
    skin.validate(&skel).unwrap();
    let mut model = vec![Mat4::IDENTITY; 3];
    local_to_model(&skel, skel.rest_pose(), Mat4::IDENTITY, &mut model).unwrap();
    let mut pal = vec![Mat4::ZERO; 2];
    skinning_palette(&skin, &model, &mut pal).unwrap();
    // At rest, model × inverse bind = identity when the IBMs are the inverse rest matrices.
    assert!(pal.iter().all(|m| m.abs_diff_eq(Mat4::IDENTITY, 1e-6)));
    let mesh = Mat4::from_translation(Vec3::new(5.0, 0.0, 0.0));
    joint_matrices(&skin, &model, mesh.inverse(), &mut pal).unwrap();
    assert!(pal[0].abs_diff_eq(mesh.inverse(), 1e-6));
    let bad = Skin {
        joints: vec![7],
        inverse_bind_matrices: vec![Mat4::IDENTITY],
    };
    assert!(bad.validate(&skel).is_err());
}

#[test]
fn baking_layout_rows_match_the_palette() {
    let skel = chain(3);
    let skin = Skin {
        joints: vec![0, 1, 2],
        inverse_bind_matrices: vec![Mat4::IDENTITY; 3],
    };
    let raw = RawClip {
        name: "bend".into(),
        tracks: vec![RawJointTrack {
            joint: 1,
            rotation: RawTrack {
                interpolation: Interpolation::Linear,
                times: vec![0.0, 1.0],
                values: vec![Quat::IDENTITY, Quat::from_rotation_z(1.0)],
            },
            ..Default::default()
        }],
        ..Default::default()
    };
    let clip = Clip::build(&raw, &skel).unwrap();
    let clip2 = translation_clip(&skel, vec![0.0, 0.5], vec![0.0, 1.0]);
    let baked = bake_skinning_matrices(&skel, &skin, &[&clip, &clip2], 10.0).unwrap();
    assert_eq!(baked.clips[0].frame_count, 11);
    assert_eq!(baked.clips[1].first_frame, 11);
    assert_eq!(baked.clips[1].frame_count, 6);
    assert_eq!(baked.texels.len(), 17 * 3 * 3);
    let mut local = vec![Transform::IDENTITY; 3];
    let mut model = vec![Mat4::IDENTITY; 3];
    let mut pal = vec![Mat4::IDENTITY; 3];
    sample_clip(
        &clip,
        0.7,
        Playback::Once,
        &mut SamplingContext::new(3),
        &mut local,
    )
    .unwrap();
    local_to_model(&skel, &local, Mat4::IDENTITY, &mut model).unwrap();
    skinning_palette(&skin, &model, &mut pal).unwrap();
    for j in 0..3 {
        assert!(baked.matrix(0, 7, j).unwrap().abs_diff_eq(pal[j], 1e-6));
        // Row r of the matrix is texel r.
        let row0 = baked.texels[(7 * 3 + j) * 3];
        assert_eq!(
            row0.to_array(),
            [
                pal[j].x_axis.x,
                pal[j].y_axis.x,
                pal[j].z_axis.x,
                pal[j].w_axis.x
            ]
        );
    }
    assert!(bake_skinning_matrices(&skel, &skin, &[&clip], 0.0).is_err());
}

struct BendJoint(usize);
impl PoseHook for BendJoint {
    fn apply(
        &self,
        _: usize,
        _: &Skeleton,
        local: &mut [Transform],
        model: &[Mat4],
    ) -> Option<usize> {
        // The hook sees model-space input: joint 2 sits at y = 2 before the edit (the clip puts joint 0 at the origin).
        assert!((model[2].w_axis.y - 2.0).abs() < 1e-5);
        local[self.0].rotation = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
        Some(self.0)
    }
}

#[test]
fn character_job_runs_the_hook_and_recomputes_local_to_model() {
    let skel = chain(3);
    let skin = Skin {
        joints: vec![0, 1, 2],
        inverse_bind_matrices: vec![Mat4::IDENTITY; 3],
    };
    let clip = translation_clip(&skel, vec![0.0, 1.0], vec![0.0, 0.0]);
    let mut pose = CharacterPose::new(&skel, 3, 2);
    let layers = [ClipLayer {
        clip: &clip,
        time: 0.3,
        playback: Playback::Loop,
        weight: 1.0,
    }];
    CharacterJob {
        skeleton: &skel,
        skin: Some(&skin),
        layers: &layers,
        root: Mat4::IDENTITY,
        hook: &BendJoint(1),
        character: 0,
    }
    .run(&mut pose)
    .unwrap();
    // Joint 1 (at y = 1) turned 90° about Z: joint 2 moves to (-1, 1).
    assert!(
        (pose.model[2].w_axis.truncate() - Vec3::new(-1.0, 1.0, 0.0)).length() < 1e-5,
        "{:?}",
        pose.model[2]
    );
    assert!(pose.palette[2].abs_diff_eq(pose.model[2], 1e-6));
    // Too many layers is an error, not a panic.
    let three = [layers[0]; 3];
    assert!(CharacterJob {
        skeleton: &skel,
        skin: None,
        layers: &three,
        root: Mat4::IDENTITY,
        hook: &NoHook,
        character: 0
    }
    .run(&mut pose)
    .is_err());
}

#[test]
fn parallel_jobs_equal_sequential() {
    let skel = chain(10);
    let skin = Skin {
        joints: (0..10).collect(),
        inverse_bind_matrices: vec![Mat4::IDENTITY; 10],
    };
    let a = translation_clip(&skel, vec![0.0, 1.0], vec![0.0, 2.0]);
    let b = translation_clip(&skel, vec![0.0, 2.0], vec![1.0, -1.0]);
    let run = |i: usize, p: &mut CharacterPose| {
        let f = Crossfade {
            duration: 1.0,
            elapsed: i as f32 * 0.01,
        };
        let (wa, wb) = f.weights();
        let layers = [
            ClipLayer {
                clip: &a,
                time: i as f32 * 0.1,
                playback: Playback::Loop,
                weight: wa,
            },
            ClipLayer {
                clip: &b,
                time: i as f32 * 0.05,
                playback: Playback::Loop,
                weight: wb,
            },
        ];
        CharacterJob {
            skeleton: &skel,
            skin: Some(&skin),
            layers: &layers,
            root: Mat4::IDENTITY,
            hook: &NoHook,
            character: i,
        }
        .run(p)
    };
    let mut par: Vec<CharacterPose> = (0..64).map(|_| CharacterPose::new(&skel, 10, 2)).collect();
    let mut seq = par.clone();
    run_characters_parallel(&mut par, run).unwrap();
    for (i, p) in seq.iter_mut().enumerate() {
        run(i, p).unwrap();
    }
    for (p, s) in par.iter().zip(&seq) {
        assert_eq!(p.palette, s.palette);
    }
}

#[test]
fn fused_crossfade_equals_sampling_twice_then_blending() {
    let crowd = sierra_anim::synthetic::Crowd::new(1, 30);
    let skel = &crowd.skeleton;
    let n = skel.joint_count();
    let mut pose = CharacterPose::new(skel, n, 2);
    for (k, (wa, wb)) in [(0.3f32, 0.7f32), (1.0, 0.0), (0.0, 1.0), (0.5, 0.5)]
        .into_iter()
        .enumerate()
    {
        let (ta, tb) = (0.13 * k as f32, 0.41 + 0.2 * k as f32);
        let layers = [
            ClipLayer {
                clip: &crowd.clips[0],
                time: ta,
                playback: Playback::Loop,
                weight: wa,
            },
            ClipLayer {
                clip: &crowd.clips[1],
                time: tb,
                playback: Playback::Loop,
                weight: wb,
            },
        ];
        CharacterJob {
            skeleton: skel,
            skin: Some(&crowd.skin),
            layers: &layers,
            root: Mat4::IDENTITY,
            hook: &NoHook,
            character: 0,
        }
        .run(&mut pose)
        .unwrap();
        let mut a = vec![Transform::IDENTITY; n];
        let mut b = vec![Transform::IDENTITY; n];
        sample_clip(
            &crowd.clips[0],
            ta,
            Playback::Loop,
            &mut SamplingContext::new(n),
            &mut a,
        )
        .unwrap();
        sample_clip(
            &crowd.clips[1],
            tb,
            Playback::Loop,
            &mut SamplingContext::new(n),
            &mut b,
        )
        .unwrap();
        let mut blended = vec![Transform::IDENTITY; n];
        blend_poses(
            &[BlendLayer::new(&a, wa), BlendLayer::new(&b, wb)],
            skel.rest_pose(),
            &mut blended,
        )
        .unwrap();
        let mut local = vec![Transform::IDENTITY; n];
        sierra_anim::from_soa(pose.soa_local(), &mut local).unwrap();
        assert_eq!(local, blended, "weights {wa} {wb}");
    }
}
