//! Gameplay systems run each fixed tick on the [`Scene`]: characters (animation jobs in
//! parallel), the player controller, IK targets, attachments, the follow camera, and the
//! input they read (keyboard or a scripted track).
//!
//! Tick order (seed 000 / ARCHITECTURE "One frame"): figure-eight paths → propagate →
//! player (input relative to the camera, slope limit, box push-out, ground ray casts against
//! boxes and terrain, state machine) → clip times → propagate → IK goals from this tick's
//! target positions → animation jobs (sample, crossfade, IK hook, palette) → joint nodes and
//! attachments written into the graph → follow camera (pulled in by segment casts).

pub mod attach;
pub mod character;
pub mod character_model;
pub mod clip_binding;
mod error;
pub mod follow_camera;
pub mod graph;
pub mod ik_target;
pub mod input;
pub mod player;
pub mod surroundings;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use glam::{Mat4, Vec3};
use sierra_anim::ik::{Attachment as JointAttachment, IkHook};
use sierra_anim::{CharacterPose, Playback};
use sierra_scene::collision::CollisionWorld;
use sierra_scene::components::FigureEight;
use sierra_scene::{Component, NodeId, Scene};
use sierra_terrain::HeightField;

use attach::Attached;
use character::{Character, Playing};
use character_model::CharacterModel;
use clip_binding::ClipTable;
pub use error::GameplayError;
use follow_camera::FollowCam;
use ik_target::IkBinding;
use input::{InputTrack, KeyState};
use player::{Controls, Player, Speeds};
use surroundings::Surroundings;

/// Where a `Character` component sits in the level.
#[derive(Clone, Copy)]
struct Placed<'a> {
    node: NodeId,
    object: usize,
    /// JSON path of the component.
    at: &'a str,
}

/// A node moving on a figure-eight path around its start position.
#[derive(Debug, Clone)]
struct PathMover {
    node: NodeId,
    start: Vec3,
    path: FigureEight,
}

/// All gameplay state of a running level.
#[derive(Debug, Default)]
pub struct Gameplay {
    /// Characters, in level order.
    pub characters: Vec<Character>,
    /// Per-character job outputs (`poses[i]` ↔ `characters[i]`): local pose, world-space
    /// model matrices `[joint_count]`, skinning palette `[skin joint_count]`.
    pub poses: Vec<CharacterPose>,
    /// The player, if a level object has `PlayerControl`.
    pub player: Option<Player>,
    /// The follow camera, if any.
    pub camera: Option<FollowCam>,
    /// IK tasks of every character (the jobs' post-sampling hook).
    pub ik: IkHook,
    /// Target node of each IK task.
    pub ik_targets: Vec<IkBinding>,
    /// Attached nodes.
    pub attached: Vec<Attached>,
    /// Collision boxes (refreshed each tick).
    pub collision: CollisionWorld,
    /// Scripted input; when `None`, [`Gameplay::keys`] (the window's keyboard) is used.
    pub track: Option<InputTrack>,
    /// Live keyboard state.
    pub keys: KeyState,
    movers: Vec<PathMover>,
    file: PathBuf,
}

