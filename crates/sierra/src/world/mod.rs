//! The procedural world of a level: the island ([`landscape`]), the simulated sea ([`sea`]) and
//! what lives around it ([`sky_objects`]: planet with clouds, birds, palm trees).
//!
//! Two halves, so the game loop stays GPU-free:
//! - [`World`] is CPU state owned by [`crate::game::Game`]: the island's heights (for gameplay
//!   ground queries, [`World::ground_height`]), the flock, the clock. [`World::tick`] runs at the
//!   fixed rate.
//! - [`WorldGpu`] holds what was uploaded once ([`World::upload`]: terrain chunks at every level of
//!   detail, palms, bird wing poses, planet, clouds; the water simulation handed to the renderer).
//!   Each tick queues the sea's simulation inputs (drops, sub-steps); [`World::extract`] moves
//!   them, the crowds' clock and member changes, and this frame's draws (chunks picked by
//!   distance from the camera) into the render frame.

pub mod crowd_reaction;
pub mod crowds;
pub mod landscape;
pub mod sea;
pub mod sky_objects;

use anyhow::Result;
use glam::{Vec2, Vec3};
use sierra_profile::StartupTimes;
use sierra_render::{FrameData, GpuContext, Renderer, SeaOp};
use sierra_scene::{Component, Scene};
use sierra_terrain::island::Backend;

pub use landscape::Landscape;
pub use sea::Sea;
pub use sky_objects::SkyObjects;

/// Radius of a drop from the debug overlay's "water drop" button, metres.
pub const DROP_RADIUS: f32 = 12.0;
/// Height of a drop from the "water drop" button at its centre, metres.
pub const DROP_AMPLITUDE: f32 = 2.0;

/// Makes every `Terrain` and `Water` component of `scene` compute on `backend` (the island's
/// fBm grids and the sea's water columns; `sierra bench scene --backend`), whatever the level
/// says. Call before [`World::from_scene`].
pub fn use_backend(scene: &mut Scene, backend: Backend) {
    for (_, content) in scene.content.iter_mut() {
        for component in &mut content.components {
            match component {
                Component::Terrain(t) => t.backend = backend,
                Component::Water(w) => w.backend = backend,
                _ => {}
            }
        }
    }
}

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
    /// The sea's simulation inputs queued by ticks since the last [`World::extract`].
    sea_ops: Vec<SeaOp>,
    gpu: Option<WorldGpu>,
}

/// What [`World::upload`] put on the GPU.
pub struct WorldGpu {
    landscape: Option<landscape::LandscapeGpu>,
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

    /// The island's height field (world XZ, metres), `None` without an island or before its
    /// heights exist. The ground of the player and the follow camera.
    pub fn height_field(&self) -> Option<&sierra_terrain::HeightField> {
        Some(self.landscape.as_ref()?.island.as_ref()?.height_field())
    }

    /// Sea level, metres (the sea's rest level, else the terrain's, else none).
    pub fn sea_level(&self) -> Option<f32> {
        self.sea
            .as_ref()
            .map(Sea::rest_level)
            .or_else(|| self.landscape.as_ref().map(|l| l.params.sea_level))
    }

    /// One fixed tick of `dt` seconds: birds fly, the clock advances (clouds and planet turn
    /// from it at draw time), and the sea's drops and sub-steps for the tick are queued for the
    /// next frame (the renderer runs them on the GPU before drawing).
    pub fn tick(&mut self, dt: f32) {
        self.sky.tick(dt);
        self.time += f64::from(dt);
        if let Some(sea) = &mut self.sea {
            sea.tick(self.time, dt, &mut self.sea_ops);
        }
    }

    /// Generates GPU terrain (when not done on the CPU), uploads every mesh once, creates the
    /// water simulation over the island and binds it to `renderer.sea`. Call once, before the
    /// first frame; later calls do nothing. Each step is a start-up stage in `startup`
    /// (`terrain_upload`: GPU generation and chunks, `water_upload`, `sky_upload`,
    /// `crowd_upload`).
    ///
    /// # Errors
    /// GPU errors, terrain/water parameter errors.
    pub fn upload(
        &mut self,
        ctx: &GpuContext,
        renderer: &mut Renderer,
        startup: &mut StartupTimes,
    ) -> Result<()> {
        if self.gpu.is_some() {
            return Ok(());
        }
        let landscape = match &mut self.landscape {
            Some(l) => Some(startup.time("terrain_upload", || l.upload(ctx, renderer))?),
            None => None,
        };
        let island = self.landscape.as_ref().and_then(|l| l.island.as_ref());
        if let Some(sea) = &mut self.sea {
            startup.time("water_upload", || sea.upload(ctx, renderer, island))?;
        }
        let sky = startup.time("sky_upload", || self.sky.upload(ctx, renderer, island))?;
        let sea_level = self.sea_level();
        let landscape_heights = &self.landscape;
        let crowds = &mut self.crowds;
        startup.time("crowd_upload", || {
            crowds.upload(
                ctx,
                renderer,
                |x, z| landscape_heights.as_ref()?.height_at(x, z),
                sea_level,
            )
        })?;
        self.gpu = Some(WorldGpu { landscape, sky });
        Ok(())
    }

