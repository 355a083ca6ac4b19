//! The game state a level turns into, and one fixed tick of it.
//!
//! The state is `sierra_scene`'s [`Scene`] (flat parent-first graph with dirty
//! flags). A tick runs the systems in order — first the components that move their own node (`Spinner`:
//! [`sierra_scene::node_behaviour::tick_node_components`]) — then propagates transforms.
//! Gameplay systems (player, follow camera, birds, camera paths) add themselves to [`Game::tick`];
//! last, the level's sound follows the camera and its nodes ([`GameAudio::tick`]). Commands from
//! the window ([`Command`]) queue with [`Game::push_command`] and apply at the start of the next
//! tick.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use sierra_profile::StartupTimes;
use sierra_scene::Scene;

use crate::camera_path::CameraPath;
use crate::commands::Command;
use crate::game_audio::GameAudio;
use crate::game_loop::FixedTimestep;
use crate::gameplay::Gameplay;
use crate::world::World;

/// A running level.
pub struct Game {
    /// Nodes, their contents, camera, sun and clear colour.
    pub scene: Scene,
    /// The level file (for messages).
    pub file: PathBuf,
    /// The fixed-step clock.
    pub clock: FixedTimestep,
    /// Characters, player, IK, attachments, follow camera, input ([`crate::gameplay`]).
    pub gameplay: Gameplay,
    /// Island, sea, planet, birds, palms ([`crate::world`]); its GPU half is the GPU bridge's
    /// (`crate::gpu_bridge::world`), uploaded by the frame runner at load.
    pub world: World,
    /// A scripted camera path that drives the level camera, if any.
    pub camera_path: Option<CameraPath>,
    /// The level's `AudioLoop`s, heard from the camera (playback and recording start
    /// only when asked: [`GameAudio::start_playback`], [`GameAudio::start_recording`]).
    pub audio: GameAudio,
    /// The level's `Animator`s, playing glTF clips on the files' nodes.
    pub node_animators: sierra_scene::node_animation::NodeAnimators,
    /// Draw meshes as lines ([`Command::Wireframe`]).
    pub wireframe: bool,
    /// Lit or unlit-albedo frames ([`sierra_render::DebugView`]; a debug view renders with
    /// pass-through post-processing, so the image shows the albedo itself).
    pub debug_view: sierra_render::DebugView,
    /// Time spent loading the level, by stage (`level`, `gameplay`, `terrain_cpu`, `crowd_bakes`);
    /// the GPU stages are added by whoever uploads it ([`crate::frame_runner::start_headless`]).
    pub startup: StartupTimes,
    /// Commands queued for the next tick.
    commands: Vec<Command>,
}

impl Game {
    /// Loads a level file and starts it at tick 0 with a `tick_hz` clock.
    ///
    /// # Errors
    /// Level errors (file, line:column, JSON path; missing assets) and a camera that
    /// cannot be projected (see [`Game::new`]).
    pub fn load(path: &Path, tick_hz: f64) -> Result<Self> {
        Self::load_with(path, &sierra_scene::LoadOptions::default(), tick_hz)
    }

    /// [`Game::load`] with an asset root and budgets (`--asset-root`, `--max-*`).
    ///
    /// # Errors
    /// As [`Game::load`].
    pub fn load_with(
        path: &Path,
        options: &sierra_scene::LoadOptions,
        tick_hz: f64,
    ) -> Result<Self> {
        Self::load_on(path, options, None, tick_hz)
    }

    /// [`Game::load_with`], with the terrain and the sea computed on `backend` when given
    /// (overriding the level's `backend` fields; [`crate::world::use_backend`]).
    ///
    /// # Errors
    /// As [`Game::load`].
    pub fn load_on(
        path: &Path,
        options: &sierra_scene::LoadOptions,
        backend: Option<sierra_terrain::island::Backend>,
        tick_hz: f64,
    ) -> Result<Self> {
        Self::load_cached(path, options, backend, tick_hz, &mut None)
    }

