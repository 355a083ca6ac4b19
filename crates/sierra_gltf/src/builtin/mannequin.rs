//! The built-in mannequin: a 22-joint humanoid (1.8 m, facing +Z, Y up, its
//! left on +X as glTF's convention) made of smooth skinned capsules, one
//! material, and six clips (`idle`, `walk`, `run`, `jump_start`, `in_air`,
//! `land`) authored in code as keyframes.
//!
//! It is written as a glTF 2.0 binary ([`glb`]) and loaded through the regular
//! importer ([`load`]), so the in-memory model and `sierra export-mannequin`
//! are the same bytes and pass the same import tests as the sample models.
//!
//! Skinning: each limb is one tube through its joints; rings within 30% of a
//! segment's length from a joint blend linearly to 50/50 between the two bones
//! meeting there, so elbows and knees bend smoothly (linear blend skinning).

use std::f32::consts::{PI, TAU};
use std::path::Path;

use glam::{Quat, Vec3};
use serde_json::{json, Value};

use crate::export::GlbWriter;
use crate::{GltfAsset, ImportOptions, Result};

/// The model name level files use for the mannequin.
pub const MODEL_NAME: &str = "builtin:mannequin";

/// Clip names, in file order.
pub const CLIPS: [&str; 6] = ["idle", "walk", "run", "jump_start", "in_air", "land"];

/// `(name, parent, rest translation relative to the parent in metres)`, parents first.
const JOINTS: [(&str, Option<usize>, [f32; 3]); 22] = [
    ("root", None, [0.0, 0.0, 0.0]),
    ("pelvis", Some(0), [0.0, 0.95, 0.0]),
    ("spine", Some(1), [0.0, 0.12, 0.0]),
    ("chest", Some(2), [0.0, 0.18, 0.0]),
    ("neck", Some(3), [0.0, 0.22, 0.0]),
    ("head", Some(4), [0.0, 0.10, 0.0]),
    ("upperarm_l", Some(3), [0.19, 0.18, 0.0]),
    ("forearm_l", Some(6), [0.0, -0.28, 0.0]),
    ("hand_l", Some(7), [0.0, -0.25, 0.0]),
    ("middle_l", Some(8), [0.0, -0.09, 0.0]),
    ("upperarm_r", Some(3), [-0.19, 0.18, 0.0]),
    ("forearm_r", Some(10), [0.0, -0.28, 0.0]),
    ("hand_r", Some(11), [0.0, -0.25, 0.0]),
    ("middle_r", Some(12), [0.0, -0.09, 0.0]),
    ("thigh_l", Some(1), [0.1, -0.05, 0.0]),
    ("calf_l", Some(14), [0.0, -0.42, 0.0]),
    ("foot_l", Some(15), [0.0, -0.40, 0.0]),
    ("ball_l", Some(16), [0.0, -0.05, 0.12]),
    ("thigh_r", Some(1), [-0.1, -0.05, 0.0]),
    ("calf_r", Some(18), [0.0, -0.42, 0.0]),
    ("foot_r", Some(19), [0.0, -0.40, 0.0]),
    ("ball_r", Some(20), [0.0, -0.05, 0.12]),
];

const PELVIS: usize = 1;
const SPINE: usize = 2;
const CHEST: usize = 3;
const NECK: usize = 4;
const HEAD: usize = 5;
/// `[left, right]` joint indices of each limb bone.
const UPPERARM: [usize; 2] = [6, 10];
const FOREARM: [usize; 2] = [7, 11];
const HAND: [usize; 2] = [8, 12];
const THIGH: [usize; 2] = [14, 18];
const CALF: [usize; 2] = [15, 19];
const FOOT: [usize; 2] = [16, 20];
/// Pelvis rest height (metres).
const PELVIS_Y: f32 = 0.95;
/// Vertices around every ring.
const AROUND: usize = 8;

