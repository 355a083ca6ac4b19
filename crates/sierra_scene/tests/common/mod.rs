//! Building the small scene graphs of the propagation and collision tests.

use glam::Vec3;
use sierra_scene::graph::{NodeId, SceneGraph, Transform};

/// Adds node `name` at `translation` (no rotation or scale) from its `parent` (a root when
/// `None`) and returns its id.
///
/// # Panics
/// When the graph refuses the node (a test's own mistake: a stale parent).
pub fn add_at(g: &mut SceneGraph, name: &str, translation: Vec3, parent: Option<NodeId>) -> NodeId {
    g.add(name, Transform::from_translation(translation), parent)
        .unwrap_or_else(|e| panic!("adding {name}: {e}"))
}
