//! The egui debug overlay of the window: one panel of folding sections so it fits any window
//! (at 480 × 270 only its title and the frame section show, the rest folded): the title
//! carries the FPS; "Frame" shows FPS, CPU frame time, GPU time (whole frame and per pass and
//! dispatch, from the runner's newest GPU timings — a few frames old, never waited for — "n/a"
//! without timestamp queries) and a frame-time graph
//! with its ms scale; "Sun and bloom" the sun direction and bloom sliders; "Controls"
//! wireframe, pause/step and the water "drop" button; "Character" the clip picker and scrubber
//! of the selected character. The overlay edits an [`OverlayControls`] value (the window turns
//! its changes into commands) and emits [`Command`]s for the characters (play a clip, scrub); it
//! reads the game but never writes it: the next tick applies the commands.
//!
//! [`panel`] builds the UI from plain inputs on any [`egui::Context`], so its layout is tested
//! without a window ([`PanelLayout`]).

use std::collections::VecDeque;

use egui_wgpu::ScreenDescriptor;
use sierra_render::{wgpu, GpuContext, GpuFrameTimings};
use winit::window::Window;

use crate::commands::Command;
use crate::gameplay::Gameplay;

/// Frames kept in the frame-time graph.
pub const GRAPH_FRAMES: usize = 240;

/// Distance of the panel from the window's top-left corner and least gap to its other edges,
/// points.
pub const PANEL_MARGIN: f32 = 8.0;

/// Width of the panel's contents, points.
pub const PANEL_WIDTH: f32 = 210.0;

/// What the overlay's widgets control (read and written by the window each frame).
#[derive(Clone, Debug, PartialEq)]
pub struct OverlayControls {
    /// Sun azimuth about +Y, radians (0 = the sun in +Z... direction towards the sun in the XZ plane).
    pub sun_azimuth: f32,
    /// Sun elevation above the horizon, radians.
    pub sun_elevation: f32,
    /// Bloom bright-pass threshold (linear HDR luminance).
    pub bloom_threshold: f32,
    /// Bloom intensity (added fraction of the blurred bright pass).
    pub bloom_intensity: f32,
    /// Wireframe requested.
    pub wireframe: bool,
    /// Simulation paused (Enter); `step` runs one tick while paused (N).
    pub paused: bool,
    /// One tick requested while paused.
    pub step: bool,
    /// Set by the "drop" button; the window consumes it (a water drop on the sea).
    pub drop_requested: bool,
    /// Index into `Gameplay::characters` of the character the clip picker edits.
    pub selected_character: usize,
}

impl OverlayControls {
    /// The controls a level starts with: the sun towards `to_sun` (a direction from the
    /// scene, normalised here), the level's bloom threshold (linear HDR luminance) and
    /// intensity; nothing paused, stepped, dropped or in wireframe; character 0 selected.
    pub fn new(to_sun: glam::Vec3, bloom_threshold: f32, bloom_intensity: f32) -> Self {
        let mut controls = Self {
            sun_azimuth: 0.0,
            sun_elevation: 0.0,
            bloom_threshold,
            bloom_intensity,
            wireframe: false,
            paused: false,
            step: false,
            drop_requested: false,
            selected_character: 0,
        };
        controls.set_to_sun(to_sun);
        controls
    }

    /// Direction *from the scene towards the sun* (unit), from azimuth and elevation.
    pub fn to_sun(&self) -> glam::Vec3 {
        let (se, ce) = self.sun_elevation.sin_cos();
        let (sa, ca) = self.sun_azimuth.sin_cos();
        glam::Vec3::new(ce * sa, se, ce * ca)
    }

    /// Azimuth and elevation of a unit direction towards the sun (inverse of [`Self::to_sun`]).
    pub fn set_to_sun(&mut self, to_sun: glam::Vec3) {
        let d = to_sun.normalize_or(glam::Vec3::Y);
        self.sun_elevation = d.y.clamp(-1.0, 1.0).asin();
        self.sun_azimuth = d.x.atan2(d.z);
    }
}

/// GPU time of the newest frame the renderer has timings for (a few frames old: they are read
/// without waiting), milliseconds; empty before the first arrive or on an adapter without
/// timestamp queries.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GpuTimes {
    /// Whole frame ([`GpuFrameTimings::gpu_ms`]: first scope's start to last scope's end).
    pub total_ms: Option<f64>,
    /// Per pass and compute dispatch, in recording order.
    pub passes: Vec<(String, f64)>,
}

