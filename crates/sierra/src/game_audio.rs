//! The level's sound inside the game: every `AudioLoop` component, heard from the camera.
//!
//! Each tick ([`GameAudio::tick`], run by [`crate::game::Game::tick`] after transform
//! propagation) the listener is put at the level camera (looking from `camera.position`
//! to `camera.target`, Y up, right ear on the view's right) and every spatial loop at its
//! node's world position, so sounds move with their nodes and pan as the camera turns.
//! The same state drives live playback ([`GameAudio::start_playback`], kira on the sound
//! device) and an offline recording ([`GameAudio::start_recording`]: one tick of the mix
//! rendered per tick, so the file follows the camera exactly as the frames do).
//!
//! The level holds plain data (`sierra_scene::components::AudioLoop`); [`audio_loop`] turns
//! it into `sierra_audio`'s loop here, so the scene crate needs no sound libraries.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use glam::{Mat3, Quat, Vec3};
use sierra_audio::{
    write_wav, AudioEngine, AudioLoop, AudioOptions, AudioStatus, Frame, Listener, OfflineMixer,
    SoundSource,
};
use sierra_scene::graph::NodeId;
use sierra_scene::{Component, Scene};

/// An offline mix being recorded tick by tick.
struct Recording {
    mixer: OfflineMixer,
    frames: Vec<Frame>,
    /// Output frames owed by earlier ticks (fractional part of `dt · sample_rate`).
    owed: f64,
}

/// The level's loops and what plays or records them.
pub struct GameAudio {
    /// Every `AudioLoop` component with its node, in scene order; emitter and voice `i`.
    loops: Vec<(NodeId, AudioLoop)>,
    /// Sound files are relative to the level's folder.
    asset_root: PathBuf,
    engine: Option<AudioEngine>,
    recording: Option<Recording>,
}

/// `sierra_audio`'s loop for a level's `AudioLoop` component (same source, volume, spatial
/// flag and reference distance).
///
/// # Errors
/// The audio crate's refusal of the source (only when the scene crate's list of built-in
/// sounds, which level loading checked, names a sound the audio crate lacks).
pub fn audio_loop(
    component: &sierra_scene::components::AudioLoop,
) -> Result<AudioLoop, sierra_audio::Error> {
    Ok(AudioLoop {
        source: SoundSource::parse(&component.source.to_string())?,
        volume: component.volume,
        spatial: component.spatial,
        ref_distance: component.ref_distance,
    })
}

/// The listener at the level camera: at `camera.position`, looking at `camera.target`
/// with +Y up (a view straight up or down, which level loading refuses, falls back to −Z).
pub fn camera_listener(scene: &Scene) -> Listener {
    let c = &scene.camera;
    let forward = (c.target - c.position).normalize_or(Vec3::NEG_Z);
    let right = forward.cross(Vec3::Y).normalize_or(Vec3::X);
    let up = right.cross(forward);
    Listener {
        position: c.position,
        // Columns: the listener's local +X (right), +Y (up), +Z (backwards) in world space.
        orientation: Quat::from_mat3(&Mat3::from_cols(right, up, -forward)).normalize(),
    }
}

impl GameAudio {
    /// Collects the scene's `AudioLoop`s; nothing plays or records until started. A loop
    /// whose source the audio crate refuses ([`audio_loop`]) is logged and left out.
    pub fn from_scene(scene: &Scene, level_file: &Path) -> Self {
        let loops = scene
            .all_components()
            .filter_map(|(node, c)| match c {
                Component::AudioLoop(a) => match audio_loop(a) {
                    Ok(a) => Some((node, a)),
                    Err(e) => {
                        log::warn!("audio: {e}");
                        None
                    }
                },
                _ => None,
            })
            .collect();
        Self {
            loops,
            asset_root: level_file
                .parent()
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
            engine: None,
            recording: None,
        }
    }

    /// Number of `AudioLoop`s in the level.
    pub fn loop_count(&self) -> usize {
        self.loops.len()
    }

    /// World position of loop `i`'s node now (origin for a removed node).
    fn position(&self, scene: &Scene, i: usize) -> Vec3 {
        scene
            .graph
            .world(self.loops[i].0)
            .map_or(Vec3::ZERO, |w| Vec3::from(w.translation))
    }

    /// Every loop with its node's world position now.
    pub fn emitters(&self, scene: &Scene) -> Vec<(AudioLoop, Vec3)> {
        (0..self.loops.len())
            .map(|i| (self.loops[i].1.clone(), self.position(scene, i)))
            .collect()
    }