/// The mannequin as `.glb` bytes (deterministic).
pub fn glb() -> Vec<u8> {
    let mut w = GlbWriter::new();
    let mesh = build_mesh();
    let positions: Vec<f32> = mesh.positions.iter().flat_map(|p| p.to_array()).collect();
    let normals: Vec<f32> = mesh.normals.iter().flat_map(|n| n.to_array()).collect();
    let weights: Vec<f32> = mesh.weights.iter().flatten().copied().collect();
    let pos = w.floats(&positions, 3, "VEC3", true, true);
    let nrm = w.floats(&normals, 3, "VEC3", true, false);
    let jnt = w.joints_u8(&mesh.joints);
    let wgt = w.floats(&weights, 4, "VEC4", true, false);
    let idx = w.indices(&mesh.indices);

    let world = rest_world_positions();
    // Rest rotations are identity, so each inverse bind matrix is a translation by -world.
    let ibms: Vec<f32> = world
        .iter()
        .flat_map(|p| glam::Mat4::from_translation(-*p).to_cols_array())
        .collect();
    let ibm = w.floats(&ibms, 16, "MAT4", false, false);

    let mut nodes: Vec<Value> = JOINTS
        .iter()
        .map(|(name, _, t)| json!({ "name": name, "translation": t }))
        .collect();
    for (j, (_, parent, _)) in JOINTS.iter().enumerate() {
        if let Some(p) = parent {
            let children = nodes[*p]
                .as_object_mut()
                .map(|o| o.entry("children").or_insert_with(|| json!([])));
            if let Some(Value::Array(c)) = children {
                c.push(json!(j));
            }
        }
    }
    let mesh_node = nodes.len();
    nodes.push(json!({ "name": "mannequin", "mesh": 0, "skin": 0 }));

    let animations: Vec<Value> = CLIPS
        .iter()
        .map(|&name| animation_json(&mut w, name))
        .collect();

    let document = json!({
        "asset": { "version": "2.0", "generator": "Sierra built-in mannequin" },
        "scene": 0,
        "scenes": [{ "name": "mannequin", "nodes": [0, mesh_node] }],
        "nodes": nodes,
        "meshes": [{
            "name": "mannequin",
            "primitives": [{
                "attributes": { "POSITION": pos, "NORMAL": nrm, "JOINTS_0": jnt, "WEIGHTS_0": wgt },
                "indices": idx,
                "material": 0
            }]
        }],
        "materials": [{
            "name": "mannequin",
            "pbrMetallicRoughness": {
                "baseColorFactor": [0.72, 0.56, 0.42, 1.0],
                "metallicFactor": 0.0,
                "roughnessFactor": 0.55
            }
        }],
        "skins": [{
            "name": "mannequin",
            "joints": (0..JOINTS.len()).collect::<Vec<_>>(),
            "inverseBindMatrices": ibm,
            "skeleton": 0
        }],
        "animations": animations,
    });
    w.finish(document)
}

/// Loads the mannequin through the glTF importer (file name [`MODEL_NAME`] in errors).
///
/// # Errors
/// Only if the importer rejects it, which the tests rule out.
pub fn load() -> Result<GltfAsset> {
    GltfAsset::from_bytes(
        &glb(),
        Path::new(MODEL_NAME),
        &crate::Resolver::default(),
        ImportOptions::default(),
    )
}

/// `[joint]` rest-pose world position of every joint.
fn rest_world_positions() -> Vec<Vec3> {
    let mut world: Vec<Vec3> = Vec::with_capacity(JOINTS.len());
    for (_, parent, t) in JOINTS {
        let base = parent.map_or(Vec3::ZERO, |p| world[p]);
        world.push(base + Vec3::from_array(t));
    }
    world
}

/// Skinned triangle list, glTF layout.
#[derive(Default)]
struct MeshData {
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
    joints: Vec<[u8; 4]>,
    weights: Vec<[f32; 4]>,
    indices: Vec<u32>,
}

/// One tube through `points` (position, radius); segment `k` belongs to `bones[k]`;
/// `lead` is the bone the first ring blends with (the limb's parent).
struct Tube {
    points: &'static [([f32; 3], f32)],
    bones: &'static [usize],
    rings_per_segment: &'static [usize],
    lead: Option<usize>,
    cap_rings: usize,
}

