//! The windowed game loop (winit 0.30) on the frame runner ([`FrameRunner`]): fixed-step ticks,
//! extract between the last two ticks (the clock's alpha, so motion is smooth at any frame rate),
//! render into the window surface with the egui debug overlay ([`crate::overlay`]) on top; Esc
//! or closing the window exits. The overlay and the keys change the game only through commands
//! ([`Command`]) that the next tick applies.
//!
//! Resizes reconfigure the surface and the renderer's targets; a minimised
//! (0 × 0) window keeps simulating but skips rendering. A hidden option
//! (`--test-resize`) scripts a resize to 1 × 1 and back so the window test can check both.
//!
//! Key bindings ([`WindowAction`]): camera fly W/A/S/D + Q/E (down/up) with the right mouse
//! button held to look; the player walks with the arrow keys and jumps with Space
//! ([`crate::gameplay::input::key_of`]; W/A/S/D too when the camera is not flying); C cycles the
//! camera (fly → level/follow → aerial path → walk path); I/K raise/lower the sun, J/L turn it;
//! F toggles wireframe; R drops water into the sea where the camera looks (as the overlay's
//! "water drop" button); F12 or P writes a screenshot PNG; Enter pauses, N steps one tick while
//! paused; F1 hides the overlay; F5 reloads the level from its files, which a watcher also
//! does when they change ([`crate::hot_reload`]). A scripted key track (`--input TRACK.json`, [`crate::key_track`])
//! delivers its key events through the same handler; its ticks count rendered frames and the
//! game then runs exactly one tick per frame (unless paused), so a track replays identically on
//! any machine.

#![deny(clippy::too_many_lines)]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use sierra_render::{wgpu, GpuContext, Renderer};
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{DeviceEvent, DeviceId, ElementState, MouseButton, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{KeyCode, PhysicalKey};
use winit::window::{Window, WindowId};

use crate::camera_path::{CameraPath, CameraPathKind};
use crate::commands::Command;
use crate::fly_camera::{FlyCamera, FlyKeys};
use crate::frame_runner::FrameRunner;
use crate::game::Game;
use crate::key_track::KeyTrack;
use crate::overlay::{GpuTimes, Overlay, OverlayControls, Readouts};
use crate::scene_to_frame::View;

/// How to run the window.
#[derive(Debug)]
pub struct WindowOptions {
    /// Initial inner size, pixels.
    pub width: u32,
    /// Initial inner size, pixels.
    pub height: u32,
    /// Shrink the initial size to fit the primary monitor (keeping its aspect ratio), when the
    /// size is a default rather than the user's.
    pub fit_to_screen: bool,
    /// Exit after this many rendered frames (`None`: until Esc or close).
    pub frames: Option<u64>,
    /// Script a resize to 1 × 1 and back (window test).
    pub test_resize: bool,
    /// Script a minimise (an injected 0 × 0 resize and an unmap), a restore and a resize
    /// storm, printing CPU time and memory ([`crate::minimise_script`]; window test).
    pub test_minimise: bool,
    /// Fault test: destroy the GPU device before this rendered frame
    /// ([`crate::device_loss::inject`]); the window then ends with the device-loss error.
    pub lose_device_at_frame: Option<u64>,
    /// Scripted key events (`--input`); with a track the game runs one tick per frame, and
    /// without `frames` the window closes once the track's last event was delivered.
    pub key_track: Option<KeyTrack>,
    /// Folder screenshots (F12 / P) are written to, as `screenshot_NNNNN.png` (frame number;
    /// `_2`, `_3`, ... appended when taken). Checked at the first screenshot like any output
    /// folder ([`crate::output::OutputDir::append`]): never over a user's files.
    pub screenshot_dir: PathBuf,
    /// Accept a screenshot folder holding files Sierra did not write (they are left alone).
    pub force: bool,
    /// Reload the level when its files change (and on F5), [`crate::hot_reload`]; `None`:
    /// a level built in code, nothing to reload.
    pub reload: Option<crate::hot_reload::ReloadSetup>,
    /// Reload test: write a screenshot after each successful reload.
    pub screenshot_on_reload: bool,
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
        /// Screenshots written.
        screenshots: Vec<PathBuf>,
        /// The readouts (FPS, GPU time) the overlay showed in the last frame; `None` when it
        /// was hidden (F1) or no frame was drawn.
        overlay: Option<Readouts>,
        /// Whether the renderer timed its passes (the adapter has timestamp queries).
        gpu_timed: bool,
        /// How many times the renderer waited on the GPU for timings: 0, the window reads
        /// them a few frames late without waiting.
        gpu_timing_waits: u64,
    },
}

