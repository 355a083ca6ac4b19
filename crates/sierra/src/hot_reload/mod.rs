//! The authoring loop: a level's files edited while it runs are read again and applied at the
//! start of the next tick, keeping the run going whatever the edit (issue #47).
//!
//! ```text
//!  FileWatcher (notify, the asset root) ─► Debouncer (150 ms quiet) ─► relevant files ─┐
//!  F5 in the window ───────────────────────────────────────────────────────────────────┤
//!                                                                                      ▼
//!  HotReload::reload: Game::load_cached (the same resolver, budgets and validation as a load;
//!    the asset cache forgets the changed files, so unchanged glTF imports are shared)
//!    → LevelFrames::replace_game (GpuBridge::reload: only what changed is uploaded)
//!    → carry_over (clock, camera, motion and clips of objects that keep their name)
//!  a failure anywhere leaves the running level as it was and says why ([`HotReload::status`])
//! ```
//!
//! [`HotReload`] is owned by the window; it holds no GPU handle (the bridge does).

pub mod carry;
pub mod debounce;
pub mod shaders;
pub mod watcher;

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Result;
use sierra_render::{GpuContext, Renderer};
use sierra_scene::assets::AssetCache;

use crate::frame_runner::FrameRunner;
use crate::game::Game;
use carry::{carry_over, Placements};
use watcher::FileWatcher;

/// Extensions of the files a level reads besides its own file (models and their buffers,
/// textures, environment images, sounds): a change to one reloads the level.
pub const ASSET_EXTENSIONS: &[&str] = &[
    "gltf", "glb", "bin", "png", "jpg", "jpeg", "hdr", "wav", "ogg",
];

/// How a window reloads its level (`sierra demo --level`, the window).
#[derive(Debug, Default)]
pub struct ReloadSetup {
    /// The level file.
    pub level: PathBuf,
    /// Asset root and budgets, as the level was loaded with.
    pub options: sierra_scene::LoadOptions,
    /// The cache the level was loaded through ([`Game::load_cached`]).
    pub cache: Option<AssetCache>,
    /// Watch the asset root (`--watch`, the window's default); F5 reloads either way.
    pub watch: bool,
    /// Folders whose files never reload the level (the screenshot folder).
    pub ignore: Vec<PathBuf>,
    /// `--shader-dir`: the engine's reloadable WGSL read from this folder ([`shaders`]).
    pub shader_dir: Option<PathBuf>,
}

/// The files that settled after a change, by what they reload.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Changes {
    /// The level file and the files it reads (canonical paths): the level reloads.
    pub level: Vec<PathBuf>,
    /// WGSL files in the shader folder: each rebuilds its pass.
    pub shaders: Vec<PathBuf>,
}

/// What one reload did.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The level runs from the edited files.
    Reloaded {
        /// The line printed on stdout and shown in the overlay: `reloaded FILE in N ms`.
        line: String,
    },
    /// The level runs as before; the message names the file and the place.
    Failed {
        /// The line printed on stderr and shown in the overlay: `reload failed: …`.
        line: String,
    },
}

/// A running level's reloader: its watcher, the asset cache kept between loads, the objects'
/// placements and the last outcome.
#[derive(Debug)]
pub struct HotReload {
    level: PathBuf,
    options: sierra_scene::LoadOptions,
    cache: Option<AssetCache>,
    placements: Placements,
    watcher: Option<FileWatcher>,
    ignore: Vec<PathBuf>,
    shader_dir: Option<PathBuf>,
    status: Option<Outcome>,
}

/// `path` comparable with other spellings of it: canonical when it exists, else its folder's
/// canonical path joined with its name (a folder made later, a file just removed).
fn comparable(path: &Path) -> PathBuf {
    if let Ok(path) = std::fs::canonicalize(path) {
        return path;
    }
    match (path.parent().map(std::fs::canonicalize), path.file_name()) {
        (Some(Ok(folder)), Some(name)) => folder.join(name),
        _ => path.to_path_buf(),
    }
}

impl HotReload {
    /// The reloader of `game`, loaded as `setup` says and not ticked yet. A watcher that cannot
    /// start is reported on stderr; F5 still reloads.
    pub fn start(setup: ReloadSetup, game: &Game) -> Self {
        let root = setup.cache.as_ref().map(|c| comparable(c.root()));
        let folder = comparable(setup.level.parent().unwrap_or(Path::new(".")));
        let shader_dir = setup.shader_dir.as_deref().map(comparable);
        let ignore: Vec<PathBuf> = setup.ignore.iter().map(|p| comparable(p)).collect();
        let watcher = if setup.watch {
            let folders = [
                Some(folder.clone()),
                root.filter(|r| !folder.starts_with(r)),
                shader_dir.clone(),
            ];
            FileWatcher::new(folders.iter().flatten().map(PathBuf::as_path))
                .map(|w| w.ignoring(ignore.clone()))
                .inspect_err(|e| eprintln!("warning: not watching for edits: {e:#}"))
                .ok()
        } else {
            None
        };
        Self {
            level: setup.level,
            options: setup.options,
            cache: setup.cache,
            placements: Placements::of(game),
            watcher,
            ignore,
            shader_dir,
            status: None,
        }
    }

    /// Whether the asset root is watched.
    pub fn watching(&self) -> bool {
        self.watcher.is_some()
    }