impl GpuTimes {
    /// The GPU times of one frame's `timings` (from [`crate::frame_runner::FrameRunner::latest_gpu_timings`]).
    pub fn of(timings: &GpuFrameTimings) -> Self {
        Self {
            total_ms: Some(timings.gpu_ms()),
            passes: timings.per_label_ms(),
        }
    }
}

/// The overlay's two readout lines, as shown: FPS with the CPU frame time, and GPU time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Readouts {
    /// `"59.8 FPS  16.7 ms"`: frames per second over the graph's frames, and the last frame's
    /// CPU milliseconds.
    pub fps: String,
    /// `"GPU 3.21 ms"` (the last frame, all passes), or `"GPU n/a"` without a measurement.
    pub gpu: String,
}

impl Readouts {
    /// The readouts of the frame times `frame_ms` (milliseconds, oldest first) and `gpu`.
    pub fn new(frame_ms: &VecDeque<f32>, gpu: &GpuTimes) -> Self {
        let last = frame_ms.back().copied().unwrap_or(0.0);
        let mean = frame_ms.iter().sum::<f32>() / frame_ms.len().max(1) as f32;
        let fps = if mean > 0.0 { 1000.0 / mean } else { 0.0 };
        let gpu = match gpu.total_ms {
            Some(ms) => format!("GPU {ms:.2} ms"),
            None => "GPU n/a".to_owned(),
        };
        Self {
            fps: format!("{fps:.1} FPS  {last:.1} ms"),
            gpu,
        }
    }
}

/// Where one overlay frame put its panel, in points (egui's logical pixels), so tests can check
/// that it fits the window.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PanelLayout {
    /// The screen (window) rectangle.
    pub screen: egui::Rect,
    /// The panel with its title bar; `None` when hidden.
    pub panel: Option<egui::Rect>,
    /// Everything the panel's open sections laid out (taller than the panel only when the panel
    /// scrolls); `None` when hidden or folded to its title.
    pub content: Option<egui::Rect>,
}

/// What the panel shows besides the controls it edits.
pub struct PanelInput<'a> {
    /// CPU frame times, milliseconds, oldest first.
    pub frame_ms: &'a VecDeque<f32>,
    /// GPU times of the last frame.
    pub gpu: &'a GpuTimes,
    /// The running game's characters (clip picker).
    pub gameplay: &'a Gameplay,
    /// Force every section open (`Some(true)`) or folded (`Some(false)`); `None` keeps the
    /// user's choice (default: only "Frame" open).
    pub sections_open: Option<bool>,
}

/// The overlay: egui context, its winit input state and its wgpu renderer.
pub struct Overlay {
    state: egui_winit::State,
    renderer: egui_wgpu::Renderer,
    frame_ms: VecDeque<f32>,
    gpu: GpuTimes,
    shown: Option<Readouts>,
    /// Shown (F1 toggles).
    pub visible: bool,
    /// The last reload's outcome ([`crate::hot_reload`]), shown along the bottom edge even
    /// while the panel is hidden: a failure in red until a reload succeeds.
    pub reload_status: Option<crate::hot_reload::Outcome>,
}

impl Overlay {
    /// Creates the overlay for a surface of `format`.
    pub fn new(window: &Window, device: &wgpu::Device, format: wgpu::TextureFormat) -> Self {
        let ctx = egui::Context::default();
        let state = egui_winit::State::new(
            ctx,
            egui::ViewportId::ROOT,
            window,
            Some(window.scale_factor() as f32),
            None,
            Some(device.limits().max_texture_dimension_2d as usize),
        );
        let renderer =
            egui_wgpu::Renderer::new(device, format, egui_wgpu::RendererOptions::default());
        Self {
            state,
            renderer,
            frame_ms: VecDeque::with_capacity(GRAPH_FRAMES),
            gpu: GpuTimes::default(),
            shown: None,
            visible: true,
            reload_status: None,
        }
    }

    /// Feeds a window event to egui; returns whether egui consumed it (typing into a widget).
    pub fn on_window_event(&mut self, window: &Window, event: &winit::event::WindowEvent) -> bool {
        self.state.on_window_event(window, event).consumed
    }

    /// Records one frame's CPU time for the graph, milliseconds.
    pub fn push_frame_ms(&mut self, ms: f32) {
        if self.frame_ms.len() == GRAPH_FRAMES {
            self.frame_ms.pop_front();
        }
        self.frame_ms.push_back(ms);
    }

