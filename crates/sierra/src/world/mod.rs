//! The procedural world of a level: the island ([`landscape`]), the simulated sea ([`sea`]) and
//! what lives around it ([`sky_objects`]: planet with clouds, birds, palm trees).
//!
//! [`World`] is CPU state owned by [`crate::game::Game`]: the island's heights (for gameplay
//! ground queries, [`World::ground_height`]), the flock, the crowds' members, the clock.
//! [`World::tick`] runs at the fixed rate and queues the sea's simulation inputs (drops,
//! sub-steps). Everything uploaded for it (terrain chunks at every level of detail, palms, bird
//! wing poses, planet, clouds, crowds; the water simulation handed to the renderer) is the GPU
//! bridge's (`crate::gpu_bridge::world`), which also hands the queued inputs over to a frame
//! and adds the world's draws; [`World::extract`] reads the world's part of the frame settings.

pub mod crowd_reaction;
pub mod crowds;
pub mod hidden_floor;
pub mod landscape;
pub mod sea;
pub mod sky_objects;

use anyhow::Result;
use glam::{Vec2, Vec3};
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
    /// The island (its heights are ready once the GPU bridge uploaded the level for GPU
    /// terrain, or at creation for `"backend": "cpu"`).
    pub landscape: Option<Landscape>,
    /// The sea's parameters and drop schedule.
    pub sea: Option<Sea>,
    /// Planet, clouds, birds, palms.
    pub sky: SkyObjects,
    /// Simulated seconds since the level started.
    pub time: f64,
    /// The level's `Crowd` components (set by [`crate::game::Game::new`], which knows the level
    /// file; placed and uploaded by the GPU bridge once the ground heights exist).
    pub crowds: crowds::LevelCrowds,
    /// The sea's simulation inputs queued by ticks since the last [`World::take_sea_ops`].
    sea_ops: Vec<SeaOp>,
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

    /// Queues a water drop on the sea at world `(x, z)` `at` ([`DROP_RADIUS`], [`DROP_AMPLITUDE`]):
    /// the overlay's "water drop" command; the next frame runs it. Returns `false` when the level
    /// has no uploaded sea or `at` lies outside its simulated grid.
    pub fn drop_water(&mut self, at: Vec2) -> bool {
        match &self.sea {
            Some(sea) if sea.is_uploaded() => {
                sea.drop_at(at, DROP_RADIUS, DROP_AMPLITUDE, &mut self.sea_ops)
            }
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

    /// Moves the sea's simulation inputs queued since the last call to the end of `ops` (the
    /// CPU sea runs them first and queues its state instead): a step directly after the last
    /// queued step of the same length merges into it, and a state replaces an older one, so the
    /// queue stays short however many ticks run before a frame is drawn.
    pub fn take_sea_ops(&mut self, ops: &mut Vec<SeaOp>) {
        if let Some(sea) = &mut self.sea {
            sea.take_state(&mut self.sea_ops);
        }
        for op in self.sea_ops.drain(..) {
            if let (Some(SeaOp::Step { dt, count }), SeaOp::Step { dt: d, count: c }) =
                (ops.last_mut(), &op)
            {
                if *dt == *d {
                    *count += c;
                    continue;
                }
            }
            if matches!(op, SeaOp::State(_)) {
                ops.retain(|o| !matches!(o, SeaOp::State(_)));
            }
            ops.push(op);
        }
    }

    /// The world's part of the frame's settings, read at world time `time` seconds
    /// ([`World::time`], or between ticks when interpolating): the crowds' clock, the sea's
    /// still level (`frame.sea.level`: shadows under water are filled) and the procedural sky for an outdoor level (one with a terrain). Its draws are the GPU
    /// bridge's.
    pub fn extract(&self, time: f64, frame: &mut FrameData) {
        frame.crowds.time = time as f32;
        frame.sea.level = self.sea.as_ref().map(Sea::rest_level);
        self.apply_sky(&frame.sun, &mut frame.post.sky);
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
        // A frame without a tick runs only the queued drop (handed over by the runner's
        // extract, not by the read-only extract step).
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
