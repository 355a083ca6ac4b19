//! `sierra pose MODEL.glb --clip NAME|INDEX --time SECONDS [--skin INDEX]`: prints one skin's
//! joints posed by one clip as JSON; `sierra pose MODEL.glb --list` prints the skins and clips.
//!
//! The pose is computed by the animation job ([`sierra_anim::CharacterJob`] on a
//! [`sierra_anim::CharacterPose`], the path gameplay uses) from the raw clips, or from
//! compressed clips with `--compressed`; `sierra_gltf::pose` (same JSON) stays the independent
//! reference that the tests compare against.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use glam::Mat4;
use sierra_anim::{
    CharacterJob, CharacterPose, Clip, ClipLayer, ClipSource, CompressedClip, CompressionSettings,
    Playback, Skeleton,
};
use sierra_gltf::pose::PoseReport;
use sierra_gltf::{pose, ClipSelector, GltfAsset, ImportOptions};

/// `sierra pose` arguments.
#[derive(Debug, Args)]
pub struct PoseArgs {
    /// The model (`.gltf` or `.glb`).
    pub model: PathBuf,
    /// Clip name, or index when no clip has that name.
    #[arg(long, required_unless_present = "list")]
    pub clip: Option<String>,
    /// Time in seconds (clamped to [0, duration]).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub time: f32,
    /// Skin index.
    #[arg(long, default_value_t = 0)]
    pub skin: usize,
    /// Print the skins (index, name, joint count) and clips (index, name, duration) instead.
    #[arg(long)]
    pub list: bool,
    /// Sample compressed clips ([`sierra_anim::CompressedClip`], 0.1 mm tolerance) instead of
    /// the raw ones.
    #[arg(long)]
    pub compressed: bool,
    /// Asset root (default: the model's folder) and budgets.
    #[command(flatten)]
    pub assets: super::AssetArgs,
}

/// The JSON `sierra pose` prints for `args`.
///
/// # Errors
/// Import errors (naming the file and index), an unknown clip or skin.
pub fn pose_json(args: &PoseArgs) -> anyhow::Result<serde_json::Value> {
    let asset = GltfAsset::load_user_file(
        &args.model,
        args.assets.asset_root.as_deref(),
        args.assets.budgets(),
        ImportOptions::ANIMATION_ONLY,
    )
    .with_context(|| format!("loading {}", args.model.display()))?;
    if args.list {
        return Ok(pose::list_json(&asset));
    }
    let clip = ClipSelector::parse(args.clip.as_deref().unwrap_or("0"));
    Ok(pose_report(&asset, &clip, args.time, args.skin, args.compressed)?.to_json())
}

/// Model matrices of `skeleton` with `clip` at `time` (one-shot), through the animation job.
fn job_model<C: ClipSource + ?Sized>(
    skeleton: &Skeleton,
    clip: &C,
    time: f32,
) -> anyhow::Result<Vec<Mat4>> {
    let mut pose = CharacterPose::new(skeleton, 0, 1);
    let layers = [ClipLayer::single(clip, time, Playback::Once)];
    CharacterJob::new(skeleton, None, &layers).run(&mut pose)?;
    Ok(pose.model)
}

/// [`job_model`] of `clip`, or of its compression when `compressed`.
fn model_of(
    skeleton: &Skeleton,
    clip: &Clip,
    time: f32,
    compressed: bool,
) -> anyhow::Result<Vec<Mat4>> {
    if compressed {
        let c = CompressedClip::compress(clip, skeleton, &CompressionSettings::default())?;
        job_model(skeleton, &c, time)
    } else {
        job_model(skeleton, clip, time)
    }
}

/// Skin `skin` of `asset` posed by clip `clip` at `time` seconds (clamped to the clip,
/// one-shot) through the animation job: the report `sierra_gltf::pose::pose` computes
/// independently (same fields and meaning), from raw or compressed clips.
///
/// # Errors
/// Unknown clip or skin, clip building errors.
pub fn pose_report(
    asset: &GltfAsset,
    clip: &ClipSelector,
    time: f32,
    skin: usize,
    compressed: bool,
) -> anyhow::Result<PoseReport> {
    pose::pose_with(asset, clip, time, skin, |skeleton, built, t| {
        model_of(skeleton, built, t, compressed)
    })
}

/// Runs `sierra pose`.
///
/// # Errors
/// See [`pose_json`].
pub fn run(args: PoseArgs) -> anyhow::Result<()> {
    let json = pose_json(&args)?;
    outln!("{}", serde_json::to_string_pretty(&json)?)?;
    Ok(())
}