    /// Starts the loops on the default sound device (silently, saying so once, without
    /// one). A loop that cannot be loaded is logged and skipped with those after it.
    pub fn start_playback(&mut self, scene: &Scene, options: AudioOptions) -> &AudioStatus {
        let mut engine = AudioEngine::new(options);
        let listener = camera_listener(scene);
        if let Err(e) = engine.start_level(&self.emitters(scene), &self.asset_root, &listener) {
            log::warn!("audio: {e}");
        }
        self.engine.insert(engine).status()
    }

    /// After a reload: takes over `old`'s sound engine when it plays, stops its loops and
    /// starts this level's (`scene`'s), so the sound device is opened once per run.
    pub fn take_playback(&mut self, old: &mut GameAudio, scene: &Scene) {
        let Some(mut engine) = old.engine.take() else {
            return;
        };
        engine.stop_all();
        let listener = camera_listener(scene);
        if let Err(e) = engine.start_level(&self.emitters(scene), &self.asset_root, &listener) {
            log::warn!("audio: {e}");
        }
        self.engine = Some(engine);
    }

    /// Starts recording the mix at `sample_rate` Hz from the next tick on.
    ///
    /// # Errors
    /// Sound files that cannot be loaded (named).
    pub fn start_recording(&mut self, scene: &Scene, sample_rate: u32) -> Result<()> {
        let mixer = self.mixer(scene, sample_rate)?;
        self.recording = Some(Recording {
            mixer,
            frames: Vec::new(),
            owed: 0.0,
        });
        Ok(())
    }

    /// The mix as heard from the camera now, ready to render (no recording state).
    ///
    /// # Errors
    /// Sound files that cannot be loaded (named).
    pub fn mixer(&self, scene: &Scene, sample_rate: u32) -> Result<OfflineMixer> {
        OfflineMixer::from_loops(
            &self.emitters(scene),
            &self.asset_root,
            &camera_listener(scene),
            sample_rate,
        )
        .context("loading the level's sounds")
    }

    /// One tick of `dt` seconds: the listener follows the camera, spatial loops follow their
    /// nodes, and a recording renders the next `dt` of the mix (gains ramping from the last
    /// tick's). Call after transform propagation.
    pub fn tick(&mut self, scene: &Scene, dt: f64) {
        if self.engine.is_none() && self.recording.is_none() {
            return;
        }
        let listener = camera_listener(scene);
        let positions: Vec<Vec3> = (0..self.loops.len())
            .map(|i| self.position(scene, i))
            .collect();
        if let Some(engine) = &mut self.engine {
            for (i, &p) in positions.iter().enumerate() {
                engine.set_position(i, p);
            }
            engine.set_listener(&listener);
        }
        if let Some(rec) = &mut self.recording {
            for (i, ((_, audio_loop), &p)) in self.loops.iter().zip(&positions).enumerate() {
                let (gain, pan) = audio_loop.gain_and_pan(&listener, p);
                rec.mixer.set_gain_and_pan(i, gain, pan);
            }
            let due = dt.max(0.0) * f64::from(rec.mixer.sample_rate()) + rec.owed;
            let n = due.floor();
            rec.owed = due - n;
            let start = rec.frames.len();
            rec.frames.resize(start + n as usize, Frame::ZERO);
            rec.mixer.render(&mut rec.frames[start..]);
        }
    }

    /// The recorded mix so far (`None` when not recording).
    pub fn recorded(&self) -> Option<&[Frame]> {
        self.recording.as_ref().map(|r| r.frames.as_slice())
    }

