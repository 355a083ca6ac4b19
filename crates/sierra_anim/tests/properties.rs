//! Property tests of the runtime's invariants.

mod prop_common;

use glam::{Mat4, Quat, Vec3};
use prop_common::{transform, unit_quat, vec3};
use proptest::prelude::*;
use sierra_anim::*;

fn one_joint() -> Skeleton {
    Skeleton::build(&RawSkeleton {
        joints: vec![RawJoint {
            name: "j".into(),
            parent: None,
            rest: Transform::IDENTITY,
        }],
    })
    .unwrap()
}

fn rotation_clip(
    skel: &Skeleton,
    interpolation: Interpolation,
    times: Vec<f32>,
    values: Vec<Quat>,
) -> Clip {
    let raw = RawClip {
        name: "c".into(),
        tracks: vec![RawJointTrack {
            joint: 0,
            rotation: RawTrack {
                interpolation,
                times,
                values,
            },
            ..Default::default()
        }],
        ..Default::default()
    };
    Clip::build(&raw, skel).unwrap()
}

fn sample1(clip: &Clip, t: f32) -> Transform {
    let mut out = [Transform::IDENTITY];
    sample_clip(
        clip,
        t,
        Playback::Once,
        &mut SamplingContext::new(1),
        &mut out,
    )
    .unwrap();
    out[0]
}

fn increasing_times(n: usize) -> impl Strategy<Value = Vec<f32>> {
    prop::collection::vec(0.01f32..1.0, n).prop_map(|d| {
        let mut t = 0.0;
        d.into_iter()
            .map(|x| {
                t += x;
                t
            })
            .collect()
    })
}