impl Gameplay {
    /// Finds the gameplay components of `scene` (loaded from `file`) and prepares them:
    /// loads character models (once per model), creates joint nodes, validates clip names,
    /// IK chains and limits, attachment joints and references.
    ///
    /// Errors: [`GameplayError`] naming `file` and the JSON path.
    pub fn new(scene: &mut Scene, file: &Path) -> Result<Self, GameplayError> {
        let assets = scene.assets.clone();
        let mut gameplay = Gameplay {
            collision: CollisionWorld::from_scene(scene),
            file: file.to_owned(),
            ..Default::default()
        };
        let mut models: HashMap<String, Arc<CharacterModel>> = HashMap::new();
        let mut character_of_node: HashMap<NodeId, usize> = HashMap::new();
        let objects = scene.objects.clone();
        let player_graph = graph::player_graph().map_err(|source| GameplayError::Graph {
            file: file.to_owned(),
            json_path: "objects".into(),
            source,
        })?;
        // Characters first: the other components refer to them.
        for (i, &node) in objects.iter().enumerate() {
            let components = scene.components(node).to_vec();
            for (j, component) in components.iter().enumerate() {
                let Component::Character(c) = component else {
                    continue;
                };
                let at = format!("objects[{i}].components[{j}]");
                let model = match models.get(&c.model) {
                    Some(m) => m.clone(),
                    None => {
                        let m = Arc::new(CharacterModel::load(
                            &c.model,
                            &assets,
                            file,
                            &format!("{at}.model"),
                        )?);
                        models.insert(c.model.clone(), m.clone());
                        m
                    }
                };
                let placed = Placed {
                    node,
                    object: i,
                    at: &at,
                };
                let character = gameplay.character(scene, c, model, &player_graph, placed)?;
                character_of_node.insert(node, gameplay.characters.len());
                gameplay.characters.push(character);
            }
        }
        let find_character = |name: &str, json_path: String| {
            scene
                .object(name)
                .and_then(|n| character_of_node.get(&n).copied())
                .ok_or_else(|| GameplayError::NotACharacter {
                    file: file.to_owned(),
                    json_path,
                    name: name.to_owned(),
                })
        };
        let mut tasks = Vec::new();
        for (i, &node) in objects.iter().enumerate() {
            for (j, component) in scene.components(node).iter().enumerate() {
                let at = format!("objects[{i}].components[{j}]");
                match component {
                    Component::PlayerControl(p) => {
                        let character = character_of_node.get(&node).copied();
                        let graph_error = |source| GameplayError::Graph {
                            file: file.to_owned(),
                            json_path: at.clone(),
                            source,
                        };
                        let graph = player_graph.clone();
                        let mut speeds = Speeds {
                            walk: p.speed,
                            run: p.run_speed(),
                        };
                        if let Some(c) = character.and_then(|c| gameplay.characters.get_mut(c)) {
                            let place = (file, c.json_path.as_str(), c.model_name.as_str());
                            let slots = c.clips.player_slots(&graph, &c.model, place)?;
                            let g =
                                graph::CharacterGraph::with_slots(graph.clone(), &c.model, &slots)
                                    .map_err(graph_error)?;
                            c.graph = Some(Box::new(g));
                            speeds = Speeds {
                                walk: c.clips.speed_of("walk", speeds.walk),
                                run: c.clips.speed_of("run", speeds.run),
                            };
                        }
                        gameplay.player =
                            Some(Player::new(node, character, speeds, p.jump_speed, graph));
                    }
                    Component::FollowCamera(f) => {
                        let target = scene.object(&f.target).ok_or_else(|| {
                            GameplayError::UnknownObject {
                                file: file.to_owned(),
                                json_path: format!("{at}.target"),
                                name: f.target.clone(),
                            }
                        })?;
                        gameplay.camera = Some(FollowCam {
                            target,
                            offset: f.offset,
                            stiffness: f.stiffness,
                        });
                    }
                    Component::IkTarget(t) => {
                        let c = find_character(&t.character, format!("{at}.character"))?;
                        let task = ik_target::build_task(t, &gameplay.characters[c], c, file, &at)?;
                        gameplay.ik_targets.push(IkBinding {
                            target: node,
                            task: tasks.len(),
                            pole: t.pole,
                            character: c,
                        });
                        tasks.push(task);
                    }
                    Component::Attachment(a) => {
                        let c = find_character(&a.character, format!("{at}.character"))?;
                        let joint = gameplay.characters[c]
                            .model
                            .skeleton
                            .find_joint(&a.joint)
                            .ok_or_else(|| GameplayError::UnknownJoint {
                                file: file.to_owned(),
                                json_path: format!("{at}.joint"),
                                joint: a.joint.clone(),
                            })?;
                        let scale = scene.graph.local(node).map_or(Vec3::ONE, |l| l.scale);
                        gameplay.attached.push(Attached {
                            node,
                            character: c,
                            attachment: JointAttachment {
                                joint,
                                offset: Mat4::from_rotation_translation(
                                    a.offset.rotation(),
                                    a.offset.translation,
                                ),
                            },
                            scale,
                        });
                    }
                    Component::FigureEight(f) => gameplay.movers.push(PathMover {
                        node,
                        start: scene
                            .graph
                            .local(node)
                            .map_or(Vec3::ZERO, |l| l.translation),
                        path: f.clone(),
                    }),
                    _ => {}
                }
            }
        }
        gameplay.ik = IkHook::new(tasks);
        Ok(gameplay)
    }

