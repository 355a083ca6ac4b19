//! `sierra view MODEL.glb|builtin:mannequin [--clip NAME] [--frames N] [--out DIR] [--size WxH]
//! [--albedo]`: renders any glTF model animating, headless, framed by its bounds over the whole
//! clip (sampled at 32 times and every frame's time, so a model that walks or grows stays in frame):
//! `DIR/frame_NNNN.png` (N frames evenly over the clip) and `DIR/contact_sheet.png`, through
//! the one frame runner ([`FrameRunner`] with a source whose tick moves to the next sample
//! time). With `--window` the same source is drawn by the interactive orbit viewer
//! ([`crate::viewer`]).
//!
//! Skinned meshes are posed by the animation job, as the game poses its characters
//! ([`sierra_content::ModelPoser`]: `sierra_anim::CharacterJob`, joint world × inverse bind
//! matrix; the skinned mesh node's own transform is not applied, glTF 2.0 §3.7.3.3; the clip
//! plays once, so the last frame is its end pose) and skinned on the GPU
//! ([`sierra_render::compute::skinning`]). Morph targets are applied on the GPU before skinning, with
//! the clip's `weights` channel of the mesh node sampled at each frame's time (else the node's,
//! else the mesh's default weights; [`sierra_content::poser::node_morph_weights`]); unskinned
//! morphed meshes go through the same pass with one joint (their node's rest world matrix).
//! A grey ground plane under the clip's bounds receives the model's sun shadow, the shadow map
//! fitted to the model and its ground whatever their scale (not with `--albedo`, which shows
//! the model alone). Models without skins or morph targets are drawn
//! with their materials, each mesh placed by its
//! node's world matrix under the clip ([`sierra_content::poser::NodePoser`]: node translation,
//! rotation and scale channels, e.g. BoxAnimated, AnimatedCube), or at rest without a clip.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;
pub use sierra_content::model_frames::view_camera;
use sierra_content::model_frames::ModelLoad;
pub(crate) use sierra_content::model_frames::{LoadedModel, ModelFrames};
use sierra_gltf::{builtin, ClipSelector, GltfAsset};
use sierra_render::{FrameData, GpuContext, HeadlessRenderer, Renderer};

use super::Size;
use crate::frame_runner::{FrameRunner, FrameSource};
use crate::output::{contact_sheet, contact_sheet_indices, frame_name, write_png, OutputDir};
use crate::scene_to_frame::View;

/// File name of the contact sheet.
const CONTACT_SHEET: &str = "contact_sheet.png";

/// `sierra view` arguments.
#[derive(Debug, Args)]
pub struct ViewArgs {
    /// The model: a `.gltf`/`.glb` path or `builtin:mannequin`.
    pub model: String,
    /// Clip name or index (default: the first clip).
    #[arg(long)]
    pub clip: Option<String>,
    /// Frames rendered, evenly spaced over the clip's duration (default 8); with `--window`,
    /// frames shown before the viewer closes and writes its last one to `--out` (default: until Esc).
    #[arg(long, value_parser = crate::cli::limits::parse_frames)]
    pub frames: Option<u32>,
    /// Output folder: new, empty, or an earlier Sierra run's (replaced).
    #[arg(long, default_value = "out/view")]
    pub out: PathBuf,
    /// Overwrite files in `--out` under the names this run writes even when Sierra did not
    /// write them; every other file is left alone.
    #[arg(long)]
    pub force: bool,
    /// Image size.
    #[arg(long, default_value = "256x256")]
    pub size: Size,
    /// Draw unlit albedo (base colour factor × texture, `DebugView::UnlitAlbedo`) instead of
    /// lit shading: which texels reach the screen, for checking materials.
    #[arg(long)]
    pub albedo: bool,
    /// Open the interactive orbit viewer in a window instead of writing frames: drag to orbit,
    /// wheel to zoom, Tab/1–9 pick a clip, Space plays/pauses, ←/→ scrub, F wireframe, P
    /// screenshot, Esc quits.
    #[arg(long)]
    pub window: bool,
    /// With `--window`: turn the camera this many degrees about the model every frame (a
    /// scripted orbit, for tests and turntables).
    #[arg(long, value_name = "DEGREES")]
    pub orbit: Option<f32>,
    /// With `--window`: reload the model when its file (or a file beside it) changes; the
    /// default (F5 reloads either way).
    #[arg(long, overrides_with = "no_watch")]
    pub watch: bool,
    /// With `--window`: do not watch the model's file.
    #[arg(long, overrides_with = "watch")]
    pub no_watch: bool,
    /// Asset root (default: the model's folder) and budgets.
    #[command(flatten)]
    pub assets: super::AssetArgs,
}

/// Headless frames when `--frames` is not given.
const DEFAULT_FRAMES: u32 = 8;