    /// Queues a water drop on the sea at world `(x, z)` `at` ([`DROP_RADIUS`], [`DROP_AMPLITUDE`]):
    /// the overlay's "water drop" command; the next frame runs it. Returns `false` when the level
    /// has no uploaded sea or `at` lies outside its simulated grid.
    pub fn drop_water(&mut self, at: Vec2) -> bool {
        match (&self.sea, &self.gpu) {
            (Some(sea), Some(_)) => sea.drop_at(at, DROP_RADIUS, DROP_AMPLITUDE, &mut self.sea_ops),
            _ => false,
        }
    }

    /// Where a drop aimed by a camera at `eye` looking towards `target` lands, world `(x, z)`:
    /// the view ray's crossing with the sea's rest level within the simulated grid. `None`
    /// without a sea, or when the ray does not cross the sea within the grid (looking up, from
    /// below the surface, or past the grid): the caller says so rather than dropping elsewhere.
    pub fn drop_target(&self, eye: Vec3, target: Vec3) -> Option<Vec2> {
        let sea = self.sea.as_ref()?;
        let corner = Vec2::new(sea.origin.x, sea.origin.z);
        let dir = target - eye;
        let level = sea.rest_level();
        if dir.y >= 0.0 || eye.y <= level {
            return None;
        }
        let hit = eye + dir * ((level - eye.y) / dir.y);
        let local = Vec2::new(hit.x, hit.z) - corner;
        let inside = local.cmpge(Vec2::ZERO).all() && local.cmplt(sea.extent()).all();
        inside.then_some(Vec2::new(hit.x, hit.z))
    }

    /// The sea's current water depth per cell (`[rows * cols]` metres, row-major), read back from
    /// the renderer's simulation; `None` without one. For tests and tools (it blocks on the GPU).
    ///
    /// # Errors
    /// GPU errors.
    pub fn sea_depth(ctx: &GpuContext, renderer: &Renderer) -> Result<Option<Vec<f32>>> {
        match renderer.water() {
            Some(water) => Ok(Some(water.read_depth(ctx)?)),
            None => Ok(None),
        }
    }

    /// The world's changes to the level's sky under `sun`: drawn for an outdoor level (one with
    /// a terrain), with the sea's colour below the horizon where there is a sea.
    pub fn apply_sky(&self, sun: &sierra_render::Sun, sky: &mut sierra_render::SkySettings) {
        if self.landscape.is_some() {
            // An outdoor level: gradient sky with the sun disc instead of the flat clear colour.
            sky.enabled = true;
        }
        if let Some(sea) = &self.sea {
            // Below the horizon, beyond the open sea's far edge, the sky shows more sea.
            sky.ground = sea.settings().horizon_color(sun);
        }
    }

