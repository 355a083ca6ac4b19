//! The runtime form of an animation graph: every name resolved to an index, validated.
//! Immutable and shared (`Arc`) by every instance playing it.

use std::path::PathBuf;

use super::asset::{ConditionTest, ParameterKind};

/// Index of a parameter in [`AnimGraph::parameters`].
pub type ParamId = u16;
/// Index of a clip slot in [`AnimGraph::slots`].
pub type SlotId = u16;
/// Index of a state in its layer's [`Layer::states`].
pub type StateId = u16;

/// A validated animation graph (see the [module docs](super)).
#[derive(Debug, Clone)]
pub struct AnimGraph {
    /// The file it was loaded from (for messages).
    pub file: PathBuf,
    /// Parameters.
    pub parameters: Vec<Parameter>,
    /// Clip slots.
    pub slots: Vec<Slot>,
    /// Distinct event names; [`Slot::events`] index into it.
    pub event_names: Vec<String>,
    /// Layers, bottom (base) first.
    pub layers: Vec<Layer>,
}

/// A parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct Parameter {
    /// Name.
    pub name: String,
    /// Type.
    pub kind: ParameterKind,
    /// Initial value (bools and triggers: 0 or 1).
    pub default: f32,
}

/// A clip slot.
#[derive(Debug, Clone, PartialEq)]
pub struct Slot {
    /// Name.
    pub name: String,
    /// Loops, or plays once and holds.
    pub looping: bool,
    /// Seconds used when no clip is bound.
    pub fallback_duration: f32,
    /// Events sorted by time.
    pub events: Vec<SlotEvent>,
}

/// An event of a slot.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SlotEvent {
    /// Index into [`AnimGraph::event_names`].
    pub name: u16,
    /// Clip time, seconds.
    pub time: f32,
}

/// How a layer combines with those below.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LayerBlend {
    /// Per-joint replacement by `weight × mask` ([`super::mask::blend_masked`]).
    Override,
    /// Difference from the rest pose added by `weight × mask` ([`super::additive::apply_additive`]).
    Additive,
}

/// A layer.
#[derive(Debug, Clone, PartialEq)]
pub struct Layer {
    /// Name.
    pub name: String,
    /// Override or additive.
    pub blend: LayerBlend,
    /// Constant weight.
    pub weight: f32,
    /// Float parameter multiplying `weight`.
    pub weight_parameter: Option<ParamId>,
    /// `(include, exclude)` joint names, resolved per skeleton by [`super::GraphBinding`].
    pub mask: Option<(Vec<String>, Vec<String>)>,
    /// JSON path of the mask (for binding errors).
    pub mask_path: String,
    /// First state.
    pub entry: StateId,
    /// States.
    pub states: Vec<State>,
    /// Transitions in priority order.
    pub transitions: Vec<Transition>,
}

/// What a state plays.
#[derive(Debug, Clone, PartialEq)]
pub enum Motion {
    /// One slot.
    Clip(SlotId),
    /// A 1D blend space on a float parameter: `(value, slot)` sorted by strictly increasing value.
    Blend1d {
        /// The float parameter.
        parameter: ParamId,
        /// Points.
        points: Vec<(f32, SlotId)>,
    },
}

/// A state.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    /// Name.
    pub name: String,
    /// Gameplay label (the name unless given).
    pub tag: String,
    /// What it plays.
    pub motion: Motion,
    /// Playback rate.
    pub speed: f32,
}

/// A condition.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Condition {
    /// Parameter.
    pub parameter: ParamId,
    /// Test (fits the parameter's type).
    pub test: ConditionTest,
    /// Threshold for `Greater`/`Less`.
    pub value: f32,
}

/// A transition.
#[derive(Debug, Clone, PartialEq)]
pub struct Transition {
    /// Source (`None`: any state except `to`).
    pub from: Option<StateId>,
    /// Destination.
    pub to: StateId,
    /// Conditions (all must hold).
    pub conditions: Vec<Condition>,
    /// Minimum normalised time of the source state.
    pub exit_time: Option<f32>,
    /// Crossfade seconds.
    pub duration: f32,
}

impl AnimGraph {
    /// Index of the parameter called `name`.
    pub fn parameter(&self, name: &str) -> Option<ParamId> {
        self.parameters
            .iter()
            .position(|p| p.name == name)
            .map(|i| i as ParamId)
    }

    /// Index of the slot called `name`.
    pub fn slot(&self, name: &str) -> Option<SlotId> {
        self.slots
            .iter()
            .position(|s| s.name == name)
            .map(|i| i as SlotId)
    }

    /// Index of the state called `name` in layer `layer`.
    pub fn state(&self, layer: usize, name: &str) -> Option<StateId> {
        self.layers
            .get(layer)?
            .states
            .iter()
            .position(|s| s.name == name)
            .map(|i| i as StateId)
    }
}
