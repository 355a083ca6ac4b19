//! `Character`: an animated skinned model on the object's node.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A skinned, animated model (the animation runtime lives in `sierra::gameplay`).
///
/// `model` is `"builtin:mannequin"` (built in code by `sierra_gltf::builtin`) or a
/// `.gltf`/`.glb` path relative to the level file; the model must have a skin. The
/// character plays `clip` (a name from the file's animations) looping, at `speed`
/// times its authored rate, until gameplay (e.g. `PlayerControl`) changes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Character {
    /// `"builtin:mannequin"` or a glTF path relative to the level file.
    pub model: String,
    /// Clip name played at start (default `"idle"`).
    #[serde(default = "default_clip")]
    pub clip: String,
    /// Playback rate multiplier (default 1; 0 freezes the pose).
    #[serde(default = "default_speed")]
    pub speed: f32,
}

fn default_clip() -> String {
    "idle".into()
}

fn default_speed() -> f32 {
    1.0
}
