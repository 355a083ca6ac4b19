//! `Animator`: plays one animation of the object's glTF file (its `mesh` is a `.gltf`/`.glb`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Which clip of the file: its name, or its index in file order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum AnimatorClip {
    /// Index in the file's `animations` (0 = the first).
    Index(usize),
    /// The animation's `name`.
    Name(String),
}

impl Default for AnimatorClip {
    fn default() -> Self {
        Self::Index(0)
    }
}

/// How the clip's time runs out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum AnimatorPlayback {
    /// Wraps around at the clip's duration.
    #[default]
    Loop,
    /// Plays once and holds the last pose.
    Once,
}

/// Plays `clip` of the object's glTF file on the nodes the file made under the object: node
/// translation, rotation and scale channels (glTF 2.0 §3.11) move those nodes (and so their
/// meshes, skins' joints and children), `weights` channels set morph weights. Without an
/// `Animator` a file's animations do not play. Time starts at 0 when the level loads and runs
/// at `speed` times the authored rate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Animator {
    /// Clip name or index (default 0, the file's first animation).
    #[serde(default)]
    pub clip: AnimatorClip,
    /// Playback rate multiplier (default 1; 0 freezes the first pose; finite, not negative).
    #[serde(default = "default_speed")]
    pub speed: f32,
    /// `"loop"` (default) or `"once"`.
    #[serde(default)]
    pub playback: AnimatorPlayback,
}

fn default_speed() -> f32 {
    1.0
}
