//! The one frame runner every entry point uses — headless `render`/`demo`, the window,
//! `bench scene`, `bench soak` and the tests: tick(s) → extract → render into a target
//! (a window's surface texture or an off-screen image) → optional read-back.
//!
//! ```text
//!  Game (scene graph, gameplay, world)          Renderer (GPU resources, passes)
//!     │  tick × n  (fixed step; commands first)      ▲
//!     ▼                                              │ render(FrameData)
//!  extract ── View (aspect, free camera, alpha) ──► FrameData ──► [read back → PNG]
//! ```
//!
//! Headless runs advance exactly one tick per frame ([`FrameRunner::headless_frame`]); the
//! window runs as many ticks as real time asks and extracts between the last two
//! ([`View::alpha`]). The runner owns the game, what was uploaded for it and the frame it
//! reuses; the caller owns the GPU context and the renderer (a window's renderer outlives
//! resizes, a headless one comes with its image).

use anyhow::Result;
use sierra_profile::profile_scope;
use sierra_render::{wgpu, FrameData, FrameStats, GpuContext, HeadlessRenderer, Renderer};

use crate::game::Game;
use crate::scene_to_frame::{empty_frame, extract, SceneContent, TickSnapshot, View};

/// A game, its uploaded content and the frame extracted from it.
pub struct FrameRunner {
    /// The running level.
    pub game: Game,
    content: SceneContent,
    frame: FrameData,
    previous: TickSnapshot,
}

impl FrameRunner {
    /// Uploads `game`'s content (primitives, characters, landscape) into `renderer`.
    ///
    /// # Errors
    /// GPU and upload errors, with context.
    pub fn new(ctx: &GpuContext, renderer: &mut Renderer, mut game: Game) -> Result<Self> {
        let content = SceneContent::upload(ctx, renderer, &mut game)?;
        Ok(Self {
            game,
            content,
            frame: empty_frame(),
            previous: TickSnapshot::default(),
        })
    }

    /// One fixed tick (queued commands first), remembering the state before it for
    /// interpolation.
    pub fn tick(&mut self) {
        profile_scope!("gameplay");
        self.previous.take(&self.game);
        self.game.tick();
    }

    /// The extract step ([`extract`]): the frame for the game's state seen through `view`.
    ///
    /// # Errors
    /// A character whose palette does not match its model.
    pub fn extract(&mut self, view: &View) -> Result<&FrameData> {
        profile_scope!("build_frame");
        extract(
            &mut self.game,
            &mut self.content,
            view,
            Some(&self.previous),
            &mut self.frame,
        )?;
        Ok(&self.frame)
    }

    /// The last extracted frame.
    pub fn frame(&self) -> &FrameData {
        &self.frame
    }

    /// Renders the last extracted frame into `output` (a view of a texture of the renderer's
    /// size and output format).
    ///
    /// # Errors
    /// GPU errors, bad frame data.
    pub fn render(
        &self,
        ctx: &GpuContext,
        renderer: &mut Renderer,
        output: &wgpu::TextureView,
    ) -> Result<FrameStats> {
        profile_scope!("render");
        Ok(renderer.render(ctx, &self.frame, output)?)
    }

    /// One headless frame: one tick, extract at that tick, render into `headless`'s image and
    /// read it back.
    ///
    /// # Errors
    /// GPU errors, with the frame's context.
    pub fn headless_frame(
        &mut self,
        ctx: &GpuContext,
        headless: &mut HeadlessRenderer,
    ) -> Result<(image::RgbaImage, FrameStats)> {
        profile_scope!("frame");
        self.tick();
        let (width, height) = headless.renderer.size();
        self.extract(&View::at_tick(width as f32 / height as f32))?;
        profile_scope!("render");
        Ok(headless.render(ctx, &self.frame)?)
    }
}
