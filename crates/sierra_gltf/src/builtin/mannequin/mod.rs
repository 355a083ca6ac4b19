//! The built-in mannequin: a 68-joint humanoid after document 000's character (1.8 m,
//! facing +Z, Y up, its left on +X as glTF's convention) — pelvis, three spine joints,
//! neck, head, eyes, clavicles, arms, legs with ball and toe, and five-finger hands
//! (three phalanges and a fingertip end site per finger) — made of smooth skinned
//! capsules, one material, and six clips (`idle`, `walk`, `run`, `jump_start`,
//! `in_air`, `land`) authored in code as keyframes.
//!
//! It is written as a glTF 2.0 binary ([`glb`]) and loaded through the regular
//! importer ([`load`]), so the in-memory model and `sierra export-mannequin`
//! are the same bytes and pass the same import tests as the sample models.
//!
//! Joint layout and rest offsets: [`skeleton`](self) module docs. Finger joint limits,
//! kept by every clip: a phalanx rotates about one axis only — for the fingers the hand's
//! −Z on the left and +Z on the right (the tip moves towards the palm), for the thumbs +X
//! (the tip folds back across the palm) — by an angle in
//! [−[`HYPEREXTENSION_MAX_DEG`], [`FLEXION_MAX_DEG`]] degrees (flexion positive). The
//! end sites (`*_end_l`/`*_end_r`) only mark the fingertips and are never rotated.

mod clips;
mod mesh;
mod skeleton;

use std::path::Path;

use serde_json::{json, Value};

use crate::export::GlbWriter;
use crate::{GltfAsset, ImportOptions, Result};

pub use skeleton::{FINGERS, FLEXION_MAX_DEG, HYPEREXTENSION_MAX_DEG, JOINT_COUNT};

/// The model name level files use for the mannequin.
pub const MODEL_NAME: &str = "builtin:mannequin";

/// Clip names, in file order.
pub const CLIPS: [&str; 6] = ["idle", "walk", "run", "jump_start", "in_air", "land"];

/// The mannequin as `.glb` bytes (deterministic).
pub fn glb() -> Vec<u8> {
    let mut w = GlbWriter::new();
    let joints = skeleton::joints();
    let mesh = mesh::build_mesh(&joints);
    let positions: Vec<f32> = mesh.positions.iter().flat_map(|p| p.to_array()).collect();
    let normals: Vec<f32> = mesh.normals.iter().flat_map(|n| n.to_array()).collect();
    let weights: Vec<f32> = mesh.weights.iter().flatten().copied().collect();
    let pos = w.floats(&positions, 3, "VEC3", true, true);
    let nrm = w.floats(&normals, 3, "VEC3", true, false);
    let jnt = w.joints_u8(&mesh.joints);
    let wgt = w.floats(&weights, 4, "VEC4", true, false);
    let idx = w.indices(&mesh.indices);

    let world = skeleton::rest_world_positions(&joints);
    // Rest rotations are identity, so each inverse bind matrix is a translation by -world.
    let ibms: Vec<f32> = world
        .iter()
        .flat_map(|p| glam::Mat4::from_translation(-*p).to_cols_array())
        .collect();
    let ibm = w.floats(&ibms, 16, "MAT4", false, false);

    let mut nodes: Vec<Value> = joints
        .iter()
        .map(|j| json!({ "name": j.name, "translation": j.offset.to_array() }))
        .collect();
    for (j, joint) in joints.iter().enumerate() {
        if let Some(p) = &joint.parent {
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
        .map(|&name| clips::animation_json(&mut w, name))
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
            "joints": (0..joints.len()).collect::<Vec<_>>(),
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