    /// Builds the gameplay character of component `c` placed at `placed`: joint nodes, its
    /// clip table (states from `player_graph`'s slots) and the clip it starts with.
    ///
    /// Errors: [`GameplayError::StateClip`], [`GameplayError::UnknownClip`] naming the JSON path.
    fn character(
        &mut self,
        scene: &mut Scene,
        c: &sierra_scene::components::Character,
        model: Arc<CharacterModel>,
        player_graph: &sierra_anim::graph::AnimGraph,
        placed: Placed<'_>,
    ) -> Result<Character, GameplayError> {
        let (file, at) = (self.file.as_path(), placed.at);
        let clips = ClipTable::resolve(&c.clips, player_graph, &model, (file, at, &c.model))?;
        // A state name (the default `idle`) goes through the state's binding.
        let place = (file, at, c.model.as_str());
        let clip = if player_graph.slot(&c.clip).is_some() {
            clips.require(&c.clip, &model, place, ".clip")?
        } else {
            model
                .clip_index(&c.clip)
                .ok_or_else(|| GameplayError::UnknownClip {
                    file: file.to_owned(),
                    json_path: format!("{at}.clip"),
                    model: c.model.clone(),
                    clip: c.clip.clone(),
                    available: model.clip_names(),
                })?
        };
        let joint_nodes = character::add_joint_nodes(scene, placed.node, &model.skeleton, file)?;
        self.poses.push(CharacterPose::new(
            &model.skeleton,
            model.skin.joint_count(),
            2,
        ));
        let current = Playing {
            clip,
            time: 0.0,
            playback: Playback::Loop,
        };
        Ok(Character {
            node: placed.node,
            object: placed.object,
            model,
            current,
            previous: None,
            fade: sierra_anim::Crossfade::new(0.0),
            speed: c.speed,
            joint_nodes,
            graph: None,
            clips,
            model_name: c.model.clone(),
            json_path: at.to_owned(),
            material: c.material,
        })
    }

    /// The clip the player's character plays now (its graph's base-layer state's clip), as
    /// `(index, name)`; `None` without a player character or when that state has no clip.
    pub fn player_clip(&self) -> Option<(usize, &str)> {
        let c = self.characters.get(self.player.as_ref()?.character?)?;
        let g = c.graph.as_ref()?;
        let clip = g.state_clip(0)?;
        Some((clip, c.model.clips[clip].name()))
    }

