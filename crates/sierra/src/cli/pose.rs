//! `sierra pose MODEL.glb --clip NAME|INDEX --time SECONDS [--skin INDEX]`: prints one skin's
//! joints posed by one clip as JSON; `sierra pose MODEL.glb --list` prints the skins and clips.
//! The logic lives in `sierra_gltf::pose` (tests call it directly).

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
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
    Ok(pose::pose(&asset, &clip, args.time, args.skin)?.to_json())
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