    /// The world's part of the render frame: terrain chunks at the level of detail their
    /// distance from `eye` asks for, palms, birds, planet and clouds (turned by the world clock
    /// at `time` seconds, [`World::time`] or between ticks when interpolating) appended to
    /// `frame.draws`; the crowds' clock and changed members; the sea's queued inputs (moved, so
    /// each runs once); the procedural sky for an outdoor level (one with a terrain).
    pub fn extract(&mut self, eye: Vec3, time: f64, frame: &mut FrameData) {
        frame.crowds.time = time as f32;
        frame.crowds.clear_updates();
        self.crowds.flush(&mut frame.crowds);
        frame.sea.ops.clear();
        if let Some(sea) = &mut self.sea {
            sea.take_state(&mut self.sea_ops);
        }
        std::mem::swap(&mut frame.sea.ops, &mut self.sea_ops);
        self.apply_sky(&frame.sun, &mut frame.post.sky);
        let Some(gpu) = &self.gpu else {
            return;
        };
        if let (Some(l), Some(lg)) = (&self.landscape, &gpu.landscape) {
            l.push_draws(lg, eye, &mut frame.draws);
        }
        self.sky.push_draws(&gpu.sky, time as f32, &mut frame.draws);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::game_from_json;
    use sierra_terrain::water::WaterSim;

    /// A 48 x 48 sea of 2 m cells, 13 m deep (no island: the floor is 10 m down), closed edges,
    /// no scheduled drops.
    const SEA: &str = r#"{"objects": [{"name": "sea", "position": [-40, 0, -40], "components": [
        {"type": "Water", "gridSize": [48, 48], "cellSize": 2, "initialLevel": 3}]}]}"#;

    #[test]
    fn drop_target_is_where_the_view_ray_meets_the_simulated_sea_else_none() {
        let game = game_from_json(SEA, 60.0).unwrap();
        let world = &game.world;
        // From 10 m above the 3 m rest level, looking 45 degrees down along -z.
        let hit = world
            .drop_target(Vec3::new(5.0, 13.0, 20.0), Vec3::new(5.0, 12.0, 19.0))
            .unwrap();
        assert!(hit.abs_diff_eq(Vec2::new(5.0, 10.0), 1e-4), "{hit}");
        // Looking up, from below the surface, or crossing the level far outside the grid: no drop.
        let up = world.drop_target(Vec3::new(5.0, 13.0, 20.0), Vec3::new(5.0, 14.0, 19.0));
        assert_eq!(up, None);
        let below = world.drop_target(Vec3::new(5.0, 1.0, 20.0), Vec3::new(5.0, 0.0, 19.0));
        assert_eq!(below, None);
        let far = world.drop_target(Vec3::new(0.0, 13.0, 0.0), Vec3::new(1000.0, 12.9, 0.0));
        assert_eq!(far, None);
        assert_eq!(World::default().drop_target(Vec3::Y, Vec3::ZERO), None);
    }

    #[test]
    fn water_drop_button_perturbs_the_gpu_sea_like_the_cpu_reference_and_keeps_its_volume() {
        let ctx = match GpuContext::headless() {
            Ok(ctx) => ctx,
            Err(e) => {
                return sierra_testkit::skip::skip(sierra_testkit::skip::Reason::NoGpuAdapter, e)
            }
        };
        let game = game_from_json(SEA, 60.0).unwrap();
        let mut headless = sierra_render::HeadlessRenderer::new(&ctx, 8, 8).unwrap();
        let mut runner =
            crate::frame_runner::FrameRunner::new(&ctx, &mut headless.renderer, game).unwrap();
        let depth = |headless: &sierra_render::HeadlessRenderer| {
            World::sea_depth(&ctx, &headless.renderer).unwrap().unwrap()
        };
        let before = depth(&headless);
        assert!(before.iter().all(|&d| (d - 13.0).abs() < 1e-5));

        let at = Vec2::new(-10.0, -12.0);
        assert!(runner.game_mut().world.drop_water(at));
        // Outside the grid: nothing added.
        assert!(!runner.game_mut().world.drop_water(Vec2::new(500.0, 0.0)));
        // A frame without a tick runs only the queued drop.
        let view = crate::scene_to_frame::View::at_tick(1.0);
        runner.extract(&view).unwrap();
        assert_eq!(runner.frame().sea.ops.len(), 1);
        runner
            .render(&ctx, &mut headless.renderer, &headless.target.view)
            .unwrap();
        let dropped = depth(&headless);

        // The CPU water columns given the same drop (grid-local centre) agree cell by cell.
        let sea = runner.game().world.sea.as_ref().unwrap();
        let mut cpu = WaterSim::new(sea.params, vec![-10.0; 48 * 48], before.clone()).unwrap();
        cpu.add_drop(at + Vec2::splat(40.0), DROP_RADIUS, DROP_AMPLITUDE)
            .unwrap();
        let worst = cpu
            .depth()
            .iter()
            .zip(&dropped)
            .map(|(c, g)| (c - g).abs())
            .fold(0.0, f32::max);
        assert!(
            worst < 1e-4,
            "GPU drop differs from the CPU one by {worst} m"
        );
        let cell = |x: f32, z: f32| ((z + 40.0) / 2.0) as usize * 48 + ((x + 40.0) / 2.0) as usize;
        let centre = cell(at.x, at.y);
        assert!(
            dropped[centre] > 13.0 + 0.8 * DROP_AMPLITUDE,
            "{}",
            dropped[centre]
        );
        assert_eq!(
            dropped[cell(30.0, 30.0)],
            13.0,
            "far from the drop the sea is untouched"
        );
        let volume = |d: &[f32]| d.iter().map(|&h| f64::from(h)).sum::<f64>();
        let added = volume(&dropped) - volume(&before);
        assert!(added > 1.0, "the drop added {added} m of column height");

        // A second of simulation: the bump spreads as a ring, closed edges keep the water.
        for _ in 0..60 {
            runner.headless_frame(&ctx, &mut headless).unwrap();
        }
        let later = depth(&headless);
        let drift = (volume(&later) - volume(&dropped)).abs() / volume(&dropped);
        assert!(drift < 1e-5, "volume drifted by {drift}");
        assert!(later[centre] < dropped[centre] - 0.5, "{}", later[centre]);
        // Shallow-water waves run at sqrt(g h) ~ 11 m/s: a second later the ring has left the
        // drop's disc.
        let ring = (0..48 * 48)
            .filter(|&i| {
                let x = (i % 48) as f32 * 2.0 + 1.0 - 40.0;
                let z = (i / 48) as f32 * 2.0 + 1.0 - 40.0;
                let r = Vec2::new(x, z).distance(at);
                r > DROP_RADIUS + 2.0 && r < DROP_RADIUS + 20.0
            })
            .map(|i| (later[i] - 13.0).abs())
            .fold(0.0, f32::max);
        assert!(ring > 0.05, "no ripple outside the drop's disc: {ring} m");
    }
}
