//! The structure-of-arrays jobs equal the scalar reference bit for bit, on every instruction
//! set this CPU has (AVX-512, AVX2, baseline), for random skeletons, clips, poses and weights.

mod prop_common;

use glam::{Mat4, Quat, Vec3};
use prop_common::{transform, vec3};
use proptest::prelude::*;
use sierra_anim::*;

/// Every level this CPU runs, the baseline last: AVX-512 and AVX2 where the CPU has them (and
/// `SIERRA_TEST_WITHOUT_SIMD` does not hide them); a missing one is a `cpu-simd` skip, said
/// and counted (`sierra_testkit::skip::simd_paths`, which also prints the levels compared).
fn levels() -> Vec<SimdLevel> {
    let best = SimdLevel::detect();
    let mut levels = sierra_testkit::skip::simd_paths([
        (SimdLevel::Avx512, "avx512", best == SimdLevel::Avx512),
        (SimdLevel::Avx2, "avx2", best != SimdLevel::Portable),
    ]);
    levels.push(SimdLevel::Portable);
    levels
}

/// A random tree: joint i's parent is a random earlier joint, or none.
fn skeleton(parents: &[usize], rest: &[Transform]) -> Skeleton {
    let joints = parents
        .iter()
        .enumerate()
        .map(|(i, &p)| RawJoint {
            name: format!("j{i}"),
            parent: (i > 0 && p % 5 != 0).then(|| p % i),
            rest: rest[i % rest.len()],
        })
        .collect();
    Skeleton::build(&RawSkeleton { joints }).unwrap()
}

fn bits(t: &Transform) -> Vec<u32> {
    t.translation
        .to_array()
        .into_iter()
        .chain(t.rotation.to_array())
        .chain(t.scale.to_array())
        .map(f32::to_bits)
        .collect()
}

fn soa_to_aos(soa: &[SoaTransform], n: usize) -> Vec<Transform> {
    let mut out = vec![Transform::IDENTITY; n];
    from_soa(soa, &mut out).unwrap();
    out
}

/// Track `j` of a random clip: `mode` picks the key times (shared / own / one key) and the
/// interpolation; values come from `seed`.
fn track<T: Clone>(mode: u8, shared: &[f32], seed: u32, value: impl Fn(u32) -> T) -> RawTrack<T> {
    let interpolation = match mode % 5 {
        0 => Interpolation::Step,
        4 if mode > 200 => Interpolation::CubicSpline,
        _ => Interpolation::Linear,
    };
    let times: Vec<f32> = match mode / 50 {
        0 => vec![0.25],
        1 => (0..3 + seed % 5).map(|k| k as f32 * 0.17 + 0.05).collect(),
        _ => shared.to_vec(),
    };
    let per = if interpolation == Interpolation::CubicSpline {
        3
    } else {
        1
    };
    let values = (0..times.len() * per)
        .map(|k| value(seed.wrapping_mul(31).wrapping_add(k as u32)))
        .collect();
    RawTrack {
        interpolation,
        times,
        values,
    }
}

