//! The node tree of a scene as JSON (`sierra inspect LEVEL.json`).

use serde_json::{json, Value};

use crate::graph::{decompose, NodeId};
use crate::scene::{NodeMesh, Scene};

/// The scene's node tree:
/// `{"camera": {...}, "nodes": [{"name", "path", "worldPosition": [x,y,z],
/// "worldRotation": [x,y,z,w], "worldScale": [x,y,z], "mesh", "components": [...],
/// "children": [...]}]}` with roots in parent-first order and children nested.
pub fn scene_tree_json(scene: &Scene) -> Value {
    let nodes: Vec<Value> = scene.graph.roots().map(|r| node_json(scene, r)).collect();
    json!({
        "camera": scene.camera,
        "sun": scene.sun,
        "clearColor": scene.clear_color.to_array(),
        "nodeCount": scene.graph.len(),
        "nodes": nodes,
    })
}

fn node_json(scene: &Scene, id: NodeId) -> Value {
    let world = scene.graph.world(id).unwrap_or_default();
    let d = decompose(&world);
    let content = scene.content.get(id);
    let mesh = content.and_then(|c| c.mesh.as_ref()).map(|m| match m {
        NodeMesh::Primitive { primitive, .. } => {
            serde_json::to_value(primitive).unwrap_or(Value::Null)
        }
        NodeMesh::Gltf { asset, mesh } => {
            json!({ "file": asset.path.display().to_string(), "mesh": mesh })
        }
    });
    let components = content.map_or(Value::Array(vec![]), |c| {
        serde_json::to_value(&c.components).unwrap_or(Value::Null)
    });
    let children: Vec<Value> = scene
        .graph
        .children(id)
        .iter()
        .map(|&c| node_json(scene, c))
        .collect();
    json!({
        "name": scene.graph.name(id).unwrap_or(""),
        "path": scene.graph.path_of(id).unwrap_or_default(),
        "worldPosition": d.translation.to_array(),
        "worldRotation": d.rotation.to_array(),
        "worldScale": d.scale.to_array(),
        "mesh": mesh,
        "components": components,
        "children": children,
    })
}
