//! The mannequin's skinned mesh: smooth capsules ("tubes") through the joints.
//!
//! Skinning: each limb is one tube through its joints; rings within 30% of a
//! segment's length from a joint blend linearly to 50/50 between the two bones
//! meeting there, so elbows, knees and knuckles bend smoothly (linear blend skinning).
//! Each finger is a thin tube through its three phalanges to the fingertip end site.

use std::f32::consts::{PI, TAU};

use glam::Vec3;

use super::skeleton::{
    mirror_joint, phalanx, Joint, BALL, CALF, CHEST, CLAVICLE, FINGERS, FOOT, FOREARM, HAND, HEAD,
    NECK, PELVIS, SPINE, THIGH, UPPERARM, UPPER_CHEST,
};

/// Vertices around every ring.
const AROUND: usize = 8;

/// Skinned triangle list, glTF layout.
#[derive(Default)]
pub(super) struct MeshData {
    pub positions: Vec<Vec3>,
    pub normals: Vec<Vec3>,
    pub joints: Vec<[u8; 4]>,
    pub weights: Vec<[f32; 4]>,
    pub indices: Vec<u32>,
}

/// One tube through `points` (position, radius), left side or centre; segment `k`
/// belongs to `bones[k]`; `lead` is the bone the first ring blends with (the limb's parent).
struct Tube {
    points: Vec<(Vec3, f32)>,
    bones: Vec<usize>,
    rings_per_segment: Vec<usize>,
    lead: Option<usize>,
    cap_rings: usize,
}

fn tube(
    points: &[([f32; 3], f32)],
    bones: &[usize],
    rings_per_segment: &[usize],
    lead: Option<usize>,
    cap_rings: usize,
) -> Tube {
    Tube {
        points: points
            .iter()
            .map(|&(p, r)| (Vec3::from_array(p), r))
            .collect(),
        bones: bones.to_vec(),
        rings_per_segment: rings_per_segment.to_vec(),
        lead,
        cap_rings,
    }
}

/// Centre tubes (torso, neck, head).
fn centre_tubes() -> [Tube; 3] {
    [
        tube(
            &[
                ([0.0, 0.84, 0.0], 0.13),
                ([0.0, 1.07, 0.0], 0.12),
                ([0.0, 1.25, 0.0], 0.145),
                ([0.0, 1.37, 0.0], 0.14),
                ([0.0, 1.47, 0.0], 0.11),
            ],
            &[PELVIS, SPINE, CHEST, UPPER_CHEST],
            &[3, 3, 2, 2],
            None,
            2,
        ),
        tube(
            &[([0.0, 1.42, 0.0], 0.05), ([0.0, 1.60, 0.0], 0.045)],
            &[NECK],
            &[2],
            Some(UPPER_CHEST),
            1,
        ),
        tube(
            &[([0.0, 1.63, 0.01], 0.095), ([0.0, 1.76, 0.01], 0.095)],
            &[HEAD],
            &[2],
            None,
            2,
        ),
    ]
}

/// Left-side tubes (arm with palm, leg, foot, five fingers); the right side mirrors them.
fn left_tubes(world: &[Vec3]) -> Vec<Tube> {
    let mut tubes = vec![
        tube(
            &[
                ([0.19, 1.45, 0.0], 0.05),
                ([0.19, 1.15, 0.0], 0.042),
                ([0.19, 0.90, 0.0], 0.035),
                ([0.19, 0.82, 0.005], 0.03),
            ],
            &[UPPERARM[0], FOREARM[0], HAND[0]],
            &[3, 3, 2],
            Some(CLAVICLE[0]),
            1,
        ),
        tube(
            &[
                ([0.1, 0.92, 0.0], 0.075),
                ([0.1, 0.48, 0.0], 0.055),
                ([0.1, 0.09, 0.0], 0.045),
            ],
            &[THIGH[0], CALF[0]],
            &[4, 4],
            Some(PELVIS),
            1,
        ),
        tube(
            &[
                ([0.1, 0.06, -0.04], 0.045),
                ([0.1, 0.04, 0.12], 0.04),
                ([0.1, 0.035, 0.2], 0.03),
            ],
            &[FOOT[0], BALL[0]],
            &[1, 1],
            None,
            1,
        ),
    ];
    for f in 0..FINGERS.len() {
        let radius = if f == 0 { 0.011 } else { 0.009 };
        let points: Vec<(Vec3, f32)> = (0..4)
            .map(|k| (world[phalanx(0, f, k)], radius * (1.0 - 0.08 * k as f32)))
            .collect();
        tubes.push(Tube {
            points,
            bones: (0..3).map(|k| phalanx(0, f, k)).collect(),
            rings_per_segment: vec![1, 1, 1],
            lead: Some(HAND[0]),
            cap_rings: 1,
        });
    }
    tubes
}

/// The whole mesh; `joints` only supplies the rest positions of the finger joints.
pub(super) fn build_mesh(joints: &[Joint]) -> MeshData {
    let world = super::skeleton::rest_world_positions(joints);
    let mut m = MeshData::default();
    for tube in &centre_tubes() {
        add_tube(&mut m, tube, false);
    }
    for tube in &left_tubes(&world) {
        add_tube(&mut m, tube, false);
        add_tube(&mut m, tube, true);
    }
    m
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
    let flip = |v: Vec3| {
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