/// Which camera the window renders through (C cycles).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CameraMode {
    /// The free [`FlyCamera`].
    Fly,
    /// The level's camera (the player's follow camera when the level has one).
    Follow,
    /// The aerial fly-through ([`crate::camera_path`]).
    Aerial,
    /// The walk at eye height ([`crate::camera_path`]).
    Walk,
}

impl CameraMode {
    /// The next mode in the C cycle.
    pub fn next(self) -> Self {
        match self {
            Self::Fly => Self::Follow,
            Self::Follow => Self::Aerial,
            Self::Aerial => Self::Walk,
            Self::Walk => Self::Fly,
        }
    }
}

/// A window action bound to a key (besides fly and player movement).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowAction {
    /// Esc.
    Quit,
    /// F.
    ToggleWireframe,
    /// F12 or P.
    Screenshot,
    /// Enter.
    TogglePause,
    /// N.
    Step,
    /// C.
    CycleCamera,
    /// I / K: sun elevation up / down by [`SUN_STEP`].
    SunElevation(i8),
    /// J / L: sun azimuth left / right by [`SUN_STEP`].
    SunAzimuth(i8),
    /// F1.
    ToggleOverlay,
    /// R: a water drop on the sea where the camera looks.
    WaterDrop,
    /// F5: reload the level from its files ([`crate::hot_reload`]).
    Reload,
}

/// Seconds a camera path chosen with C takes.
pub const PATH_SECONDS: f32 = 40.0;

/// Sun rotation per key press, radians.
pub const SUN_STEP: f32 = 0.1;

/// The action of a key press, if any.
pub fn action_of(code: KeyCode) -> Option<WindowAction> {
    use WindowAction as A;
    Some(match code {
        KeyCode::Escape => A::Quit,
        KeyCode::KeyF => A::ToggleWireframe,
        KeyCode::F12 | KeyCode::KeyP => A::Screenshot,
        KeyCode::Enter => A::TogglePause,
        KeyCode::KeyN => A::Step,
        KeyCode::KeyC => A::CycleCamera,
        KeyCode::KeyI => A::SunElevation(1),
        KeyCode::KeyK => A::SunElevation(-1),
        KeyCode::KeyJ => A::SunAzimuth(-1),
        KeyCode::KeyL => A::SunAzimuth(1),
        KeyCode::F1 => A::ToggleOverlay,
        KeyCode::KeyR => A::WaterDrop,
        KeyCode::F5 => A::Reload,
        _ => return None,
    })
}

/// `size` scaled down (aspect ratio kept, at least 1 × 1) to fit within `screen`; unchanged when
/// it fits or the screen reports no size.
pub fn fit_within(size: (u32, u32), screen: (u32, u32)) -> (u32, u32) {
    if screen.0 == 0 || screen.1 == 0 || (size.0 <= screen.0 && size.1 <= screen.1) {
        return size;
    }
    let scale =
        (f64::from(screen.0) / f64::from(size.0)).min(f64::from(screen.1) / f64::from(size.1));
    let w = ((f64::from(size.0) * scale).floor() as u32).max(1);
    let h = ((f64::from(size.1) * scale).floor() as u32).max(1);
    (w, h)
}

/// Frames after which `--test-resize` shrinks the window, and how long it stays small.
const RESIZE_AT_FRAME: u64 = 10;
const FRAMES_SMALL: u64 = 5;
/// Frames `--test-resize` waits for the window system before giving up.
const RESIZE_PATIENCE: u64 = 600;

/// Opens a window on `game` and runs until Esc, close, or `options.frames`.
///
/// # Errors
/// GPU or surface errors, unwritable screenshots, and (with `test_resize`) a window system
/// that never applied the resize. A lost GPU device closes the window at the next frame with
/// [`sierra_render::RenderError::DeviceLost`] in the chain ([`crate::device_loss`]).
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
        minimise: crate::minimise_script::MinimiseScript::default(),
        next_hidden_tick: None,
        screenshots: Vec::new(),
        screenshot_out: None,
        track_tick: 0,
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
    let overlay = app
        .running
        .as_ref()
        .and_then(|r| r.overlay.shown().cloned());
    let (gpu_timed, gpu_timing_waits) = app.running.as_ref().map_or((false, 0), |r| {
        (r.renderer.gpu_timed(), r.renderer.gpu_timing_waits())
    });
    Ok(WindowOutcome::Ran {
        frames: app.frames,
        adapter,
        screenshots: app.screenshots,
        overlay,
        gpu_timed,
        gpu_timing_waits,
    })
}

