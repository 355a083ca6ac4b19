//! The system running every component's [`NodeBehaviour`](crate::components::NodeBehaviour)
//! on its node each tick ([`tick_node_components`]): `Spinner`, and any component registered
//! with `[behaviour]` in `components/mod.rs`.

use crate::scene::Scene;

/// Runs every component with a [`NodeBehaviour`](crate::components::NodeBehaviour) on its
/// node, in node order then component order, for one tick of `dt` seconds (the game loop calls it once per fixed tick, before
/// transform propagation; dirty flags are set by `set_local`).
pub fn tick_node_components(scene: &mut Scene, dt: f32) {
    let Scene { graph, content, .. } = scene;
    for (node, content) in content.iter() {
        for behaviour in content.components.iter().filter_map(|c| c.behaviour()) {
            if let Some(local) = graph.local(node) {
                graph.set_local(node, behaviour.tick(local, dt));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assets::AssetCache;
    use crate::level::Level;
    use glam::{Quat, Vec3};

    fn scene(json: &str) -> Scene {
        let dir = std::env::temp_dir();
        let level = Level::from_json_str(json, dir.join("behaviour.json"), &dir).unwrap();
        let mut assets = AssetCache::for_level(&level);
        Scene::from_level(&level, &mut assets).unwrap()
    }

    /// A spinner's node turns by rate × dt per tick through the registry's behaviour; a node
    /// with only data components (the negative control) does not move.
    #[test]
    fn registered_behaviour_moves_its_node_and_plain_data_does_not() {
        let mut scene = scene(
            r#"{"objects": [
                {"name": "spun", "components": [{"type": "Spinner", "degreesPerSecond": 90}]},
                {"name": "still", "components": [{"type": "PointLight", "lightColor": [1, 1, 1], "innerRadius": 1, "outerRadius": 5}]}
            ]}"#,
        );
        for _ in 0..60 {
            tick_node_components(&mut scene, 1.0 / 60.0);
        }
        let spun = scene.graph.local(scene.object("spun").unwrap()).unwrap();
        let expected = Quat::from_axis_angle(Vec3::Y, 90f32.to_radians());
        assert!(
            spun.rotation.angle_between(expected) < 1e-4,
            "{:?}",
            spun.rotation
        );
        let still = scene.graph.local(scene.object("still").unwrap()).unwrap();
        assert_eq!(still.rotation, Quat::IDENTITY);
        assert!(scene.all_components().any(|(_, c)| c.behaviour().is_none()));
    }
}
