//! The node tree of a scene as JSON (`sierra inspect LEVEL.json`).

use serde_json::{json, Value};

use crate::graph::{decompose, NodeId};
use crate::level::MeshRef;
use crate::scene::{NodeMesh, Scene};

/// The scene's nodes as a flat list:
/// `{"camera": {...}, "sun": {...}, "clearColor": [r,g,b], "nodeCount": n, "nodes": [{"index",
/// "name", "parent", "depth", "worldPosition": [x,y,z], "worldRotation": [x,y,z,w],
/// "worldScale": [x,y,z], "mesh", "components": [...]}]}`. Nodes are in depth-first order,
/// parents before their children and siblings in level order; `parent` is the parent's `index`
/// in this list (`null` for a root) and `depth` counts parents (0 for a root).
///
/// The walk uses an explicit stack and every node's entry has a size independent of its depth
/// (no nesting, no path string), so any depth works and the output is linear in the node count.
pub fn scene_tree_json(scene: &Scene) -> Value {
    let mut nodes = Vec::with_capacity(scene.graph.len());
    // (node, parent's index in `nodes`, depth); roots pushed in reverse to pop in order.
    let mut stack: Vec<(NodeId, Option<usize>, usize)> =
        scene.graph.roots().map(|r| (r, None, 0)).collect();
    stack.reverse();
    while let Some((id, parent, depth)) = stack.pop() {
        let index = nodes.len();
        let mut node = node_json(scene, id);
        node["index"] = json!(index);
        node["parent"] = json!(parent);
        node["depth"] = json!(depth);
        nodes.push(node);
        let children = scene.graph.children(id);
        stack.extend(children.iter().rev().map(|&c| (c, Some(index), depth + 1)));
    }
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
/// (`0.1`, not `0.10000000149011612`): the engine's data is `f32`. Recursive, which is bounded
/// here: [`scene_tree_json`] nests a constant number of levels (plus the components' own).
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
        NodeMesh::Gltf { asset, mesh, .. } => {
            json!({ "file": asset.path.display().to_string(), "mesh": mesh })
        }
    });
    let components = content.map_or(Value::Array(vec![]), |c| {
        serde_json::to_value(&c.components).unwrap_or(Value::Null)
    });
    json!({
        "name": scene.graph.name(id).unwrap_or(""),
        "worldPosition": d.translation.to_array(),
        "worldRotation": d.rotation.to_array(),
        "worldScale": d.scale.to_array(),
        "mesh": mesh,
        "components": components,
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
        assert_eq!(
            (base["index"].clone(), base["parent"].clone()),
            (json!(0), Value::Null)
        );
        let child = &tree["nodes"][1];
        assert_eq!(child["name"], "Child");
        assert_eq!(
            (child["parent"].clone(), child["depth"].clone()),
            (json!(0), json!(1))
        );
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
