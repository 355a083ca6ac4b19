//! The egui debug overlay of the window: frame-time graph, clip picker and frame scrubber for
//! the selected character, sun direction sliders, bloom threshold/intensity, wireframe toggle,
//! and a water "drop" button. The overlay edits an [`OverlayControls`] value (the window turns
//! its changes into commands) and emits [`Command`]s for the characters (play a clip, scrub); it
//! reads the game but never writes it: the next tick applies the commands.

use std::collections::VecDeque;

use egui_wgpu::ScreenDescriptor;
use sierra_render::{wgpu, GpuContext};
use winit::window::Window;

use crate::commands::Command;
use crate::gameplay::Gameplay;

/// Frames kept in the frame-time graph.
pub const GRAPH_FRAMES: usize = 240;

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

/// The overlay: egui context, its winit input state and its wgpu renderer.
pub struct Overlay {
    state: egui_winit::State,
    renderer: egui_wgpu::Renderer,
    frame_ms: VecDeque<f32>,
    /// Shown (F1 toggles).
    pub visible: bool,
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
            visible: true,
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
        let (device, queue) = (&ctx.device, &ctx.queue);
        let (texture, view) = target;
        let target_size = [texture.width(), texture.height()];
        let input = self.state.take_egui_input(window);
        let frame_ms = &self.frame_ms;
        let visible = self.visible;
        let output = self.state.egui_ctx().run_ui(input, |ui| {
            if visible {
                panel(ui, frame_ms, controls, gameplay, commands);
            }
        });
        self.state
            .handle_platform_output(window, output.platform_output);
        let ctx = self.state.egui_ctx();
        let pixels_per_point = output.pixels_per_point;
        let jobs = ctx.tessellate(output.shapes, pixels_per_point);
        let screen = ScreenDescriptor {
            size_in_pixels: target_size,
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

fn panel(
    ui: &mut egui::Ui,
    frame_ms: &VecDeque<f32>,
    c: &mut OverlayControls,
    gameplay: &Gameplay,
    commands: &mut Vec<Command>,
) {
    egui::Window::new("Sierra")
        .default_width(220.0)
        .show(ui.ctx(), |ui| {
            frame_graph(ui, frame_ms);
            ui.separator();
            ui.label("Sun");
            ui.add(
                egui::Slider::new(
                    &mut c.sun_azimuth,
                    -std::f32::consts::PI..=std::f32::consts::PI,
                )
                .text("azimuth (rad)"),
            );
            ui.add(egui::Slider::new(&mut c.sun_elevation, -0.2..=1.55).text("elevation (rad)"));
            ui.label("Bloom");
            ui.add(egui::Slider::new(&mut c.bloom_threshold, 0.0..=4.0).text("threshold"));
            ui.add(egui::Slider::new(&mut c.bloom_intensity, 0.0..=2.0).text("intensity"));
            ui.checkbox(&mut c.wireframe, "wireframe (F)");
            ui.horizontal(|ui| {
                ui.checkbox(&mut c.paused, "paused (Enter)");
                if ui.button("step (N)").clicked() {
                    c.step = true;
                }
            });
            if ui.button("water drop").clicked() {
                c.drop_requested = true;
            }
            ui.separator();
            character_panel(ui, c, gameplay, commands);
        });
}

fn frame_graph(ui: &mut egui::Ui, frame_ms: &VecDeque<f32>) {
    let last = frame_ms.back().copied().unwrap_or(0.0);
    let max = frame_ms.iter().copied().fold(1.0_f32, f32::max);
    let mean = frame_ms.iter().sum::<f32>() / frame_ms.len().max(1) as f32;
    let fps = if mean > 0.0 { 1000.0 / mean } else { 0.0 };
    ui.label(format!(
        "{fps:.1} FPS  frame {last:.1} ms  (max {max:.1} ms, {} frames)",
        frame_ms.len()
    ));
    let (rect, _) = ui.allocate_exact_size(egui::vec2(200.0, 50.0), egui::Sense::hover());
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

    #[test]
    fn sun_angles_round_trip() {
        let mut c = OverlayControls {
            sun_azimuth: 0.0,
            sun_elevation: 0.0,
            bloom_threshold: 1.0,
            bloom_intensity: 0.5,
            wireframe: false,
            paused: false,
            step: false,
            drop_requested: false,
            selected_character: 0,
        };
        let d = glam::Vec3::new(0.3, 0.8, -0.5).normalize();
        c.set_to_sun(d);
        assert!(c.to_sun().abs_diff_eq(d, 1e-5));
        c.sun_elevation = std::f32::consts::FRAC_PI_2;
        assert!(c.to_sun().abs_diff_eq(glam::Vec3::Y, 1e-5));
    }
}
