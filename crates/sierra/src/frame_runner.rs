//! The one frame runner every entry point uses — headless `render`/`demo`, the window,
//! `bench scene`, `bench soak`, `view` and the tests: tick(s) → extract → render into a target
//! (a window's surface texture or an off-screen image) → optional read-back. What it draws is a
//! [`FrameSource`]: a running level ([`LevelFrames`]) or `view`'s model at its sample times.
//!
//! ```text
//!  Game (scene graph, gameplay, world)          Renderer (GPU resources, passes)
//!     │  tick × n  (fixed step; commands first)      ▲
//!     ▼                                              │ render(FrameData)
//!  extract ── View (aspect, free camera, alpha) ──► FrameData ──► [read back → PNG]
//! ```
//!
//! Headless runs advance exactly one tick per frame ([`FrameRunner::headless_frame`]; the
//! headless runner may tick more before it: [`crate::headless::HeadlessOptions`]); the
//! window runs as many ticks as real time asks and extracts between the last two
//! ([`View::alpha`]). The runner owns the source (for a level: the game and what was uploaded
//! for it) and the frame it reuses; the caller owns the GPU context and the renderer (a
//! window's renderer outlives resizes, a headless one comes with its image).

use anyhow::{Context, Result};
use sierra_profile::profile_scope;
use sierra_render::{
    readback, wgpu, FrameData, FrameStats, GpuContext, GpuFrameTimings, HeadlessRenderer, Renderer,
};

use crate::game::Game;
use crate::gpu_bridge::GpuBridge;
use crate::scene_to_frame::{empty_frame, extract, TickSnapshot, View};

/// What a [`FrameRunner`] draws: state that advances in fixed ticks and turns into frames.
pub trait FrameSource {
    /// One fixed tick.
    fn tick(&mut self);

    /// The hand-over step, before each extract: moves the one-shot simulation inputs the ticks
    /// queued (a level's sea drops and sub-steps, changed crowd members) into `frame`, after
    /// those it holds already (they stay until the frame's first render). Nothing by default.
    fn hand_over(&mut self, _frame: &mut FrameData) {}

    /// The extract step: writes the complete frame for the current state seen through `view`
    /// into `frame` (reusing its vectors). It reads the state; the one-shot inputs are the
    /// hand-over's.
    ///
    /// # Errors
    /// Data that cannot be drawn (a palette that does not match its model, a bad clip).
    fn extract(&mut self, view: &View, frame: &mut FrameData) -> Result<()>;
}

/// A running level and what was uploaded for it: the source of `render`, `demo`, the window and
/// the benches.
pub struct LevelFrames {
    /// The running level.
    pub game: Game,
    /// Every GPU handle the level needs, uploaded at load.
    bridge: GpuBridge,
    /// The state before the last tick, recorded only when [`LevelFrames::interpolate`] is set.
    previous: TickSnapshot,
    /// Record each tick's previous state so frames can be drawn between ticks (a window);
    /// headless runs draw each tick as it is and skip the copy.
    pub interpolate: bool,
}

impl LevelFrames {
    /// Uploads `game`'s content (primitives, characters, landscape) into `renderer`.
    ///
    /// # Errors
    /// GPU and upload errors, with context.
    pub fn new(ctx: &GpuContext, renderer: &mut Renderer, mut game: Game) -> Result<Self> {
        // Times its stages into `game.startup` (`mesh_upload`, then the world's uploads).
        let bridge = GpuBridge::upload(ctx, renderer, &mut game)?;
        Ok(Self {
            game,
            bridge,
            previous: TickSnapshot::default(),
            interpolate: false,
        })
    }
}

impl LevelFrames {
    /// Runs `game` from now on (a reload, [`crate::hot_reload`]): uploads it reusing what the
    /// running level uploaded ([`GpuBridge::reload`]; `changed`: the files that changed,
    /// canonical) and returns the game it replaces. The first frame after it is not
    /// interpolated.
    ///
    /// # Errors
    /// Upload errors; the running level is then kept, as it was.
    pub fn replace_game(
        &mut self,
        ctx: &GpuContext,
        renderer: &mut Renderer,
        mut game: Game,
        changed: &[std::path::PathBuf],
    ) -> Result<Game> {
        self.bridge.reload(ctx, renderer, &mut game, changed)?;
        self.previous = TickSnapshot::default();
        Ok(std::mem::replace(&mut self.game, game))
    }

    /// Every GPU handle the running level uses.
    pub fn bridge(&self) -> &GpuBridge {
        &self.bridge
    }
}

impl FrameSource for LevelFrames {
    /// One game tick (queued commands first), remembering the state before it for
    /// interpolation.
    fn tick(&mut self) {
        profile_scope!("gameplay");
        if self.interpolate {
            self.previous.take(&self.game);
        }
        self.game.tick();
    }

    /// [`GpuBridge::hand_over`].
    fn hand_over(&mut self, frame: &mut FrameData) {
        self.bridge.hand_over(&mut self.game, frame);
    }

    /// [`extract`], interpolating from the previous tick when `view.alpha < 1`.
    fn extract(&mut self, view: &View, frame: &mut FrameData) -> Result<()> {
        extract(
            &self.game,
            &mut self.bridge,
            view,
            self.interpolate.then_some(&self.previous),
            frame,
        )
    }
}

