//! The mannequin's six clips, authored in code as keyed poses: body motion (gait,
//! crouch, arm swing) and finger curls within the documented joint limits.

use std::f32::consts::{PI, TAU};

use glam::{Quat, Vec3};
use serde_json::{json, Value};

use super::skeleton::{
    phalanx, CALF, CHEST, FINGERS, FOOT, FOREARM, HEAD, JOINT_COUNT, NECK, PELVIS, PELVIS_Y, SPINE,
    THIGH, UPPERARM,
};
use super::skeleton::{FLEXION_MAX_DEG, HYPEREXTENSION_MAX_DEG};
use crate::export::GlbWriter;

/// A keyed pose: `[joint]` local rotations and the pelvis translation.
pub(super) struct Pose {
    pub rotations: [Quat; JOINT_COUNT],
    pub pelvis: Vec3,
}

impl Pose {
    fn rest() -> Self {
        Self {
            rotations: [Quat::IDENTITY; JOINT_COUNT],
            pelvis: Vec3::new(0.0, PELVIS_Y, 0.0),
        }
    }
    /// Sets joint `j`'s rotation from angles about X (pitch: + tips a limb hanging
    /// down backwards, −Z), Y (yaw) and Z (roll: + swings a hanging limb towards +X), radians.
    fn set(&mut self, j: usize, x: f32, y: f32, z: f32) {
        self.rotations[j] =
            Quat::from_rotation_y(y) * Quat::from_rotation_x(x) * Quat::from_rotation_z(z);
    }

    /// Curls the fingers of hand `side` (0 left, 1 right) by `curl_deg` at the proximal
    /// joints. Fingers towards the pinky curl a little more and distal joints 70% as much
    /// (a relaxed hand's cascade); each angle is clamped to the documented range
    /// [−[`HYPEREXTENSION_MAX_DEG`], [`FLEXION_MAX_DEG`]]. Flexion is about the hand's
    /// −Z (left) / +Z (right) for fingers — the tips move towards the palm — and about
    /// +X for thumbs, which fold back across the palm.
    fn curl(&mut self, side: usize, curl_deg: f32) {
        const FINGER_SCALE: [f32; 5] = [0.8, 0.9, 1.0, 1.05, 1.1];
        const PHALANX_SCALE: [f32; 3] = [1.0, 1.0, 0.7];
        let sign = if side == 0 { -1.0 } else { 1.0 };
        for (f, finger_scale) in FINGER_SCALE.iter().enumerate().take(FINGERS.len()) {
            for (k, scale) in PHALANX_SCALE.iter().enumerate() {
                let deg = (curl_deg * finger_scale * scale)
                    .clamp(-HYPEREXTENSION_MAX_DEG, FLEXION_MAX_DEG);
                let a = deg.to_radians();
                let j = phalanx(side, f, k);
                if f == 0 {
                    self.set(j, a, 0.0, 0.0);
                } else {
                    self.set(j, 0.0, 0.0, sign * a);
                }
            }
        }
    }
}

/// `(duration seconds, key count, pose at phase ∈ [0, 1])` of a clip.
fn clip_definition(name: &str) -> (f32, usize, fn(f32) -> Pose) {
    match name {
        "idle" => (2.0, 9, idle),
        "walk" => (1.0, 17, walk),
        "run" => (0.7, 17, run),
        "jump_start" => (0.35, 8, jump_start),
        "in_air" => (0.8, 9, in_air),
        _ => (0.45, 10, land),
    }
}

fn idle(p: f32) -> Pose {
    let mut pose = Pose::rest();
    let s = (TAU * p).sin();
    pose.set(CHEST, 0.03 * s, 0.0, 0.0);
    pose.set(HEAD, -0.03 * s, 0.0, 0.0);
    for (side, sign) in [(0, 1.0), (1, -1.0)] {
        pose.set(UPPERARM[side], 0.0, 0.0, sign * (0.08 + 0.02 * s));
        pose.set(FOREARM[side], -0.12, 0.0, 0.0);
        // Relaxed hands, the fingers easing open and closed with the breath.
        pose.curl(side, 20.0 + 12.0 * s);
    }
    pose.pelvis.y -= 0.005 * (1.0 - (TAU * p).cos());
    pose
}