    /// Writes the recording as a 16-bit stereo WAV to `path`; `Ok(false)` when not recording.
    ///
    /// # Errors
    /// I/O errors, naming the file.
    pub fn write_recording(&self, path: &Path) -> Result<bool> {
        let Some(rec) = &self.recording else {
            return Ok(false);
        };
        write_wav(path, rec.mixer.sample_rate(), &rec.frames)
            .with_context(|| format!("writing {}", path.display()))?;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::game_from_json;
    use sierra_scene::components::{SoundRef, BUILTIN_SOUNDS};

    #[test]
    fn every_builtin_sound_converts() {
        // The scene crate's list (checked at level load) and the audio crate's are the same set.
        let scene: Vec<&str> = BUILTIN_SOUNDS.to_vec();
        let audio: Vec<&str> = sierra_audio::Builtin::ALL.iter().map(|(_, n)| *n).collect();
        assert_eq!(scene, audio);
        for name in BUILTIN_SOUNDS {
            let component = sierra_scene::components::AudioLoop {
                source: SoundRef::Builtin((*name).to_owned()),
                volume: 0.5,
                spatial: true,
                ref_distance: 3.0,
            };
            let converted = audio_loop(&component).unwrap();
            assert_eq!(converted.source.to_string(), format!("builtin:{name}"));
            assert_eq!(
                (converted.volume, converted.spatial, converted.ref_distance),
                (0.5, true, 3.0)
            );
        }
        let file = sierra_scene::components::AudioLoop::ambient(SoundRef::File("sea.ogg".into()));
        assert_eq!(
            audio_loop(&file).unwrap(),
            AudioLoop::ambient(SoundSource::File("sea.ogg".into()))
        );
    }

    /// Energy of the left and right channels.
    fn energy(frames: &[Frame]) -> (f32, f32) {
        frames.iter().fold((0.0, 0.0), |(l, r), f| {
            (l + f.left * f.left, r + f.right * f.right)
        })
    }

    #[test]
    fn the_recorded_mix_follows_the_camera_a_source_on_the_right_moves_left_when_it_turns() {
        // Camera at the origin looking down −Z (right = +X); the surf's node 20 m to +X
        // (surf: noise that is never silent, so every stretch of the mix has energy).
        let mut game = game_from_json(
            r#"{"camera": {"position": [0, 1, 0], "target": [0, 1, -10]},
                "objects": [{"name": "Sea", "position": [20, 1, 0],
                  "components": [{"type": "AudioLoop", "source": "builtin:surf", "spatial": true}]}]}"#,
            60.0,
        )
        .unwrap();
        assert_eq!(game.audio.loop_count(), 1);
        game.audio
            .start_recording(&game.scene, sierra_audio::BUILTIN_SAMPLE_RATE)
            .unwrap();
        for _ in 0..30 {
            game.tick();
        }
        // Turn 180°: now looking down +Z, so +X is on the left.
        game.scene.camera.target = glam::Vec3::new(0.0, 1.0, 10.0);
        for _ in 0..30 {
            game.tick();
        }
        let frames = game.audio.recorded().unwrap();
        let per_tick = sierra_audio::BUILTIN_SAMPLE_RATE as usize / 60;
        assert_eq!(frames.len(), 60 * per_tick, "one tick of sound per tick");
        let (before_l, before_r) = energy(&frames[..30 * per_tick]);
        // Skip the tick whose gains ramp across the turn.
        let (after_l, after_r) = energy(&frames[31 * per_tick..]);
        eprintln!("before the turn L {before_l} R {before_r}; after L {after_l} R {after_r}");
        assert!(
            before_r > 0.0 && before_l == 0.0,
            "hard right: {before_l} {before_r}"
        );
        assert!(
            after_l > 0.0 && after_r == 0.0,
            "hard left: {after_l} {after_r}"
        );
    }

    #[test]
    fn a_spatial_loop_follows_its_node_and_an_ambient_one_ignores_the_camera() {
        let mut game = game_from_json(
            r#"{"camera": {"position": [0, 1, 0], "target": [0, 1, -10]},
                "objects": [
                  {"name": "Gulls", "position": [0, 1, -5],
                   "components": [{"type": "AudioLoop", "source": "builtin:gulls", "spatial": true,
                                   "refDistance": 1}]},
                  {"name": "Sea", "position": [500, 0, 0],
                   "components": [{"type": "AudioLoop", "source": "builtin:surf"}]}]}"#,
            60.0,
        )
        .unwrap();
        let at = |game: &crate::game::Game| {
            let e = game.audio.emitters(&game.scene);
            let l = camera_listener(&game.scene);
            (
                e[0].0.gain_and_pan(&l, e[0].1),
                e[1].0.gain_and_pan(&l, e[1].1),
            )
        };
        let ((g0, p0), sea0) = at(&game);
        assert!((g0 - 0.2).abs() < 1e-5 && p0.abs() < 1e-5, "{g0} {p0}");
        // Move the gulls' node 5 m to the right of the camera and farther away.
        let node = game.scene.object("Gulls").unwrap();
        let mut local = game.scene.graph.local(node).unwrap();
        local.translation = glam::Vec3::new(10.0, 1.0, 0.0);
        game.scene.graph.set_local(node, local);
        game.tick();
        let ((g1, p1), sea1) = at(&game);
        assert!(
            (g1 - 0.1).abs() < 1e-5 && (p1 - 1.0).abs() < 1e-5,
            "{g1} {p1}"
        );
        assert_eq!(sea0, sea1);
        assert_eq!(sea1, (1.0, 0.0));
    }
}
