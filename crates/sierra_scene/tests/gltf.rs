//! glTF files referenced by levels become node subtrees; extras carry seed 001's
//! collider and constraint definitions; truncated files are clear errors.

use std::path::Path;
use std::sync::Arc;

use glam::Vec3;
use sierra_scene::assets::{AssetCache, ColliderShape, ConstraintType, GltfScene};
use sierra_scene::collision::CollisionWorld;
use sierra_scene::{load_level, Error, Level, Scene};

/// A GLB container holding only a JSON chunk (glTF 2.0 §4.4).
fn glb(json: &str) -> Vec<u8> {
    let mut chunk = json.as_bytes().to_vec();
    while chunk.len() % 4 != 0 {
        chunk.push(b' ');
    }
    let total = 12 + 8 + chunk.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(chunk.len() as u32).to_le_bytes());
    out.extend_from_slice(&0x4E4F_534Au32.to_le_bytes());
    out.extend_from_slice(&chunk);
    out
}

const ROBOT: &str = r#"{"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
  "nodes": [
    {"name": "Armature", "children": [1], "translation": [0, 1, 0]},
    {"name": "Hand_R", "translation": [1, 0, 0],
     "extras": {"collider": {"shape": "box", "box_half_extents": [0.1, 0.2, 0.3], "mass": 2},
                "constraint": {"type": "hinge", "hinge_min_deg": -10, "hinge_max_deg": 120, "parent_bone": "Armature"}}}
  ]}"#;

fn level_with(dir: &Path, file: &str, bytes: &[u8]) -> std::path::PathBuf {
    std::fs::write(dir.join(file), bytes).unwrap();
    let level = dir.join("level.json");
    std::fs::write(
        &level,
        format!(
            r#"{{"objects": [
                {{"name": "Robot", "position": [5, 0, 0], "mesh": "{file}"}},
                {{"name": "Robot2", "position": [-5, 0, 0], "mesh": "./{file}"}}
            ]}}"#
        ),
    )
    .unwrap();
    level
}

#[test]
fn gltf_nodes_become_a_subtree_with_extras() {
    let dir = tempfile::tempdir().unwrap();
    let path = level_with(dir.path(), "robot.glb", &glb(ROBOT));
    let level = load_level(&path).unwrap();
    let mut assets = AssetCache::for_level(&level);
    let scene = Scene::from_level(&level, &mut assets).unwrap();
    // Both objects share one import; the file was read once.
    assert_eq!(assets.file_reads(), 1);
    let hand = scene.find_path("Robot/Armature/Hand_R").unwrap();
    assert_eq!(
        Vec3::from(scene.graph.world(hand).unwrap().translation),
        Vec3::new(6.0, 1.0, 0.0)
    );
    let hand2 = scene.find_path("Robot2/Armature/Hand_R").unwrap();
    assert_eq!(
        Vec3::from(scene.graph.world(hand2).unwrap().translation),
        Vec3::new(-4.0, 1.0, 0.0)
    );

    let a = assets
        .load::<GltfScene>(level.folder(), Path::new("robot.glb"))
        .unwrap();
    // `..` is resolved by the file system (inside the root), so `sub` must exist.
    std::fs::create_dir(level.folder().join("sub")).unwrap();
    let b = assets
        .load::<GltfScene>(level.folder(), Path::new("sub/../robot.glb"))
        .unwrap();
    assert!(Arc::ptr_eq(&a, &b));
    assert_eq!(assets.file_reads(), 1);
    let node = &a.nodes[1];
    let collider = node.collider.as_ref().unwrap();
    assert_eq!(collider.shape, ColliderShape::Box);
    assert_eq!(collider.box_half_extents, Vec3::new(0.1, 0.2, 0.3));
    assert_eq!(collider.mass, 2.0);
    let constraint = node.constraint.as_ref().unwrap();
    assert_eq!(constraint.kind, ConstraintType::Hinge);
    assert_eq!(
        (constraint.hinge_min_deg, constraint.hinge_max_deg),
        (-10.0, 120.0)
    );
    assert_eq!(constraint.swing_limit_deg, 180.0, "defaults from seed 001");
    assert_eq!(constraint.hinge_axis, Vec3::Z, "defaults from seed 001");
    assert!(a.nodes[0].collider.is_none());
    // The collider is a box in the collision world at the node (both instances), the
    // Armature (no collider) has none.
    let world = CollisionWorld::from_scene(&scene);
    let boxed: Vec<_> = world.boxes().iter().map(|b| b.node).collect();
    assert_eq!(boxed, vec![hand, hand2], "{boxed:?}");
    assert_eq!(world.boxes()[0].bounds.max, Vec3::new(6.1, 1.2, 0.3));
}