    /// Runs one tick `tick` of `dt` seconds (see the module docs for the order) with
    /// `terrain` as the ground where the level has an island. Leaves joint and attached nodes
    /// written; the caller propagates afterwards.
    ///
    /// Errors: [`GameplayError::Anim`] when an animation job fails.
    pub fn tick(
        &mut self,
        scene: &mut Scene,
        terrain: Option<&HeightField>,
        tick: u64,
        dt: f32,
    ) -> Result<(), GameplayError> {
        let time = tick as f32 * dt;
        for m in &self.movers {
            if let Some(mut local) = scene.graph.local(m.node) {
                local.translation = m.start + m.path.offset(time);
                scene.graph.set_local(m.node, local);
            }
        }
        scene.graph.propagate();
        self.collision.update(&scene.graph);
        let around = Surroundings {
            boxes: &self.collision,
            terrain,
        };
        let keys = self.track.as_ref().map_or(self.keys, |t| t.state_at(tick));
        if let Some(player) = &mut self.player {
            // Relative to the follow camera's resting view (deterministic for scripted input),
            // else to the level camera.
            let view = self
                .camera
                .map_or(scene.camera.target - scene.camera.position, |c| {
                    Vec3::Y * follow_camera::LOOK_HEIGHT - c.offset
                });
            let controls = Controls {
                direction: keys.move_direction_from(view),
                jump: keys.pressed(input::Key::Jump),
                run: keys.down(input::Key::Run),
            };
            let character = player.character.and_then(|c| self.characters.get_mut(c));
            player.update(scene, &around, controls, character, tick, dt);
        }
        self.keys.end_tick();
        for c in &mut self.characters {
            c.advance(dt);
        }
        scene.graph.propagate();
        ik_target::update_goals(&mut self.ik, &self.ik_targets, &self.characters, scene);
        character::animate_characters(
            &mut self.characters,
            &mut self.poses,
            &self.ik,
            scene,
            &self.file,
        )?;
        attach::update_attachments(&self.attached, &self.poses, scene);
        if let Some(camera) = &self.camera {
            camera.update(scene, &around, dt);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::player::PlayerState;
    use crate::game::game_from_json;

    #[test]
    fn a_player_standing_on_a_turning_platform_is_carried_round_with_it() {
        // Platform top at y = 0.5, turning 90°/s about +Y through the origin; the player stands
        // still at x = 1, so after 1 s it has been carried a quarter turn: +X → −Z.
        let mut game = game_from_json(
            r#"{"objects": [
                {"name": "P", "components": [{"type": "Spinner", "degreesPerSecond": 90},
                    {"type": "CollisionBox", "halfExtents": [3, 0.25, 3], "center": [0, 0.25, 0]}]},
                {"name": "Me", "position": [1, 0.5, 0], "components": [{"type": "PlayerControl"}]}
            ]}"#,
            60.0,
        )
        .unwrap();
        for _ in 0..60 {
            game.tick();
        }
        let me = game.scene.object("Me").unwrap();
        let p = Vec3::from(game.scene.graph.world(me).unwrap().translation);
        assert!((p - Vec3::new(0.0, 0.5, -1.0)).length() < 0.03, "{p}");
        let player = game.gameplay.player.as_ref().unwrap();
        assert_eq!(player.state_sequence(), vec![PlayerState::Idle]);
    }

    #[test]
    fn the_follow_camera_settles_at_target_plus_offset_looking_at_the_target() {
        let mut game = game_from_json(
            r#"{"camera": {"position": [0, 10, 30], "target": [0, 0, 0]},
                "objects": [{"name": "T", "position": [3, 0, -2],
                "components": [{"type": "FollowCamera", "target": "T", "offset": [0, 2, 5], "stiffness": 5}]}]}"#,
            60.0,
        )
        .unwrap();
        game.tick();
        let after_one = game.scene.camera.position;
        // One tick moves the eye by the fraction 1 − e^(−5/60) of the way.
        let k = 1.0 - (-5.0f32 / 60.0).exp();
        let expected = Vec3::new(0.0, 10.0, 30.0)
            + (Vec3::new(3.0, 2.0, 3.0) - Vec3::new(0.0, 10.0, 30.0)) * k;
        assert!(
            (after_one - expected).length() < 1e-4,
            "{after_one} vs {expected}"
        );
        for _ in 0..600 {
            game.tick();
        }
        assert!((game.scene.camera.position - Vec3::new(3.0, 2.0, 3.0)).length() < 1e-3);
        let look = Vec3::new(3.0, super::follow_camera::LOOK_HEIGHT, -2.0);
        assert!((game.scene.camera.target - look).length() < 1e-5);
    }
}
