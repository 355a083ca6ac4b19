//! `sierra view MODEL --window`: the interactive model viewer, on the same frame runner and
//! model source as the headless `view` ([`crate::cli::view::ModelFrames`]).
//!
//! Drag with the left mouse button to orbit, scroll to zoom ([`orbit::Orbit`]); Tab or 1–9
//! pick a clip, Space plays/pauses, ←/→ scrub, F toggles wireframe, P/F12 writes a screenshot
//! into `--out`, Esc quits ([`playback::Playback`]). The window title shows the clip and time.
//! Saving the model reloads it (unless `--no-watch`), and F5 does by hand ([`reload`]).
//!
//! Scripted runs (`--frames N`, `--orbit DEGREES`) advance the clip by one 60 Hz tick per frame
//! and turn the camera `DEGREES` per frame, so they draw the same frames on any machine; after
//! `N` frames the viewer writes its last frame to `--out/window.png` and closes.

/// The orbit camera, shared with the web viewer.
pub use sierra_content::orbit;
pub mod playback;
pub mod reload;

use std::sync::Arc;
use std::time::Instant;

use anyhow::{anyhow, Context, Result};
use sierra_render::{wgpu, GpuContext, Renderer};
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::PhysicalKey;
use winit::window::{Window, WindowId};

use crate::cli::view::{import_model, upload_model, ModelFrames, ModelRequest, ViewArgs};
use crate::frame_runner::FrameRunner;
use crate::output::OutputDir;
use crate::scene_to_frame::View;
use crate::window::{open_window, WindowGpu};
use orbit::Orbit;
use playback::{Playback, WindowRequest};
use sierra_gltf::GltfAsset;

/// The screenshot a scripted run (`--frames`) writes at its end: `window.png` (`window_2.png`
/// … beside earlier ones: the folder is appended to, never overwritten).
pub const LAST_FRAME: &str = "window";

/// Seconds per frame in a scripted run (one 60 Hz tick).
const SCRIPTED_DT: f32 = 1.0 / 60.0;

/// Runs the viewer until Esc, close or `--frames`.
///
/// # Errors
/// No display, import errors naming the file, GPU and surface errors, unwritable screenshots.
pub fn run(args: &ViewArgs) -> Result<()> {
    let request = request(args, 1.0);
    // A bad model is refused before the window opens or the output folder is touched.
    let imported = import_model(&request)?;
    let out = OutputDir::append(&args.out, args.force)?;
    // Frames after the first come from the window's redraws; a scripted run needs at least one.
    if args.frames == Some(0) {
        anyhow::bail!("--frames must be at least 1");
    }
    let event_loop = EventLoop::new()
        .map_err(|e| anyhow!("view --window needs a display (DISPLAY or WAYLAND_DISPLAY): {e}"))?;
    event_loop.set_control_flow(ControlFlow::Poll);
    let mut app = App {
        args,
        imported: Some(imported),
        out,
        running: None,
        error: None,
        frames: 0,
        screenshots: 0,
        watcher: reload::watcher(args),
    };
    event_loop.run_app(&mut app).context("viewer event loop")?;
    if let Some(error) = app.error {
        return Err(error);
    }
    outln!("viewer closed after {} frames", app.frames)?;
    Ok(())
}

struct App<'a> {
    args: &'a ViewArgs,
    /// The model, until the window's start uploads it.
    imported: Option<(GltfAsset, Option<usize>)>,
    out: OutputDir,
    running: Option<Running>,
    error: Option<anyhow::Error>,
    frames: u64,
    screenshots: u32,
    /// The model's folder, watched for edits ([`reload`]).
    watcher: Option<crate::hot_reload::watcher::FileWatcher>,
}

/// The open window and what it draws.
struct Running {
    window: Arc<Window>,
    ctx: GpuContext,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    renderer: Renderer,
    runner: FrameRunner<ModelFrames>,
    orbit: Orbit,
    playback: Playback,
    /// Left button held: mouse motion orbits.
    dragging: bool,
    cursor: Option<(f64, f64)>,
    last_time: Instant,
}

