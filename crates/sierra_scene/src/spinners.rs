//! The spinner system: each tick turns every node that carries a
//! [`Spinner`](crate::components::Spinner) component ([`update_spinners`]). (A system over the
//! scene, apart from the component's data, so that `components` does not name `scene`.)

use crate::components::Component;
use crate::scene::Scene;

/// Advances every `Spinner` in the scene by one tick of `dt` seconds (the game loop
/// calls it once per fixed tick, before transform propagation).
pub fn update_spinners(scene: &mut Scene, dt: f32) {
    let Scene { graph, content, .. } = scene;
    for (node, content) in content.iter() {
        for component in &content.components {
            if let Component::Spinner(spinner) = component {
                if let Some(mut local) = graph.local(node) {
                    local.rotation = spinner.spin(local.rotation, dt);
                    graph.set_local(node, local);
                }
            }
        }
    }
}
