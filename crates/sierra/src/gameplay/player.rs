//! The player controller: a kinematic body that stands on collision boxes, animated by the
//! player graph `assets/anim/player.graph.json` (seed 000's IDLE, WALK, JUMP, FALL, LAND as data).
//!
//! The controller owns the physics and only sets the graph's parameters: `speed` (horizontal
//! speed from input, m/s), `grounded` (standing on a box) and the `jump` trigger. The graph
//! picks states, clips, crossfades and exit times; [`Player::state`] is its base layer's
//! state tag (`idle`, `walk`, `jump`, `fall`, `land`).
//!
//! - JUMP gives upward velocity `jumpSpeed`; gravity pulls while airborne.
//! - Ground is a downward ray cast against the `CollisionBox`es from [`STEP_HEIGHT`] above the
//!   feet: an airborne body falling to or below the hit point lands; a grounded body whose
//!   ray finds nothing within [`STEP_HEIGHT`] + [`GROUND_SNAP`] has left the edge.
//! - Standing on a moving box carries the body with the box's motion this tick
//!   ([`sierra_scene::collision::BoxMotion::carry`]).
//! - Without a character (or a model lacking a slot's clip) the graph runs on the slots'
//!   `fallbackDuration`s (LAND lasts 0.25 s).
//!
//! No wall collision: walking into a box's side passes through it (boxes are platforms to
//! jump onto). Terrain height is not queried yet.

use std::sync::Arc;

use glam::{Quat, Vec3};
use sierra_anim::graph::{AnimGraph, ParamId};
use sierra_scene::collision::{CollisionWorld, Ray};
use sierra_scene::{NodeId, Scene};

use super::character::Character;
use super::graph::CharacterGraph;
use super::input::{Key, KeyState};

/// Gravity, metres per second².
pub const GRAVITY: f32 = 9.81;
/// Height above the feet the ground ray starts from, metres (steps up to this are climbed).
pub const STEP_HEIGHT: f32 = 0.4;
/// How far below the feet a grounded body still finds the ground, metres.
pub const GROUND_SNAP: f32 = 0.1;

/// States of seed 000's player state machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlayerState {
    /// Standing.
    Idle,
    /// Moving on the ground.
    Walk,
    /// Going up after a jump (then `in_air`).
    Jump,
    /// Airborne without a jump (walked off an edge, or falling after the apex).
    Fall,
    /// Touched the ground; returns to IDLE when `land` finishes.
    Land,
}

impl PlayerState {
    /// The state a player-graph state tag stands for (`None` for other tags).
    pub fn from_tag(tag: &str) -> Option<Self> {
        Some(match tag {
            "idle" => Self::Idle,
            "walk" => Self::Walk,
            "jump" => Self::Jump,
            "fall" => Self::Fall,
            "land" => Self::Land,
            _ => return None,
        })
    }
}

/// The player graph's parameters.
#[derive(Debug, Clone, Copy)]
struct Params {
    speed: Option<ParamId>,
    grounded: Option<ParamId>,
    jump: Option<ParamId>,
}

/// The player body and its state.
#[derive(Debug, Clone)]
pub struct Player {
    /// The controlled object's node (a root object: its local transform is its world).
    pub node: NodeId,
    /// Index of its `Character` in the gameplay's characters, if it has one.
    pub character: Option<usize>,
    /// Walking speed, metres per second.
    pub speed: f32,
    /// Jump launch speed, metres per second.
    pub jump_speed: f32,
    /// Current state (the tag of the graph's base-layer state).
    pub state: PlayerState,
    /// Whether the body is off the ground (gravity applies).
    pub airborne: bool,
    /// Vertical velocity, metres per second (+Y up).
    pub velocity_y: f32,
    /// The box stood on (carries the body when it moves).
    pub ground: Option<NodeId>,
    /// Seconds in the current state.
    pub state_time: f32,
    /// The graph when the player has no graph-driven character (logic only, no pose).
    pub graph: CharacterGraph,
    params: Params,
    /// `(tick, state)` at every state change, starting with the initial state at tick 0.
    pub history: Vec<(u64, PlayerState)>,
}

