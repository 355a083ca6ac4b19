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

/// A looping clip for `skeleton` (the anchor workload of issue #23): every joint has a
/// LINEAR rotation track and a LINEAR translation track keyed at `fps` over `duration`
/// seconds (small swings around the rest pose, phase from `seed`); scales are constant.
/// At 30 fps over 1 s that is 31 keys on 2 × `joint_count` tracks (136 for 68 joints).
pub fn clip(skeleton: &Skeleton, name: &str, duration: f32, fps: f32, seed: u32) -> Clip {
    Clip::build(&raw_clip(skeleton, name, duration, fps, seed), skeleton)
        .unwrap_or_else(|e| unreachable!("synthetic clip is valid: {e}"))
}

/// A LINEAR track keyed at `times` (seconds) with the values `value(t)`.
fn linear_track<T>(times: &[f32], value: impl Fn(f32) -> T) -> RawTrack<T> {
    RawTrack {
        interpolation: Interpolation::Linear,
        times: times.to_vec(),
        values: times.iter().map(|&t| value(t)).collect(),
    }
}

/// The raw form of [`clip`] (what an importer would produce).
pub fn raw_clip(skeleton: &Skeleton, name: &str, duration: f32, fps: f32, seed: u32) -> RawClip {
    let keys = (duration * fps).ceil() as usize + 1;
    let mut times: Vec<f32> = (0..keys).map(|k| (k as f32 / fps).min(duration)).collect();
    times.dedup();
    let tracks = (0..skeleton.joint_count())
        .map(|j| {
            // The seed is scrambled too: added as is it moved phases by ~1e-8 rad (two equal clips).
            let phase = (j as u32)
                .wrapping_mul(2654435761)
                .wrapping_add(seed.wrapping_mul(0x9E37_79B9)) as f32
                / u32::MAX as f32
                * std::f32::consts::TAU;
            let rest = skeleton.rest_pose()[j];
            let rotation = linear_track(&times, |t| {
                let a = (t / duration * std::f32::consts::TAU + phase).sin() * 0.4;
                rest.rotation * Quat::from_euler(glam::EulerRot::XYZ, a, 0.5 * a, 0.25 * a)
            });
            let base = if j == 0 {
                Vec3::new(0.0, 1.0, 0.0)
            } else {
                Vec3::from(rest.translation)
            };
            let translation = linear_track(&times, |t| {
                let w = (t * std::f32::consts::TAU / duration * 2.0 + phase).sin();
                base + Vec3::new(0.002 * w, 0.05 * w * (j == 0) as u8 as f32, 0.001 * w)
            });
            RawJointTrack {
                joint: j,
                translation,
                rotation,
                scale: RawTrack::default(),
            }
        })
        .collect();
    RawClip {
        name: name.to_owned(),
        duration: Some(duration),
        tracks,
        morph_tracks: Vec::new(),
    }
}

/// The benchmark scenario of issues #4 and #23 (the anchor workload): `characters`
/// characters sharing one skeleton and skin, each crossfading between two looping 1 s
/// clips (31 keys on the rotation and translation of every joint) with its own random
/// phase per clip; [`Crowd::frame`] runs the full job (sample both clips → blend →
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
    /// `[characters]` random time offsets in seconds of clip A, clip B and the fade.
    pub phases: Vec<[f32; 3]>,
}

impl Crowd {
    /// `characters` characters on a `joint_count`-joint skeleton, two 1 s clips keyed at 30 fps.
    pub fn new(characters: usize, joint_count: usize) -> Self {
        let skeleton = skeleton(joint_count);
        let skin = crate::Skin {
            joints: (0..joint_count as u16).collect(),
            inverse_bind_matrices: vec![glam::Mat4::IDENTITY; joint_count],
        };
        let clips = [
            clip(&skeleton, "walk", 1.0, 30.0, 1),
            clip(&skeleton, "run", 1.0, 30.0, 2),
        ];
        let poses = (0..characters)
            .map(|_| crate::CharacterPose::new(&skeleton, joint_count, 2))
            .collect();
        // xorshift32: deterministic, different phases per character and clip.
        let mut state = 0x9E37_79B9u32;
        let mut rnd = move || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            (state >> 8) as f32 / (1u32 << 24) as f32
        };
        let phases = (0..characters)
            .map(|_| [rnd(), rnd(), 2.0 * rnd()])
            .collect();
        Self {
            skeleton,
            skin,
            clips,
            poses,
            phases,
        }
    }

    /// One frame at `time` seconds, characters in parallel (fused sample-and-blend job).
    pub fn frame(&mut self, time: f32) -> Result<(), crate::AnimError> {
        self.frame_with(time, true)
    }

    /// One frame at `time` seconds, characters in parallel; `fused` picks
    /// [`crate::CharacterJob::run`] (true) or [`crate::CharacterJob::run_staged`] (false).
    pub fn frame_with(&mut self, time: f32, fused: bool) -> Result<(), crate::AnimError> {
        let Self {
            skeleton,
            skin,
            clips,
            poses,
            phases,
        } = self;
        let (skeleton, skin, clips, phases) = (&*skeleton, &*skin, &*clips, &*phases);
        crate::run_characters_parallel(poses, |i, pose| {
            let layers = Self::layers_of(clips, phases[i], time);
            Self::job(skeleton, skin, &layers, i, pose, fused)
        })
    }

    /// One frame at `time` seconds on the calling thread only.
    pub fn frame_sequential(&mut self, time: f32) -> Result<(), crate::AnimError> {
        for (i, pose) in self.poses.iter_mut().enumerate() {
            let layers = Self::layers_of(&self.clips, self.phases[i], time);
            Self::job(&self.skeleton, &self.skin, &layers, i, pose, true)?;
        }
        Ok(())
    }

    /// The two clip layers of character `i` at `time`: each clip at its own phase, weights of
    /// a fade back and forth between A and B with a 2 s period.
    pub fn layers(&self, i: usize, time: f32) -> [crate::ClipLayer<'_>; 2] {
        Self::layers_of(&self.clips, self.phases[i], time)
    }

    fn layers_of(clips: &[Clip; 2], phase: [f32; 3], time: f32) -> [crate::ClipLayer<'_>; 2] {
        let fade = crate::Crossfade {
            duration: 1.0,
            elapsed: ((time + phase[2]) % 2.0 - 0.5).abs(),
        };
        let (wa, wb) = fade.weights();
        [
            crate::ClipLayer {
                clip: &clips[0],
                time: time + phase[0],
                playback: crate::Playback::Loop,
                weight: wa,
            },
            crate::ClipLayer {
                clip: &clips[1],
                time: time * 1.1 + phase[1],
                playback: crate::Playback::Loop,
                weight: wb,
            },
        ]
    }

    fn job(
        skeleton: &Skeleton,
        skin: &crate::Skin,
        layers: &[crate::ClipLayer<'_>],
        i: usize,
        pose: &mut crate::CharacterPose,
        fused: bool,
    ) -> Result<(), crate::AnimError> {
        let job = crate::CharacterJob {
            skeleton,
            skin: Some(skin),
            layers,
            root: glam::Mat4::IDENTITY,
            hook: &crate::NoHook,
            character: i,
        };
        if fused {
            job.run(pose)
        } else {
            job.run_staged(pose)
        }
    }
}
