//! Sierra's scene: level files, the scene graph, components, the asset cache and collision.
//!
//! - [`level`]: level JSON v0 ([`level::load_level`]), validated, with a generated
//!   JSON Schema ([`level::level_schema`], committed as `assets/levels/schema.json`).
//! - [`components`]: the component types a level object can carry, and how to add one.
//! - [`graph`]: the flat, parent-first scene graph with generational [`graph::NodeId`]s,
//!   dirty-flag propagation and world-matrix decomposition.
//! - [`scene`]: a level instantiated as nodes ([`scene::Scene::from_level`]), glTF files
//!   as node subtrees.
//! - [`assets`]: the [`assets::AssetCache`] (each file read once, shared `Arc`s, paths
//!   kept inside the asset root) and the glTF hookup ([`assets::GltfScene`]).
//! - [`collision`]: AABBs, slab ray tests, oriented collision boxes, ray casts and the
//!   motion of a box during a tick.
//! - [`inspect`]: the node tree as JSON (`sierra inspect LEVEL.json`).
//! - [`node_animation`]: `Animator` components playing their glTF file's clips on its nodes.
//! - [`node_behaviour`]: the system running components' behaviour on their nodes each tick (`Spinner`).
//! - [`synthetic`]: procedural rigs for the propagation benchmarks.
//!
//! A game tick: [`node_behaviour::tick_node_components`] → [`node_animation::NodeAnimators::update`] → gameplay (ray casts against
//! [`collision::CollisionWorld`]) → [`graph::SceneGraph::propagate`] →
//! [`collision::CollisionWorld::update`] → render the nodes with meshes at their world matrices.
//!
//! Conventions: right-handed, Y up, metres, seconds, column-major matrices (glTF).

#![warn(missing_docs)]

pub mod assets;
pub mod collision;
pub mod components;
pub mod error;
pub mod graph;
pub mod inspect;
pub mod level;
pub mod node_animation;
pub mod node_behaviour;
pub mod scene;
pub mod synthetic;

pub use components::{Component, COMPONENT_TYPES};
pub use error::{Error, LevelError};
pub use graph::{NodeId, SceneGraph, Transform};
pub use level::{load_level, load_level_with, Level, LoadOptions, MeshRef, ObjectDef, Primitive};
pub use scene::Scene;
pub use sierra_assets;