/// The overlay's controls as the level starts them: its sun and bloom, nothing else on.
fn initial_controls(game: &Game) -> OverlayControls {
    let post = &game.scene.post;
    OverlayControls::new(
        -game.scene.sun.direction,
        post.bloom_threshold,
        post.bloom_intensity,
    )
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
    runner: FrameRunner,
    /// The overlay values last turned into commands.
    applied: OverlayControls,
    /// Commands the overlay issued this frame (reused).
    commands: Vec<Command>,
    last_time: Instant,
    minimised: bool,
    overlay: Overlay,
    controls: OverlayControls,
    fly: FlyCamera,
    fly_keys: FlyKeys,
    camera_mode: CameraMode,
    looking: bool,
    screenshot_requested: bool,
    /// The level's reloader (`None` for a level built in code).
    reload: Option<crate::hot_reload::HotReload>,
    /// F5 was pressed: reload at the start of the next frame.
    reload_requested: bool,
}

impl Running {
    /// Reconfigures the surface and the renderer's targets for a window of `size` pixels
    /// (both non-zero).
    ///
    /// # Errors
    /// Surface configuration and target creation errors.
    fn resize_surface(&mut self, size: PhysicalSize<u32>) -> Result<()> {
        let (width, height) = (size.width, size.height);
        self.config = self.ctx.configure_surface(&self.surface, width, height)?;
        self.renderer.resize(&self.ctx, width, height)?;
        Ok(())
    }
}

