//! Procedural skeletons and clips for benchmarks and tests (no files needed).

use glam::{Quat, Vec3};

use crate::{
    Clip, Interpolation, RawClip, RawJoint, RawJointTrack, RawSkeleton, RawTrack, Skeleton,
    Transform,
};

/// A humanoid-like tree of `joint_count` joints: a spine chain with limbs
/// branching off every few joints, bones 0.1 m long. Deterministic.
pub fn skeleton(joint_count: usize) -> Skeleton {
    let joints = (0..joint_count)
        .map(|i| RawJoint {
            name: format!("joint{i}"),
            // Chains of 6 joints, each chain hanging from a joint of the first chains.
            parent: if i == 0 {
                None
            } else if i % 6 == 0 {
                Some((i / 6 - 1) * 2 % i)
            } else {
                Some(i - 1)
            },
            rest: Transform::from_trs(
                Vec3::new(0.0, 0.1, 0.0),
                Quat::from_rotation_z(0.05 * (i % 5) as f32),
                Vec3::ONE,
            ),
        })
        .collect();
    // Every parent index above is < i, so the build cannot fail.
    Skeleton::build(&RawSkeleton { joints })
        .unwrap_or_else(|_| unreachable!("synthetic skeleton is a valid tree"))
}

/// A looping clip for `skeleton`: every joint has a LINEAR rotation track keyed
/// at `fps` over `duration` seconds (small swings around the rest pose, phase
/// from `seed`), the root also a translation track; scales are constant.
pub fn clip(skeleton: &Skeleton, name: &str, duration: f32, fps: f32, seed: u32) -> Clip {
    let keys = (duration * fps).ceil() as usize + 1;
    let times: Vec<f32> = (0..keys).map(|k| (k as f32 / fps).min(duration)).collect();
    let mut times = times;
    times.dedup();
    let tracks = (0..skeleton.joint_count())
        .map(|j| {
            let phase = (j as u32).wrapping_mul(2654435761).wrapping_add(seed) as f32
                / u32::MAX as f32
                * std::f32::consts::TAU;
            let rest = skeleton.rest_pose()[j].rotation;
            let rotation = RawTrack {
                interpolation: Interpolation::Linear,
                times: times.clone(),
                values: times
                    .iter()
                    .map(|&t| {
                        let a = (t / duration * std::f32::consts::TAU + phase).sin() * 0.4;
                        rest * Quat::from_euler(glam::EulerRot::XYZ, a, 0.5 * a, 0.25 * a)
                    })
                    .collect(),
            };
            let translation = if j == 0 {
                RawTrack {
                    interpolation: Interpolation::Linear,
                    times: times.clone(),
                    values: times
                        .iter()
                        .map(|&t| Vec3::new(0.0, 1.0 + 0.05 * (t * 6.0 + phase).sin(), 0.0))
                        .collect(),
                }
            } else {
                RawTrack::default()
            };
            RawJointTrack {
                joint: j,
                translation,
                rotation,
                scale: RawTrack::default(),
            }
        })
        .collect();
    let raw = RawClip {
        name: name.to_owned(),
        duration: Some(duration),
        tracks,
        morph_tracks: Vec::new(),
    };
    Clip::build(&raw, skeleton).unwrap_or_else(|e| unreachable!("synthetic clip is valid: {e}"))
}

/// The benchmark scenario of issue #4: `characters` characters sharing one
/// skeleton and skin, each crossfading between two looping clips with its own
/// time offset; [`Crowd::frame`] runs the full job (sample both clips → blend →
/// local-to-model → skinning palette) for every character on rayon's current pool.
pub struct Crowd {
    /// Shared skeleton.
    pub skeleton: Skeleton,
    /// Skin over every joint (identity inverse binds).
    pub skin: crate::Skin,
    /// Clip A and clip B.
    pub clips: [Clip; 2],
    /// One pose buffer per character.
    pub poses: Vec<crate::CharacterPose>,
}

impl Crowd {
    /// `characters` characters on a `joint_count`-joint skeleton, clips keyed at 30 fps.
    pub fn new(characters: usize, joint_count: usize) -> Self {
        let skeleton = skeleton(joint_count);
        let skin = crate::Skin {
            joints: (0..joint_count as u16).collect(),
            inverse_bind_matrices: vec![glam::Mat4::IDENTITY; joint_count],
        };
        let clips = [
            clip(&skeleton, "walk", 1.0, 30.0, 1),
            clip(&skeleton, "run", 0.7, 30.0, 2),
        ];
        let poses = (0..characters)
            .map(|_| crate::CharacterPose::new(&skeleton, joint_count, 2))
            .collect();
        Self {
            skeleton,
            skin,
            clips,
            poses,
        }
    }

    /// One frame at `time` seconds, characters in parallel.
    pub fn frame(&mut self, time: f32) -> Result<(), crate::AnimError> {
        let Self {
            skeleton,
            skin,
            clips,
            poses,
        } = self;
        let (skeleton, skin, clips) = (&*skeleton, &*skin, &*clips);
        crate::run_characters_parallel(poses, |i, pose| {
            Self::character(skeleton, skin, clips, i, time, pose)
        })
    }

    /// One frame at `time` seconds on the calling thread only.
    pub fn frame_sequential(&mut self, time: f32) -> Result<(), crate::AnimError> {
        for (i, pose) in self.poses.iter_mut().enumerate() {
            Self::character(&self.skeleton, &self.skin, &self.clips, i, time, pose)?;
        }
        Ok(())
    }

    fn character(
        skeleton: &Skeleton,
        skin: &crate::Skin,
        clips: &[Clip; 2],
        i: usize,
        time: f32,
        pose: &mut crate::CharacterPose,
    ) -> Result<(), crate::AnimError> {
        let offset = i as f32 * 0.037;
        // Each character fades back and forth between A and B with a 2 s period.
        let fade = crate::Crossfade {
            duration: 1.0,
            elapsed: ((time + offset) % 2.0 - 0.5).abs(),
        };
        let (wa, wb) = fade.weights();
        let layers = [
            crate::ClipLayer {
                clip: &clips[0],
                time: time + offset,
                playback: crate::Playback::Loop,
                weight: wa,
            },
            crate::ClipLayer {
                clip: &clips[1],
                time: time * 1.1 + offset,
                playback: crate::Playback::Loop,
                weight: wb,
            },
        ];
        crate::CharacterJob {
            skeleton,
            skin: Some(skin),
            layers: &layers,
            root: glam::Mat4::IDENTITY,
            hook: &crate::NoHook,
            character: i,
        }
        .run(pose)
    }
}
