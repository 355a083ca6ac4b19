//! The player controller: seed 000's character state machine IDLE, WALK, JUMP, FALL, LAND
//! on a kinematic body that stands on collision boxes.
//!
//! - Entering a state starts its clip with a crossfade (IDLE `idle`, WALK `walk`, JUMP
//!   `jump_start` once then `in_air` looping, FALL `in_air`, LAND `land` once).
//! - JUMP gives upward velocity `jumpSpeed`; gravity pulls while airborne.
//! - Ground is a downward ray cast against the `CollisionBox`es from [`STEP_HEIGHT`] above the
//!   feet: an airborne body falling to or below the hit point lands (LAND); a grounded body
//!   whose ray finds nothing within [`STEP_HEIGHT`] + [`GROUND_SNAP`] has left the edge (FALL).
//! - `land` finishing (or [`LAND_SECONDS`] without a character) returns to IDLE.
//! - Standing on a moving box carries the body with the box's motion this tick
//!   ([`sierra_scene::collision::BoxMotion::carry`]).
//!
//! No wall collision: walking into a box's side passes through it (boxes are platforms to
//! jump onto). Terrain height is not queried yet.

use glam::{Quat, Vec3};
use sierra_anim::Playback;
use sierra_scene::collision::{CollisionWorld, Ray};
use sierra_scene::{NodeId, Scene};

use super::character::{Character, DEFAULT_FADE_SECONDS};
use super::input::{Key, KeyState};

/// Gravity, metres per second².
pub const GRAVITY: f32 = 9.81;
/// Height above the feet the ground ray starts from, metres (steps up to this are climbed).
pub const STEP_HEIGHT: f32 = 0.4;
/// How far below the feet a grounded body still finds the ground, metres.
pub const GROUND_SNAP: f32 = 0.1;
/// LAND length when there is no `land` clip, seconds.
pub const LAND_SECONDS: f32 = 0.25;

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

/// Clip indices of the player's character for each state (`None`: clip missing, state shown without it).
#[derive(Debug, Clone, Copy, Default)]
pub struct PlayerClips {
    /// `idle`.
    pub idle: Option<usize>,
    /// `walk`.
    pub walk: Option<usize>,
    /// `jump_start`.
    pub jump_start: Option<usize>,
    /// `in_air`.
    pub in_air: Option<usize>,
    /// `land`.
    pub land: Option<usize>,
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
    /// Current state.
    pub state: PlayerState,
    /// Vertical velocity, metres per second (+Y up).
    pub velocity_y: f32,
    /// The box stood on (carries the body when it moves).
    pub ground: Option<NodeId>,
    /// Seconds in the current state.
    pub state_time: f32,
    /// Whether JUMP has switched from `jump_start` to `in_air`.
    in_air_started: bool,
    /// Clips per state.
    pub clips: PlayerClips,
    /// `(tick, state)` at every state change, starting with the initial state at tick 0.
    pub history: Vec<(u64, PlayerState)>,
}

impl Player {
    /// A player on `node`, starting in IDLE.
    pub fn new(
        node: NodeId,
        character: Option<usize>,
        speed: f32,
        jump_speed: f32,
        clips: PlayerClips,
    ) -> Self {
        Self {
            node,
            character,
            speed,
            jump_speed,
            state: PlayerState::Idle,
            velocity_y: 0.0,
            ground: None,
            state_time: 0.0,
            in_air_started: false,
            clips,
            history: vec![(0, PlayerState::Idle)],
        }
    }

    /// The sequence of states entered, without ticks.
    pub fn state_sequence(&self) -> Vec<PlayerState> {
        self.history.iter().map(|&(_, s)| s).collect()
    }

