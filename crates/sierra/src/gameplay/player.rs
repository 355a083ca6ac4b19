//! The player controller: a kinematic body that walks on the terrain and on collision boxes,
//! is stopped by walls, and is animated by the player graph `assets/anim/player.graph.json`
//! (seed 000's IDLE, WALK, JUMP, FALL, LAND as data).
//!
//! The controller owns the physics and only sets the graph's parameters: `speed` (horizontal
//! speed from input, m/s), `grounded` (standing on a box or the terrain), `running` (the RUN
//! key held while moving) and the `jump` trigger. The graph picks states, clips, crossfades
//! and exit times; [`Player::state`] is its base layer's state tag (`idle`, `walk`, `run`,
//! `jump`, `fall`, `land`).
//!
//! Ground speed follows the clip: a moving body goes at [`Player::run_speed`] while RUN is
//! held, else at [`Player::speed`]; both come from the character's clip binding (`"walk":
//! {"clip": "Walk", "speed": 1.2}`) when it gives a speed, else from `PlayerControl`.
//!
//! Each tick, in order:
//! - Standing on a moving box carries the body with the box's motion this tick
//!   ([`sierra_scene::collision::BoxMotion::carry`]).
//! - Input moves the body horizontally at `speed` (`run_speed` with RUN held); on the ground, the uphill part of the move
//!   is removed where the terrain is steeper than [`MAX_SLOPE_DEGREES`] (the body slides along
//!   the slope's contour instead).
//! - JUMP gives upward velocity `jumpSpeed`; gravity pulls while airborne.
//! - The body ([`BODY`]) is pushed out of the collision boxes it overlaps
//!   ([`sierra_scene::collision::CollisionWorld::push_out`]): walls stop it and it slides along
//!   them; a ceiling stops a rise.
//! - Ground ([`Surroundings::ground`]): the highest box top under a downward ray from
//!   [`STEP_HEIGHT`] above the feet, or the terrain's height. An airborne body falling to or
//!   below it lands; a grounded body that finds nothing within [`STEP_HEIGHT`] +
//!   [`GROUND_SNAP`] has left an edge. A body below the terrain is put back on it.
//! - A body that falls [`FALL_LIMIT`] below where it started (off the level) starts again there.
//! - Without a character (or a model lacking a slot's clip) the graph runs on the slots'
//!   `fallbackDuration`s (LAND lasts 0.25 s).

use std::sync::Arc;

use glam::{Quat, Vec3};
use sierra_anim::graph::{AnimGraph, ParamId};
use sierra_scene::collision::Body;
use sierra_scene::{NodeId, Scene};

use super::character::Character;
use super::graph::CharacterGraph;
use super::surroundings::{Ground, Surroundings};

/// Gravity, metres per second².
pub const GRAVITY: f32 = 9.81;
/// Height above the feet the ground ray starts from, metres (steps up to this are climbed).
pub const STEP_HEIGHT: f32 = 0.4;
/// How far below the feet a grounded body still finds the ground, metres.
pub const GROUND_SNAP: f32 = 0.1;
/// Steepest terrain a body walks up, degrees from horizontal.
pub const MAX_SLOPE_DEGREES: f32 = 40.0;
/// The player's colliding body: 0.6 m wide, 1.8 m tall, colliding above [`STEP_HEIGHT`].
pub const BODY: Body = Body {
    radius: 0.3,
    height: 1.8,
    step: STEP_HEIGHT,
};
/// Metres below its starting point at which a falling body is put back at the start.
pub const FALL_LIMIT: f32 = 60.0;

/// One tick's input to the controller.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Controls {
    /// Horizontal move direction, world XZ, unit or zero.
    pub direction: Vec3,
    /// Whether JUMP went down this tick.
    pub jump: bool,
    /// Whether RUN is held.
    pub run: bool,
}

/// States of seed 000's player state machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlayerState {
    /// Standing.
    Idle,
    /// Moving on the ground.
    Walk,
    /// Moving on the ground with RUN held.
    Run,
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
            "run" => Self::Run,
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
    running: Option<ParamId>,
    jump: Option<ParamId>,
}

/// Horizontal speeds of the body, metres per second.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Speeds {
    /// Walking.
    pub walk: f32,
    /// Running (RUN held).
    pub run: f32,
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
    /// Running speed (RUN held), metres per second.
    pub run_speed: f32,
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
    /// Where the body stood at its first tick (where a fall off the level starts again).
    spawn: Option<Vec3>,
}