/// A frame source and the frame extracted from it.
pub struct FrameRunner<S: FrameSource = LevelFrames> {
    /// What is drawn.
    pub source: S,
    frame: FrameData,
    /// The newest GPU timings the renderer returned (a few frames old), for the overlay.
    latest_gpu: Option<GpuFrameTimings>,
}

impl FrameRunner<LevelFrames> {
    /// A runner of `game`, its content uploaded into `renderer` ([`LevelFrames::new`]).
    ///
    /// # Errors
    /// GPU and upload errors, with context.
    pub fn new(ctx: &GpuContext, renderer: &mut Renderer, game: Game) -> Result<Self> {
        Ok(Self::with_source(LevelFrames::new(ctx, renderer, game)?))
    }

    /// The running level.
    pub fn game(&self) -> &Game {
        &self.source.game
    }

    /// The running level, to change it between frames (input, commands).
    pub fn game_mut(&mut self) -> &mut Game {
        &mut self.source.game
    }

    /// The level, ending the run.
    pub fn into_game(self) -> Game {
        self.source.game
    }
}

impl<S: FrameSource> FrameRunner<S> {
    /// A runner drawing `source`.
    pub fn with_source(source: S) -> Self {
        Self {
            source,
            frame: empty_frame(),
            latest_gpu: None,
        }
    }

    /// One fixed tick of the source.
    pub fn tick(&mut self) {
        self.source.tick();
    }

    /// The hand-over of the ticks' one-shot inputs ([`FrameSource::hand_over`]), then the
    /// read-only extract step: the frame for the source's state seen through `view`.
    ///
    /// # Errors
    /// As [`FrameSource::extract`].
    pub fn extract(&mut self, view: &View) -> Result<&FrameData> {
        profile_scope!("build_frame");
        self.source.hand_over(&mut self.frame);
        self.source.extract(view, &mut self.frame)?;
        Ok(&self.frame)
    }

    /// The last extracted frame.
    pub fn frame(&self) -> &FrameData {
        &self.frame
    }

    /// Renders the last extracted frame into `output` (a view of a texture of the renderer's
    /// size and output format). The frame's one-shot simulation inputs (the sea's drops and
    /// steps, crowd member updates, handed over before the extract) run with the first render
    /// only: this is the one place they are cleared, so rendering the same frame again (a
    /// window's screenshot) draws the same state.
    ///
    /// # Errors
    /// GPU errors, bad frame data.
    pub fn render(
        &mut self,
        ctx: &GpuContext,
        renderer: &mut Renderer,
        output: &wgpu::TextureView,
    ) -> Result<FrameStats> {
        profile_scope!("render");
        let stats = renderer.render(ctx, &self.frame, output)?;
        self.frame.sea.ops.clear();
        self.frame.crowds.clear_updates();
        self.note_gpu(&stats.gpu);
        Ok(stats)
    }

    /// Renders the last extracted frame again into an off-screen texture of the renderer's size
    /// in `format` (a window's surface format) and reads it back: a window's screenshot (surface
    /// textures cannot be read back everywhere).
    ///
    /// # Errors
    /// GPU errors; a `format` that is not 8-bit RGBA/BGRA.
    pub fn render_to_image(
        &mut self,
        ctx: &GpuContext,
        renderer: &mut Renderer,
        format: wgpu::TextureFormat,
    ) -> Result<image::RgbaImage> {
        let (width, height) = renderer.size();
        let texture = ctx.create_texture(&sierra_render::targets::texture_desc(
            "screenshot",
            width,
            height,
            format,
            wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        ))?;
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        self.render(ctx, renderer, &view)?;
        Ok(readback::read_texture_rgba(ctx, &texture)?)
    }

    /// The newest GPU timings (per scope and the frame's total) any render returned: what the
    /// window's overlay shows. They are a few frames old (read without waiting); `None` before
    /// the first arrived or without timestamp queries.
    pub fn latest_gpu_timings(&self) -> Option<&GpuFrameTimings> {
        self.latest_gpu.as_ref()
    }

    fn note_gpu(&mut self, gpu: &[GpuFrameTimings]) {
        if let Some(newest) = gpu.last() {
            self.latest_gpu = Some(newest.clone());
        }
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
        let mut stats = self.render(ctx, &mut headless.renderer, &headless.target.view)?;
        let image = readback::read_texture_rgba(ctx, &headless.target.texture)?;
        // The read-back waited for the frame, so its timings are ready without another wait.
        let ready = headless.renderer.collect_gpu_timings(ctx)?;
        self.note_gpu(&ready);
        stats.gpu.extend(ready);
        Ok((image, stats))
    }
}

/// A level started for headless frames: the GPU context, an off-screen renderer and the runner,
/// each stage timed into the game's [`Game::startup`] (`gpu_init`, `pipelines`, then the
/// runner's uploads).
///
/// # Errors
/// No GPU adapter, renderer creation and upload errors, with context.
pub fn start_headless(
    mut game: Game,
    width: u32,
    height: u32,
) -> Result<(GpuContext, HeadlessRenderer, FrameRunner)> {
    let ctx = game.startup.time("gpu_init", GpuContext::headless)?;
    let mut headless = game
        .startup
        .time("pipelines", || HeadlessRenderer::new(&ctx, width, height))
        .with_context(|| format!("creating a {width}x{height} renderer"))?;
    let runner = FrameRunner::new(&ctx, &mut headless.renderer, game)?;
    Ok((ctx, headless, runner))
}