    /// [`Game::load_on`] through `cache`: a cache of the same asset root is used (its files are
    /// not read again) and one is made otherwise; either way `cache` holds it afterwards. The
    /// hot reload ([`crate::hot_reload`]) keeps it between reloads, so an unchanged glTF file
    /// stays the same import (and its GPU meshes stay uploaded).
    ///
    /// # Errors
    /// As [`Game::load`]; `cache` is kept as it was when the level file fails to load.
    pub fn load_cached(
        path: &Path,
        options: &sierra_scene::LoadOptions,
        backend: Option<sierra_terrain::island::Backend>,
        tick_hz: f64,
        cache: &mut Option<sierra_scene::assets::AssetCache>,
    ) -> Result<Self> {
        let mut startup = StartupTimes::new();
        let mut scene = startup.time("level", || -> Result<Scene> {
            let level = sierra_scene::load_level_with(path, options)?;
            let assets = match cache.take() {
                Some(kept) if kept.root() == level.asset_root => kept,
                _ => sierra_scene::assets::AssetCache::for_level(&level),
            };
            let assets = cache.insert(assets);
            Ok(Scene::from_level(&level, assets)?)
        })?;
        if let Some(backend) = backend {
            crate::world::use_backend(&mut scene, backend);
        }
        let mut game = Self::new(scene, path.to_path_buf(), tick_hz)?;
        startup.extend(&game.startup);
        game.startup = startup;
        Ok(game)
    }

    /// Starts a level built in code (see [`sierra_scene::Level::in_folder`]): validates it,
    /// loads its assets through its asset root and starts it at tick 0 with a `tick_hz` clock.
    ///
    /// # Errors
    /// As [`Game::load`]: invalid objects, missing or refused assets, gameplay errors.
    pub fn from_level(level: &sierra_scene::Level, tick_hz: f64) -> Result<Self> {
        let mut startup = StartupTimes::new();
        let scene = startup.time("level", || -> Result<Scene> {
            level.validate()?;
            let mut assets = sierra_scene::assets::AssetCache::for_level(level);
            Ok(Scene::from_level(level, &mut assets)?)
        })?;
        let mut game = Self::new(scene, level.file.clone(), tick_hz)?;
        startup.extend(&game.startup);
        game.startup = startup;
        Ok(game)
    }

    /// Starts `scene` (loaded from `file`) at tick 0.
    ///
    /// # Errors
    /// A camera that cannot be projected (field of view outside (0°, 180°), `near` ≤ 0,
    /// `far` ≤ `near`, target at the eye), named with the level file and JSON path.
    pub fn new(mut scene: Scene, file: PathBuf, tick_hz: f64) -> Result<Self> {
        validate_camera(&scene, &file)?;
        let mut startup = StartupTimes::new();
        let gameplay = startup.time("gameplay", || Gameplay::new(&mut scene, &file))?;
        let mut world = startup
            .time("terrain_cpu", || World::from_scene(&scene))
            .map_err(|e| e.context(format!("{}: landscape components", file.display())))?;
        world.crowds = startup.time("crowd_bakes", || {
            crate::world::crowds::LevelCrowds::from_scene(&scene, &file)
        })?;
        let audio = GameAudio::from_scene(&scene, &file);
        let node_animators =
            sierra_scene::node_animation::NodeAnimators::from_scene(&scene, &file)?;
        Ok(Self {
            audio,
            scene,
            gameplay,
            world,
            camera_path: None,
            node_animators,
            wireframe: false,
            debug_view: sierra_render::DebugView::Lit,
            commands: Vec::new(),
            startup,
            file,
            clock: FixedTimestep::new(tick_hz),
        })
    }

    /// Queues `command` for the next [`Game::tick`].
    pub fn push_command(&mut self, command: Command) {
        self.commands.push(command);
    }