/// What to load: the model, the asset flags, the clip, the lighting and the sample count.
pub(crate) struct ModelRequest<'a> {
    /// The model as the user wrote it.
    pub model: &'a str,
    /// `--asset-root` and budgets.
    pub assets: &'a super::AssetArgs,
    /// `--clip` (default: the first clip).
    pub clip: Option<&'a str>,
    /// Unlit albedo, no ground.
    pub albedo: bool,
    /// Sample times spread evenly over the clip.
    pub frames: usize,
    /// Image aspect ratio (width / height), for the framing camera.
    pub aspect: f32,
}

/// Runs `sierra view` headless: frames and a contact sheet. (With `--window`, [`super::run`]
/// starts the interactive viewer, `crate::viewer`, instead: this module does not name it.)
///
/// # Errors
/// Import errors naming the file, an unknown clip (listing the clips), GPU errors, unwritable output.
pub fn run(args: ViewArgs) -> Result<()> {
    let frames = args.frames.unwrap_or(DEFAULT_FRAMES) as usize;
    if frames == 0 {
        bail!("--frames must be at least 1");
    }
    let request = ModelRequest {
        model: &args.model,
        assets: &args.assets,
        clip: args.clip.as_deref(),
        albedo: args.albedo,
        frames,
        aspect: args.size.width as f32 / args.size.height as f32,
    };
    // A bad model is refused before the output folder is touched.
    let imported = import_model(&request)?;
    let mut names: Vec<String> = (0..frames).map(frame_name).collect();
    names.push(CONTACT_SHEET.to_owned());
    let out = OutputDir::replace(&args.out, &names, args.force)?;
    let ctx = GpuContext::headless()?;
    outln!("adapter: {}", ctx.adapter_summary())?;
    let mut headless = HeadlessRenderer::new(&ctx, args.size.width, args.size.height)?;
    let loaded = upload_model(&ctx, &mut headless.renderer, &request, imported)?;
    // The one frame runner: each frame ticks the source to the next sample time, extracts and
    // renders it.
    let mut runner = FrameRunner::with_source(loaded.source);
    // Only the contact sheet's frames stay in memory, however many are rendered.
    let sheet_indices = contact_sheet_indices(frames);
    let mut images = Vec::with_capacity(sheet_indices.len());
    let mut progress = sierra_profile::progress::Progress::new("view frame", frames as u64);
    for f in 0..frames {
        let (image, _) = runner.headless_frame(&ctx, &mut headless)?;
        write_png(&image, &out.file(&frame_name(f)))?;
        if sheet_indices.contains(&f) {
            images.push(image);
        }
        progress.inc();
    }
    progress.finish();
    write_png(&contact_sheet(&images), &out.file(CONTACT_SHEET))?;
    outln!(
        "wrote {} frames of {} to {}",
        frames,
        args.model,
        args.out.display()
    )?;
    Ok(())
}

/// Imports `request.model` and finds its clip (`--clip`, else the first; `None` without clips).
///
/// # Errors
/// Import errors naming the file, an unknown clip (listing the clips).
pub(crate) fn import_model(request: &ModelRequest<'_>) -> Result<(GltfAsset, Option<usize>)> {
    let asset = builtin::load_model_in(
        request.model,
        request.assets.asset_root.as_deref(),
        request.assets.budgets(),
    )
    .with_context(|| format!("loading {}", request.model))?;
    let clip = match (request.clip, asset.clips.is_empty()) {
        (Some(c), _) => Some(asset.find_clip(&ClipSelector::parse(c))?),
        (None, false) => Some(0),
        (None, true) => None,
    };
    Ok((asset, clip))
}

/// Uploads an imported model ([`import_model`]) into `renderer` and frames it
/// ([`sierra_content::model_frames::upload_model`], shared with the web viewer).
///
/// # Errors
/// Malformed meshes naming the file, GPU errors.
pub(crate) fn upload_model(
    ctx: &GpuContext,
    renderer: &mut Renderer,
    request: &ModelRequest<'_>,
    (asset, clip): (GltfAsset, Option<usize>),
) -> Result<LoadedModel> {
    let load = ModelLoad {
        name: request.model,
        albedo: request.albedo,
        frames: request.frames,
        aspect: request.aspect,
    };
    Ok(sierra_content::model_frames::upload_model(
        ctx, renderer, &load, &asset, clip,
    )?)
}

/// `view`'s model drawn by the one frame runner.
impl FrameSource for ModelFrames {
    fn tick(&mut self) {
        ModelFrames::tick(self);
    }

    fn extract(&mut self, _view: &View, frame: &mut FrameData) -> Result<()> {
        Ok(ModelFrames::extract(self, frame)?)
    }
}