impl Player {
    /// A player on `node` playing `graph` (see [`super::graph::player_graph`]), starting in
    /// its entry state. When `character` is set, that character should carry the graph
    /// (its `graph` field); `Player::graph` then only stands in if it does not.
    pub fn new(
        node: NodeId,
        character: Option<usize>,
        speeds: Speeds,
        jump_speed: f32,
        graph: Arc<AnimGraph>,
    ) -> Self {
        let params = Params {
            speed: graph.parameter("speed"),
            grounded: graph.parameter("grounded"),
            running: graph.parameter("running"),
            jump: graph.parameter("jump"),
        };
        let graph = CharacterGraph::unbound(graph);
        let state = PlayerState::from_tag(graph.instance.state_tag(0)).unwrap_or(PlayerState::Idle);
        Self {
            node,
            character,
            speed: speeds.walk,
            run_speed: speeds.run,
            jump_speed,
            state,
            airborne: false,
            velocity_y: 0.0,
            ground: None,
            state_time: 0.0,
            graph,
            params,
            history: vec![(0, state)],
            spawn: None,
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
        (running, jumped): (bool, bool),
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
        if let Some(id) = p.running {
            instance.set(id, f32::from(u8::from(running)));
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

    /// One tick of `dt` seconds (see the module docs for the order). Writes the node's local
    /// translation and facing; run before animation.
    pub fn update(
        &mut self,
        scene: &mut Scene,
        around: &Surroundings,
        controls: Controls,
        character: Option<&mut Character>,
        tick: u64,
        dt: f32,
    ) {
        let Some(mut local) = scene.graph.local(self.node) else {
            return;
        };
        let mut p = local.translation;
        let spawn = *self.spawn.get_or_insert(p);
        self.state_time += dt;
        if !self.airborne {
            if let Some(motion) = self.ground.and_then(|g| around.boxes.motion(g)) {
                p = motion.carry(p);
            }
        }
        let dir = controls.direction;
        let speed = if controls.run {
            self.run_speed
        } else {
            self.speed
        };
        let mut step = dir * speed * dt;
        if !self.airborne {
            step = limit_slope(around, p, step);
        }
        p += step;
        if dir != Vec3::ZERO {
            local.rotation = Quat::from_rotation_y(dir.x.atan2(dir.z));
        }
        let jumped = !self.airborne && controls.jump;
        if jumped {
            self.velocity_y = self.jump_speed;
            self.ground = None;
            self.airborne = true;
        }
        if self.airborne {
            self.velocity_y -= GRAVITY * dt;
            p.y += self.velocity_y * dt;
        }
        let push = around.boxes.push_out(p, &BODY);
        p += push.offset;
        if push.ceiling {
            self.velocity_y = self.velocity_y.min(0.0);
        }
        p = self.stand(around, p);
        if p.y < spawn.y - FALL_LIMIT {
            p = spawn;
            self.velocity_y = 0.0;
        }
        let running = controls.run && dir != Vec3::ZERO;
        let moved = step.length() / dt.max(1e-6);
        self.animate(character, moved, (running, jumped), tick, dt);
        local.translation = p;
        scene.graph.set_local(self.node, local);
    }

    /// The ground probe: lands, keeps to, or leaves the ground; returns the feet position.
    fn stand(&mut self, around: &Surroundings, mut p: Vec3) -> Vec3 {
        let below = if self.airborne { 0.0 } else { GROUND_SNAP };
        let ground = around.ground(p, STEP_HEIGHT, below);
        match ground {
            Some(Ground { height, node, .. }) if !self.airborne || self.velocity_y <= 0.0 => {
                p.y = height;
                self.ground = node;
                self.velocity_y = 0.0;
                self.airborne = false;
            }
            // Rising through the terrain's surface (a jump up a slope): stay on it.
            Some(Ground {
                height, node: None, ..
            }) => p.y = p.y.max(height),
            Some(_) => {}
            None if self.airborne => {}
            None => {
                self.ground = None;
                self.velocity_y = 0.0;
                self.airborne = true;
            }
        }
        p
    }
}

/// The horizontal `step` from `p` with the part going up terrain steeper than
/// [`MAX_SLOPE_DEGREES`] removed (what is left runs along the slope's contour); a step that
/// would still climb the steep slope is cancelled.
fn limit_slope(around: &Surroundings, p: Vec3, step: Vec3) -> Vec3 {
    let max_cos = MAX_SLOPE_DEGREES.to_radians().cos();
    let steep_rise = |step: Vec3| {
        around
            .terrain_at(p + step)
            .filter(|g| g.normal.y < max_cos && g.height > p.y + 1e-4)
    };
    let Some(ground) = steep_rise(step) else {
        return step;
    };
    let uphill = Vec3::new(-ground.normal.x, 0.0, -ground.normal.z).normalize_or_zero();
    let along = step - uphill * step.dot(uphill).max(0.0);
    if steep_rise(along).is_some() {
        Vec3::ZERO
    } else {
        along
    }
}