    /// Applies the queued commands in order. A command naming a character or clip that does not
    /// exist, or a drop outside the sea, is reported on stderr and dropped.
    fn apply_commands(&mut self) {
        let mut commands = std::mem::take(&mut self.commands);
        for command in commands.drain(..) {
            match command {
                Command::PlayClip {
                    character,
                    clip,
                    fade,
                } => match self.gameplay.characters.get_mut(character) {
                    Some(c) if clip < c.model.clips.len() => {
                        c.play(clip, c.current.playback, fade);
                    }
                    _ => log::warn!("play clip: no character {character} with clip {clip}"),
                },
                Command::Scrub { character, time } => {
                    if let Some(c) = self.gameplay.characters.get_mut(character) {
                        c.current.time = time.max(0.0);
                    }
                }
                Command::Sun { direction } => {
                    if direction.is_finite() && direction != glam::Vec3::ZERO {
                        self.scene.sun.direction = direction;
                    }
                }
                Command::Bloom {
                    threshold,
                    intensity,
                } => {
                    self.scene.post.bloom_threshold = threshold;
                    self.scene.post.bloom_intensity = intensity;
                }
                Command::Wireframe(on) => self.wireframe = on,
                Command::DropWater { at } => {
                    if self.world.drop_water(at) {
                        log::info!("water drop at ({:.1}, {:.1})", at.x, at.y);
                    } else {
                        log::warn!(
                            "water drop at ({:.1}, {:.1}): not on this level's simulated sea",
                            at.x,
                            at.y
                        );
                    }
                }
            }
        }
        self.commands = commands;
    }

    /// Runs one fixed tick: queued commands, systems, then transform propagation, then the
    /// sound (listener at the camera, spatial loops at their nodes).
    pub fn tick(&mut self) {
        self.apply_commands();
        let (tick, dt) = (self.clock.tick(), self.clock.dt() as f32);
        sierra_scene::node_behaviour::tick_node_components(&mut self.scene, dt);
        self.node_animators.update(&mut self.scene, dt);
        let terrain = self.world.height_field();
        if let Err(e) = self.gameplay.tick(&mut self.scene, terrain, tick, dt) {
            log::error!("{e}");
        }
        self.world.tick(dt);
        let player = (self.gameplay.player.as_ref())
            .and_then(|p| self.scene.graph.world(p.node))
            .map(|w| glam::Vec3::from(w.translation));
        self.world.crowds.react(player, self.world.time as f32, dt);
        let path = (self.camera_path.as_ref()).filter(|p| p.drives_at(self.world.time as f32));
        if let Some(path) = path {
            let world = &self.world;
            let (eye, target) = path.sample(
                world.time as f32,
                |x, z| world.ground_height(x, z),
                world.sea_level().unwrap_or(0.0),
            );
            self.scene.camera.position = eye;
            self.scene.camera.target = target;
        }
        self.clock.advance();
        self.scene.graph.propagate();
        self.audio.tick(&self.scene, self.clock.dt());
    }
}

fn validate_camera(scene: &Scene, file: &Path) -> Result<()> {
    let c = &scene.camera;
    let at = |field: &str| format!("{}: at `camera.{field}`", file.display());
    if !(c.fov_y_degrees > 0.0 && c.fov_y_degrees < 180.0) {
        bail!(
            "{}: {} is outside (0, 180) degrees",
            at("fovYDegrees"),
            c.fov_y_degrees
        );
    }
    if !(c.near > 0.0 && c.near.is_finite()) {
        bail!("{}: {} must be > 0 metres", at("near"), c.near);
    }
    if !(c.far > c.near && c.far.is_finite()) {
        bail!(
            "{}: {} must be finite and > near ({})",
            at("far"),
            c.far,
            c.near
        );
    }
    let forward = c.target - c.position;
    if forward.length_squared() < 1e-12 || !forward.is_finite() {
        bail!(
            "{}: equals camera.position, so there is no view direction",
            at("target")
        );
    }
    if forward.normalize().cross(glam::Vec3::Y).length_squared() < 1e-12 {
        bail!(
            "{}: the view is vertical, so up (+Y) is undefined; offset the target slightly",
            at("target")
        )
    }
    Ok(())
}

