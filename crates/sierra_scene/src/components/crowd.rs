//! `Crowd`: many instances of one character drawn with baked animation textures.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How crowd instances are placed around the object's node (in its horizontal plane, turned
/// by its rotation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum CrowdLayout {
    /// A square grid centred on the node, `spacing` metres apart (default).
    #[default]
    Grid,
    /// Uniformly random positions in a square of side `spacing * sqrt(count)`, from `seed`;
    /// a member that would stand in the sea is redrawn.
    Random,
}

/// `count` instances of `model` drawn by the baked-animation crowd pass (one instanced draw),
/// each playing one clip of `clips` (chosen from `seed`) from its own phase at its own speed,
/// turned by a random yaw and scaled by the node's scale. On a level with `Terrain`, members
/// stand on the ground height and never in the sea. The node's transform is read once at load.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Crowd {
    /// `"builtin:mannequin"` or a glTF path relative to the level file.
    pub model: String,
    /// Number of instances, 1 to 100000; all the level's crowds together at most
    /// `settings.limits.crowdInstances` (default 100000; `--max-crowd-instances`).
    pub count: u32,
    /// Placement (default grid).
    #[serde(default)]
    pub layout: CrowdLayout,
    /// Distance between neighbours, metres, > 0 (default 1.5; not scaled by the node).
    #[serde(default = "default_spacing")]
    pub spacing: f32,
    /// Clip names instances choose from, uniformly (repeat a name to weight it; default `["walk"]`).
    #[serde(default = "default_clips")]
    pub clips: Vec<String>,
    /// Seed of clip choice, time offsets, random placement and tints (default 0).
    #[serde(default)]
    pub seed: u64,
    /// Dress each member in its own tint drawn from `seed` and its index (default true);
    /// `false` leaves every member the model's own colour.
    #[serde(default = "default_tints")]
    pub tints: bool,
}

fn default_tints() -> bool {
    true
}

fn default_spacing() -> f32 {
    1.5
}

fn default_clips() -> Vec<String> {
    vec!["walk".into()]
}