impl App<'_> {
    fn start(&mut self, event_loop: &ActiveEventLoop) -> Result<()> {
        let size = PhysicalSize::new(self.args.size.width, self.args.size.height);
        let WindowGpu {
            window,
            ctx,
            surface,
            config,
            mut renderer,
        } = open_window(event_loop, "Sierra view", size)?;
        let (width, height) = (config.width, config.height);
        let imported = self
            .imported
            .take()
            .ok_or_else(|| anyhow!("viewer started twice"))?;
        let request = request(self.args, width as f32 / height as f32);
        let loaded = upload_model(&ctx, &mut renderer, &request, imported)?;
        let clip = loaded.clip.unwrap_or(0);
        let (centre, radius) = loaded.sphere;
        let _ = outln!("viewer: {width}x{height} on {}", ctx.adapter_summary());
        self.running = Some(Running {
            orbit: Orbit::framing(centre, radius, width as f32 / height as f32),
            playback: Playback::new(loaded.clips, clip),
            runner: FrameRunner::with_source(loaded.source),
            window,
            ctx,
            surface,
            config,
            renderer,
            dragging: false,
            cursor: None,
            last_time: Instant::now(),
        });
        Ok(())
    }

    /// Advances playback (a tick per frame when scripted, else real time), draws, presents, and
    /// after `--frames` writes the last frame and closes.
    fn redraw(&mut self, event_loop: &ActiveEventLoop) -> Result<()> {
        let scripted = self.args.orbit.is_some() || self.args.frames.is_some();
        let Some(running) = &mut self.running else {
            return Ok(());
        };
        // A lost device ends the viewer with the error (`crate::device_loss`).
        running
            .ctx
            .check_device("drawing the viewer's next frame")?;
        let now = Instant::now();
        let changed = self.watcher.as_mut().and_then(|w| w.changed(now));
        if changed.is_some_and(|c| reload::touches_model(self.args, &c)) {
            reload_model(running, self.args);
        }
        let dt = if scripted {
            SCRIPTED_DT
        } else {
            (now - running.last_time).as_secs_f32().min(0.25)
        };
        running.last_time = now;
        running.playback.advance(dt);
        if let Some(degrees) = self.args.orbit {
            running.orbit.turn(degrees);
        }
        prepare(running)?;
        let texture = match running.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t)
            | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
            _ => {
                // A lost device shows here first: the poll runs wgpu's device-lost callback.
                running
                    .ctx
                    .poll_device("acquiring the viewer's next texture")?;
                // Outdated, lost, occluded: reconfigure at the window's size and skip the frame.
                let size = running.window.inner_size();
                return resize(running, size);
            }
        };
        if (texture.texture.width(), texture.texture.height()) != running.renderer.size() {
            return Ok(());
        }
        let target = texture
            .texture
            .create_view(&wgpu::TextureViewDescriptor::default());
        running
            .runner
            .render(&running.ctx, &mut running.renderer, &target)?;
        running.window.pre_present_notify();
        running.ctx.queue.present(texture);
        self.frames += 1;
        if self
            .args
            .frames
            .is_some_and(|n| self.frames >= u64::from(n))
        {
            self.screenshot(LAST_FRAME)?;
            event_loop.exit();
        }
        Ok(())
    }

    /// Renders the current frame again off-screen and writes it into `--out` as `stem.png`.
    fn screenshot(&mut self, stem: &str) -> Result<()> {
        let Some(running) = &mut self.running else {
            return Ok(());
        };
        let path = self.out.add(stem, "png")?;
        let format = running.config.format;
        let image = running
            .runner
            .render_to_image(&running.ctx, &mut running.renderer, format)?;
        crate::output::write_image(&image, &path).context("writing the screenshot")?;
        let _ = outln!("screenshot {}", path.display());
        Ok(())
    }

    fn key(&mut self, event_loop: &ActiveEventLoop, code: winit::keyboard::KeyCode) -> Result<()> {
        let Some(running) = &mut self.running else {
            return Ok(());
        };
        if code == winit::keyboard::KeyCode::F5 {
            reload_model(running, self.args);
            return Ok(());
        }
        let (changed, request) = running.playback.on_key(code);
        if changed {
            let _ = outln!(
                "{}{}",
                running.playback.status(),
                if running.playback.wireframe {
                    ", wireframe"
                } else {
                    ""
                }
            );
        }
        match request {
            Some(WindowRequest::Quit) => event_loop.exit(),
            Some(WindowRequest::Screenshot) => {
                self.screenshots += 1;
                let name = format!("screenshot_{:05}", self.screenshots);
                self.screenshot(&name)?;
            }
            None => {}
        }
        Ok(())
    }

    fn event(&mut self, event_loop: &ActiveEventLoop, event: WindowEvent) -> Result<()> {
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::KeyboardInput { event, .. } => {
                if let (PhysicalKey::Code(code), ElementState::Pressed) =
                    (event.physical_key, event.state)
                {
                    self.key(event_loop, code)?;
                }
            }
            WindowEvent::Resized(size) => {
                if let Some(running) = &mut self.running {
                    resize(running, size)?;
                }
            }
            WindowEvent::RedrawRequested => self.redraw(event_loop)?,
            other => {
                if let Some(running) = &mut self.running {
                    mouse(running, &other);
                }
            }
        }
        Ok(())
    }
}

