//! Animation graphs: data-driven state machines that turn gameplay parameters into a pose
//! (Unity's Animator, Godot's AnimationTree, Fyrox's ABSM as a JSON asset).
//!
//! A graph file (`*.graph.json`, schema `assets/anim/graph.schema.json`, [`graph_schema`])
//! declares:
//! - **parameters**: named floats, bools and triggers gameplay sets each tick
//!   ([`GraphInstance::set_float`], [`GraphInstance::set_bool`], [`GraphInstance::fire`]);
//! - **clip slots**: names (`idle`, `walk` …) a model binds to its clips ([`GraphBinding`]),
//!   looping or one-shot, with **events** at clip times (footsteps);
//! - **layers**, bottom first, each a state machine: **states** play a slot or a **1D blend
//!   space** (the two clips around a float parameter's value, phase-synchronised: one cycle
//!   lasts the weighted mean of their durations); **transitions** `from` a state (or `*`) `to`
//!   another fire when all their **conditions** hold (float `greater`/`less`, bool
//!   `isTrue`/`isFalse`, trigger `triggered`) and the source's normalised time has reached
//!   their **exit time**, with a linear **crossfade** of `duration` seconds. Layers above the
//!   base are **override** layers (per-joint replacement inside a **joint mask**, e.g. the
//!   upper body) or **additive** layers (their difference from the rest pose, added).
//!
//! Run time, per character: [`GraphInstance::update`] (parameters → transitions, times,
//! events into a caller-owned [`EventBuffer`]) then [`evaluate_graph`] (or [`GraphJob`]) to a
//! local pose using the crate's public [`crate::sample_clip`] and [`crate::blend_poses`];
//! neither allocates. Per-joint weights ([`blend_masked`]) and additive layers
//! ([`apply_additive`]) are implemented here as scalar reference functions until the
//! crate's blending provides them.
//!
//! Times in seconds; normalised time 1 = one clip length. Errors name the graph file and
//! the JSON path ([`GraphError`]).

mod additive;
mod asset;
mod binding;
mod blend_space;
mod definition;
mod error;
mod evaluate;
mod events;
mod instance;
mod job;
mod load;
mod machine;
mod mask;

pub use additive::apply_additive;
pub use asset::{ConditionTest, GraphFile, ParameterKind};
pub use binding::GraphBinding;
pub use blend_space::blend1d_weights;
pub use definition::{
    AnimGraph, Condition, Layer, LayerBlend, Motion, ParamId, Parameter, Slot, SlotEvent, SlotId,
    State, StateId, Transition,
};
pub use error::GraphError;
pub use evaluate::{evaluate_graph, GraphPoseBuffers};
pub use events::{EventBuffer, GraphEvent};
pub use instance::GraphInstance;
pub use job::GraphJob;
pub use load::MAX_GRAPH_ITEMS;
pub use machine::{LayerState, Playhead};
pub use mask::{blend_masked, joint_mask};

/// The JSON Schema (draft 2020-12) of graph files, as committed in `assets/anim/graph.schema.json`.
pub fn graph_schema() -> serde_json::Value {
    schemars::schema_for!(GraphFile).to_value()
}