    /// Records the GPU times of the last rendered frame (shown from the next overlay frame).
    pub fn set_gpu_times(&mut self, gpu: GpuTimes) {
        self.gpu = gpu;
    }

    /// The readouts the last drawn frame showed (`None` before the first, or while hidden).
    pub fn shown(&self) -> Option<&Readouts> {
        self.shown.as_ref()
    }

    /// Builds the UI for this frame and draws it onto `target` (loaded, not cleared): the surface
    /// texture, whose own size is used, not the window's, which may already have changed again
    /// while this frame's texture keeps the configured size.
    ///
    /// The clip picker lists the clips of `gameplay.characters[controls.selected_character]`;
    /// choosing one pushes a [`Command::PlayClip`] (a crossfade from the next tick), and the
    /// scrubber a [`Command::Scrub`] (hold the game paused and step to inspect single frames).
    pub fn draw(
        &mut self,
        window: &Window,
        ctx: &GpuContext,
        target: (&wgpu::Texture, &wgpu::TextureView),
        controls: &mut OverlayControls,
        gameplay: &Gameplay,
        commands: &mut Vec<Command>,
    ) {
        let input = self.state.take_egui_input(window);
        let panel_input = PanelInput {
            frame_ms: &self.frame_ms,
            gpu: &self.gpu,
            gameplay,
            sections_open: None,
        };
        let visible = self.visible;
        let reload = self.reload_status.as_ref();
        let mut output = self.state.egui_ctx().run_ui(input, |ui| {
            if visible {
                panel(ui, &panel_input, controls, commands);
            }
            if let Some(outcome) = reload {
                reload_line(ui, outcome);
            }
        });
        self.shown = visible.then(|| Readouts::new(&self.frame_ms, &self.gpu));
        self.state
            .handle_platform_output(window, std::mem::take(&mut output.platform_output));
        self.paint(ctx, target, output);
    }

    /// Tessellates egui's output and draws it onto `target`.
    fn paint(
        &mut self,
        ctx: &GpuContext,
        (texture, view): (&wgpu::Texture, &wgpu::TextureView),
        output: egui::FullOutput,
    ) {
        let (device, queue) = (&ctx.device, &ctx.queue);
        let pixels_per_point = output.pixels_per_point;
        let jobs = self
            .state
            .egui_ctx()
            .tessellate(output.shapes, pixels_per_point);
        let screen = ScreenDescriptor {
            size_in_pixels: [texture.width(), texture.height()],
            pixels_per_point,
        };
        for (id, deltas) in &output.textures_delta.set {
            for delta in deltas {
                self.renderer.update_texture(device, queue, *id, delta);
            }
        }
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("overlay"),
        });
        let extra = self
            .renderer
            .update_buffers(device, queue, &mut encoder, &jobs, &screen);
        {
            let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("overlay"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view,
                    resolve_target: None,
                    depth_slice: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Load,
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            let mut pass = pass.forget_lifetime();
            self.renderer.render(&mut pass, &jobs, &screen);
        }
        queue.submit(extra.into_iter().chain([encoder.finish()]));
        for id in &output.textures_delta.free {
            self.renderer.free_texture(id);
        }
    }
}

/// The overlay's panel: a window of folding sections, placed at the top-left, at most as tall
/// as the screen (it scrolls beyond), its title carrying the FPS. Returns where it went.
pub fn panel(
    ui: &mut egui::Ui,
    input: &PanelInput<'_>,
    c: &mut OverlayControls,
    commands: &mut Vec<Command>,
) -> PanelLayout {
    let screen = ui.ctx().content_rect();
    let readouts = Readouts::new(input.frame_ms, input.gpu);
    let fps = readouts.fps.split("  ").next().unwrap_or_default();
    let open = input.sections_open;
    let shown = egui::Window::new(format!("Sierra  {fps}"))
        .id(egui::Id::unique("sierra-overlay"))
        .default_pos(egui::pos2(PANEL_MARGIN, PANEL_MARGIN))
        // As tall as its open sections, up to the screen's height, scrolling beyond.
        .auto_sized()
        .vscroll(true)
        .max_width((screen.width() - 2.0 * PANEL_MARGIN).max(1.0))
        .max_height((screen.height() - 2.0 * PANEL_MARGIN).max(1.0))
        .show(ui.ctx(), |ui| {
            section(ui, "Frame", true, open, |ui| {
                frame_section(ui, input, &readouts);
            });
            section(ui, "Sun and bloom", false, open, |ui| sun_and_bloom(ui, c));
            section(ui, "Controls", false, open, |ui| controls_section(ui, c));
            section(ui, "Character", false, open, |ui| {
                character_panel(ui, c, input.gameplay, commands);
            });
            ui.min_rect()
        });
    PanelLayout {
        screen,
        panel: shown.as_ref().map(|r| r.response.rect),
        content: shown.and_then(|r| r.inner),
    }
}

