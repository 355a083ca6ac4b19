//! Fixtures of the graph tests: a small named humanoid skeleton and its clips.

#![allow(dead_code)]

use std::sync::Arc;

use glam::{Quat, Vec3};
use sierra_anim::graph::{AnimGraph, EventBuffer, GraphBinding, GraphInstance, GraphPoseBuffers};
use sierra_anim::{
    synthetic, Clip, RawClip, RawJoint, RawJointTrack, RawSkeleton, RawTrack, Skeleton, Transform,
};

/// `hips` → (`spine` → `chest` → (`head`, `arm_l`, `arm_r`)), (`thigh_l` → `shin_l`), (`thigh_r` → `shin_r`).
pub fn skeleton() -> Skeleton {
    let joints = [
        ("hips", None),
        ("spine", Some(0)),
        ("chest", Some(1)),
        ("head", Some(2)),
        ("arm_l", Some(2)),
        ("arm_r", Some(2)),
        ("thigh_l", Some(0)),
        ("shin_l", Some(6)),
        ("thigh_r", Some(0)),
        ("shin_r", Some(8)),
    ];
    let raw = RawSkeleton {
        joints: joints
            .iter()
            .enumerate()
            .map(|(i, &(name, parent))| RawJoint {
                name: name.into(),
                parent,
                rest: Transform::from_trs(
                    Vec3::new(0.0, 0.1 + 0.01 * i as f32, 0.0),
                    Quat::from_rotation_z(0.1 * i as f32),
                    Vec3::ONE,
                ),
            })
            .collect(),
    };
    Skeleton::build(&raw).unwrap()
}

/// A clip with no tracks: the rest pose for `duration` seconds.
pub fn rest_clip(skeleton: &Skeleton, name: &str, duration: f32) -> Clip {
    let raw = RawClip {
        name: name.into(),
        duration: Some(duration),
        tracks: Vec::new(),
        morph_tracks: Vec::new(),
    };
    Clip::build(&raw, skeleton).unwrap()
}

/// The rest pose with the root moved up by `dy` metres, held for `duration` seconds.
pub fn lifted_clip(skeleton: &Skeleton, name: &str, duration: f32, dy: f32) -> Clip {
    let t = Vec3::from(skeleton.rest_pose()[0].translation) + Vec3::Y * dy;
    let raw = RawClip {
        name: name.into(),
        duration: Some(duration),
        tracks: vec![RawJointTrack {
            joint: 0,
            translation: RawTrack {
                interpolation: Default::default(),
                times: vec![0.0, duration],
                values: vec![t, t],
            },
            rotation: RawTrack::default(),
            scale: RawTrack::default(),
        }],
        morph_tracks: Vec::new(),
    };
    Clip::build(&raw, skeleton).unwrap()
}

/// Clips `a` (1 s), `b` (0.5 s), `c` (0.8 s) with distinct motion on every joint, `rest` (1 s)
/// and `lifted` (root 0.25 m up, 1 s).
pub fn clips(skeleton: &Skeleton) -> Vec<Clip> {
    vec![
        synthetic::clip(skeleton, "a", 1.0, 30.0, 1),
        synthetic::clip(skeleton, "b", 0.5, 30.0, 2),
        synthetic::clip(skeleton, "c", 0.8, 30.0, 3),
        rest_clip(skeleton, "rest", 1.0),
        lifted_clip(skeleton, "lifted", 1.0, 0.25),
    ]
}

/// A graph, its instance, binding and buffers for the fixture skeleton.
pub struct Rig {
    pub skeleton: Skeleton,
    pub clips: Vec<Clip>,
    pub instance: GraphInstance,
    pub binding: GraphBinding,
    pub buffers: GraphPoseBuffers,
    pub events: EventBuffer,
}

impl Rig {
    pub fn new(json: &str) -> Self {
        let skeleton = skeleton();
        let clips = clips(&skeleton);
        let graph = Arc::new(AnimGraph::from_json_str(json, "test.graph.json").unwrap());
        let binding = GraphBinding::by_name(&graph, &skeleton, &clips).unwrap();
        let buffers = GraphPoseBuffers::new(&graph, skeleton.joint_count());
        Self {
            instance: GraphInstance::new(graph),
            skeleton,
            clips,
            binding,
            buffers,
            events: EventBuffer::with_capacity(64),
        }
    }

    pub fn update(&mut self, dt: f32) {
        self.instance.update(dt, &self.binding, &mut self.events);
    }

    pub fn state(&self) -> &str {
        self.instance.state_name(0)
    }

    pub fn pose(&mut self) -> Vec<Transform> {
        let mut out = vec![Transform::IDENTITY; self.skeleton.joint_count()];
        sierra_anim::graph::evaluate_graph(
            &self.instance,
            &self.binding,
            &self.clips,
            &self.skeleton,
            &mut self.buffers,
            &mut out,
        )
        .unwrap();
        out
    }

    /// Clip `name` sampled alone at `time` (independent of the graph).
    pub fn sample(&self, name: &str, time: f32, looping: bool) -> Vec<Transform> {
        let clip = self.clips.iter().find(|c| c.name() == name).unwrap();
        let mut out = vec![Transform::IDENTITY; self.skeleton.joint_count()];
        let mut ctx = sierra_anim::SamplingContext::new(self.skeleton.joint_count());
        let playback = if looping {
            sierra_anim::Playback::Loop
        } else {
            sierra_anim::Playback::Once
        };
        sierra_anim::sample_clip(clip, time, playback, &mut ctx, &mut out).unwrap();
        out
    }
}