/// Tubes of the left side are mirrored (x → -x) for the right with bones remapped.
const TORSO: Tube = Tube {
    points: &[
        ([0.0, 0.84, 0.0], 0.13),
        ([0.0, 1.07, 0.0], 0.12),
        ([0.0, 1.25, 0.0], 0.145),
        ([0.0, 1.47, 0.0], 0.12),
    ],
    bones: &[PELVIS, SPINE, CHEST],
    rings_per_segment: &[3, 3, 3],
    lead: None,
    cap_rings: 2,
};
const NECK_TUBE: Tube = Tube {
    points: &[([0.0, 1.42, 0.0], 0.05), ([0.0, 1.60, 0.0], 0.045)],
    bones: &[NECK],
    rings_per_segment: &[2],
    lead: Some(CHEST),
    cap_rings: 1,
};
const HEAD_TUBE: Tube = Tube {
    points: &[([0.0, 1.63, 0.01], 0.095), ([0.0, 1.76, 0.01], 0.095)],
    bones: &[HEAD],
    rings_per_segment: &[2],
    lead: None,
    cap_rings: 2,
};
const ARM_L: Tube = Tube {
    points: &[
        ([0.19, 1.45, 0.0], 0.05),
        ([0.19, 1.15, 0.0], 0.042),
        ([0.19, 0.90, 0.0], 0.035),
        ([0.19, 0.81, 0.0], 0.03),
        ([0.19, 0.73, 0.0], 0.02),
    ],
    bones: &[UPPERARM[0], FOREARM[0], HAND[0], 9],
    rings_per_segment: &[3, 3, 1, 1],
    lead: Some(CHEST),
    cap_rings: 1,
};
const LEG_L: Tube = Tube {
    points: &[
        ([0.1, 0.92, 0.0], 0.075),
        ([0.1, 0.48, 0.0], 0.055),
        ([0.1, 0.09, 0.0], 0.045),
    ],
    bones: &[THIGH[0], CALF[0]],
    rings_per_segment: &[4, 4],
    lead: Some(PELVIS),
    cap_rings: 1,
};
const FOOT_L: Tube = Tube {
    points: &[
        ([0.1, 0.06, -0.04], 0.045),
        ([0.1, 0.04, 0.12], 0.04),
        ([0.1, 0.035, 0.2], 0.03),
    ],
    bones: &[FOOT[0], 17],
    rings_per_segment: &[1, 1],
    lead: None,
    cap_rings: 1,
};

fn build_mesh() -> MeshData {
    let mut m = MeshData::default();
    for tube in [&TORSO, &NECK_TUBE, &HEAD_TUBE] {
        add_tube(&mut m, tube, false);
    }
    for tube in [&ARM_L, &LEG_L, &FOOT_L] {
        add_tube(&mut m, tube, false);
        add_tube(&mut m, tube, true);
    }
    m
}

/// Left joint → right joint (the right side's joints follow the left's in [`JOINTS`]).
fn mirror_joint(j: usize) -> usize {
    match j {
        6..=9 => j + 4,
        14..=17 => j + 4,
        _ => j,
    }
}

/// A ring: centre, radius, axis, latitude sine (cap rings), skin influences.
struct Ring {
    centre: Vec3,
    radius: f32,
    axis: Vec3,
    lat_sin: f32,
    influences: [(usize, f32); 2],
}

