//! The demo island for tests that tick it or read its world without drawing.
// Each test binary reads the parts it needs; the others only keep the GPU alive.
#![allow(dead_code)]

use std::path::Path;

use sierra::cli::demo::DEMO_LEVEL;
use sierra::game::Game;
use sierra::game_loop::DEFAULT_TICK_HZ;
use sierra::gpu_bridge::world::WorldGpu;
use sierra_render::{GpuContext, HeadlessRenderer};

/// The demo level with its world uploaded, and the 16×16 headless renderer it was uploaded to.
/// Fields drop in order: the game, its GPU half, then the renderer, then the context.
pub struct UploadedDemo {
    /// The demo level loaded at the default tick rate (terrain heights ready, crowds placed).
    pub game: Game,
    /// What the world's upload put on the GPU (the GPU bridge's world half).
    pub world_gpu: WorldGpu,
    /// The renderer holding the demo's GPU resources.
    pub headless: HeadlessRenderer,
    /// The headless GPU context, kept alive with the renderer.
    pub ctx: GpuContext,
}

/// Loads the demo level and uploads its world to a headless GPU.
pub fn uploaded_demo() -> UploadedDemo {
    let ctx = GpuContext::headless().unwrap_or_else(|e| panic!("{e}"));
    let mut headless = HeadlessRenderer::new(&ctx, 16, 16).unwrap_or_else(|e| panic!("{e}"));
    let mut game =
        Game::load(Path::new(DEMO_LEVEL), DEFAULT_TICK_HZ).unwrap_or_else(|e| panic!("{e:#}"));
    let world_gpu = WorldGpu::upload(
        &ctx,
        &mut headless.renderer,
        &mut game.world,
        &mut game.startup,
    )
    .unwrap_or_else(|e| panic!("{e:#}"));
    UploadedDemo {
        game,
        world_gpu,
        headless,
        ctx,
    }
}
