//! The world's GPU half ([`WorldGpu`]): what [`WorldGpu::upload`] put on the GPU for a level's
//! landscape components (terrain chunks at every level of detail, palms, bird wing poses,
//! planet, clouds, the crowds' renderer handles; the water simulation is handed to the
//! renderer), the hand-over of the world's one-shot simulation inputs into a frame, and the
//! world's draws each frame.

use anyhow::Result;
use glam::Vec3;
use sierra_profile::StartupTimes;
use sierra_render::passes::crowd::CrowdHandle;
use sierra_render::{DrawItem, FrameData, GpuContext, Renderer};

use super::landscape::LandscapeGpu;
use super::sky_objects::SkyObjectsGpu;
use crate::world::World;

/// What [`WorldGpu::upload`] put on the GPU.
pub struct WorldGpu {
    landscape: Option<LandscapeGpu>,
    sky: SkyObjectsGpu,
    /// `[crowd]` (level order) the renderer crowds (one per model primitive) drawing it.
    crowds: Vec<Vec<CrowdHandle>>,
}

impl WorldGpu {
    /// Generates GPU terrain (when not done on the CPU: the heights are written into `world`),
    /// uploads every mesh once, creates the water simulation over the island and binds it to
    /// the renderer's sea pass, and places and uploads the crowds. Call once, before the first
    /// frame. Each step is a start-up stage in `startup` (`terrain_upload`: GPU generation and
    /// chunks, `water_upload`, `sky_upload`, `crowd_upload`).
    ///
    /// # Errors
    /// GPU errors, terrain/water parameter errors.
    pub fn upload(
        ctx: &GpuContext,
        renderer: &mut Renderer,
        world: &mut World,
        startup: &mut StartupTimes,
    ) -> Result<Self> {
        let hidden = world.sea.as_ref().map(crate::world::Sea::hidden_floor);
        let landscape = match &mut world.landscape {
            Some(l) => Some(startup.time("terrain_upload", || {
                LandscapeGpu::upload(l, ctx, renderer, hidden.as_ref())
            })?),
            None => None,
        };
        let island = world.landscape.as_ref().and_then(|l| l.island.as_ref());
        if let Some(sea) = &mut world.sea {
            startup.time("water_upload", || sea.upload(ctx, renderer, island))?;
        }
        let sky = startup.time("sky_upload", || {
            SkyObjectsGpu::upload(&world.sky, ctx, renderer, island)
        })?;
        let sea_level = world.sea_level();
        let landscape_heights = &world.landscape;
        let level_crowds = &mut world.crowds;
        let crowds = startup.time("crowd_upload", || {
            level_crowds.upload(
                ctx,
                renderer,
                |x, z| landscape_heights.as_ref()?.height_at(x, z),
                sea_level,
            )
        })?;
        Ok(Self {
            landscape,
            sky,
            crowds,
        })
    }

    /// Moves the world's one-shot simulation inputs queued since the last hand-over into
    /// `frame`, after what it holds already: the sea's drops and sub-steps (the CPU sea's state),
    /// and the crowd members changed since, as updates of this level's renderer crowds. The
    /// renderer runs them with the frame's first render ([`crate::frame_runner::FrameRunner`]).
    pub fn hand_over(&self, world: &mut World, frame: &mut FrameData) {
        world.take_sea_ops(&mut frame.sea.ops);
        world.crowds.flush(&self.crowds, &mut frame.crowds);
    }

    /// The world's draws: terrain chunks at the level of detail their distance from `eye`
    /// asks for, then palms, birds, planet and clouds (turned by the world clock at `time`
    /// seconds).
    pub fn push_draws(&self, world: &World, eye: Vec3, time: f64, draws: &mut Vec<DrawItem>) {
        if let (Some(l), Some(lg)) = (&world.landscape, &self.landscape) {
            lg.push_draws(l, eye, draws);
        }
        self.sky.push_draws(&world.sky, time as f32, draws);
    }
}
