//! Characters driven by an animation graph ([`sierra_anim::graph`]): the graph state, its
//! binding to the character's model, and the job buffers. Gameplay sets parameters and
//! updates the instance; [`super::character::animate_characters`] evaluates it.

use std::path::Path;
use std::sync::Arc;

use sierra_anim::graph::{
    AnimGraph, EventBuffer, GraphBinding, GraphError, GraphInstance, GraphPoseBuffers, Motion,
};

use super::character_model::CharacterModel;

/// Capacity of a character's per-tick event buffer (events past it are counted as dropped).
pub const EVENTS_PER_TICK: usize = 16;

/// A graph playing on one character.
#[derive(Debug, Clone)]
pub struct CharacterGraph {
    /// Parameters and state machines.
    pub instance: GraphInstance,
    /// Slots → the model's clips, masks → its joints.
    pub binding: GraphBinding,
    /// Scratch poses of the evaluation.
    pub buffers: GraphPoseBuffers,
    /// Events of the last update (cleared by each [`CharacterGraph::update`]).
    pub events: EventBuffer,
}

impl CharacterGraph {
    /// `graph` bound by slot name to `model`'s clips (slots the model lacks stay unbound).
    ///
    /// Errors: [`GraphError::Invalid`] for a mask joint the skeleton lacks.
    pub fn new(graph: Arc<AnimGraph>, model: &CharacterModel) -> Result<Self, GraphError> {
        let binding = GraphBinding::by_name(&graph, &model.skeleton, &model.clips)?;
        Ok(Self::with_binding(
            graph,
            binding,
            model.skeleton.joint_count(),
        ))
    }

    /// `graph` bound to `model`'s clips as `slot_clips[slot]` says (an index into the
    /// model's clips; `None`: unbound) — a character's clip table resolved by
    /// [`super::clip_binding::ClipTable::player_slots`].
    ///
    /// Errors: [`GraphError::Invalid`] as [`GraphBinding::with_slot_clips`].
    pub fn with_slots(
        graph: Arc<AnimGraph>,
        model: &CharacterModel,
        slot_clips: &[Option<usize>],
    ) -> Result<Self, GraphError> {
        let binding =
            GraphBinding::with_slot_clips(&graph, &model.skeleton, &model.clips, slot_clips)?;
        Ok(Self::with_binding(
            graph,
            binding,
            model.skeleton.joint_count(),
        ))
    }

    /// The model clip layer `layer`'s current state plays: its slot's bound clip (a blend
    /// space's first point's); `None` when unbound.
    pub fn state_clip(&self, layer: usize) -> Option<usize> {
        let graph = self.instance.graph();
        let state = &graph.layers.get(layer)?.states[self.instance.state(layer) as usize];
        let slot = match &state.motion {
            Motion::Clip(slot) => *slot,
            Motion::Blend1d { points, .. } => points.first()?.1,
        };
        self.binding.slot_clips[slot as usize]
    }

    /// A graph with no model: the state machine runs on the slots' fallback durations.
    pub fn unbound(graph: Arc<AnimGraph>) -> Self {
        let binding = GraphBinding::unbound(&graph);
        Self::with_binding(graph, binding, 0)
    }

    fn with_binding(graph: Arc<AnimGraph>, binding: GraphBinding, joints: usize) -> Self {
        Self {
            buffers: GraphPoseBuffers::new(&graph, joints),
            instance: GraphInstance::new(graph),
            binding,
            events: EventBuffer::with_capacity(EVENTS_PER_TICK),
        }
    }

    /// Clears the events, then advances the graph by `dt` seconds.
    pub fn update(&mut self, dt: f32) {
        self.events.clear();
        self.instance.update(dt, &self.binding, &mut self.events);
    }
}

/// The built-in player graph, `assets/anim/player.graph.json`, compiled in so every level
/// with a `PlayerControl` has it wherever the level lives.
pub fn player_graph() -> Result<Arc<AnimGraph>, GraphError> {
    const JSON: &str = include_str!("../../../../assets/anim/player.graph.json");
    AnimGraph::from_json_str(JSON, Path::new("assets/anim/player.graph.json")).map(Arc::new)
}