fn hash(x: u32) -> f32 {
    let x = x.wrapping_mul(0x9E37_79B9) ^ (x >> 15);
    (x.wrapping_mul(0x85EB_CA6B) >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0
}

fn clip(skel: &Skeleton, modes: &[u8], uniform: bool) -> Clip {
    let shared: Vec<f32> = (0..7).map(|k| k as f32 * 0.2).collect();
    let tracks = (0..skel.joint_count())
        .map(|j| {
            let m = |c: usize| {
                let m = modes[(3 * j + c) % modes.len()];
                // Uniform clips: every track one key or on the shared times, LINEAR/STEP.
                if uniform {
                    if m % 3 == 0 {
                        0
                    } else {
                        100 + (m % 4)
                    }
                } else {
                    m
                }
            };
            let s = j as u32 * 7;
            RawJointTrack {
                joint: j,
                translation: track(m(0), &shared, s, |k| {
                    Vec3::new(hash(k), hash(k + 1), hash(k + 2))
                }),
                rotation: track(m(1), &shared, s + 3, |k| {
                    Quat::from_xyzw(hash(k), hash(k + 1), hash(k + 2), hash(k + 3) + 1.5)
                }),
                scale: track(m(2), &shared, s + 5, |k| {
                    Vec3::new(1.0 + 0.3 * hash(k), 1.0 + 0.3 * hash(k + 1), 1.0)
                }),
            }
        })
        .collect();
    let raw = RawClip {
        name: "random".into(),
        duration: None,
        tracks,
        morph_tracks: Vec::new(),
    };
    Clip::build(&raw, skel).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn soa_sampling_equals_scalar_sampling(
        parents in prop::collection::vec(0usize..1000, 1..30),
        rest in prop::collection::vec(transform(2.0), 4),
        modes in prop::collection::vec(any::<u8>(), 8),
        uniform in any::<bool>(),
        times in prop::collection::vec(-0.5f32..2.0, 4),
        looped in any::<bool>(),
    ) {
        let skel = skeleton(&parents, &rest);
        let n = skel.joint_count();
        let clip = clip(&skel, &modes, uniform);
        let playback = if looped { Playback::LoopWithPeriod(1.5) } else { Playback::Once };
        let mut ctx = SamplingContext::new(n);
        let mut aos = vec![Transform::IDENTITY; n];
        let mut soa = vec![SoaTransform::IDENTITY; soa_blocks(n)];
        for level in levels() {
            let mut soa_ctx = SamplingContext::new(n);
            for &t in &times {
                sample_clip(&clip, t, playback, &mut ctx, &mut aos).unwrap();
                sample_clip_soa_with(level, &clip, t, playback, &mut soa_ctx, &mut soa).unwrap();
                for (j, (a, s)) in aos.iter().zip(soa_to_aos(&soa, n)).enumerate() {
                    prop_assert_eq!(bits(a), bits(&s), "{:?} joint {} t {}", level, j, t);
                }
            }
        }
    }

    #[test]
    fn soa_blending_with_masks_and_additive_layers_equals_scalar_blending(
        poses in prop::collection::vec(prop::collection::vec(transform(2.0), 13), 5),
        weights in prop::collection::vec(prop_oneof![Just(0.0f32), Just(1.0), -0.5f32..2.0], 5),
        masks in prop::collection::vec(prop::collection::vec(prop_oneof![Just(0.0f32), 0.0f32..1.0], 13), 5),
        layers in 0usize..4,
        additive in 0usize..2,
        masked in any::<bool>(),
    ) {
        let n = 13;
        let rest = &poses[4];
        let to_soa_vec = |p: &[Transform]| {
            let mut s = vec![SoaTransform::IDENTITY; soa_blocks(n)];
            to_soa(p, &mut s).unwrap();
            s
        };
        let soa_poses: Vec<_> = poses.iter().map(|p| to_soa_vec(p)).collect();
        let soa_masks: Vec<Vec<F8>> = masks.iter().map(|m| {
            (0..soa_blocks(n)).map(|b| F8::from_fn(|i| m.get(b * LANES + i).copied().unwrap_or(0.0))).collect()
        }).collect();
        let mask = |i: usize| masked.then(|| masks[i].as_slice());
        let soa_mask = |i: usize| masked.then(|| soa_masks[i].as_slice());
        let aos_layers: Vec<BlendLayer> = (0..layers).map(|i| BlendLayer { pose: &poses[i], weight: weights[i], joint_weights: mask(i) }).collect();
        let aos_add: Vec<BlendLayer> = (layers..layers + additive).map(|i| BlendLayer { pose: &poses[i], weight: weights[i], joint_weights: mask(i) }).collect();
        let soa_layers: Vec<SoaBlendLayer> = (0..layers).map(|i| SoaBlendLayer { pose: &soa_poses[i], weight: weights[i], joint_weights: soa_mask(i) }).collect();
        let soa_add: Vec<SoaBlendLayer> = (layers..layers + additive).map(|i| SoaBlendLayer { pose: &soa_poses[i], weight: weights[i], joint_weights: soa_mask(i) }).collect();
        let mut expected = vec![Transform::IDENTITY; n];
        blend_poses_layered(&aos_layers, &aos_add, rest, &mut expected).unwrap();
        prop_assert!(expected.iter().all(|t| t.is_finite()));
        for level in levels() {
            let mut out = vec![SoaTransform::IDENTITY; soa_blocks(n)];
            blend_poses_soa_with(level, &soa_layers, &soa_add, &soa_poses[4], &mut out).unwrap();
            for (j, (e, s)) in expected.iter().zip(soa_to_aos(&out, n)).enumerate() {
                prop_assert_eq!(bits(e), bits(&s), "{:?} joint {}", level, j);
            }
        }
    }

    #[test]
    fn soa_local_to_model_equals_scalar_local_to_model(
        parents in prop::collection::vec(0usize..1000, 1..40),
        rest in prop::collection::vec(transform(2.0), 4),
        locals in prop::collection::vec(transform(2.0), 40),
        offset in vec3(2.0),
    ) {
        let skel = skeleton(&parents, &rest);
        let n = skel.joint_count();
        let root = Mat4::from_translation(offset) * Mat4::from_rotation_y(0.3);
        let local = &locals[..n];
        let mut expected = vec![Mat4::IDENTITY; n];
        local_to_model(&skel, local, root, &mut expected).unwrap();
        let mut soa = vec![SoaTransform::IDENTITY; soa_blocks(n)];
        to_soa(local, &mut soa).unwrap();
        for level in levels() {
            let mut model = vec![Mat4::IDENTITY; n];
            local_to_model_soa_with(level, &skel, &soa, root, &mut model).unwrap();
            for j in 0..n {
                let (e, m) = (expected[j].to_cols_array(), model[j].to_cols_array());
                prop_assert!(e.iter().zip(&m).all(|(a, b)| a.to_bits() == b.to_bits()), "{:?} joint {}", level, j);
            }
        }
    }
}

/// Negative control: the bit comparison sees a one-ulp difference.
#[test]
fn bit_comparison_detects_one_ulp() {
    let a = Transform::IDENTITY;
    let mut b = a;
    b.translation.x = f32::from_bits(b.translation.x.to_bits() + 1);
    assert_ne!(bits(&a), bits(&b));
}

/// The SoA buffers are checked: a wrong block count is an error, not a panic.
#[test]
fn soa_buffer_sizes_are_checked() {
    let crowd = sierra_anim::synthetic::Crowd::new(1, 20);
    let mut ctx = SamplingContext::new(20);
    let mut short = vec![SoaTransform::IDENTITY; 2];
    assert!(matches!(
        sample_clip_soa(&crowd.clips[0], 0.1, Playback::Loop, &mut ctx, &mut short),
        Err(AnimError::BufferSize { .. })
    ));
    let mut model = vec![Mat4::IDENTITY; 20];
    assert!(local_to_model_soa(&crowd.skeleton, &short, Mat4::IDENTITY, &mut model).is_err());
}
