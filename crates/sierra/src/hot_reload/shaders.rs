//! `--shader-dir DIR`: the engine's reloadable WGSL files
//! ([`sierra_render::shader_files::RELOADABLE`]) read from a folder instead of the embedded
//! copies, at start and again when one changes; each rebuilds only its own pass's pipelines.

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use sierra_render::{GpuContext, Renderer};

/// Rebuilds the pass of `file` (a `.wgsl` in the shader folder) from its text; returns the
/// line to show: the pass and how many shader modules and pipelines were created for it.
///
/// # Errors
/// An unreadable file, a file no pass reloads, WGSL that does not parse (file, line:column),
/// pipelines that fail to build; the running pass is kept.
pub fn reload_shader(ctx: &GpuContext, renderer: &mut Renderer, file: &Path) -> Result<String> {
    let start = Instant::now();
    let name = file
        .file_name()
        .and_then(|n| n.to_str())
        .with_context(|| format!("{}: not a shader file name", file.display()))?;
    let source =
        crate::read_user_text(file).with_context(|| format!("reading {}", file.display()))?;
    let before = ctx.creation_counts();
    let pass = renderer
        .reload_shader(ctx, name, &source)
        .with_context(|| file.display().to_string())?;
    let made = ctx.creation_counts().since(before);
    let ms = start.elapsed().as_secs_f64() * 1e3;
    Ok(format!(
        "reloaded {} in {ms:.0} ms (pass {pass}: {} shader module(s), {} pipeline(s) rebuilt)",
        file.display(),
        made.shader_modules,
        made.pipelines
    ))
}

/// The reloadable shader files present in `dir`, in [`sierra_render::shader_files::RELOADABLE`]
/// order: what a run with `--shader-dir` reads at start.
pub fn present_in(dir: &Path) -> Vec<std::path::PathBuf> {
    sierra_render::shader_files::RELOADABLE
        .iter()
        .map(|(name, _)| dir.join(name))
        .filter(|p| p.is_file())
        .collect()
}
