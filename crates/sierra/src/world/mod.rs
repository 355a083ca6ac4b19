//! The procedural world of a level: the island ([`landscape`]), the simulated sea ([`sea`]) and
//! what lives around it ([`sky_objects`]: planet with clouds, birds, palm trees).
//!
//! Two halves, so the game loop stays GPU-free:
//! - [`World`] is CPU state owned by [`crate::game::Game`]: the island's heights (for gameplay
//!   ground queries, [`World::ground_height`]), the flock, the clock. [`World::tick`] runs at the
//!   fixed rate.
//! - [`WorldGpu`] holds what was uploaded once ([`World::upload`]: terrain chunks at every level of
//!   detail, palms, bird wing poses, planet, clouds; the water simulation bound to the sea pass).
//!   [`World::step_gpu`] steps the water once per tick; [`World::push_draws`] adds this tick's
//!   draws (chunks picked by distance from the camera) to the frame.

pub mod crowds;
pub mod landscape;
pub mod sea;
pub mod sky_objects;

use anyhow::Result;
use glam::Vec3;
use sierra_render::{DrawItem, GpuContext, Renderer};
use sierra_scene::{Component, Scene};

pub use landscape::Landscape;
pub use sea::Sea;
pub use sky_objects::SkyObjects;

/// CPU state of a level's landscape components (all optional: a level without them has an
/// empty world that draws nothing).
#[derive(Default)]
pub struct World {
    /// The island (its heights are ready once [`World::upload`] ran for GPU terrain, or at
    /// creation for `"backend": "cpu"`).
    pub landscape: Option<Landscape>,
    /// The sea's parameters and drop schedule.
    pub sea: Option<Sea>,
    /// Planet, clouds, birds, palms.
    pub sky: SkyObjects,
    /// Simulated seconds since the level started.
    pub time: f64,
    /// The level's `Crowd` components (set by [`crate::game::Game::new`], which knows the level
    /// file; uploaded in [`World::upload`] once the ground heights exist).
    pub crowds: crowds::LevelCrowds,
    gpu: Option<WorldGpu>,
}

/// What [`World::upload`] put on the GPU.
pub struct WorldGpu {
    landscape: Option<landscape::LandscapeGpu>,
    sea: Option<sea::SeaGpu>,
    sky: sky_objects::SkyObjectsGpu,
}

impl World {
    /// Collects the `Terrain`, `Water`, `Planet`, `Birds` and `PalmTrees` components of `scene`
    /// (the first of each kind; the `Water` node's world position is the sea grid's corner).
    ///
    /// # Errors
    /// Invalid parameters (from `sierra_terrain`'s validation), CPU terrain generation errors.
    pub fn from_scene(scene: &Scene) -> Result<Self> {
        let mut world = World::default();
        for &node in scene.graph.parent_first_order() {
            let Some(content) = scene.content.get(node) else {
                continue;
            };
            let origin = scene
                .graph
                .world(node)
                .map(|m| glam::Mat4::from(m).w_axis.truncate())
                .unwrap_or(Vec3::ZERO);
            for component in &content.components {
                match component {
                    Component::Terrain(t) if world.landscape.is_none() => {
                        world.landscape = Some(Landscape::new(t.clone())?);
                    }
                    Component::Water(w) if world.sea.is_none() => {
                        world.sea = Some(Sea::new(w.clone(), origin)?);
                    }
                    Component::Planet(p) if world.sky.planet.is_none() => {
                        world.sky.set_planet(p.clone())?;
                    }
                    Component::Birds(b) if world.sky.flock.is_none() => {
                        world.sky.set_birds(b)?;
                    }
                    Component::PalmTrees(p) if world.sky.palms.is_none() => {
                        world.sky.palms = Some(p.clone());
                    }
                    _ => {}
                }
            }
        }
        Ok(world)
    }

    /// Whether the level has any landscape component.
    pub fn is_empty(&self) -> bool {
        self.landscape.is_none()
            && self.sea.is_none()
            && self.sky.planet.is_none()
            && self.sky.flock.is_none()
    }

    /// Ground height at world `(x, z)`, metres: the island's height field where the island
    /// covers, `None` off the island or before its heights exist. For the player and camera paths.
    pub fn ground_height(&self, x: f32, z: f32) -> Option<f32> {
        self.landscape.as_ref()?.height_at(x, z)
    }

    /// Sea level, metres (the sea's rest level, else the terrain's, else none).
    pub fn sea_level(&self) -> Option<f32> {
        self.sea
            .as_ref()
            .map(Sea::rest_level)
            .or_else(|| self.landscape.as_ref().map(|l| l.params.sea_level))
    }

    /// One fixed tick of `dt` seconds: birds fly, the clock advances (clouds and planet turn
    /// from it at draw time; the water steps in [`World::step_gpu`]).
    pub fn tick(&mut self, dt: f32) {
        self.sky.tick(dt);
        self.time += f64::from(dt);
    }

    /// Generates GPU terrain (when not done on the CPU), uploads every mesh once, creates the
    /// water simulation over the island and binds it to `renderer.sea`. Call once, before the
    /// first frame; later calls do nothing.
    ///
    /// # Errors
    /// GPU errors, terrain/water parameter errors.
    pub fn upload(&mut self, ctx: &GpuContext, renderer: &mut Renderer) -> Result<()> {
        if self.gpu.is_some() {
            return Ok(());
        }
        let landscape = match &mut self.landscape {
            Some(l) => Some(l.upload(ctx, renderer)?),
            None => None,
        };
        let island = self.landscape.as_ref().and_then(|l| l.island.as_ref());
        let sea = match &self.sea {
            Some(s) => Some(s.upload(ctx, renderer, island)?),
            None => None,
        };
        let sky = self.sky.upload(ctx, renderer, island)?;
        let sea_level = self.sea_level();
        let landscape_heights = &self.landscape;
        self.crowds.upload(
            ctx,
            renderer,
            |x, z| landscape_heights.as_ref()?.height_at(x, z),
            sea_level,
        )?;
        if self.landscape.is_some() {
            // An outdoor level: gradient sky with the sun disc instead of the flat clear colour.
            renderer.sky.settings.enabled = true;
        }
        self.gpu = Some(WorldGpu {
            landscape,
            sea,
            sky,
        });
        Ok(())
    }

    /// Steps the sea simulation by one tick of `dt` seconds (fixed sub-steps; scheduled drops
    /// added first) and points the sea pass at the new state.
    ///
    /// # Errors
    /// GPU errors.
    pub fn step_gpu(&mut self, ctx: &GpuContext, renderer: &mut Renderer, dt: f32) -> Result<()> {
        // Crowds animate from the world clock: one time uniform per crowd, nothing per instance.
        renderer.crowd.set_time(self.time as f32);
        let (Some(sea), Some(gpu)) = (&self.sea, &mut self.gpu) else {
            return Ok(());
        };
        if let Some(sea_gpu) = &mut gpu.sea {
            sea.step(sea_gpu, ctx, renderer, self.time, dt)?;
        }
        Ok(())
    }

    /// Appends this tick's world draws: terrain chunks at the level of detail their distance
    /// from `eye` asks for, palms, birds, planet and clouds (turned by the world clock).
    pub fn push_draws(&self, eye: Vec3, draws: &mut Vec<DrawItem>) {
        let Some(gpu) = &self.gpu else {
            return;
        };
        if let (Some(l), Some(lg)) = (&self.landscape, &gpu.landscape) {
            l.push_draws(lg, eye, draws);
        }
        self.sky.push_draws(&gpu.sky, self.time as f32, draws);
    }
}
