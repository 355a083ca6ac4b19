//! The node tree of a scene as JSON (`sierra inspect LEVEL.json`).

use serde_json::{json, Value};

use crate::graph::{decompose, NodeId};
use crate::level::MeshRef;
use crate::scene::{NodeMesh, Scene};

/// The scene's node tree:
/// `{"camera": {...}, "nodes": [{"name", "path", "worldPosition": [x,y,z],
/// "worldRotation": [x,y,z,w], "worldScale": [x,y,z], "mesh", "components": [...],
/// "children": [...]}]}` with roots in parent-first order and children nested.
pub fn scene_tree_json(scene: &Scene) -> Value {
    let nodes: Vec<Value> = scene.graph.roots().map(|r| node_json(scene, r)).collect();
    let mut tree = json!({
        "camera": scene.camera,
        "sun": scene.sun,
        "clearColor": scene.clear_color.to_array(),
        "nodeCount": scene.graph.len(),
        "nodes": nodes,
    });
    shortest_f32(&mut tree);
    tree
}

/// Rewrites every number as the shortest decimal that round-trips its `f32` value
/// (`0.1`, not `0.10000000149011612`): the engine's data is `f32`.
fn shortest_f32(value: &mut Value) {
    match value {
        Value::Number(n) if n.is_f64() => {
            if let Some(short) = n
                .as_f64()
                .and_then(|x| format!("{}", x as f32).parse::<f64>().ok())
            {
                if let Some(num) = serde_json::Number::from_f64(short) {
                    *n = num;
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(shortest_f32),
        Value::Object(map) => map.values_mut().for_each(shortest_f32),
        _ => {}
    }
}

fn node_json(scene: &Scene, id: NodeId) -> Value {
    let world = scene.graph.world(id).unwrap_or_default();
    let d = decompose(&world);
    let content = scene.content.get(id);
    let mesh = content.and_then(|c| c.mesh.as_ref()).map(|m| match m {
        NodeMesh::Primitive { primitive, .. } => {
            serde_json::to_value(MeshRef::Primitive(*primitive)).unwrap_or(Value::Null)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_lists_world_positions_and_components() {
        let level = crate::level::Level::from_json_str(
            r#"{"objects": [
                {"name": "Child", "parent": "Base", "position": [0, 1, 0], "mesh": "grid:4"},
                {"name": "Base", "position": [0.1, 0, 2], "rotation": [0, 0, 90],
                 "components": [{"type": "Spinner", "degreesPerSecond": 10}]}
            ]}"#,
            "inline.json",
            ".",
        )
        .unwrap();
        let mut assets = crate::assets::AssetCache::for_level(&level);
        let scene = Scene::from_level(&level, &mut assets).unwrap();
        let tree = scene_tree_json(&scene);
        assert_eq!(tree["nodeCount"], 2);
        let base = &tree["nodes"][0];
        assert_eq!(base["name"], "Base");
        assert_eq!(base["worldPosition"], json!([0.1, 0.0, 2.0]));
        assert_eq!(base["components"][0]["type"], "Spinner");
        let child = &base["children"][0];
        assert_eq!(child["path"], "Base/Child");
        assert_eq!(child["mesh"], "grid:4");
        // Rotated 90° about Z: local +Y becomes world -X.
        let p: Vec<f64> = child["worldPosition"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert!(
            (p[0] - (0.1 - 1.0)).abs() < 1e-6 && p[1].abs() < 1e-6 && (p[2] - 2.0).abs() < 1e-6,
            "{p:?}"
        );
    }
}