/// Reloads the model ([`reload::replace_model`]), keeping the camera; prints
/// `reloaded MODEL in N ms`, or keeps the model shown and says why (stderr, window title).
fn reload_model(running: &mut Running, args: &ViewArgs) {
    let start = Instant::now();
    let (width, height) = running.renderer.size();
    let request = request(args, width as f32 / height as f32);
    let (ctx, renderer) = (&running.ctx, &mut running.renderer);
    match reload::replace_model(
        ctx,
        renderer,
        &request,
        &mut running.playback,
        &mut running.runner,
    ) {
        Ok(()) => {
            let ms = start.elapsed().as_secs_f64() * 1e3;
            let _ = outln!("reloaded {} in {ms:.0} ms", args.model);
        }
        Err(e) => {
            eprintln!("reload failed (still showing the last good model): {e:#}");
            let title = format!("Sierra view — reload failed: {e}");
            running.window.set_title(&title);
        }
    }
}

/// What the viewer loads: `args`'s model, clip and lighting, framed at `aspect`.
fn request(args: &ViewArgs, aspect: f32) -> ModelRequest<'_> {
    ModelRequest {
        model: &args.model,
        assets: &args.assets,
        clip: args.clip.as_deref(),
        albedo: args.albedo,
        frames: 2,
        aspect,
    }
}

/// Orbits on left-button drags and zooms on the wheel.
fn mouse(running: &mut Running, event: &WindowEvent) {
    match *event {
        WindowEvent::MouseInput {
            state,
            button: MouseButton::Left,
            ..
        } => running.dragging = state == ElementState::Pressed,
        WindowEvent::CursorMoved { position, .. } => {
            let now = (position.x, position.y);
            if let (true, Some(before)) = (running.dragging, running.cursor) {
                running
                    .orbit
                    .drag((now.0 - before.0) as f32, (now.1 - before.1) as f32);
            }
            running.cursor = Some(now);
        }
        WindowEvent::MouseWheel { delta, .. } => running.orbit.zoom(match delta {
            MouseScrollDelta::LineDelta(_, y) => y,
            MouseScrollDelta::PixelDelta(p) => p.y as f32 / 40.0,
        }),
        _ => {}
    }
}

/// Sets the model's clip, time, camera and wireframe and extracts the frame.
fn prepare(running: &mut Running) -> Result<()> {
    let (width, height) = running.renderer.size();
    let aspect = width as f32 / height as f32;
    let p = &running.playback;
    running
        .runner
        .source
        .show(p.clip, p.time, running.orbit.camera(aspect), p.wireframe);
    running.runner.extract(&View::at_tick(aspect))?;
    running
        .window
        .set_title(&format!("Sierra view — {}", running.playback.status()));
    Ok(())
}

fn resize(running: &mut Running, size: PhysicalSize<u32>) -> Result<()> {
    if size.width == 0 || size.height == 0 {
        return Ok(());
    }
    running.config = running
        .ctx
        .configure_surface(&running.surface, size.width, size.height)?;
    running
        .renderer
        .resize(&running.ctx, size.width, size.height)?;
    Ok(())
}

impl ApplicationHandler for App<'_> {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.running.is_none() && self.error.is_none() {
            if let Err(e) = self.start(event_loop) {
                self.error = Some(e);
                event_loop.exit();
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        if let Err(e) = self.event(event_loop, event) {
            self.error.get_or_insert(e);
            event_loop.exit();
        }
    }

    fn about_to_wait(&mut self, _event_loop: &ActiveEventLoop) {
        if let Some(running) = &self.running {
            running.window.request_redraw();
        }
    }
}
