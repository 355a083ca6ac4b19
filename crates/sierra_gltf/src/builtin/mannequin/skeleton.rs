//! The mannequin's 68 joints: names, parents and rest offsets, parents first.
//!
//! Layout: 8 centre joints (`root`, `pelvis`, `spine`, `chest`, `upper_chest`, `neck`,
//! `head`, `head_end`), then 30 left-side joints (`_l`: eye, clavicle, upper arm, forearm,
//! hand, five fingers of three phalanges and an end site each, thigh, calf, foot, ball,
//! toe end), then the same 30 mirrored (`_r`, x → −x). Rest rotations are identity, so
//! every joint frame is axis-aligned with the world (right-handed, Y up, facing +Z, the
//! mannequin's left on +X as glTF's convention), offsets in metres.
//!
//! The hands hang with the palms towards the body (left palm facing −X) and the fingers
//! pointing down (−Y), thumbs in front (+Z).

use glam::Vec3;

/// Largest finger flexion, degrees.
pub const FLEXION_MAX_DEG: f32 = 90.0;
/// Largest finger hyper-extension (flexion below 0), degrees.
pub const HYPEREXTENSION_MAX_DEG: f32 = 10.0;

/// Number of joints.
pub const JOINT_COUNT: usize = 68;
/// Joints before the left side.
const CENTRE: usize = 8;
/// Joints of one side.
pub const SIDE: usize = 30;

pub const ROOT: usize = 0;
pub const PELVIS: usize = 1;
pub const SPINE: usize = 2;
pub const CHEST: usize = 3;
pub const UPPER_CHEST: usize = 4;
pub const NECK: usize = 5;
pub const HEAD: usize = 6;

/// Index of a left-side joint by its offset in the side block; `side` 0 is left, 1 right.
const fn sided(offset: usize, side: usize) -> usize {
    CENTRE + offset + side * SIDE
}

/// `[left, right]` joint indices of each sided bone.
pub const CLAVICLE: [usize; 2] = [sided(1, 0), sided(1, 1)];
pub const UPPERARM: [usize; 2] = [sided(2, 0), sided(2, 1)];
pub const FOREARM: [usize; 2] = [sided(3, 0), sided(3, 1)];
pub const HAND: [usize; 2] = [sided(4, 0), sided(4, 1)];
pub const THIGH: [usize; 2] = [sided(25, 0), sided(25, 1)];
pub const CALF: [usize; 2] = [sided(26, 0), sided(26, 1)];
pub const FOOT: [usize; 2] = [sided(27, 0), sided(27, 1)];
pub const BALL: [usize; 2] = [sided(28, 0), sided(28, 1)];

/// Finger names, thumb first.
pub const FINGERS: [&str; 5] = ["thumb", "index", "middle", "ring", "pinky"];

/// Joint index of phalanx `k` (0 = proximal, 1 = middle, 2 = distal, 3 = the end site at
/// the fingertip) of finger `f` (index into [`FINGERS`]) on `side`.
pub const fn phalanx(side: usize, f: usize, k: usize) -> usize {
    sided(5 + 4 * f + k, side)
}

/// Pelvis rest height (metres).
pub const PELVIS_Y: f32 = 0.95;

/// `(name, parent, rest offset from the parent)` of the 8 centre joints.
const CENTRE_JOINTS: [(&str, Option<usize>, [f32; 3]); CENTRE] = [
    ("root", None, [0.0, 0.0, 0.0]),
    ("pelvis", Some(ROOT), [0.0, PELVIS_Y, 0.0]),
    ("spine", Some(PELVIS), [0.0, 0.12, 0.0]),
    ("chest", Some(SPINE), [0.0, 0.18, 0.0]),
    ("upper_chest", Some(CHEST), [0.0, 0.12, 0.0]),
    ("neck", Some(UPPER_CHEST), [0.0, 0.10, 0.0]),
    ("head", Some(NECK), [0.0, 0.10, 0.0]),
    ("head_end", Some(HEAD), [0.0, 0.24, 0.0]),
];

/// Knuckle offset from the hand joint and the three phalanx lengths of each finger
/// (adult hand proportions, metres). Fingers run along the hand's −Y; the thumb leaves the
/// palm's front edge and runs down and forward.
const FINGER_ROOTS: [([f32; 3], [f32; 3]); 5] = [
    ([-0.012, -0.03, 0.03], [0.04, 0.032, 0.027]),
    ([0.0, -0.09, 0.026], [0.042, 0.025, 0.02]),
    ([0.0, -0.095, 0.009], [0.046, 0.028, 0.022]),
    ([0.0, -0.09, -0.009], [0.043, 0.027, 0.021]),
    ([0.0, -0.08, -0.025], [0.034, 0.02, 0.019]),
];