/// The last reload's line along the bottom-left edge: red for a failure.
fn reload_line(ui: &mut egui::Ui, outcome: &crate::hot_reload::Outcome) {
    use crate::hot_reload::Outcome;
    let (line, colour) = match outcome {
        Outcome::Reloaded { line } => (line, egui::Color32::LIGHT_GREEN),
        Outcome::Failed { line } => (line, egui::Color32::from_rgb(255, 90, 80)),
    };
    egui::Area::new(egui::Id::unique("sierra-reload"))
        .anchor(
            egui::Align2::LEFT_BOTTOM,
            egui::vec2(PANEL_MARGIN, -PANEL_MARGIN),
        )
        .show(ui.ctx(), |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.colored_label(colour, line.as_str());
            });
        });
}

/// One folding section, open by default when `default_open`, or as `force` says.
fn section(
    ui: &mut egui::Ui,
    title: &str,
    default_open: bool,
    force: Option<bool>,
    body: impl FnOnce(&mut egui::Ui),
) {
    egui::CollapsingHeader::new(title)
        .default_open(default_open)
        .open(force)
        .show(ui, body);
}

/// FPS and frame time, the GPU time (a folding list of the passes' times under it), the graph.
fn frame_section(ui: &mut egui::Ui, input: &PanelInput<'_>, readouts: &Readouts) {
    ui.label(&readouts.fps)
        .on_hover_text("frames per second over the graph; the last frame's CPU time");
    egui::CollapsingHeader::new(&readouts.gpu)
        .id_salt("gpu passes")
        .default_open(false)
        .open(input.sections_open)
        .show(ui, |ui| {
            if input.gpu.passes.is_empty() {
                ui.label("per pass: n/a")
                    .on_hover_text("no timings yet, or no timestamp queries on this adapter");
            }
            for (name, ms) in &input.gpu.passes {
                ui.label(format!("{name} {ms:.3} ms"));
            }
        });
    frame_graph(ui, input.frame_ms);
}

fn sun_and_bloom(ui: &mut egui::Ui, c: &mut OverlayControls) {
    ui.add(
        egui::Slider::new(
            &mut c.sun_azimuth,
            -std::f32::consts::PI..=std::f32::consts::PI,
        )
        .text("sun azimuth (rad)"),
    );
    ui.add(egui::Slider::new(&mut c.sun_elevation, -0.2..=1.55).text("sun elevation (rad)"));
    ui.add(egui::Slider::new(&mut c.bloom_threshold, 0.0..=4.0).text("bloom threshold"));
    ui.add(egui::Slider::new(&mut c.bloom_intensity, 0.0..=2.0).text("bloom intensity"));
}

fn controls_section(ui: &mut egui::Ui, c: &mut OverlayControls) {
    ui.checkbox(&mut c.wireframe, "wireframe (F)");
    ui.horizontal(|ui| {
        ui.checkbox(&mut c.paused, "paused (Enter)");
        if ui.button("step (N)").clicked() {
            c.step = true;
        }
    });
    if ui.button("water drop (R)").clicked() {
        c.drop_requested = true;
    }
}

/// Height of the frame-time graph, points.
const GRAPH_HEIGHT: f32 = 32.0;

fn frame_graph(ui: &mut egui::Ui, frame_ms: &VecDeque<f32>) {
    let max = frame_ms.iter().copied().fold(1.0_f32, f32::max);
    let width = ui.available_width().min(PANEL_WIDTH);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(width, GRAPH_HEIGHT), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, egui::Color32::from_black_alpha(120));
    let n = GRAPH_FRAMES as f32;
    let points: Vec<egui::Pos2> = frame_ms
        .iter()
        .enumerate()
        .map(|(i, &ms)| {
            egui::pos2(
                rect.left() + rect.width() * i as f32 / n,
                rect.bottom() - rect.height() * (ms / max).min(1.0),
            )
        })
        .collect();
    painter.add(egui::Shape::line(
        points,
        egui::Stroke::new(1.0, egui::Color32::LIGHT_GREEN),
    ));
    // The scale: the 60 Hz and 30 Hz frame times, where they fit, and the top of the graph.
    for ms in [1000.0 / 60.0, 1000.0 / 30.0, max] {
        if ms > max {
            continue;
        }
        let y = rect.bottom() - rect.height() * ms / max;
        painter.hline(
            rect.x_range(),
            y,
            egui::Stroke::new(0.5, egui::Color32::from_white_alpha(60)),
        );
        painter.text(
            egui::pos2(rect.right() - 2.0, y),
            egui::Align2::RIGHT_BOTTOM,
            format!("{ms:.1} ms"),
            egui::FontId::monospace(9.0),
            egui::Color32::from_white_alpha(160),
        );
    }
}

