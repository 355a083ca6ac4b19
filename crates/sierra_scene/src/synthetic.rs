//! Procedural rigs for benchmarks (no files needed): the transform-propagation workload of
//! `cargo bench -p sierra_scene --bench propagation` and `sierra bench propagation`.

use glam::{Quat, Vec3};

use crate::graph::{NodeId, SceneGraph, Transform};

/// Nodes per [`add_rig`] rig (a root and 67 joints, as the anchor animation workload).
pub const RIG_NODES: usize = 68;

/// Adds a humanoid-like rig of [`RIG_NODES`] nodes to `graph`: a root at `x = rig` metres, a
/// spine chain, and limbs and fingers branching off it (every 6th node hangs from node
/// `j / 6`, the others from the node before), bones 0.1 m long with small rotations about Z.
/// Returns the root.
///
/// # Errors
/// As [`SceneGraph::add`] (the graph is full).
pub fn add_rig(graph: &mut SceneGraph, rig: usize) -> Result<NodeId, crate::Error> {
    let root = graph.add(
        format!("rig{rig}"),
        Transform::from_translation(Vec3::new(rig as f32, 0.0, 0.0)),
        None,
    )?;
    let mut nodes = vec![root];
    for j in 1..RIG_NODES {
        let parent = if j % 6 == 0 {
            nodes[j / 6]
        } else {
            nodes[j - 1]
        };
        let local = Transform::new(
            Vec3::new(0.0, 0.1, 0.02 * (j % 3) as f32),
            Quat::from_rotation_z(0.05 * (j % 7) as f32),
            Vec3::ONE,
        );
        nodes.push(graph.add(format!("j{j}"), local, Some(parent))?);
    }
    Ok(root)
}

/// Turns every rig root in `moving` about Y by `angle` radians (flags their subtrees dirty).
pub fn turn_roots(graph: &mut SceneGraph, moving: &[NodeId], angle: f32) {
    for &root in moving {
        if let Some(mut t) = graph.local(root) {
            t.rotation = Quat::from_rotation_y(angle);
            graph.set_local(root, t);
        }
    }
}