fn add_tube(m: &mut MeshData, tube: &Tube, mirror: bool) {
    let flip = |p: [f32; 3]| {
        let v = Vec3::from_array(p);
        if mirror {
            Vec3::new(-v.x, v.y, v.z)
        } else {
            v
        }
    };
    let bone = |j: usize| if mirror { mirror_joint(j) } else { j };
    let points: Vec<(Vec3, f32)> = tube.points.iter().map(|&(p, r)| (flip(p), r)).collect();
    let segs = tube.bones.len();
    const BLEND: f32 = 0.3;

    let mut body: Vec<Ring> = Vec::new();
    for k in 0..segs {
        let (a, ra) = points[k];
        let (b, rb) = points[k + 1];
        let axis = (b - a).normalize_or(Vec3::Y);
        let n = tube.rings_per_segment[k].max(1);
        let last = k + 1 == segs;
        let count = if last { n + 1 } else { n };
        for i in 0..count {
            let t = i as f32 / n as f32;
            let own = bone(tube.bones[k]);
            let prev = if k > 0 {
                Some(bone(tube.bones[k - 1]))
            } else {
                tube.lead.map(bone)
            };
            let next = (!last).then(|| bone(tube.bones[k + 1]));
            let influences = match (prev, next) {
                (Some(p), _) if t < BLEND => {
                    let w = 0.5 * (1.0 - t / BLEND);
                    [(own, 1.0 - w), (p, w)]
                }
                (_, Some(q)) if t > 1.0 - BLEND => {
                    let w = 0.5 * (t - (1.0 - BLEND)) / BLEND;
                    [(own, 1.0 - w), (q, w)]
                }
                _ => [(own, 1.0), (own, 0.0)],
            };
            body.push(Ring {
                centre: a.lerp(b, t),
                radius: ra + (rb - ra) * t,
                axis,
                lat_sin: 0.0,
                influences,
            });
        }
    }

    // Hemispherical caps: rings at decreasing radius, then one pole vertex.
    let mut rings: Vec<Ring> = Vec::new();
    let cap = tube.cap_rings;
    let first = &body[0];
    for c in (1..=cap).rev() {
        let phi = (c as f32 / (cap + 1) as f32) * PI * 0.5;
        rings.push(Ring {
            centre: first.centre - first.axis * first.radius * phi.sin(),
            radius: first.radius * phi.cos(),
            axis: first.axis,
            lat_sin: -phi.sin(),
            influences: first.influences,
        });
    }
    let (start_pole, start_infl) = (first.centre - first.axis * first.radius, first.influences);
    let start_axis = first.axis;
    let last = body
        .last()
        .map(|r| (r.centre, r.radius, r.axis, r.influences));
    rings.append(&mut body);
    let Some((end_c, end_r, end_axis, end_infl)) = last else {
        return;
    };
    for c in 1..=cap {
        let phi = (c as f32 / (cap + 1) as f32) * PI * 0.5;
        rings.push(Ring {
            centre: end_c + end_axis * end_r * phi.sin(),
            radius: end_r * phi.cos(),
            axis: end_axis,
            lat_sin: phi.sin(),
            influences: end_infl,
        });
    }

    let push_vertex = |m: &mut MeshData, p: Vec3, n: Vec3, infl: [(usize, f32); 2]| {
        m.positions.push(p);
        m.normals.push(n.normalize_or(Vec3::Y));
        m.joints.push([infl[0].0 as u8, infl[1].0 as u8, 0, 0]);
        m.weights.push([infl[0].1, infl[1].1, 0.0, 0.0]);
        (m.positions.len() - 1) as u32
    };
    let ring_base: Vec<u32> = rings
        .iter()
        .map(|r| {
            let reference = if r.axis.x.abs() < 0.9 {
                Vec3::X
            } else {
                Vec3::Y
            };
            let u = r.axis.cross(reference).normalize();
            let v = r.axis.cross(u);
            let lat_cos = (1.0 - r.lat_sin * r.lat_sin).max(0.0).sqrt();
            let mut base = 0;
            for i in 0..AROUND {
                let theta = TAU * i as f32 / AROUND as f32;
                let radial = u * theta.cos() + v * theta.sin();
                let normal = radial * lat_cos + r.axis * r.lat_sin;
                let idx = push_vertex(m, r.centre + radial * r.radius, normal, r.influences);
                if i == 0 {
                    base = idx;
                }
            }
            base
        })
        .collect();
    // Counter-clockwise seen from outside: (i, i+1) on ring k, then ring k+1.
    for k in 0..ring_base.len() - 1 {
        let (a, b) = (ring_base[k], ring_base[k + 1]);
        for i in 0..AROUND as u32 {
            let j = (i + 1) % AROUND as u32;
            m.indices
                .extend_from_slice(&[a + i, b + j, b + i, a + i, a + j, b + j]);
        }
    }
    let s = push_vertex(m, start_pole, -start_axis, start_infl);
    let e = push_vertex(m, end_c + end_axis * end_r, end_axis, end_infl);
    let (first_ring, last_ring) = (ring_base[0], ring_base[ring_base.len() - 1]);
    for i in 0..AROUND as u32 {
        let j = (i + 1) % AROUND as u32;
        m.indices
            .extend_from_slice(&[s, first_ring + j, first_ring + i]);
        m.indices
            .extend_from_slice(&[e, last_ring + i, last_ring + j]);
    }
}

/// A keyed pose: `[joint]` local rotations and the pelvis translation.
struct Pose {
    rotations: [Quat; JOINTS.len()],
    pelvis: Vec3,
}

