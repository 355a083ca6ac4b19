//! `Character`: an animated skinned model on the object's node, and its clip binding.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::AnimatorClip;

/// A skinned, animated model (the animation runtime lives in `sierra::gameplay`).
///
/// `model` is `"builtin:mannequin"` (built in code by `sierra_gltf::builtin`), a
/// `.gltf`/`.glb` path relative to the level file, or `"shared:…"` (a path under the shared
/// sample assets); the model must have a skin. The character plays `clip` looping, at `speed`
/// times its authored rate, until gameplay (e.g. `PlayerControl`) changes it.
///
/// `clips` binds gameplay states (the player graph's clip slots: `idle`, `walk`, `run`,
/// `jump_start`, `in_air`, `land`) to the model's clips, e.g.
/// `{"idle": "Survey", "walk": {"clip": "Walk", "speed": 1.2}, "run": 2}`. Names match
/// case-insensitively (an exact match wins); a number is a clip index (for unnamed clips).
/// A state left out plays the clip of its own name, if the model has one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Character {
    /// `"builtin:mannequin"`, a glTF path relative to the level file, or `"shared:PATH"`.
    pub model: String,
    /// Clip played at start (default `"idle"`): a state of `clips`, else a clip name
    /// (case-insensitive) or a decimal clip index.
    #[serde(default = "default_clip")]
    pub clip: String,
    /// Playback rate multiplier (default 1; 0 freezes the pose).
    #[serde(default = "default_speed")]
    pub speed: f32,
    /// State name → the model's clip (default: none; every state plays the clip of its name).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub clips: BTreeMap<String, ClipBinding>,
    /// The character's own material (default: none; the model's glTF materials as they are).
    /// Given, it replaces every part's base colour factor and Blinn-Phong specular, so one
    /// character (the player) stands apart from others sharing its model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub material: Option<CharacterMaterial>,
}

/// A character's material ([`Character::material`]): linear RGB, Blinn-Phong.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CharacterMaterial {
    /// Diffuse colour, linear RGB in `[0, 1]`, multiplying the model's base colour texture.
    pub base_color: [f32; 3],
    /// Specular colour, linear RGB (default `[0.2, 0.2, 0.2]`).
    #[serde(default = "default_specular_color")]
    pub specular_color: [f32; 3],
    /// Blinn-Phong exponent of `(N·H)`, ≥ 1 (default 32).
    #[serde(default = "default_specular_power")]
    pub specular_power: f32,
}

fn default_specular_color() -> [f32; 3] {
    [0.2; 3]
}

fn default_specular_power() -> f32 {
    32.0
}

/// The clip one state plays: a name or index, or `{"clip": …, "speed": m/s}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum ClipBinding {
    /// A clip name (case-insensitive) or index.
    Clip(AnimatorClip),
    /// A clip with the speed the body moves at while it plays.
    WithSpeed(ClipWithSpeed),
}

/// A clip and the ground speed it was authored for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClipWithSpeed {
    /// Clip name (case-insensitive) or index.
    pub clip: AnimatorClip,
    /// Metres per second the player's body moves while this state plays (finite, ≥ 0);
    /// overrides `PlayerControl.speed` (walk) or `runSpeed` (run). Default: those.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed: Option<f32>,
}

impl ClipBinding {
    /// The clip named or indexed.
    pub fn clip(&self) -> &AnimatorClip {
        match self {
            Self::Clip(c) | Self::WithSpeed(ClipWithSpeed { clip: c, .. }) => c,
        }
    }

    /// The body's speed while the state plays, metres per second, when given.
    pub fn speed(&self) -> Option<f32> {
        match self {
            Self::Clip(_) => None,
            Self::WithSpeed(w) => w.speed,
        }
    }
}

fn default_clip() -> String {
    "idle".into()
}

fn default_speed() -> f32 {
    1.0
}