/// Loads a level from JSON text (unit tests).
#[cfg(test)]
pub(crate) fn game_from_json(json: &str, tick_hz: f64) -> Result<Game> {
    let level = sierra_scene::Level::from_json_str(json, "inline.json", ".")?;
    let mut assets = sierra_scene::assets::AssetCache::for_level(&level);
    let scene = Scene::from_level(&level, &mut assets)?;
    Game::new(scene, PathBuf::from("inline.json"), tick_hz)
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;

    #[test]
    fn spinner_turns_by_rate_times_ticks() {
        let mut game = game_from_json(
            r#"{"objects": [{"name": "s", "mesh": "cube", "components": [{"type": "Spinner", "degreesPerSecond": 90}]}]}"#,
            60.0,
        )
        .unwrap();
        for _ in 0..60 {
            game.tick();
        }
        assert_eq!(game.clock.tick(), 60);
        let node = game.scene.objects[0];
        let x = game
            .scene
            .graph
            .world(node)
            .unwrap()
            .transform_vector3(Vec3::X);
        // 90°/s for 1 s about +Y turns +X into -Z.
        assert!((x - Vec3::NEG_Z).length() < 1e-4, "{x}");
    }

    #[test]
    fn unprojectable_cameras_are_errors_with_their_json_path() {
        for (camera, path) in [
            (r#"{"fovYDegrees": 0}"#, "camera.fovYDegrees"),
            (r#"{"near": 0}"#, "camera.near"),
            (r#"{"near": 2, "far": 1}"#, "camera.far"),
            (
                r#"{"position": [0, 0, 0], "target": [0, 0, 0]}"#,
                "camera.target",
            ),
            (
                r#"{"position": [0, 5, 0], "target": [0, 0, 0]}"#,
                "camera.target",
            ),
        ] {
            let err = game_from_json(&format!(r#"{{"camera": {camera}}}"#), 60.0)
                .err()
                .unwrap();
            assert!(err.to_string().contains(path), "{camera}: {err}");
        }
    }

    #[test]
    fn a_play_clip_command_changes_the_clip_at_the_next_tick_not_before() {
        let mut game = game_from_json(
            r#"{"objects": [{"name": "walker", "components": [
                {"type": "Character", "model": "builtin:mannequin", "clip": "walk"}]}]}"#,
            60.0,
        )
        .unwrap();
        game.tick();
        let clips = &game.gameplay.characters[0].model.clips;
        let clip_named = |name: &str| clips.iter().position(|c| c.name() == name).unwrap();
        let (walk, idle) = (clip_named("walk"), clip_named("idle"));
        assert_eq!(game.gameplay.characters[0].current.clip, walk);
        // The overlay issues the command while a frame is drawn: the state that frame (and any
        // frame extracted before the next tick) reads is unchanged.
        game.push_command(Command::PlayClip {
            character: 0,
            clip: idle,
            fade: 0.2,
        });
        assert_eq!(game.gameplay.characters[0].current.clip, walk);
        game.tick();
        let c = &game.gameplay.characters[0];
        assert_eq!(c.current.clip, idle);
        assert_eq!(
            c.previous.map(|p| p.clip),
            Some(walk),
            "crossfading from walk"
        );
        // Commands naming what does not exist are dropped, not applied or panicked on.
        game.push_command(Command::PlayClip {
            character: 3,
            clip: 0,
            fade: 0.0,
        });
        game.push_command(Command::PlayClip {
            character: 0,
            clip: 999,
            fade: 0.0,
        });
        game.tick();
        assert_eq!(game.gameplay.characters[0].current.clip, idle);
    }

    #[test]
    fn sun_bloom_and_wireframe_commands_apply_at_the_next_tick() {
        let mut game = game_from_json(r#"{"objects": []}"#, 60.0).unwrap();
        let sun = Vec3::new(0.0, -1.0, 0.0);
        game.push_command(Command::Sun { direction: sun });
        game.push_command(Command::Bloom {
            threshold: 2.5,
            intensity: 0.25,
        });
        game.push_command(Command::Wireframe(true));
        assert_ne!(game.scene.sun.direction, sun);
        assert!(!game.wireframe);
        game.tick();
        assert_eq!(game.scene.sun.direction, sun);
        assert_eq!(game.scene.post.bloom_threshold, 2.5);
        assert_eq!(game.scene.post.bloom_intensity, 0.25);
        assert!(game.wireframe);
    }
}
