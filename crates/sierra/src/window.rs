//! The windowed game loop (winit 0.30): fixed-step simulation, rendering into
//! the window surface, Esc or closing the window exits.
//!
//! Resizes reconfigure the surface and the renderer's targets; a minimised
//! (0 × 0) window keeps simulating but skips rendering. A hidden option
//! (`--test-resize`) scripts a resize to 1 × 1 and back so the window test can check both.

use std::sync::Arc;
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use sierra_render::{wgpu, FrameData, GpuContext, Renderer};
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{Key, NamedKey};
use winit::window::{Window, WindowId};

use crate::game::Game;
use crate::scene_to_frame::{build_frame, empty_frame, upload_scene_meshes, SceneMeshes};

/// How to run the window.
#[derive(Clone, Debug)]
pub struct WindowOptions {
    /// Initial inner size, pixels.
    pub width: u32,
    /// Initial inner size, pixels.
    pub height: u32,
    /// Exit after this many rendered frames (`None`: until Esc or close).
    pub frames: Option<u64>,
    /// Script a resize to 1 × 1 and back (window test).
    pub test_resize: bool,
}

/// What a window run did.
#[derive(Clone, Debug)]
pub enum WindowOutcome {
    /// No event loop could be created (no display): the caller falls back to headless.
    NoDisplay(String),
    /// The window ran and closed.
    Ran {
        /// Frames rendered and presented.
        frames: u64,
        /// Adapter description.
        adapter: String,
    },
}

/// Frames after which `--test-resize` shrinks the window, and how long it stays small.
const RESIZE_AT_FRAME: u64 = 10;
const FRAMES_SMALL: u64 = 5;
/// Frames `--test-resize` waits for the window system before giving up.
const RESIZE_PATIENCE: u64 = 600;

/// Opens a window on `game` and runs until Esc, close, or `options.frames`.
///
/// # Errors
/// GPU or surface errors, and (with `test_resize`) a window system that never applied the resize.
pub fn run_window(game: Game, options: WindowOptions) -> Result<WindowOutcome> {
    let event_loop = match EventLoop::new() {
        Ok(event_loop) => event_loop,
        Err(e) => return Ok(WindowOutcome::NoDisplay(e.to_string())),
    };
    event_loop.set_control_flow(ControlFlow::Poll);
    let mut app = App {
        game: Some(game),
        options,
        running: None,
        error: None,
        frames: 0,
        resize: ResizeScript::default(),
    };
    event_loop.run_app(&mut app).context("window event loop")?;
    if let Some(error) = app.error {
        return Err(error);
    }
    let adapter = app
        .running
        .as_ref()
        .map(|r| r.ctx.adapter_summary())
        .unwrap_or_default();
    Ok(WindowOutcome::Ran {
        frames: app.frames,
        adapter,
    })
}

/// State of the scripted `--test-resize`: shrink at frame 10, grow back 5 frames after the 1 × 1 resize arrived.
#[derive(Debug, Default)]
struct ResizeScript {
    shrink_requested_at: Option<u64>,
    small_seen_at: Option<u64>,
    restore_requested: bool,
    restored: bool,
}

struct Running {
    window: Arc<Window>,
    ctx: GpuContext,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    renderer: Renderer,
    game: Game,
    meshes: SceneMeshes,
    frame: FrameData,
    last_time: Instant,
    minimised: bool,
}

struct App {
    game: Option<Game>,
    options: WindowOptions,
    running: Option<Running>,
    error: Option<anyhow::Error>,
    frames: u64,
    resize: ResizeScript,
}

impl App {
    fn fail(&mut self, event_loop: &ActiveEventLoop, error: anyhow::Error) {
        self.error.get_or_insert(error);
        event_loop.exit();
    }

    fn start(&mut self, event_loop: &ActiveEventLoop) -> Result<()> {
        let game = self
            .game
            .take()
            .ok_or_else(|| anyhow!("window resumed twice"))?;
        let attributes = Window::default_attributes()
            .with_title("Sierra")
            .with_inner_size(PhysicalSize::new(self.options.width, self.options.height));
        let window = Arc::new(
            event_loop
                .create_window(attributes)
                .context("creating the window")?,
        );
        let (ctx, surface) = GpuContext::for_window(
            Box::new(event_loop.owned_display_handle()),
            Arc::clone(&window),
        )?;
        let size = window.inner_size();
        let (width, height) = (size.width.max(1), size.height.max(1));
        let config = ctx.configure_surface(&surface, width, height)?;
        let mut renderer = Renderer::new(&ctx, width, height, config.format)?;
        // Reading timestamps back would stall every frame; the profiler times windowed runs.
        renderer.set_gpu_timing(false);
        let meshes = upload_scene_meshes(&ctx, &mut renderer, &game)?;
        println!(
            "window: {width}x{height} {:?} on {}",
            config.format,
            ctx.adapter_summary()
        );
        self.running = Some(Running {
            window,
            ctx,
            surface,
            config,
            renderer,
            game,
            meshes,
            frame: empty_frame(),
            last_time: Instant::now(),
            minimised: false,
        });
        Ok(())
    }