impl Player {
    /// A player on `node` playing `graph` (see [`super::graph::player_graph`]), starting in
    /// its entry state. When `character` is set, that character should carry the graph
    /// (its `graph` field); `Player::graph` then only stands in if it does not.
    pub fn new(
        node: NodeId,
        character: Option<usize>,
        speed: f32,
        jump_speed: f32,
        graph: Arc<AnimGraph>,
    ) -> Self {
        let params = Params {
            speed: graph.parameter("speed"),
            grounded: graph.parameter("grounded"),
            jump: graph.parameter("jump"),
        };
        let graph = CharacterGraph::unbound(graph);
        let state = PlayerState::from_tag(graph.instance.state_tag(0)).unwrap_or(PlayerState::Idle);
        Self {
            node,
            character,
            speed,
            jump_speed,
            state,
            airborne: false,
            velocity_y: 0.0,
            ground: None,
            state_time: 0.0,
            graph,
            params,
            history: vec![(0, state)],
        }
    }

    /// The sequence of states entered, without ticks.
    pub fn state_sequence(&self) -> Vec<PlayerState> {
        self.history.iter().map(|&(_, s)| s).collect()
    }

    /// Sets the graph's parameters, updates it by `dt` seconds and follows its state.
    fn animate(
        &mut self,
        character: Option<&mut Character>,
        speed: f32,
        jumped: bool,
        tick: u64,
        dt: f32,
    ) {
        let (graph, dt) = match character {
            Some(Character {
                graph: Some(g),
                speed: rate,
                ..
            }) => (g.as_mut(), dt * *rate),
            _ => (&mut self.graph, dt),
        };
        let p = self.params;
        let instance = &mut graph.instance;
        if let Some(id) = p.speed {
            instance.set(id, speed);
        }
        if let Some(id) = p.grounded {
            instance.set(id, f32::from(u8::from(!self.airborne)));
        }
        if let (Some(id), true) = (p.jump, jumped) {
            instance.set(id, 1.0);
        }
        graph.update(dt);
        let state = PlayerState::from_tag(graph.instance.state_tag(0)).unwrap_or(self.state);
        if state != self.state {
            self.state = state;
            self.state_time = 0.0;
            self.history.push((tick, state));
        }
    }

    /// One tick: input → horizontal motion (+ platform carry) → jump/gravity → ground probe →
    /// graph parameters and update. Writes the node's local translation and facing; run before animation.
    pub fn update(
        &mut self,
        scene: &mut Scene,
        collision: &CollisionWorld,
        input: &KeyState,
        character: Option<&mut Character>,
        tick: u64,
        dt: f32,
    ) {
        let Some(mut local) = scene.graph.local(self.node) else {
            return;
        };
        let mut p = local.translation;
        self.state_time += dt;
        if !self.airborne {
            if let Some(motion) = self.ground.and_then(|g| collision.motion(g)) {
                p = motion.carry(p);
            }
        }
        let dir = input.move_direction().normalize_or_zero();
        p += dir * self.speed * dt;
        if dir != Vec3::ZERO {
            local.rotation = Quat::from_rotation_y(dir.x.atan2(dir.z));
        }
        let jumped = !self.airborne && input.pressed(Key::Jump);
        if jumped {
            self.velocity_y = self.jump_speed;
            self.ground = None;
            self.airborne = true;
        }
        if self.airborne {
            self.velocity_y -= GRAVITY * dt;
            p.y += self.velocity_y * dt;
        }
        let reach = STEP_HEIGHT + if self.airborne { 0.0 } else { GROUND_SNAP };
        let hit = collision
            .raycast(&Ray::new(p + Vec3::Y * STEP_HEIGHT, Vec3::NEG_Y), reach)
            .filter(|h| h.distance > 0.0);
        if self.airborne {
            if let Some(h) = hit.filter(|h| self.velocity_y <= 0.0 && p.y <= h.point.y) {
                p.y = h.point.y;
                self.velocity_y = 0.0;
                self.ground = Some(h.node);
                self.airborne = false;
            }
        } else if let Some(h) = hit {
            p.y = h.point.y;
            self.ground = Some(h.node);
        } else {
            self.ground = None;
            self.velocity_y = 0.0;
            self.airborne = true;
        }
        self.animate(character, dir.length() * self.speed, jumped, tick, dt);
        local.translation = p;
        scene.graph.set_local(self.node, local);
    }
}