/// A gait cycle: legs swing in opposition, arms counter-swing with the opposite
/// leg, the swinging leg's knee flexes, the pelvis bobs twice per cycle, and each hand
/// closes as its arm swings forward (`grip` ± `grip_swing` degrees).
struct Gait {
    stride: f32,
    knee: f32,
    arm: f32,
    elbow: f32,
    lean: f32,
    bob: f32,
    grip: f32,
    grip_swing: f32,
}

fn gait(p: f32, g: &Gait) -> Pose {
    let mut pose = Pose::rest();
    let (s, c) = (TAU * p).sin_cos();
    for (side, sign) in [(0usize, 1.0f32), (1, -1.0)] {
        // Left thigh forward (negative pitch) while s > 0; the right one mirrors it.
        let thigh = -sign * g.stride * s;
        // The leg swings forward while its pitch decreases (sign·cos > 0): knee flexes then.
        let calf = 0.1 + g.knee * (sign * c).max(0.0);
        pose.set(THIGH[side], thigh, 0.0, 0.0);
        pose.set(CALF[side], calf, 0.0, 0.0);
        pose.set(FOOT[side], -0.5 * (thigh + calf), 0.0, 0.0);
        pose.set(UPPERARM[side], sign * g.arm * s, 0.0, sign * 0.08);
        pose.set(
            FOREARM[side],
            -g.elbow - 0.15 * (-sign * s).max(0.0),
            0.0,
            0.0,
        );
        // The arm is forward when -sign·s > 0.
        pose.curl(side, g.grip + g.grip_swing * (-sign * s));
    }
    pose.set(PELVIS, 0.0, 0.08 * s, 0.0);
    pose.set(SPINE, g.lean, 0.0, 0.0);
    pose.set(CHEST, 0.0, -0.14 * s, 0.0);
    pose.set(NECK, -g.lean * 0.5, 0.06 * s, 0.0);
    pose.pelvis.y -= g.bob * 0.5 * (1.0 - (2.0 * TAU * p).cos());
    pose
}

fn walk(p: f32) -> Pose {
    gait(
        p,
        &Gait {
            stride: 0.45,
            knee: 0.6,
            arm: 0.35,
            elbow: 0.25,
            lean: 0.03,
            bob: 0.02,
            grip: 25.0,
            grip_swing: 12.0,
        },
    )
}

fn run(p: f32) -> Pose {
    gait(
        p,
        &Gait {
            stride: 0.8,
            knee: 1.3,
            arm: 0.6,
            elbow: 1.3,
            lean: 0.15,
            bob: 0.05,
            grip: 55.0,
            grip_swing: 15.0,
        },
    )
}

/// Crouch amount `c ∈ [0, 1]` applied to legs, spine and pelvis height.
fn crouch(pose: &mut Pose, c: f32) {
    for side in 0..2 {
        pose.set(THIGH[side], -0.9 * c, 0.0, 0.0);
        pose.set(CALF[side], 1.6 * c, 0.0, 0.0);
        pose.set(FOOT[side], -0.7 * c, 0.0, 0.0);
    }
    pose.set(SPINE, 0.3 * c, 0.0, 0.0);
    // Thigh and calf are 0.42 m and 0.40 m: the hip drops by about this much.
    pose.pelvis.y = PELVIS_Y - 0.42 * (1.0 - (0.9 * c).cos()) - 0.40 * (1.0 - (0.7 * c).cos());
}

/// A tent over the clip's phase `p` in [0, 1]: 0 → 1 during the first `rise`, back to 0
/// during the remaining `fall` (`rise + fall = 1`, both given so each stays a literal).
fn rise_and_fall(p: f32, rise: f32, fall: f32) -> f32 {
    if p < rise {
        p / rise
    } else {
        1.0 - (p - rise) / fall
    }
}

