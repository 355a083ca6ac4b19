//! `Crowd`: many instances of one character drawn with baked animation textures.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How crowd instances are placed around the object's node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum CrowdLayout {
    /// A square grid centred on the node, `spacing` metres apart (default).
    #[default]
    Grid,
    /// Uniformly random positions in a square of side `spacing * sqrt(count)`, from `seed`.
    Random,
}

/// `count` instances of `model`, each playing one clip of `clips` (chosen from `seed`) at
/// its own time offset; data only — drawing is the renderer's baked crowd pass.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Crowd {
    /// `"builtin:mannequin"` or a glTF path relative to the level file.
    pub model: String,
    /// Number of instances.
    pub count: u32,
    /// Placement (default grid).
    #[serde(default)]
    pub layout: CrowdLayout,
    /// Distance between neighbours, metres (default 1.5).
    #[serde(default = "default_spacing")]
    pub spacing: f32,
    /// Clip names instances choose from, uniformly (default `["walk"]`).
    #[serde(default = "default_clips")]
    pub clips: Vec<String>,
    /// Seed of clip choice, time offsets and random placement (default 0).
    #[serde(default)]
    pub seed: u64,
}

fn default_spacing() -> f32 {
    1.5
}

fn default_clips() -> Vec<String> {
    vec!["walk".into()]
}
