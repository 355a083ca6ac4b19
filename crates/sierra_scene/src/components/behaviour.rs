//! Per-tick behaviour of components that move their own node (`Spinner`, and any component
//! registered with `[behaviour]` in the `component_registry!` of `components/mod.rs`).
//!
//! A component with behaviour implements [`NodeBehaviour`];
//! [`crate::node_behaviour::tick_node_components`] runs every such component of the scene once per
//! fixed tick, before transform propagation (a system over the scene, apart from the components'
//! data, so that `components` does not name `scene`). Behaviour that
//! needs more than its own node (the terrain, other characters, the player) belongs to the game's
//! gameplay and world systems instead.

use crate::graph::Transform;

/// A component's behaviour on its own node, once per fixed tick.
pub trait NodeBehaviour {
    /// The node's local transform (parent frame; metres, radians) after `dt` more seconds of
    /// this component's behaviour, given the transform before.
    fn tick(&self, local: Transform, dt: f32) -> Transform;
}