fn jump_start(p: f32) -> Pose {
    let mut pose = Pose::rest();
    let c = rise_and_fall(p, 0.6, 0.4);
    crouch(&mut pose, (c * PI * 0.5).sin());
    let reach = ((p - 0.6) / 0.4).clamp(0.0, 1.0);
    for (side, sign) in [(0, 1.0), (1, -1.0)] {
        pose.set(UPPERARM[side], 0.6 * c - 1.6 * reach, 0.0, sign * 0.1);
        pose.set(FOREARM[side], -0.3, 0.0, 0.0);
        // Fists while loading the jump, fingers flung open on take-off.
        pose.curl(side, 20.0 + 45.0 * c - 28.0 * reach);
    }
    pose
}

fn in_air(p: f32) -> Pose {
    let mut pose = Pose::rest();
    let s = (TAU * p).sin();
    for (side, sign) in [(0, 1.0), (1, -1.0)] {
        pose.set(THIGH[side], -0.5 + sign * 0.12 * s, 0.0, 0.0);
        pose.set(CALF[side], 0.9, 0.0, 0.0);
        pose.set(FOOT[side], -0.3, 0.0, 0.0);
        pose.set(UPPERARM[side], -0.3, 0.0, sign * (0.9 + 0.1 * s));
        pose.set(FOREARM[side], -0.4, 0.0, 0.0);
        // Spread hands balancing, fingers fluttering around straight.
        pose.curl(side, 5.0 + 12.0 * sign * s);
    }
    pose
}

fn land(p: f32) -> Pose {
    let mut pose = Pose::rest();
    let c = rise_and_fall(p, 0.3, 0.7);
    crouch(&mut pose, (c * PI * 0.5).sin() * 0.8);
    for (side, sign) in [(0, 1.0), (1, -1.0)] {
        pose.set(
            UPPERARM[side],
            -0.3 * (1.0 - p),
            0.0,
            sign * 0.6 * (1.0 - p),
        );
        pose.set(FOREARM[side], -0.4 * (1.0 - p), 0.0, 0.0);
        // Hands tense on impact, then relax.
        pose.curl(side, 15.0 + 50.0 * c);
    }
    pose
}

/// One glTF animation: a shared key-time accessor, a rotation channel for every
/// joint the clip moves and a translation channel for the pelvis (LINEAR).
pub(super) fn animation_json(w: &mut GlbWriter, name: &str) -> Value {
    let (duration, keys, pose_at) = clip_definition(name);
    let times: Vec<f32> = (0..keys)
        .map(|k| duration * k as f32 / (keys - 1) as f32)
        .collect();
    let poses: Vec<Pose> = (0..keys)
        .map(|k| pose_at(k as f32 / (keys - 1) as f32))
        .collect();
    let input = w.floats(&times, 1, "SCALAR", false, true);
    let mut samplers = Vec::new();
    let mut channels = Vec::new();
    for j in 0..JOINT_COUNT {
        if poses.iter().all(|p| p.rotations[j] == Quat::IDENTITY) {
            continue;
        }
        let values: Vec<f32> = poses
            .iter()
            .flat_map(|p| p.rotations[j].normalize().to_array())
            .collect();
        let output = w.floats(&values, 4, "VEC4", false, false);
        samplers.push(json!({ "input": input, "output": output, "interpolation": "LINEAR" }));
        channels.push(
            json!({ "sampler": samplers.len() - 1, "target": { "node": j, "path": "rotation" } }),
        );
    }
    let pelvis: Vec<f32> = poses.iter().flat_map(|p| p.pelvis.to_array()).collect();
    let output = w.floats(&pelvis, 3, "VEC3", false, false);
    samplers.push(json!({ "input": input, "output": output, "interpolation": "LINEAR" }));
    channels.push(json!({ "sampler": samplers.len() - 1, "target": { "node": PELVIS, "path": "translation" } }));
    json!({ "name": name, "samplers": samplers, "channels": channels })
}