    /// The last reload's outcome, shown in the overlay: a failure stays until a reload
    /// succeeds.
    pub fn status(&self) -> Option<&Outcome> {
        self.status.as_ref()
    }

    /// The settled changes to files the level may read and to the shader folder's WGSL
    /// (canonical paths), if any; never blocks.
    pub fn poll(&mut self, now: Instant) -> Option<Changes> {
        let changed = self.watcher.as_mut()?.changed(now)?;
        let level = comparable(&self.level);
        let mut changes = Changes::default();
        for path in changed.iter().map(|p| comparable(p)) {
            if self.ignore.iter().any(|dir| path.starts_with(dir)) {
                continue;
            }
            let in_shader_dir =
                self.shader_dir.as_ref() == path.parent().map(Path::to_path_buf).as_ref();
            if in_shader_dir && path.extension().is_some_and(|e| e == "wgsl") {
                changes.shaders.push(path);
            } else if path == level || is_asset(&path) {
                changes.level.push(path);
            }
        }
        (changes != Changes::default()).then_some(changes)
    }

    /// Reads every reloadable shader the shader folder holds (at start, `--shader-dir`);
    /// a file that fails is reported as [`HotReload::reload_shaders`] does.
    pub fn load_shader_dir(&mut self, ctx: &GpuContext, renderer: &mut Renderer) {
        if let Some(dir) = &self.shader_dir {
            let files = shaders::present_in(dir);
            self.reload_shaders(ctx, renderer, &files);
        }
    }

    /// Rebuilds the pass of each shader file in `files` and says so (stdout), or keeps the pass
    /// and says why (stderr); the outcome of the last is kept as [`HotReload::status`] and
    /// returned (`None` for no file).
    pub fn reload_shaders(
        &mut self,
        ctx: &GpuContext,
        renderer: &mut Renderer,
        files: &[PathBuf],
    ) -> Option<&Outcome> {
        if files.is_empty() {
            return None;
        }
        for file in files {
            let outcome = match shaders::reload_shader(ctx, renderer, file) {
                Ok(line) => {
                    let _ = outln!("{line}");
                    Outcome::Reloaded { line }
                }
                Err(e) => failed(&e),
            };
            self.status = Some(outcome);
        }
        self.status.as_ref()
    }

    /// Reloads the level from its files (`changed`: what changed, canonical; empty for F5,
    /// which reads everything again) and applies it to `runner`, or keeps the running level
    /// and says why. Prints the outcome's line (stdout on success, stderr on failure).
    pub fn reload(
        &mut self,
        ctx: &GpuContext,
        renderer: &mut Renderer,
        runner: &mut FrameRunner,
        changed: &[PathBuf],
    ) -> &Outcome {
        let start = Instant::now();
        self.forget(changed);
        let outcome = match self.apply(ctx, renderer, runner, changed) {
            Ok(()) => {
                let files = if changed.is_empty() {
                    self.level.display().to_string()
                } else {
                    let names: Vec<_> = changed.iter().map(|p| p.display().to_string()).collect();
                    names.join(", ")
                };
                let ms = start.elapsed().as_secs_f64() * 1e3;
                let line = format!("reloaded {files} in {ms:.0} ms");
                let _ = outln!("{line}");
                Outcome::Reloaded { line }
            }
            Err(e) => failed(&e),
        };
        self.status.insert(outcome)
    }

    /// Makes the asset cache read the changed files again: each file, and for a file a glTF
    /// may reference (a buffer, an image) the glTF files beside it.
    fn forget(&mut self, changed: &[PathBuf]) {
        if changed.is_empty() {
            self.cache = None;
            return;
        }
        let Some(cache) = &mut self.cache else { return };
        for file in changed {
            cache.forget(file);
            let gltf = file
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("gltf") || e.eq_ignore_ascii_case("glb"));
            if !gltf {
                let beside: Vec<PathBuf> = cache
                    .sources()
                    .filter(|s| s.parent() == file.parent())
                    .map(Path::to_path_buf)
                    .collect();
                for source in beside {
                    cache.forget(&source);
                }
            }
        }
    }

    /// Loads the new game, uploads what changed, then hands the old game's state over.
    fn apply(
        &mut self,
        ctx: &GpuContext,
        renderer: &mut Renderer,
        runner: &mut FrameRunner,
        changed: &[PathBuf],
    ) -> Result<()> {
        let hz = 1.0 / runner.game().clock.dt();
        let game = Game::load_cached(&self.level, &self.options, None, hz, &mut self.cache)?;
        let placed = Placements::of(&game);
        let mut old = runner.source.replace_game(ctx, renderer, game, changed)?;
        carry_over(&mut old, &self.placements, runner.game_mut(), &placed);
        self.placements = placed;
        Ok(())
    }
}

/// The outcome of a reload that failed with `e`, said on stderr.
fn failed(e: &anyhow::Error) -> Outcome {
    let line = format!("reload failed (still running the last good state): {e:#}");
    eprintln!("{line}");
    Outcome::Failed { line }
}

/// Whether `path` names a file a level may read besides its own ([`ASSET_EXTENSIONS`]).
fn is_asset(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| ASSET_EXTENSIONS.iter().any(|a| e.eq_ignore_ascii_case(a)))
}
