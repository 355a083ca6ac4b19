//! The JSON form of an animation graph (`*.graph.json`), as written by people.
//! [`super::AnimGraph::from_json_str`] parses it and resolves every name into indices.
//! The JSON Schema is `assets/anim/graph.schema.json` ([`super::graph_schema`]).

use schemars::JsonSchema;
use serde::Deserialize;

/// An animation graph file.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(title = "Sierra animation graph v1")]
pub struct GraphFile {
    /// Parameters gameplay sets each tick (speed, grounded, jump …).
    #[serde(default)]
    pub parameters: Vec<ParameterDef>,
    /// Clip slots: names a model binds to its clips (by default a slot binds the clip of the same name).
    pub clips: Vec<ClipSlotDef>,
    /// Layers, bottom first; the first is the base layer (no mask, override, weight 1).
    pub layers: Vec<LayerDef>,
}

/// The type of a parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum ParameterKind {
    /// A number (e.g. speed in metres per second).
    Float,
    /// true / false.
    Bool,
    /// A one-shot flag: set by gameplay, seen by the next update only, consumed by the transition it fires.
    Trigger,
}

/// A named parameter.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ParameterDef {
    /// Name used by conditions, blend spaces and gameplay.
    pub name: String,
    /// Float, bool or trigger.
    #[serde(rename = "type")]
    pub kind: ParameterKind,
    /// Initial value (bool: 0 false, anything else true; triggers start unset). Default 0.
    #[serde(default)]
    pub default: f32,
}

/// A clip slot.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClipSlotDef {
    /// Slot name (`idle`, `walk`, `jump_start` …).
    pub slot: String,
    /// Whether the clip loops (default true) or plays once and holds its last pose.
    #[serde(default = "yes")]
    pub r#loop: bool,
    /// Length in seconds used for exit times when no model clip is bound to the slot (default 0).
    #[serde(default)]
    pub fallback_duration: f32,
    /// Events at clip times (footsteps).
    #[serde(default)]
    pub events: Vec<EventDef>,
}

fn yes() -> bool {
    true
}

/// An event at a clip time.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EventDef {
    /// Event name (`footstep_l`).
    pub name: String,
    /// Clip time in seconds, in `[0, duration]`.
    pub time: f32,
}

/// How a layer combines with the layers below it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum LayerBlendDef {
    /// Replaces the pose below on the masked joints, by the layer weight (an upper-body override).
    #[default]
    Override,
    /// Adds its difference from the skeleton's rest pose, scaled by the layer weight.
    Additive,
}

/// Joints a layer affects: the subtrees of `include`, minus the subtrees of `exclude`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MaskDef {
    /// Joint names whose subtrees (the joint and its descendants) the layer affects.
    pub include: Vec<String>,
    /// Joint names whose subtrees are taken out again.
    #[serde(default)]
    pub exclude: Vec<String>,
}

/// A layer: a state machine whose pose is combined with the layers below.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LayerDef {
    /// Layer name.
    pub name: String,
    /// Override (default) or additive.
    #[serde(default)]
    pub blend: LayerBlendDef,
    /// Layer weight in `[0, 1]` (default 1).
    #[serde(default = "one")]
    pub weight: f32,
    /// A float parameter multiplying `weight` (clamped to `[0, 1]`).
    #[serde(default)]
    pub weight_parameter: Option<String>,
    /// Joints affected (default: all).
    #[serde(default)]
    pub mask: Option<MaskDef>,
    /// The state entered first.
    pub entry: String,
    /// States.
    pub states: Vec<StateDef>,
    /// Transitions, tried in order each update; the first whose conditions hold fires.
    #[serde(default)]
    pub transitions: Vec<TransitionDef>,
}

fn one() -> f32 {
    1.0
}

/// A state: plays one clip slot, or a 1D blend space of slots.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StateDef {
    /// State name (unique in its layer).
    pub name: String,
    /// A label gameplay reads (e.g. two states `jump` and `jump_air` both tagged `jump`); default: the name.
    #[serde(default)]
    pub tag: Option<String>,
    /// The clip slot played (exactly one of `clip` and `blend1d`).
    #[serde(default)]
    pub clip: Option<String>,
    /// A 1D blend space (exactly one of `clip` and `blend1d`).
    #[serde(default)]
    pub blend1d: Option<Blend1dDef>,
    /// Playback rate (default 1).
    #[serde(default = "one")]
    pub speed: f32,
}

/// A 1D blend space: clips placed on a float parameter's axis; the two around the value blend.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Blend1dDef {
    /// The float parameter.
    pub parameter: String,
    /// Points in strictly increasing `value` order (at least one).
    pub points: Vec<BlendPointDef>,
}

/// A clip at a parameter value.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BlendPointDef {
    /// Clip slot.
    pub clip: String,
    /// Parameter value where this clip plays alone.
    pub value: f32,
}

/// A transition between two states.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TransitionDef {
    /// Source state, or `"*"` for any state other than `to`.
    pub from: String,
    /// Destination state.
    pub to: String,
    /// All must hold (none: always true).
    #[serde(default)]
    pub conditions: Vec<ConditionDef>,
    /// Normalised time of the source state (1 = one clip length) before which the
    /// transition cannot fire (default: none).
    #[serde(default)]
    pub exit_time: Option<f32>,
    /// Crossfade length in seconds (default 0: switch at once).
    #[serde(default)]
    pub duration: f32,
}

/// The test a condition applies to its parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum ConditionTest {
    /// Float parameter > `value`.
    Greater,
    /// Float parameter < `value`.
    Less,
    /// Bool parameter true.
    IsTrue,
    /// Bool parameter false.
    IsFalse,
    /// Trigger parameter set (consumed when the transition fires).
    Triggered,
}

/// One condition of a transition.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConditionDef {
    /// Parameter name.
    pub parameter: String,
    /// The test; it must fit the parameter's type.
    pub test: ConditionTest,
    /// Threshold of `greater` / `less`.
    #[serde(default)]
    pub value: Option<f32>,
}
