//! Nodes (glTF 2.0 §3.5): hierarchy and local transforms, with their numbers checked.
//!
//! Non-finite numbers (a `1e39` in the JSON becomes an infinite `f32`) are errors naming the
//! node and field. Degenerate but legal transforms get finite, documented results:
//! - a `rotation` of any length is normalised in `f64` (so `[3e38, 0, 0, 3e38]` is 90° about X;
//!   in `f32` its length overflows);
//! - a zero `rotation` quaternion, or a `matrix` whose rotation cannot be recovered (a zero
//!   scale axis), uses the identity rotation, with a warning naming the node;
//! - a zero `scale` is kept (the node and its subtree collapse, as the file asks).

use std::path::Path;

use glam::{DMat4, DQuat, Quat, Vec3};
use sierra_anim::Transform;

use crate::asset::ImportedNode;
use crate::{Error, Result};

pub(crate) fn read_nodes(
    file: &Path,
    doc: &gltf::Document,
    warnings: &mut Vec<String>,
) -> Result<Vec<ImportedNode>> {
    let mut nodes = Vec::with_capacity(doc.nodes().len());
    for n in doc.nodes() {
        nodes.push(ImportedNode {
            name: n.name().unwrap_or("").to_owned(),
            parent: None,
            children: n.children().map(|c| c.index()).collect(),
            transform: read_transform(file, &n, warnings)?,
            mesh: n.mesh().map(|m| m.index()),
            skin: n.skin().map(|s| s.index()),
            weights: n.weights().map(|w| w.to_vec()).unwrap_or_default(),
            extras: n
                .extras()
                .as_ref()
                .and_then(|raw| serde_json::from_str(raw.get()).ok()),
        });
    }
    for i in 0..nodes.len() {
        for c in nodes[i].children.clone() {
            if let Some(p) = nodes[c].parent {
                return Err(Error::Node {
                    file: file.to_owned(),
                    node: c,
                    reason: format!("child of both node {p} and node {i}"),
                });
            }
            nodes[c].parent = Some(i);
        }
    }
    check_cycles(file, &nodes)?;
    Ok(nodes)
}

/// Every node has at most one parent (checked above), so walking up from each node either
/// reaches a root or comes back to a node on the walk. Iterative: any node count, any depth.
fn check_cycles(file: &Path, nodes: &[ImportedNode]) -> Result<()> {
    // 0 = unvisited, 1 = on the current walk, 2 = reaches a root.
    let mut state = vec![0u8; nodes.len()];
    let mut walk = Vec::new();
    for start in 0..nodes.len() {
        walk.clear();
        let mut i = start;
        loop {
            match state[i] {
                2 => break,
                1 => {
                    return Err(Error::Node {
                        file: file.to_owned(),
                        node: i,
                        reason: format!(
                            "node `{}` is its own ancestor (the `children` links form a cycle)",
                            nodes[i].name
                        ),
                    })
                }
                _ => {}
            }
            state[i] = 1;
            walk.push(i);
            match nodes[i].parent {
                Some(p) => i = p,
                None => break,
            }
        }
        for &w in &walk {
            state[w] = 2;
        }
    }
    Ok(())
}

fn read_transform(file: &Path, n: &gltf::Node, warnings: &mut Vec<String>) -> Result<Transform> {
    let node = n.index();
    let label = match n.name() {
        Some(name) => format!("node {node} (`{name}`)"),
        None => format!("node {node}"),
    };
    let not_finite = |field: &str, values: &[f32]| -> Result<()> {
        match values.iter().position(|v| !v.is_finite()) {
            Some(k) => Err(Error::Node {
                file: file.to_owned(),
                node,
                reason: format!(
                    "`nodes[{node}].{field}[{k}]` is {}: not a finite 32-bit float (|x| ≤ 3.4e38)",
                    values[k]
                ),
            }),
            None => Ok(()),
        }
    };
    let mut warn = |what: &str| {
        let msg = format!(
            "{}: {label}: {what}; using the identity rotation",
            file.display()
        );
        log::warn!("{msg}");
        warnings.push(msg);
    };
    match n.transform() {
        gltf::scene::Transform::Matrix { matrix } => {
            let flat: Vec<f32> = matrix.iter().flatten().copied().collect();
            not_finite("matrix", &flat)?;
            let m = DMat4::from_cols_array(&std::array::from_fn(|k| f64::from(flat[k])));
            let (s, r, t) = m.to_scale_rotation_translation();
            let r = if r.is_finite() && r.length_squared() > 0.0 {
                r.normalize()
            } else {
                warn("`matrix` has a zero scale axis, so its rotation is undefined");
                DQuat::IDENTITY
            };
            Ok(Transform::from_trs(t.as_vec3(), r.as_quat(), s.as_vec3()))
        }
        gltf::scene::Transform::Decomposed {
            translation,
            rotation,
            scale,
        } => {
            not_finite("translation", &translation)?;
            not_finite("rotation", &rotation)?;
            not_finite("scale", &scale)?;
            let q = DQuat::from_array(rotation.map(f64::from));
            let rotation = if q.length_squared() > 0.0 {
                q.normalize().as_quat()
            } else {
                warn("`rotation` is the zero quaternion [0, 0, 0, 0]");
                Quat::IDENTITY
            };
            Ok(Transform::from_trs(
                Vec3::from(translation),
                rotation,
                Vec3::from(scale),
            ))
        }
    }
}