proptest! {
    #[test]
    fn slerp_takes_the_short_path_for_q_and_minus_q(a in unit_quat(), b in unit_quat(), u in 0.0f32..1.0) {
        let skel = one_joint();
        let plus = sample1(&rotation_clip(&skel, Interpolation::Linear, vec![0.0, 1.0], vec![a, b]), u).rotation;
        let minus = sample1(&rotation_clip(&skel, Interpolation::Linear, vec![0.0, 1.0], vec![a, -b]), u).rotation;
        // Same rotation either way...
        prop_assert!(plus.dot(minus).abs() > 1.0 - 1e-4, "{plus:?} vs {minus:?}");
        // ...and it lies u of the way along the shortest arc (angle_between is the short angle).
        let total = a.angle_between(b);
        prop_assert!((a.angle_between(plus) - u * total).abs() < 2e-3, "{} vs {}", a.angle_between(plus), u * total);
        prop_assert!((plus.angle_between(b) - (1.0 - u) * total).abs() < 2e-3);
    }

    #[test]
    fn sampling_at_a_key_time_returns_that_key_exactly(
        times in increasing_times(6),
        rots in prop::collection::vec(unit_quat(), 18),
        trans in prop::collection::vec(vec3(10.0), 18),
        mode in 0usize..3,
    ) {
        let skel = one_joint();
        let interpolation = [Interpolation::Step, Interpolation::Linear, Interpolation::CubicSpline][mode];
        let per = if mode == 2 { 3 } else { 1 };
        let raw = RawClip {
            name: "c".into(),
            tracks: vec![RawJointTrack {
                joint: 0,
                translation: RawTrack { interpolation, times: times.clone(), values: trans[..6 * per].to_vec() },
                rotation: RawTrack { interpolation, times: times.clone(), values: rots[..6 * per].to_vec() },
                scale: RawTrack::default(),
            }],
            ..Default::default()
        };
        let clip = Clip::build(&raw, &skel).unwrap();
        // Forward, then backward (exercises the cursor both ways).
        for k in (0..6).chain((0..6).rev()) {
            let s = sample1(&clip, times[k]);
            let i = if per == 3 { 3 * k + 1 } else { k };
            prop_assert_eq!(Vec3::from(s.translation), trans[i]);
            prop_assert_eq!(s.rotation, rots[i].normalize());
        }
        let mut ctx = SamplingContext::new(1);
        let mut out = [Transform::IDENTITY];
        for k in (0..6).chain((0..6).rev()) {
            sample_clip(&clip, times[k], Playback::Once, &mut ctx, &mut out).unwrap();
            prop_assert_eq!(Vec3::from(out[0].translation), trans[if per == 3 { 3 * k + 1 } else { k }]);
        }
    }

    #[test]
    fn blending_with_weight_zero_or_one_returns_the_inputs(a in prop::collection::vec(transform(10.0), 5), b in prop::collection::vec(transform(10.0), 5)) {
        let rest = vec![Transform::IDENTITY; 5];
        let mut out = vec![Transform::IDENTITY; 5];
        for (wa, wb, expect) in [(1.0, 0.0, &a), (0.0, 1.0, &b)] {
            blend_poses(&[BlendLayer::new(&a, wa), BlendLayer::new(&b, wb)], &rest, &mut out).unwrap();
            for (o, e) in out.iter().zip(expect.iter()) {
                prop_assert!((o.translation - e.translation).abs().max_element() < 1e-5);
                prop_assert!((o.scale - e.scale).abs().max_element() < 1e-6);
                prop_assert!(o.rotation.dot(e.rotation) > 1.0 - 1e-6);
            }
            // Three layers with the extra one at weight 0 (generic path).
            blend_poses(&[BlendLayer::new(&a, wa), BlendLayer::new(&b, wb), BlendLayer::new(&rest, 0.0)], &rest, &mut out).unwrap();
            for (o, e) in out.iter().zip(expect.iter()) {
                prop_assert!((o.translation - e.translation).abs().max_element() < 1e-5);
                prop_assert!(o.rotation.dot(e.rotation).abs() > 1.0 - 1e-6);
            }
        }
    }

    #[test]
    fn local_to_model_of_a_random_chain_equals_the_naive_recursive_product(
        parents in prop::collection::vec(0usize..1000, 1..40),
        locals in prop::collection::vec(transform(10.0), 40),
        shuffle in any::<u64>(),
    ) {
        let n = parents.len();
        // Raw parents: joint i's parent is some earlier joint (or none), then the raw order is shuffled.
        let raw_parent: Vec<Option<usize>> = (0..n).map(|i| if i == 0 || parents[i] % 7 == 0 { None } else { Some(parents[i] % i) }).collect();
        let mut perm: Vec<usize> = (0..n).collect();
        let mut s = shuffle | 1;
        for i in (1..n).rev() {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            perm.swap(i, (s % (i as u64 + 1)) as usize);
        }
        let mut pos = vec![0; n];
        for (p, &i) in perm.iter().enumerate() { pos[i] = p; }
        let raw = RawSkeleton { joints: perm.iter().map(|&i| RawJoint { name: format!("j{i}"), parent: raw_parent[i].map(|p| pos[p]), rest: locals[i] }).collect() };
        let skel = Skeleton::build(&raw).unwrap();
        for j in 0..n {
            if let Some(p) = skel.parent(j) { prop_assert!(p < j); }
        }
        let mut model = vec![Mat4::IDENTITY; n];
        let root = Mat4::from_translation(Vec3::new(1.0, 2.0, 3.0));
        local_to_model(&skel, skel.rest_pose(), root, &mut model).unwrap();
        fn naive(i: usize, parent: &[Option<usize>], locals: &[Transform], root: Mat4) -> Mat4 {
            let t = &locals[i];
            let l = Mat4::from_translation(t.translation.into()) * Mat4::from_quat(t.rotation) * Mat4::from_scale(t.scale.into());
            match parent[i] { Some(p) => naive(p, parent, locals, root) * l, None => root * l }
        }
        for j in 0..n {
            let orig = perm[skel.raw_index()[j] as usize];
            let expected = naive(orig, &raw_parent, &locals, root);
            let scale = expected.abs().to_cols_array().iter().fold(1.0f32, |a, &b| a.max(b));
            let err = (model[j] - expected).abs().to_cols_array().iter().fold(0.0f32, |a, &b| a.max(b));
            prop_assert!(err < 1e-4 * scale, "joint {j}: {err}");
        }
    }
}
