//! A character's clip binding: gameplay states (the player graph's clip slots) → the model's
//! clips, and the ground speed each state's clip was authored for.
//!
//! A level binds states in the `Character` component: `"clips": {"idle": "Survey", "walk":
//! {"clip": "Walk", "speed": 1.2}, "run": 2}`. Each state plays, in order of preference:
//! 1. the clip its binding names (exact name, else ignoring ASCII case, or an index);
//! 2. the model's clip named like the state (`walk` finds `Walk`);
//! 3. for the player, a stand-in state's clip ([`STAND_INS`]: `run` → `walk`, the jump
//!    states → `idle`).
//!
//! The player's `idle` and `walk` ([`REQUIRED`]) must resolve; a binding naming a clip the
//! model lacks, a state no graph has, a missing required state or a negative speed is an
//! error naming the state and listing the model's clips.

use std::collections::BTreeMap;
use std::path::Path;

use sierra_anim::graph::AnimGraph;
use sierra_scene::components::{AnimatorClip, ClipBinding};

use super::character_model::CharacterModel;
use super::error::GameplayError;

/// States the player cannot do without: a player character's model must play a clip in each.
pub const REQUIRED: [&str; 2] = ["idle", "walk"];

/// `(state, stand-in)`: a player state the model has no clip for plays its stand-in's clip.
pub const STAND_INS: [(&str, &str); 4] = [
    ("run", "walk"),
    ("jump_start", "idle"),
    ("in_air", "idle"),
    ("land", "idle"),
];

/// One bound state: the model's clip index and the body's speed while it plays (m/s).
#[derive(Debug, Clone, PartialEq)]
pub struct BoundState {
    /// Index into the model's clips.
    pub clip: usize,
    /// Ground speed, metres per second, when the level gave one.
    pub speed: Option<f32>,
}

/// A character's resolved binding: state name → clip, as written in the level.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClipTable {
    states: BTreeMap<String, BoundState>,
}

/// Where a binding is in the level, for errors.
struct At<'a> {
    file: &'a Path,
    json_path: &'a str,
    model_name: &'a str,
    model: &'a CharacterModel,
}

impl At<'_> {
    fn error(&self, field: &str, state: &str, problem: String) -> GameplayError {
        GameplayError::StateClip {
            file: self.file.to_owned(),
            json_path: format!("{}{field}", self.json_path),
            state: state.to_owned(),
            problem,
            model: self.model_name.to_owned(),
            available: self.model.clip_names(),
        }
    }
}

impl ClipTable {
    /// Resolves the level's `clips` of a `Character` (at `json_path`, e.g.
    /// `objects[2].components[0]`) against `model` (written as `model_name`); state names must
    /// be slots of `graph`.
    ///
    /// Errors: [`GameplayError::StateClip`] naming the state and listing the model's clips.
    pub fn resolve(
        clips: &BTreeMap<String, ClipBinding>,
        graph: &AnimGraph,
        model: &CharacterModel,
        (file, json_path, model_name): (&Path, &str, &str),
    ) -> Result<Self, GameplayError> {
        let at = At {
            file,
            json_path,
            model_name,
            model,
        };
        let mut states = BTreeMap::new();
        for (state, binding) in clips {
            let field = format!(".clips.{state}");
            if graph.slot(state).is_none() {
                let slots: Vec<&str> = graph.slots.iter().map(|s| s.name.as_str()).collect();
                let problem = format!("no such state (states: {})", slots.join(", "));
                return Err(at.error(&field, state, problem));
            }
            let clip = find(model, binding.clip()).ok_or_else(|| {
                let problem = format!("the model has no clip {}", describe(binding.clip()));
                at.error(&field, state, problem)
            })?;
            let speed = binding.speed();
            if speed.is_some_and(|v| !v.is_finite() || v < 0.0) {
                let problem = "`speed` must be a finite number ≥ 0 (m/s)".to_owned();
                return Err(at.error(&field, state, problem));
            }
            states.insert(state.clone(), BoundState { clip, speed });
        }
        Ok(Self { states })
    }

    /// The binding of `state`, if the level gave one.
    pub fn bound(&self, state: &str) -> Option<&BoundState> {
        self.states.get(state)
    }

    /// The clip `state` plays: its binding, else the model's clip of that name (ignoring case).
    pub fn clip_of(&self, state: &str, model: &CharacterModel) -> Option<usize> {
        self.bound(state)
            .map(|b| b.clip)
            .or_else(|| model.clip_named(state))
    }

    /// The clip of every slot of the player `graph`, stand-ins included.
    ///
    /// Errors: [`GameplayError::StateClip`] (at `json_path`) when a [`REQUIRED`] state has no
    /// clip, naming it and listing the model's clips.
    pub fn player_slots(
        &self,
        graph: &AnimGraph,
        model: &CharacterModel,
        place: (&Path, &str, &str),
    ) -> Result<Vec<Option<usize>>, GameplayError> {
        for state in REQUIRED {
            self.require(state, model, place, ".clips")?;
        }
        Ok(graph
            .slots
            .iter()
            .map(|slot| {
                let stand_in = STAND_INS.iter().find(|(s, _)| *s == slot.name);
                self.clip_of(&slot.name, model)
                    .or_else(|| stand_in.and_then(|(_, other)| self.clip_of(other, model)))
            })
            .collect())
    }

    /// The clip `state` plays ([`ClipTable::clip_of`]).
    ///
    /// Errors: [`GameplayError::StateClip`] at `json_path` + `field` when it has none, naming
    /// the state, saying how to bind one and listing the model's clips.
    pub fn require(
        &self,
        state: &str,
        model: &CharacterModel,
        (file, json_path, model_name): (&Path, &str, &str),
        field: &str,
    ) -> Result<usize, GameplayError> {
        self.clip_of(state, model).ok_or_else(|| {
            let at = At {
                file,
                json_path,
                model_name,
                model,
            };
            let problem = format!(
                "no clip for it: the model has none named `{state}`; \
                 bind one: \"clips\": {{\"{state}\": \"CLIP\"}}"
            );
            at.error(field, state, problem)
        })
    }

    /// The ground speed bound to `state`, else `default` (m/s).
    pub fn speed_of(&self, state: &str, default: f32) -> f32 {
        self.bound(state).and_then(|b| b.speed).unwrap_or(default)
    }
}

/// The clip `clip` names in `model` (name ignoring case, or index).
fn find(model: &CharacterModel, clip: &AnimatorClip) -> Option<usize> {
    match clip {
        AnimatorClip::Index(i) => (*i < model.clips.len()).then_some(*i),
        AnimatorClip::Name(name) => model.clip_named(name),
    }
}

fn describe(clip: &AnimatorClip) -> String {
    match clip {
        AnimatorClip::Index(i) => format!("with index {i}"),
        AnimatorClip::Name(n) => format!("named `{n}`"),
    }
}