struct App {
    game: Option<Game>,
    options: WindowOptions,
    running: Option<Running>,
    error: Option<anyhow::Error>,
    frames: u64,
    resize: ResizeScript,
    minimise: crate::minimise_script::MinimiseScript,
    /// While minimised: when the next redraw (which only ticks the game) is due.
    next_hidden_tick: Option<Instant>,
    screenshots: Vec<PathBuf>,
    /// The screenshot folder, prepared at the first screenshot.
    screenshot_out: Option<crate::output::OutputDir>,
    track_tick: u64,
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
        if self.options.fit_to_screen {
            if let Some(screen) = event_loop.primary_monitor().map(|m| m.size()) {
                let (w, h) = fit_within(
                    (self.options.width, self.options.height),
                    (screen.width, screen.height),
                );
                (self.options.width, self.options.height) = (w, h);
            }
        }
        let size = PhysicalSize::new(self.options.width, self.options.height);
        let WindowGpu {
            window,
            ctx,
            surface,
            config,
            mut renderer,
        } = open_window(event_loop, "Sierra", size)?;
        let (width, height) = (config.width, config.height);
        // GPU timings arrive a few frames late and are never waited for (`gpu_timing_waits`).
        let mut runner = FrameRunner::new(&ctx, &mut renderer, game)?;
        // The window draws between ticks.
        runner.source.interpolate = true;
        let game = runner.game();
        let mut reload = self
            .options
            .reload
            .take()
            .map(|setup| crate::hot_reload::HotReload::start(setup, game));
        if let Some(reload) = &mut reload {
            reload.load_shader_dir(&ctx, &mut renderer);
        }
        // Status lines are best-effort: a closed stdout does not end the window.
        let _ = outln!(
            "window: {width}x{height} {:?} on {}",
            config.format,
            ctx.adapter_summary()
        );
        let overlay = Overlay::new(&window, &ctx.device, config.format);
        let controls = initial_controls(game);
        let fly = FlyCamera::look_at(game.scene.camera.position, game.scene.camera.target);
        let camera_mode = match game.camera_path.as_ref().map(|p| p.kind) {
            Some(CameraPathKind::Aerial) => CameraMode::Aerial,
            Some(CameraPathKind::Walk) => CameraMode::Walk,
            None => CameraMode::Follow,
        };
        self.running = Some(Running {
            window,
            ctx,
            surface,
            config,
            renderer,
            applied: controls.clone(),
            commands: Vec::new(),
            runner,
            last_time: Instant::now(),
            minimised: false,
            overlay,
            controls,
            fly,
            fly_keys: FlyKeys::default(),
            camera_mode,
            looking: false,
            screenshot_requested: false,
            reload,
            reload_requested: false,
        });
        Ok(())
    }

    fn resized(&mut self, size: PhysicalSize<u32>) -> Result<()> {
        let _ = outln!("resized to {}x{}", size.width, size.height);
        let Some(running) = &mut self.running else {
            return Ok(());
        };
        if size.width == 0 || size.height == 0 {
            running.minimised = true;
            return Ok(());
        }
        running.minimised = false;
        running.resize_surface(size)?;
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

    /// Advances the simulation (one tick per frame with a key track, else the real time
    /// elapsed), renders one frame with the overlay, and writes a requested screenshot.
    fn redraw(&mut self, event_loop: &ActiveEventLoop) -> Result<()> {
        let frame_start = Instant::now();
        let scripted = self.options.key_track.is_some();
        let Some(running) = &mut self.running else {
            return Ok(());
        };
        if self.options.lose_device_at_frame == Some(self.frames) {
            self.options.lose_device_at_frame = None;
            crate::device_loss::inject(&running.ctx, self.frames);
        }
        // Nothing more is drawn or submitted on a lost device: the window closes with the error.
        running
            .ctx
            .check_device("drawing the window's next frame")?;
        service_reload(running, self.options.screenshot_on_reload);
        let dt = if let Some(track) = &mut self.options.key_track {
            // The track's clock counts redraws (one game tick each unless paused), so a track
            // can pause, step and resume.
            for event in track.take_due(self.track_tick).to_vec() {
                handle_key(running, event.code, event.down, event_loop);
            }
            self.track_tick += 1;
            advance(running, Some(1))
        } else {
            advance(running, None)
        };
        if running.camera_mode == CameraMode::Fly {
            running.fly.update(running.fly_keys, dt);
        }
        if running.minimised {
            return Ok(());
        }
        let view = view_of(running, scripted);
        running.runner.extract(&view)?;
        let Some(texture) = acquire(running)? else {
            return Ok(());
        };
        let target = texture
            .texture
            .create_view(&wgpu::TextureViewDescriptor::default());
        let stats = running
            .runner
            .render(&running.ctx, &mut running.renderer, &target)?;
        if !stats.gpu.is_empty() {
            if let Some(newest) = running.runner.latest_gpu_timings() {
                running.overlay.set_gpu_times(GpuTimes::of(newest));
            }
        }
        draw_overlay(running, (&texture.texture, &target))?;
        if std::mem::take(&mut running.screenshot_requested) {
            self.write_requested_screenshot()?;
        }
        let Some(running) = &mut self.running else {
            return Ok(());
        };
        running.window.pre_present_notify();
        running.ctx.queue.present(texture);
        running
            .overlay
            .push_frame_ms(frame_start.elapsed().as_secs_f32() * 1e3);
        self.frames += 1;
        Ok(())
    }

    /// Writes the screenshot F12 / P asked for into the screenshot folder (prepared at the
    /// first), named by the frame number.
    fn write_requested_screenshot(&mut self) -> Result<()> {
        let Some(running) = &mut self.running else {
            return Ok(());
        };
        let out = match &mut self.screenshot_out {
            Some(out) => out,
            None => self.screenshot_out.insert(crate::output::OutputDir::append(
                &self.options.screenshot_dir,
                self.options.force,
            )?),
        };
        let path = out.add(&format!("screenshot_{:05}", self.frames), "png")?;
        write_screenshot(running, &path)?;
        let _ = outln!("screenshot: {}", path.display());
        self.screenshots.push(path);
        Ok(())
    }

    /// `--test-minimise`: drives [`crate::minimise_script::MinimiseScript`]; returns whether
    /// it has finished.
    fn drive_minimise_script(&mut self) -> Result<bool> {
        use crate::minimise_script::Step;
        if !self.options.test_minimise {
            return Ok(true);
        }
        let Some(running) = &self.running else {
            return Ok(false);
        };
        let tick = running.runner.game().clock.tick();
        let size = (self.options.width, self.options.height);
        match self.minimise.step(self.frames, tick, size) {
            Step::Wait => Ok(false),
            Step::Done => Ok(true),
            Step::Hide => {
                running.window.set_visible(false);
                self.resized(PhysicalSize::new(0, 0))?;
                Ok(false)
            }
            Step::Show => {
                running.window.set_visible(true);
                self.resized(PhysicalSize::new(size.0, size.1))?;
                Ok(false)
            }
            Step::Resize(w, h) => {
                let _ = running.window.request_inner_size(PhysicalSize::new(w, h));
                Ok(false)
            }
        }
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
            let _ = outln!("test-resize: requesting 1x1");
            let _ = running.window.request_inner_size(PhysicalSize::new(1, 1));
            script.shrink_requested_at = Some(frames);
        }
        if let Some(seen) = script.small_seen_at {
            if !script.restore_requested && frames >= seen + FRAMES_SMALL {
                let _ = outln!(
                    "test-resize: requesting {}x{}",
                    self.options.width,
                    self.options.height
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

/// One key going down or up, from the keyboard or a key track.
fn handle_key(running: &mut Running, code: KeyCode, down: bool, event_loop: &ActiveEventLoop) {
    let flying = running.camera_mode == CameraMode::Fly;
    let fly_key = match code {
        KeyCode::KeyW => Some(&mut running.fly_keys.forward),
        KeyCode::KeyS => Some(&mut running.fly_keys.back),
        KeyCode::KeyA => Some(&mut running.fly_keys.left),
        KeyCode::KeyD => Some(&mut running.fly_keys.right),
        KeyCode::KeyE => Some(&mut running.fly_keys.up),
        KeyCode::KeyQ => Some(&mut running.fly_keys.down),
        _ => None,
    };
    if let Some(held) = fly_key {
        // Released keys always clear, so switching camera mid-press leaves nothing stuck.
        *held = down && flying;
        if flying {
            return;
        }
    }
    if let Some(key) = crate::gameplay::input::key_of(code) {
        running.runner.game_mut().gameplay.keys.set(key, down);
        return;
    }
    if !down {
        return;
    }
    let c = &mut running.controls;
    match action_of(code) {
        Some(WindowAction::Quit) => event_loop.exit(),
        Some(WindowAction::ToggleWireframe) => {
            c.wireframe = !c.wireframe;
            let _ = outln!("wireframe {}", if c.wireframe { "on" } else { "off" });
        }
        Some(WindowAction::Screenshot) => running.screenshot_requested = true,
        Some(WindowAction::TogglePause) => c.paused = !c.paused,
        Some(WindowAction::Step) => c.step = true,
        Some(WindowAction::CycleCamera) => {
            running.camera_mode = running.camera_mode.next();
            let kind = match running.camera_mode {
                CameraMode::Aerial => Some(CameraPathKind::Aerial),
                CameraMode::Walk => Some(CameraPathKind::Walk),
                CameraMode::Fly | CameraMode::Follow => None,
            };
            running.runner.game_mut().camera_path =
                kind.map(|kind| CameraPath::new(kind, PATH_SECONDS));
            if running.camera_mode == CameraMode::Fly {
                // Start flying from wherever the previous camera was.
                let cam = &running.runner.frame().camera;
                running.fly = FlyCamera::look_at(cam.position, cam.position + cam.forward());
            }
            let _ = outln!("camera: {:?}", running.camera_mode);
        }
        Some(WindowAction::SunElevation(s)) => {
            c.sun_elevation = (c.sun_elevation + f32::from(s) * SUN_STEP).clamp(-0.2, 1.55);
        }
        Some(WindowAction::SunAzimuth(s)) => c.sun_azimuth += f32::from(s) * SUN_STEP,
        Some(WindowAction::ToggleOverlay) => running.overlay.visible = !running.overlay.visible,
        Some(WindowAction::WaterDrop) => c.drop_requested = true,
        Some(WindowAction::Reload) => running.reload_requested = true,
        None => {}
    }
}

/// At the start of a frame, before its ticks: reloads the level when its files settled after a
/// change or F5 was pressed, and shows the outcome in the overlay (a failure until the next
/// good reload); with `screenshot`, a successful reload asks for a screenshot of this frame.
fn service_reload(running: &mut Running, screenshot: bool) {
    let manual = std::mem::take(&mut running.reload_requested);
    let Some(reload) = &mut running.reload else {
        return;
    };
    let changes = reload.poll(Instant::now()).unwrap_or_default();
    let (ctx, renderer) = (&running.ctx, &mut running.renderer);
    let mut outcome = reload
        .reload_shaders(ctx, renderer, &changes.shaders)
        .cloned();
    if manual || !changes.level.is_empty() {
        let level = reload.reload(ctx, renderer, &mut running.runner, &changes.level);
        outcome = Some(level.clone());
    }
    if let Some(outcome) = outcome {
        let reloaded = matches!(outcome, crate::hot_reload::Outcome::Reloaded { .. });
        running.screenshot_requested |= reloaded && screenshot;
        running.overlay.reload_status = Some(outcome);
    }
}

/// Applies the controls' changes and runs the game's ticks for one frame: `ticks` of them (a
/// key track's one), or as many as the real time since the last frame asks. Returns the frame's
/// time step for the fly camera, seconds.
fn advance(running: &mut Running, ticks: Option<u32>) -> f32 {
    let now = Instant::now();
    let elapsed = (now - running.last_time).as_secs_f64();
    running.last_time = now;
    let scripted = ticks.is_some();
    let ticks = ticks.unwrap_or_else(|| running.runner.game_mut().clock.ticks_due(elapsed));
    queue_controls(running);
    for _ in 0..ticks {
        if !running.controls.paused || std::mem::take(&mut running.controls.step) {
            running.runner.tick();
        }
    }
    if scripted {
        running.runner.game().clock.dt() as f32
    } else {
        elapsed as f32
    }
}

/// How this frame sees the game: the window's aspect, the fly camera when flying, and the
/// clock's alpha between the last two ticks (1 when scripted or paused, so a track replays
/// identically anywhere).
fn view_of(running: &Running, scripted: bool) -> View {
    let (width, height) = running.renderer.size();
    View {
        aspect: width as f32 / height as f32,
        camera: (running.camera_mode == CameraMode::Fly)
            .then(|| (running.fly.position, running.fly.target())),
        alpha: if scripted || running.controls.paused {
            1.0
        } else {
            running.runner.game().clock.alpha() as f32
        },
    }
}

/// The surface's next texture, or `None` when this frame is skipped: a timeout or an occluded
/// window, an outdated or lost surface (reconfigured for the next frame), or a texture whose
/// size the renderer has not been resized to yet.
///
/// # Errors
/// Surface configuration and validation errors.
fn acquire(running: &mut Running) -> Result<Option<wgpu::SurfaceTexture>> {
    let texture = match running.surface.get_current_texture() {
        wgpu::CurrentSurfaceTexture::Success(t) | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
        wgpu::CurrentSurfaceTexture::Timeout | wgpu::CurrentSurfaceTexture::Occluded => {
            return Ok(None)
        }
        wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
            // Reconfiguring on a lost device would skip frames for ever: let wgpu report it.
            running
                .ctx
                .poll_device("acquiring the window's next texture")?;
            let size = running.window.inner_size();
            if size.width > 0 && size.height > 0 {
                running.resize_surface(size)?;
            }
            return Ok(None);
        }
        wgpu::CurrentSurfaceTexture::Validation => {
            // A lost device shows here first; the poll runs wgpu's device-lost callback.
            const DOING: &str = "acquiring the window's next texture";
            running.ctx.poll_device(DOING)?;
            running.ctx.take_uncaptured_errors(DOING)?;
            bail!("acquiring the window's next texture failed validation");
        }
    };
    // The surface and the renderer disagree until the pending resize arrives.
    let size = (texture.texture.width(), texture.texture.height());
    Ok((size == running.renderer.size()).then_some(texture))
}

/// Draws the overlay onto the frame's texture and queues the commands it issued for the next
/// tick.
///
/// # Errors
/// GPU validation errors of the overlay's drawing; a lost device.
fn draw_overlay(running: &mut Running, target: (&wgpu::Texture, &wgpu::TextureView)) -> Result<()> {
    // A loss the frame's submit ran into: egui's renderer is not called on a lost device.
    running.ctx.check_device("drawing the debug overlay")?;
    running.commands.clear();
    running.overlay.draw(
        &running.window,
        &running.ctx,
        target,
        &mut running.controls,
        &running.runner.game().gameplay,
        &mut running.commands,
    );
    for command in running.commands.drain(..) {
        running.runner.game_mut().push_command(command);
    }
    running
        .ctx
        .take_uncaptured_errors("drawing the debug overlay")?;
    Ok(())
}

/// Turns what changed in the overlay's controls since the last frame into commands for the
/// next tick: sun, bloom, wireframe (refused, saying so, where the adapter has no line mode) and
/// a requested water drop, aimed along the last frame's view ([`crate::world::World::drop_target`]).
fn queue_controls(running: &mut Running) {
    let c = &mut running.controls;
    if c.sun_azimuth != running.applied.sun_azimuth
        || c.sun_elevation != running.applied.sun_elevation
    {
        running.runner.game_mut().push_command(Command::Sun {
            direction: -c.to_sun(),
        });
    }
    if c.bloom_threshold != running.applied.bloom_threshold
        || c.bloom_intensity != running.applied.bloom_intensity
    {
        running.runner.game_mut().push_command(Command::Bloom {
            threshold: c.bloom_threshold,
            intensity: c.bloom_intensity,
        });
    }
    if c.wireframe != running.applied.wireframe {
        if c.wireframe && !running.renderer.forward.wireframe_supported() {
            let _ = outln!("wireframe unavailable: the adapter has no POLYGON_MODE_LINE");
            c.wireframe = false;
        } else {
            running
                .runner
                .game_mut()
                .push_command(Command::Wireframe(c.wireframe));
        }
    }
    if std::mem::take(&mut c.drop_requested) {
        let camera = &running.runner.frame().camera;
        let (eye, target) = (camera.position, camera.position + camera.forward());
        let game = running.runner.game_mut();
        match game.world.drop_target(eye, target) {
            Some(at) => {
                let _ = outln!("water drop at ({:.1}, {:.1})", at.x, at.y);
                game.push_command(Command::DropWater { at });
            }
            None if game.world.sea.is_none() => {
                let _ = outln!("water drop: this level has no simulated sea");
            }
            None => {
                let _ = outln!("water drop refused: the view does not meet the simulated sea");
            }
        }
    }
    running.applied = c.clone();
}

/// Renders the current frame again into an off-screen copy of the surface format and writes it
/// as PNG ([`FrameRunner::render_to_image`]).
fn write_screenshot(running: &mut Running, path: &std::path::Path) -> Result<()> {
    let format = running.config.format;
    let image = running
        .runner
        .render_to_image(&running.ctx, &mut running.renderer, format)?;
    crate::output::write_image(&image, path).context("writing the screenshot")
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
        if let Some(running) = self.running.as_mut() {
            if running.overlay.on_window_event(&running.window, &event) {
                return;
            }
        }
        let result = match event {
            WindowEvent::CloseRequested => {
                event_loop.exit();
                Ok(())
            }
            WindowEvent::KeyboardInput { event, .. } => {
                if let (Some(running), PhysicalKey::Code(code)) =
                    (self.running.as_mut(), event.physical_key)
                {
                    if !event.repeat {
                        let down = event.state == ElementState::Pressed;
                        handle_key(running, code, down, event_loop);
                    }
                }
                Ok(())
            }
            WindowEvent::MouseInput {
                state,
                button: MouseButton::Right,
                ..
            } => {
                if let Some(running) = self.running.as_mut() {
                    running.looking = state == ElementState::Pressed;
                }
                Ok(())
            }
            WindowEvent::Resized(size) => self.resized(size),
            WindowEvent::RedrawRequested => self.redraw(event_loop),
            _ => Ok(()),
        };
        if let Err(e) = result {
            self.fail(event_loop, e);
        }
    }

    fn device_event(&mut self, _: &ActiveEventLoop, _: DeviceId, event: DeviceEvent) {
        if let (Some(running), DeviceEvent::MouseMotion { delta }) = (self.running.as_mut(), event)
        {
            if running.looking && running.camera_mode == CameraMode::Fly {
                running.fly.look(delta.0 as f32, delta.1 as f32);
            }
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let script_done = match self
            .drive_resize_script()
            .and_then(|resized| Ok(self.drive_minimise_script()? && resized))
        {
            Ok(done) => done,
            Err(e) => return self.fail(event_loop, e),
        };
        // Without `--frames`, a key track's run ends with its last event.
        let track_done = self.options.frames.is_none()
            && self
                .options
                .key_track
                .as_ref()
                .is_some_and(KeyTrack::finished);
        if (self
            .options
            .frames
            .is_some_and(|limit| self.frames >= limit)
            || track_done)
            && script_done
        {
            event_loop.exit();
            return;
        }
        let Some(running) = &self.running else {
            return;
        };
        if running.minimised {
            // Nothing can be drawn: wake once per fixed tick to keep the game ticking, rather
            // than polling (which spins a core).
            let tick = Duration::from_secs_f64(running.runner.game().clock.dt());
            let now = Instant::now();
            let due = *self.next_hidden_tick.get_or_insert(now);
            if now >= due {
                running.window.request_redraw();
                self.next_hidden_tick = Some(due.max(now - tick) + tick);
            }
            let wake = self.next_hidden_tick.unwrap_or(now + tick);
            event_loop.set_control_flow(ControlFlow::WaitUntil(wake));
        } else {
            self.next_hidden_tick = None;
            event_loop.set_control_flow(ControlFlow::Poll);
            running.window.request_redraw();
        }
    }
}

/// A window with its GPU context, its configured surface and a renderer of the surface's size.
pub(crate) struct WindowGpu {
    /// The window.
    pub window: Arc<Window>,
    /// The GPU context created for it.
    pub ctx: GpuContext,
    /// Its surface.
    pub surface: sierra_render::wgpu::Surface<'static>,
    /// The surface's configuration (format, size at least 1×1).
    pub config: sierra_render::wgpu::SurfaceConfiguration,
    /// A renderer of the surface's size and format.
    pub renderer: Renderer,
}

/// Opens a window titled `title` of `size` pixels (the system may give another size) and
/// creates its GPU context, surface and renderer (the window and `sierra view --window`).
///
/// # Errors
/// Window creation, adapter, surface and renderer errors.
pub(crate) fn open_window(
    event_loop: &ActiveEventLoop,
    title: &str,
    size: PhysicalSize<u32>,
) -> Result<WindowGpu> {
    let attributes = Window::default_attributes()
        .with_title(title)
        .with_inner_size(size);
    let window = Arc::new(
        event_loop
            .create_window(attributes)
            .context("creating the window")?,
    );
    let (ctx, surface) = GpuContext::for_window(
        Box::new(event_loop.owned_display_handle()),
        Arc::clone(&window),
    )?;
    let inner = window.inner_size();
    let config = ctx.configure_surface(&surface, inner.width.max(1), inner.height.max(1))?;
    let renderer = Renderer::new(&ctx, config.width, config.height, config.format)?;
    Ok(WindowGpu {
        window,
        ctx,
        surface,
        config,
        renderer,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_default_window_size_fits_the_screen_keeping_its_aspect() {
        assert_eq!(fit_within((1280, 720), (1920, 1080)), (1280, 720));
        assert_eq!(fit_within((1280, 720), (1024, 768)), (1024, 576));
        assert_eq!(fit_within((1280, 720), (800, 300)), (533, 300));
        assert_eq!(fit_within((1280, 720), (0, 0)), (1280, 720));
    }

    #[test]
    fn camera_cycle_visits_every_mode_once() {
        let mut mode = CameraMode::Fly;
        let mut seen = Vec::new();
        for _ in 0..4 {
            seen.push(mode);
            mode = mode.next();
        }
        assert_eq!(mode, CameraMode::Fly);
        seen.sort_by_key(|m| *m as u8);
        seen.dedup();
        assert_eq!(seen.len(), 4);
    }

    #[test]
    fn bound_keys_do_not_collide_with_movement() {
        for code in [
            KeyCode::KeyW,
            KeyCode::KeyA,
            KeyCode::KeyS,
            KeyCode::KeyD,
            KeyCode::KeyQ,
            KeyCode::KeyE,
            KeyCode::Space,
            KeyCode::ArrowUp,
        ] {
            assert_eq!(action_of(code), None, "{code:?}");
        }
        assert_eq!(action_of(KeyCode::F12), Some(WindowAction::Screenshot));
        assert_eq!(action_of(KeyCode::KeyP), Some(WindowAction::Screenshot));
        assert_eq!(action_of(KeyCode::KeyR), Some(WindowAction::WaterDrop));
        assert_eq!(crate::gameplay::input::key_of(KeyCode::KeyR), None);
    }
}