    fn enter(&mut self, state: PlayerState, tick: u64, character: Option<&mut Character>) {
        if state == self.state {
            return;
        }
        self.state = state;
        self.state_time = 0.0;
        self.in_air_started = false;
        self.history.push((tick, state));
        let (clip, playback) = match state {
            PlayerState::Idle => (self.clips.idle, Playback::Loop),
            PlayerState::Walk => (self.clips.walk, Playback::Loop),
            PlayerState::Jump => (self.clips.jump_start, Playback::Once),
            PlayerState::Fall => (self.clips.in_air, Playback::Loop),
            PlayerState::Land => (self.clips.land, Playback::Once),
        };
        if let (Some(c), Some(clip)) = (character, clip) {
            c.play(clip, playback, DEFAULT_FADE_SECONDS);
        }
    }

    /// One tick: input → horizontal motion (+ platform carry) → jump/gravity → ground probe →
    /// state changes. Writes the node's local translation and facing; run before animation.
    pub fn update(
        &mut self,
        scene: &mut Scene,
        collision: &CollisionWorld,
        input: &KeyState,
        mut character: Option<&mut Character>,
        tick: u64,
        dt: f32,
    ) {
        let Some(mut local) = scene.graph.local(self.node) else {
            return;
        };
        let mut p = local.translation;
        self.state_time += dt;
        let grounded = matches!(
            self.state,
            PlayerState::Idle | PlayerState::Walk | PlayerState::Land
        );
        if grounded {
            if let Some(motion) = self.ground.and_then(|g| collision.motion(g)) {
                p = motion.carry(p);
            }
        }
        let dir = input.move_direction().normalize_or_zero();
        p += dir * self.speed * dt;
        if dir != Vec3::ZERO {
            local.rotation = Quat::from_rotation_y(dir.x.atan2(dir.z));
        }
        if grounded && input.pressed(Key::Jump) {
            self.velocity_y = self.jump_speed;
            self.ground = None;
            self.enter(PlayerState::Jump, tick, character.as_deref_mut());
        }
        let airborne = matches!(self.state, PlayerState::Jump | PlayerState::Fall);
        if airborne {
            self.velocity_y -= GRAVITY * dt;
            p.y += self.velocity_y * dt;
        }
        let reach = STEP_HEIGHT + if airborne { 0.0 } else { GROUND_SNAP };
        let hit = collision
            .raycast(&Ray::new(p + Vec3::Y * STEP_HEIGHT, Vec3::NEG_Y), reach)
            .filter(|h| h.distance > 0.0);
        if airborne {
            if let Some(h) = hit.filter(|h| self.velocity_y <= 0.0 && p.y <= h.point.y) {
                p.y = h.point.y;
                self.velocity_y = 0.0;
                self.ground = Some(h.node);
                self.enter(PlayerState::Land, tick, character.as_deref_mut());
            }
        } else if let Some(h) = hit {
            p.y = h.point.y;
            self.ground = Some(h.node);
        } else {
            self.ground = None;
            self.velocity_y = 0.0;
            self.enter(PlayerState::Fall, tick, character.as_deref_mut());
        }
        match self.state {
            PlayerState::Idle if dir != Vec3::ZERO => {
                self.enter(PlayerState::Walk, tick, character.as_deref_mut())
            }
            PlayerState::Walk if dir == Vec3::ZERO => {
                self.enter(PlayerState::Idle, tick, character.as_deref_mut())
            }
            PlayerState::Jump if !self.in_air_started => {
                let done = match character.as_deref() {
                    Some(c) if self.clips.jump_start.is_some() => c.finished(),
                    _ => self.velocity_y <= 0.0,
                };
                if done {
                    self.in_air_started = true;
                    if let (Some(c), Some(clip)) = (character.as_deref_mut(), self.clips.in_air) {
                        c.play(clip, Playback::Loop, DEFAULT_FADE_SECONDS);
                    }
                }
            }
            PlayerState::Land => {
                let done = match character.as_deref() {
                    Some(c) if self.clips.land.is_some() => c.finished(),
                    _ => self.state_time >= LAND_SECONDS,
                };
                if done {
                    self.enter(PlayerState::Idle, tick, character.as_deref_mut());
                }
            }
            _ => {}
        }
        local.translation = p;
        scene.graph.set_local(self.node, local);
    }
}
