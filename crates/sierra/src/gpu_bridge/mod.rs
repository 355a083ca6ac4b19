//! The GPU bridge: every GPU handle a running level needs, owned apart from the game state
//! ([`GpuBridge`]), so [`Game`] holds plain data only. [`GpuBridge::upload`] uploads a level once
//! at load — its primitives and their surfaces ([`scene_meshes`], [`level_surfaces`]), its glTF
//! meshes ([`level_gltf`]) and animated skins ([`level_skins`]), the characters' skinned
//! instances ([`character_meshes`]), the world's terrain, sea, sky objects and crowds
//! ([`world`], [`landscape`], [`sky_objects`]) — and bakes the first frame's environment
//! ([`environment`]). The per-frame extract ([`crate::scene_to_frame::extract`]) reads the game
//! and names these handles in the frame.

pub mod character_meshes;
pub mod environment;
pub mod landscape;
pub mod level_gltf;
pub mod level_skins;
pub mod level_surfaces;
pub mod scene_meshes;
pub mod sky_objects;
pub mod world;

use anyhow::{Context, Result};
use sierra_render::{FrameData, GpuContext, Renderer};

use crate::game::Game;
use character_meshes::CharacterMeshes;
use scene_meshes::SceneMeshes;
use world::WorldGpu;

/// Every GPU handle a running level needs, uploaded once at load ([`GpuBridge::upload`]): the
/// level's meshes and materials, glTF placements and skins, surfaces, the characters' skinned
/// instances and the world's GPU state.
pub struct GpuBridge {
    /// Primitive and glTF meshes, surfaces, animated skins.
    pub meshes: SceneMeshes,
    /// One skinned instance per character.
    pub characters: CharacterMeshes,
    /// The world's terrain chunks, sky objects and crowds.
    pub world: WorldGpu,
}

impl GpuBridge {
    /// Uploads the level's primitives and characters and the world's landscape (terrain, sea,
    /// sky objects, crowds) into `renderer`.
    ///
    /// # Errors
    /// GPU and upload errors, with context.
    pub fn upload(ctx: &GpuContext, renderer: &mut Renderer, game: &mut Game) -> Result<Self> {
        let mut startup = std::mem::take(&mut game.startup);
        let uploaded = startup.time("mesh_upload", || -> Result<_> {
            let meshes = scene_meshes::upload(ctx, renderer, game)?;
            let characters = CharacterMeshes::upload(ctx, renderer, &game.gameplay)?;
            Ok((meshes, characters))
        });
        // GPU terrain generation, terrain chunks, water, sky and crowd textures.
        let world = match &uploaded {
            Ok(_) => WorldGpu::upload(ctx, renderer, &mut game.world, &mut startup)
                .map(Some)
                .context("uploading the landscape"),
            Err(_) => Ok(None),
        };
        let environment = match (&uploaded, &world) {
            (Ok(_), Ok(_)) => startup.time("environment", || {
                environment::bake_level_environment(ctx, renderer, game)
            }),
            _ => Ok(()),
        };
        game.startup = startup;
        let (meshes, characters) = uploaded?;
        let world = world?.context("uploading the landscape")?;
        environment?;
        Ok(Self {
            meshes,
            characters,
            world,
        })
    }

    /// After a reload ([`crate::hot_reload`]) replaced the game: uploads `game`'s content
    /// reusing what `previous` uploaded for the level before it and still draws the same
    /// ([`scene_meshes::reusable`]: primitives, surfaces reading no file in `changed` (canonical
    /// paths), glTF meshes of unchanged files); characters, skins and the world are uploaded
    /// again and the environment re-baked. Call it while the previous game is still alive;
    /// `self` becomes the new game's bridge only when every upload succeeded.
    ///
    /// # Errors
    /// As [`GpuBridge::upload`]; `self` is then unchanged (the previous game still draws).
    pub fn reload(
        &mut self,
        ctx: &GpuContext,
        renderer: &mut Renderer,
        game: &mut Game,
        changed: &[std::path::PathBuf],
    ) -> Result<()> {
        let kept = scene_meshes::reusable(self.meshes.clone(), game, changed);
        let meshes = scene_meshes::upload_onto(ctx, renderer, game, kept)?;
        let characters = CharacterMeshes::upload(ctx, renderer, &game.gameplay)?;
        let mut startup = std::mem::take(&mut game.startup);
        let world = WorldGpu::upload(ctx, renderer, &mut game.world, &mut startup)
            .context("uploading the landscape");
        game.startup = startup;
        let world = world?;
        environment::bake_level_environment(ctx, renderer, game)?;
        *self = Self {
            meshes,
            characters,
            world,
        };
        Ok(())
    }

    /// The hand-over step between the ticks and the read-only extract: moves the one-shot
    /// simulation inputs the ticks queued in `game` (the sea's drops and sub-steps, changed
    /// crowd members) into `frame` ([`WorldGpu::hand_over`]).
    pub fn hand_over(&self, game: &mut Game, frame: &mut FrameData) {
        self.world.hand_over(&mut game.world, frame);
    }
}