    fn resized(&mut self, size: PhysicalSize<u32>) -> Result<()> {
        println!("resized to {}x{}", size.width, size.height);
        let Some(running) = &mut self.running else {
            return Ok(());
        };
        if size.width == 0 || size.height == 0 {
            running.minimised = true;
            return Ok(());
        }
        running.minimised = false;
        running.config =
            running
                .ctx
                .configure_surface(&running.surface, size.width, size.height)?;
        running
            .renderer
            .resize(&running.ctx, size.width, size.height)?;
        if size.width == 1 && size.height == 1 && self.resize.small_seen_at.is_none() {
            self.resize.small_seen_at = Some(self.frames);
        }
        if self.resize.restore_requested
            && (size.width, size.height) == (self.options.width, self.options.height)
        {
            self.resize.restored = true;
        }
        Ok(())
    }

    /// Advances the simulation by the real time elapsed and renders one frame.
    fn redraw(&mut self) -> Result<()> {
        let Some(running) = &mut self.running else {
            return Ok(());
        };
        let now = Instant::now();
        let ticks = running
            .game
            .clock
            .ticks_due((now - running.last_time).as_secs_f64());
        running.last_time = now;
        for _ in 0..ticks {
            running.game.tick();
        }
        if running.minimised {
            return Ok(());
        }
        let (width, height) = running.renderer.size();
        build_frame(
            &running.game,
            &running.meshes,
            width as f32 / height as f32,
            &mut running.frame,
        );
        let texture = match running.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t)
            | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
            wgpu::CurrentSurfaceTexture::Timeout | wgpu::CurrentSurfaceTexture::Occluded => {
                return Ok(())
            }
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                let size = running.window.inner_size();
                if size.width > 0 && size.height > 0 {
                    running.config =
                        running
                            .ctx
                            .configure_surface(&running.surface, size.width, size.height)?;
                    running
                        .renderer
                        .resize(&running.ctx, size.width, size.height)?;
                }
                return Ok(());
            }
            wgpu::CurrentSurfaceTexture::Validation => {
                running
                    .ctx
                    .take_uncaptured_errors("acquiring the window's next texture")?;
                bail!("acquiring the window's next texture failed validation");
            }
        };
        if (texture.texture.width(), texture.texture.height()) != (width, height) {
            // The surface and the renderer disagree until the pending resize arrives.
            return Ok(());
        }
        let view = texture
            .texture
            .create_view(&wgpu::TextureViewDescriptor::default());
        running
            .renderer
            .render(&running.ctx, &running.frame, &view)?;
        running.window.pre_present_notify();
        running.ctx.queue.present(texture);
        self.frames += 1;
        Ok(())
    }

    /// `--test-resize`: request 1 × 1, then the original size; returns whether the script is finished.
    fn drive_resize_script(&mut self) -> Result<bool> {
        if !self.options.test_resize {
            return Ok(true);
        }
        let Some(running) = &self.running else {
            return Ok(false);
        };
        let frames = self.frames;
        let script = &mut self.resize;
        if script.shrink_requested_at.is_none() && frames >= RESIZE_AT_FRAME {
            println!("test-resize: requesting 1x1");
            let _ = running.window.request_inner_size(PhysicalSize::new(1, 1));
            script.shrink_requested_at = Some(frames);
        }
        if let Some(seen) = script.small_seen_at {
            if !script.restore_requested && frames >= seen + FRAMES_SMALL {
                println!(
                    "test-resize: requesting {}x{}",
                    self.options.width, self.options.height
                );
                let _ = running
                    .window
                    .request_inner_size(PhysicalSize::new(self.options.width, self.options.height));
                script.restore_requested = true;
            }
        }
        if let Some(at) = script.shrink_requested_at {
            if !script.restored && frames > at + RESIZE_PATIENCE {
                bail!("test-resize: the window system did not apply the resize within {RESIZE_PATIENCE} frames");
            }
        }
        Ok(script.restored)
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.running.is_none() && self.error.is_none() {
            if let Err(e) = self.start(event_loop) {
                self.fail(event_loop, e);
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let result = match event {
            WindowEvent::CloseRequested => {
                event_loop.exit();
                Ok(())
            }
            WindowEvent::KeyboardInput { event, .. }
                if event.state == ElementState::Pressed
                    && event.logical_key == Key::Named(NamedKey::Escape) =>
            {
                event_loop.exit();
                Ok(())
            }
            WindowEvent::Resized(size) => self.resized(size),
            WindowEvent::RedrawRequested => self.redraw(),
            _ => Ok(()),
        };
        if let Err(e) = result {
            self.fail(event_loop, e);
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let script_done = match self.drive_resize_script() {
            Ok(done) => done,
            Err(e) => return self.fail(event_loop, e),
        };
        if self
            .options
            .frames
            .is_some_and(|limit| self.frames >= limit)
            && script_done
        {
            event_loop.exit();
            return;
        }
        if let Some(running) = &self.running {
            running.window.request_redraw();
        }
    }
}