#[test]
fn capsules_and_spheres_are_their_bounding_boxes_and_upper_case_names_are_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let capsule = ROBOT.replace(
        r#""shape": "box", "box_half_extents": [0.1, 0.2, 0.3]"#,
        r#""shape": "CAPSULE", "radius": 0.1, "half_height": 0.5"#,
    );
    let capsule = capsule.replace(r#""type": "hinge""#, r#""type": "BALL_SOCKET""#);
    let path = level_with(dir.path(), "robot.glb", &glb(&capsule));
    let scene = Scene::load(&path).unwrap();
    let world = CollisionWorld::from_scene(&scene);
    let b = world.boxes()[0];
    assert_eq!(b.local.max, Vec3::new(0.1, 0.6, 0.1));
    let sphere = ROBOT.replace(
        r#""shape": "box", "box_half_extents": [0.1, 0.2, 0.3]"#,
        r#""shape": "sphere", "radius": 0.25"#,
    );
    let path = level_with(dir.path(), "robot.glb", &glb(&sphere));
    let world = CollisionWorld::from_scene(&Scene::load(&path).unwrap());
    assert_eq!(world.boxes()[0].local.max, Vec3::splat(0.25));
}

#[test]
fn a_parent_bone_that_is_not_the_parent_and_a_sizeless_collider_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let bad = ROBOT.replace(r#""parent_bone": "Armature""#, r#""parent_bone": "Arm""#);
    let path = level_with(dir.path(), "robot.glb", &glb(&bad));
    let text = expect_gltf_error(&path);
    assert!(
        text.contains("Hand_R") && text.contains("parent_bone") && text.contains("`Armature`"),
        "{text}"
    );
    let bad = ROBOT.replace(r#""box_half_extents": [0.1, 0.2, 0.3]"#, r#""radius": 1"#);
    let path = level_with(dir.path(), "robot.glb", &glb(&bad));
    let text = expect_gltf_error(&path);
    assert!(
        text.contains("Hand_R") && text.contains("extras.collider"),
        "{text}"
    );
}

fn expect_gltf_error(level: &Path) -> String {
    let err = Scene::load(level).unwrap_err();
    let text = err.to_string();
    match &err {
        Error::InLevel {
            json_path,
            source,
            file,
        } => {
            assert_eq!(json_path, "objects[0].mesh");
            assert_eq!(file, level);
            assert!(matches!(**source, Error::Gltf { .. }), "{text}");
        }
        other => panic!("{other:?}"),
    }
    text
}

#[test]
fn truncated_glb_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let full = glb(ROBOT);
    for cut in [5, 16, full.len() / 2, full.len() - 1] {
        let path = level_with(dir.path(), "robot.glb", &full[..cut]);
        let text = expect_gltf_error(&path);
        assert!(
            text.contains("truncated") && text.contains("robot.glb") && text.contains("level.json"),
            "{text}"
        );
    }
}

#[test]
fn truncated_gltf_json_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = level_with(
        dir.path(),
        "robot.gltf",
        &ROBOT.as_bytes()[..ROBOT.len() / 2],
    );
    let text = expect_gltf_error(&path);
    assert!(text.contains("robot.gltf"), "{text}");
}

#[test]
fn bad_extras_name_the_node() {
    let dir = tempfile::tempdir().unwrap();
    let bad = ROBOT.replace(r#""mass": 2"#, r#""mass": "heavy""#);
    let path = level_with(dir.path(), "robot.glb", &glb(&bad));
    let text = expect_gltf_error(&path);
    assert!(
        text.contains("node 1") && text.contains("Hand_R") && text.contains("mass"),
        "{text}"
    );
}

#[test]
fn fox_instantiates_with_its_skeleton_nodes() {
    let Some(fox) = sierra_testkit::shared_asset("gltf/Fox/Fox.glb") else {
        return;
    };
    let folder = fox.parent().unwrap().to_path_buf();
    let level = Level::from_json_str(
        r#"{"objects": [{"name": "Fox", "mesh": "Fox.glb", "scale": 0.01}]}"#,
        folder.join("l.json"),
        &folder,
    )
    .unwrap();
    let mut assets = AssetCache::for_level(&level);
    let scene = Scene::from_level(&level, &mut assets).unwrap();
    let asset = assets
        .load::<GltfScene>(&folder, Path::new("Fox.glb"))
        .unwrap();
    assert_eq!(assets.file_reads(), 1);
    // Every glTF node of the default scene became a node under the level object.
    assert_eq!(scene.graph.len(), 1 + asset.nodes.len());
    let fox_node = scene.object("Fox").unwrap();
    let meshes = scene
        .content
        .iter()
        .filter(|(_, c)| c.mesh.is_some())
        .count();
    assert!(meshes >= 1);
    for &id in scene.graph.parent_first_order() {
        let path = scene.graph.path_of(id).unwrap();
        assert!(path == "Fox" || path.starts_with("Fox/"), "{path}");
    }
    assert!(scene.graph.children(fox_node).len() == asset.roots.len());
}