/// Unit direction of finger `f` in the hand frame (left side).
fn finger_direction(f: usize) -> Vec3 {
    if f == 0 {
        Vec3::new(0.0, -0.8, 0.6)
    } else {
        Vec3::NEG_Y
    }
}

/// One joint: name, parent index, rest offset from the parent (metres).
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    pub name: String,
    pub parent: Option<usize>,
    pub offset: Vec3,
}

/// The 68 joints, parents before children.
pub fn joints() -> Vec<Joint> {
    let mut out: Vec<Joint> = CENTRE_JOINTS
        .iter()
        .map(|&(name, parent, t)| Joint {
            name: name.to_string(),
            parent,
            offset: Vec3::from_array(t),
        })
        .collect();
    for (side, suffix) in [(0usize, "l"), (1, "r")] {
        let mirror = |v: Vec3| {
            if side == 0 {
                v
            } else {
                Vec3::new(-v.x, v.y, v.z)
            }
        };
        let mut push = |name: &str, parent: usize, t: [f32; 3]| {
            out.push(Joint {
                name: format!("{name}_{suffix}"),
                parent: Some(parent),
                offset: mirror(Vec3::from_array(t)),
            });
        };
        push("eye", HEAD, [0.032, 0.09, 0.085]);
        push("clavicle", UPPER_CHEST, [0.03, 0.06, 0.0]);
        push("upperarm", CLAVICLE[side], [0.16, 0.0, 0.0]);
        push("forearm", UPPERARM[side], [0.0, -0.28, 0.0]);
        push("hand", FOREARM[side], [0.0, -0.25, 0.0]);
        for (f, (root, lengths)) in FINGER_ROOTS.iter().enumerate() {
            let dir = finger_direction(f).to_array();
            let along = |len: f32| dir.map(|d| d * len);
            let names = ["01", "02", "03", "end"];
            push(&format!("{}_{}", FINGERS[f], names[0]), HAND[side], *root);
            for k in 1..4 {
                let name = format!("{}_{}", FINGERS[f], names[k]);
                push(&name, phalanx(side, f, k - 1), along(lengths[k - 1]));
            }
        }
        push("thigh", PELVIS, [0.1, -0.05, 0.0]);
        push("calf", THIGH[side], [0.0, -0.42, 0.0]);
        push("foot", CALF[side], [0.0, -0.40, 0.0]);
        push("ball", FOOT[side], [0.0, -0.05, 0.12]);
        push("toe_end", BALL[side], [0.0, 0.0, 0.08]);
    }
    out
}

/// Left joint → right joint (other joints map to themselves).
pub fn mirror_joint(j: usize) -> usize {
    if (CENTRE..CENTRE + SIDE).contains(&j) {
        j + SIDE
    } else {
        j
    }
}

/// `[joint]` rest-pose world position of every joint.
pub fn rest_world_positions(joints: &[Joint]) -> Vec<Vec3> {
    let mut world: Vec<Vec3> = Vec::with_capacity(joints.len());
    for j in joints {
        let base = j.parent.map_or(Vec3::ZERO, |p| world[p]);
        world.push(base + j.offset);
    }
    world
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixty_eight_joints_parents_first_and_named_by_the_constants() {
        let j = joints();
        assert_eq!(j.len(), JOINT_COUNT);
        assert_eq!(CENTRE + 2 * SIDE, JOINT_COUNT);
        for (i, joint) in j.iter().enumerate() {
            assert!(joint.parent.is_none_or(|p| p < i), "{}", joint.name);
        }
        let name = |i: usize| j[i].name.as_str();
        assert_eq!(name(UPPERARM[1]), "upperarm_r");
        assert_eq!(name(HAND[0]), "hand_l");
        assert_eq!(name(THIGH[1]), "thigh_r");
        assert_eq!(name(BALL[0]), "ball_l");
        assert_eq!(name(sided(29, 1)), "toe_end_r");
        assert_eq!(name(phalanx(1, 2, 0)), "middle_01_r");
        assert_eq!(name(phalanx(0, 4, 3)), "pinky_end_l");
        for i in 0..JOINT_COUNT {
            let m = mirror_joint(i);
            match name(i).strip_suffix("_l") {
                Some(base) => assert_eq!(name(m), format!("{base}_r")),
                None => assert_eq!(m, i, "{}", name(i)),
            }
        }
    }
}