fn character_panel(
    ui: &mut egui::Ui,
    c: &mut OverlayControls,
    gameplay: &Gameplay,
    commands: &mut Vec<Command>,
) {
    let count = gameplay.characters.len();
    if count == 0 {
        ui.label("no characters in this level");
        return;
    }
    c.selected_character = c.selected_character.min(count - 1);
    ui.add(egui::Slider::new(&mut c.selected_character, 0..=count - 1).text("character"));
    let character = &gameplay.characters[c.selected_character];
    let model = &character.model;
    let current = character.current.clip;
    egui::ComboBox::from_label("clip")
        .selected_text(model.clips.get(current).map_or("?", |clip| clip.name()))
        .show_ui(ui, |ui| {
            for (i, clip) in model.clips.iter().enumerate() {
                if ui.selectable_label(i == current, clip.name()).clicked() && i != current {
                    commands.push(Command::PlayClip {
                        character: c.selected_character,
                        clip: i,
                        fade: 0.2,
                    });
                }
            }
        });
    if let Some(clip) = model.clips.get(current) {
        let duration = clip.duration().max(1e-3);
        // A looping clip's time keeps growing; show (and scrub) where in the clip it is.
        let mut time = match character.current.playback {
            sierra_anim::Playback::Loop => character.current.time.rem_euclid(duration),
            _ => character.current.time.min(duration),
        };
        if ui
            .add(egui::Slider::new(&mut time, 0.0..=duration).text("time (s)"))
            .changed()
        {
            commands.push(Command::Scrub {
                character: c.selected_character,
                time,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A text the panel painted: its string, where, and the clip rectangle it was painted in.
    struct Painted {
        text: String,
        rect: egui::Rect,
        clip: egui::Rect,
    }

    fn texts(shape: &egui::Shape, clip: egui::Rect, out: &mut Vec<Painted>) {
        match shape {
            egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| texts(s, clip, out)),
            egui::Shape::Text(t) => out.push(Painted {
                text: t.galley.text().to_owned(),
                rect: t.visual_bounding_rect(),
                clip,
            }),
            _ => {}
        }
    }

    /// Runs the panel for a few frames (egui sizes windows in their first frame) on a screen of
    /// `size` points with no animations, and returns the last frame's layout and texts.
    fn run_panel(
        size: (f32, f32),
        gameplay: &Gameplay,
        gpu: &GpuTimes,
        sections_open: Option<bool>,
    ) -> (PanelLayout, Vec<Painted>) {
        let ctx = egui::Context::default();
        ctx.global_style_mut(|s| s.animation_time = 0.0);
        let frame_ms: VecDeque<f32> = (0..GRAPH_FRAMES).map(|i| 16.0 + (i % 7) as f32).collect();
        let input = PanelInput {
            frame_ms: &frame_ms,
            gpu,
            gameplay,
            sections_open,
        };
        let mut controls = OverlayControls {
            sun_azimuth: 0.3,
            sun_elevation: 0.6,
            ..OverlayControls::new(glam::Vec3::Z, 1.0, 0.5)
        };
        let mut layout = None;
        let mut painted = Vec::new();
        for frame in 0..4 {
            let raw = egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(
                    egui::Pos2::ZERO,
                    egui::vec2(size.0, size.1),
                )),
                time: Some(f64::from(frame) / 60.0),
                ..Default::default()
            };
            let mut commands = Vec::new();
            let output = ctx.run_ui(raw, |ui| {
                layout = Some(panel(ui, &input, &mut controls, &mut commands));
            });
            assert!(commands.is_empty(), "the panel alone issues no commands");
            painted.clear();
            for clipped in &output.shapes {
                texts(&clipped.shape, clipped.clip_rect, &mut painted);
            }
        }
        (layout.expect("the panel ran"), painted)
    }

    /// A level with a character (the player), for the clip picker.
    fn player_level() -> crate::game::Game {
        let level = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../assets/levels/player.json"
        );
        crate::game::Game::load(std::path::Path::new(level), 60.0).expect("player.json loads")
    }

    /// A readout line is painted whole, inside its clip rectangle and the screen.
    fn assert_shown(painted: &[Painted], starts: &str, screen: egui::Rect) {
        let line = painted
            .iter()
            .find(|p| p.text.contains(starts))
            .unwrap_or_else(|| panic!("no `{starts}` painted"));
        let visible = line.clip.intersect(screen);
        assert!(
            visible.contains_rect(line.rect),
            "`{}` at {:?} is cut by {visible:?}",
            line.text,
            line.rect
        );
    }

    #[test]
    fn the_panel_fits_the_window_at_480x270_and_1280x720() {
        let game = player_level();
        assert!(!game.gameplay.characters.is_empty());
        for size in [(480.0, 270.0), (1280.0, 720.0)] {
            let (layout, painted) = run_panel(size, &game.gameplay, &GpuTimes::default(), None);
            let panel = layout.panel.expect("the panel is shown");
            let content = layout.content.expect("the frame section is open");
            assert_eq!(layout.screen.size(), egui::vec2(size.0, size.1));
            assert!(layout.screen.contains_rect(panel), "{size:?}: {panel:?}");
            // Nothing of the open section is cut off or scrolled away.
            assert!(
                panel.contains_rect(content),
                "{size:?}: {content:?} in {panel:?}"
            );
            assert_shown(&painted, " FPS  ", layout.screen);
            assert_shown(&painted, "GPU n/a", layout.screen);
            // At 480x270 the panel leaves most of the window to the scene.
            let covered = panel.area() / layout.screen.area();
            assert!(covered < 0.45, "{size:?}: the panel covers {covered:.2}");
        }
    }

    #[test]
    fn with_every_section_open_the_panel_scrolls_inside_a_small_window() {
        let game = player_level();
        let gpu = GpuTimes::default();
        let (small, _) = run_panel((480.0, 270.0), &game.gameplay, &gpu, Some(true));
        let (panel, content) = (small.panel.unwrap(), small.content.unwrap());
        assert!(small.screen.contains_rect(panel), "{panel:?}");
        // Taller than the window: without the scroll area the bottom controls would be cut off.
        assert!(content.height() > small.screen.height(), "{content:?}");
        let (large, painted) = run_panel((1280.0, 720.0), &game.gameplay, &gpu, Some(true));
        let panel = large.panel.unwrap();
        assert!(large.screen.contains_rect(panel));
        assert!(panel.contains_rect(large.content.unwrap()));
        for label in [
            "sun azimuth (rad)",
            "water drop (R)",
            "time (s)",
            "per pass: n/a",
        ] {
            assert_shown(&painted, label, large.screen);
        }
    }

    #[test]
    fn gpu_times_are_shown_per_pass_when_measured() {
        let gpu = GpuTimes {
            total_ms: Some(3.5),
            passes: vec![("shadow".to_owned(), 1.25), ("forward".to_owned(), 2.25)],
        };
        let frame_ms: VecDeque<f32> = [10.0, 30.0].into();
        let readouts = Readouts::new(&frame_ms, &gpu);
        assert_eq!(readouts.gpu, "GPU 3.50 ms");
        // Mean 20 ms: 50 FPS; the last frame took 30 ms.
        assert_eq!(readouts.fps, "50.0 FPS  30.0 ms");
        let none = Readouts::new(&VecDeque::new(), &GpuTimes::default());
        assert_eq!(none.gpu, "GPU n/a");
        let (layout, painted) = run_panel((1280.0, 720.0), &Gameplay::default(), &gpu, Some(true));
        assert_shown(&painted, "GPU 3.50 ms", layout.screen);
        assert_shown(&painted, "shadow 1.250 ms", layout.screen);
        assert_shown(&painted, "forward 2.250 ms", layout.screen);
        assert!(!painted.iter().any(|p| p.text.contains("n/a")));
    }

    #[test]
    fn sun_angles_round_trip() {
        let mut c = OverlayControls::new(glam::Vec3::Z, 1.0, 0.5);
        let d = glam::Vec3::new(0.3, 0.8, -0.5).normalize();
        c.set_to_sun(d);
        assert!(c.to_sun().abs_diff_eq(d, 1e-5));
        c.sun_elevation = std::f32::consts::FRAC_PI_2;
        assert!(c.to_sun().abs_diff_eq(glam::Vec3::Y, 1e-5));
    }
}
