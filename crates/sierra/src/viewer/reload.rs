//! The viewer's authoring loop (`sierra view MODEL --window`, issue #47): the model's folder is
//! watched (unless `--no-watch`) and F5 reloads by hand; the model is imported and uploaded
//! again through the same resolver and budgets as at start, the camera and the clip (and its
//! time, when the new file has that clip) kept. A failed reload keeps the model drawn and
//! says why on stderr and in the window title.

use std::path::{Path, PathBuf};

use anyhow::Result;
use sierra_render::{GpuContext, Renderer};

use super::playback::Playback;
use crate::cli::view::{import_model, upload_model, ModelFrames, ModelRequest, ViewArgs};
use crate::frame_runner::FrameRunner;
use crate::hot_reload::watcher::FileWatcher;
use crate::hot_reload::ASSET_EXTENSIONS;

/// The model's file, when `args` names one (not `builtin:…`) and it exists.
fn model_file(args: &ViewArgs) -> Option<PathBuf> {
    let path = Path::new(&args.model);
    path.is_file().then(|| path.to_path_buf())
}

/// A watcher on the model's folder, unless `--no-watch`, the model is built in, or watching
/// fails (said on stderr).
pub fn watcher(args: &ViewArgs) -> Option<FileWatcher> {
    if args.no_watch {
        return None;
    }
    let file = model_file(args)?;
    let folder = std::fs::canonicalize(file.parent()?.join(".")).ok()?;
    FileWatcher::new([folder.as_path()])
        .inspect_err(|e| eprintln!("warning: not watching for edits: {e:#}"))
        .ok()
}

/// Whether a settled change in `changed` can change the model: the model itself or a file
/// beside it of a kind a glTF references (buffers, images).
pub fn touches_model(args: &ViewArgs, changed: &[PathBuf]) -> bool {
    let Some(model) = model_file(args).and_then(|f| std::fs::canonicalize(f).ok()) else {
        return false;
    };
    changed.iter().any(|p| {
        *p == model
            || (p.parent() == model.parent()
                && p.extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| ASSET_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str())))
    })
}

/// Imports and uploads the model `request` names again and has `runner` draw it, `playback`
/// keeping its clip and time where the new file has that clip (the caller keeps the camera).
///
/// # Errors
/// Import errors naming the file, upload errors; nothing is replaced then.
pub(crate) fn replace_model(
    ctx: &GpuContext,
    renderer: &mut Renderer,
    request: &ModelRequest<'_>,
    playback: &mut Playback,
    runner: &mut FrameRunner<ModelFrames>,
) -> Result<()> {
    let imported = import_model(request)?;
    let loaded = upload_model(ctx, renderer, request, imported)?;
    let (clip, time) = (playback.clip, playback.time);
    let kept = clip < loaded.clips.len();
    *playback = Playback::new(loaded.clips, if kept { clip } else { 0 });
    if kept {
        playback.time = time;
    }
    *runner = FrameRunner::with_source(loaded.source);
    Ok(())
}