impl Pose {
    fn rest() -> Self {
        Self {
            rotations: [Quat::IDENTITY; JOINTS.len()],
            pelvis: Vec3::new(0.0, PELVIS_Y, 0.0),
        }
    }
    /// Sets joint `j`'s rotation from angles about X (pitch: + tips a limb hanging
    /// down backwards, −Z), Y (yaw) and Z (roll: + swings a hanging limb towards +X), radians.
    fn set(&mut self, j: usize, x: f32, y: f32, z: f32) {
        self.rotations[j] =
            Quat::from_rotation_y(y) * Quat::from_rotation_x(x) * Quat::from_rotation_z(z);
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
    }
    pose.pelvis.y -= 0.005 * (1.0 - (TAU * p).cos());
    pose
}

/// A gait cycle: legs swing in opposition, arms counter-swing with the opposite
/// leg, the swinging leg's knee flexes, the pelvis bobs twice per cycle.
fn gait(p: f32, stride: f32, knee: f32, arm: f32, elbow: f32, lean: f32, bob: f32) -> Pose {
    let mut pose = Pose::rest();
    let (s, c) = (TAU * p).sin_cos();
    for (side, sign) in [(0usize, 1.0f32), (1, -1.0)] {
        // Left thigh forward (negative pitch) while s > 0; the right one mirrors it.
        let thigh = -sign * stride * s;
        // The leg swings forward while its pitch decreases (sign·cos > 0): knee flexes then.
        let calf = 0.1 + knee * (sign * c).max(0.0);
        pose.set(THIGH[side], thigh, 0.0, 0.0);
        pose.set(CALF[side], calf, 0.0, 0.0);
        pose.set(FOOT[side], -0.5 * (thigh + calf), 0.0, 0.0);
        pose.set(UPPERARM[side], sign * arm * s, 0.0, sign * 0.08);
        pose.set(
            FOREARM[side],
            -elbow - 0.15 * (-sign * s).max(0.0),
            0.0,
            0.0,
        );
    }
    pose.set(PELVIS, 0.0, 0.08 * s, 0.0);
    pose.set(SPINE, lean, 0.0, 0.0);
    pose.set(CHEST, 0.0, -0.14 * s, 0.0);
    pose.set(NECK, -lean * 0.5, 0.06 * s, 0.0);
    pose.pelvis.y -= bob * 0.5 * (1.0 - (2.0 * TAU * p).cos());
    pose
}

fn walk(p: f32) -> Pose {
    gait(p, 0.45, 0.6, 0.35, 0.25, 0.03, 0.02)
}

fn run(p: f32) -> Pose {
    gait(p, 0.8, 1.3, 0.6, 1.3, 0.15, 0.05)
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

fn jump_start(p: f32) -> Pose {
    let mut pose = Pose::rest();
    let c = if p < 0.6 {
        p / 0.6
    } else {
        1.0 - (p - 0.6) / 0.4
    };
    crouch(&mut pose, (c * PI * 0.5).sin());
    let reach = ((p - 0.6) / 0.4).clamp(0.0, 1.0);
    for (side, sign) in [(0, 1.0), (1, -1.0)] {
        pose.set(UPPERARM[side], 0.6 * c - 1.6 * reach, 0.0, sign * 0.1);
        pose.set(FOREARM[side], -0.3, 0.0, 0.0);
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
    }
    pose
}

fn land(p: f32) -> Pose {
    let mut pose = Pose::rest();
    let c = if p < 0.3 {
        p / 0.3
    } else {
        1.0 - (p - 0.3) / 0.7
    };
    crouch(&mut pose, (c * PI * 0.5).sin() * 0.8);
    for (side, sign) in [(0, 1.0), (1, -1.0)] {
        pose.set(
            UPPERARM[side],
            -0.3 * (1.0 - p),
            0.0,
            sign * 0.6 * (1.0 - p),
        );
        pose.set(FOREARM[side], -0.4 * (1.0 - p), 0.0, 0.0);
    }
    pose
}

/// One glTF animation: a shared key-time accessor, a rotation channel for every
/// joint the clip moves and a translation channel for the pelvis (LINEAR).
fn animation_json(w: &mut GlbWriter, name: &str) -> Value {
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
    for j in 0..JOINTS.len() {
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
