//! `sierra bench compression [--assets DIR] [--json]`: every clip of every shared sample model
//! with joint or node animation, the built-in mannequin's clips and the anchor workload's two
//! clips, each compressed ([`sierra_anim::CompressedClip`], 0.1 mm tolerance): raw bytes (what a
//! [`sierra_anim::Clip`] stores, key times included) → compressed bytes, and the largest
//! virtual-vertex error (ACL's measure: 3 cm from each joint, 1 m from roots, model space of the
//! whole node tree, i.e. world metres; see [`sierra_anim::offline::compress`]).
//!
//! Glb/glTF files are read from `DIR/gltf/*/` (default `$SIERRA_SHARED/assets`, else
//! `../shared/assets`). Clips are built for the file's node tree (one joint per node), so skins
//! and plain node animation are measured alike; models without animation, and clips that
//! animate only morph weights (kept as `f32`), are listed as skipped with the reason.

use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Args;
use serde::Serialize;
use sierra_anim::offline::compress::{max_vertex_error, raw_bytes};
use sierra_anim::{synthetic, Clip, CompressedClip, CompressionSettings, Skeleton};
use sierra_gltf::{ChannelData, GltfAsset, ImportOptions};

/// `sierra bench compression` arguments.
#[derive(Debug, Args)]
pub struct CompressionBenchArgs {
    /// Shared assets folder holding `gltf/<Model>/<Model>.glb|.gltf` (default:
    /// `$SIERRA_SHARED/assets`, else `../shared/assets`).
    #[arg(long)]
    pub assets: Option<PathBuf>,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// One compressed clip.
#[derive(Clone, Debug, Serialize)]
pub struct ClipRow {
    /// Model (shared folder name, `builtin:mannequin` or `anchor`).
    pub model: String,
    /// Clip name (or index when unnamed).
    pub clip: String,
    /// Joints of the skeleton the clip was built for.
    pub joints: usize,
    /// Animated tracks in the compressed clip.
    pub animated_tracks: usize,
    /// Raw clip bytes ([`sierra_anim::offline::compress::raw_bytes`]).
    pub raw_bytes: usize,
    /// Compressed bytes ([`CompressedClip::byte_size`]).
    pub compressed_bytes: usize,
    /// Largest virtual-vertex error, metres.
    pub max_error_m: f64,
}

/// A model or clip left out, and why.
#[derive(Clone, Debug, Serialize)]
pub struct Skipped {
    /// Model (and clip, when one clip of a model is skipped).
    pub what: String,
    /// Why.
    pub reason: String,
}

/// The whole table.
#[derive(Clone, Debug, Default, Serialize)]
pub struct CompressionReport {
    /// Tolerance the clips were compressed to, metres.
    pub tolerance_m: f64,
    /// One row per clip.
    pub clips: Vec<ClipRow>,
    /// Left out, with reasons.
    pub skipped: Vec<Skipped>,
    /// Sum of raw bytes.
    pub total_raw_bytes: usize,
    /// Sum of compressed bytes.
    pub total_compressed_bytes: usize,
}

fn row(model: &str, clip: &Clip, skeleton: &Skeleton) -> anyhow::Result<ClipRow> {
    let settings = CompressionSettings::default();
    let c = CompressedClip::compress(clip, skeleton, &settings)
        .with_context(|| format!("compressing {model} / {}", clip.name()))?;
    Ok(ClipRow {
        model: model.to_owned(),
        clip: clip.name().to_owned(),
        joints: skeleton.joint_count(),
        animated_tracks: c.animated_track_count(),
        raw_bytes: raw_bytes(clip),
        compressed_bytes: c.byte_size(),
        max_error_m: max_vertex_error(skeleton, clip, &c, &settings) as f64,
    })
}

/// Rows for every clip of `asset` with joint/node channels (built for its node tree).
fn model_rows(name: &str, asset: &GltfAsset, report: &mut CompressionReport) -> anyhow::Result<()> {
    if asset.clips.is_empty() {
        report.skipped.push(Skipped {
            what: name.to_owned(),
            reason: "no animations".into(),
        });
        return Ok(());
    }
    let (skeleton, nodes) = asset.node_skeleton()?;
    for (i, imported) in asset.clips.iter().enumerate() {
        let transforms = imported
            .channels
            .iter()
            .any(|c| !matches!(c.data, ChannelData::Weights(_)));
        if !transforms {
            let clip = if imported.name.is_empty() {
                format!("#{i}")
            } else {
                imported.name.clone()
            };
            report.skipped.push(Skipped {
                what: format!("{name} / {clip}"),
                reason: "morph weights only (kept as f32, not compressed)".into(),
            });
            continue;
        }
        let mut clip_row = row(name, &asset.build_clip(i, &skeleton, &nodes)?, &skeleton)?;
        if clip_row.clip.is_empty() {
            clip_row.clip = format!("#{i}");
        }
        report.clips.push(clip_row);
    }
    Ok(())
}

/// The default shared assets folder.
pub fn default_assets() -> PathBuf {
    std::env::var_os("SIERRA_SHARED")
        .map(|d| PathBuf::from(d).join("assets"))
        .unwrap_or_else(|| PathBuf::from("../shared/assets"))
}

/// The sample models under `assets/gltf/*/` (`(folder name, model file)`, sorted by name).
pub fn shared_models(assets: &Path) -> Vec<(String, PathBuf)> {
    let Ok(dirs) = std::fs::read_dir(assets.join("gltf")) else {
        return Vec::new();
    };
    let mut out: Vec<(String, PathBuf)> = dirs
        .flatten()
        .filter(|d| d.path().is_dir())
        .filter_map(|d| {
            let name = d.file_name().to_string_lossy().into_owned();
            ["glb", "gltf"]
                .iter()
                .map(|ext| d.path().join(format!("{name}.{ext}")))
                .find(|p| p.is_file())
                .map(|p| (name, p))
        })
        .collect();
    out.sort();
    out
}

/// Compresses every clip of the shared models under `assets` (none when `None`), the built-in
/// mannequin and, with `anchor`, the anchor workload.
///
/// # Errors
/// Import or clip-building errors, naming the model.
pub fn report(assets: Option<&Path>, anchor: bool) -> anyhow::Result<CompressionReport> {
    let mut report = CompressionReport {
        tolerance_m: CompressionSettings::default().tolerance as f64,
        ..Default::default()
    };
    if let Some(assets) = assets {
        let models = shared_models(assets);
        if models.is_empty() {
            report.skipped.push(Skipped {
                what: assets.display().to_string(),
                reason: "no shared models found".into(),
            });
        }
        for (name, path) in models {
            let asset = GltfAsset::load_with(&path, ImportOptions::ANIMATION_ONLY)
                .with_context(|| format!("loading {}", path.display()))?;
            model_rows(&name, &asset, &mut report)?;
        }
    }
    let mannequin = sierra_gltf::builtin::mannequin::load()?;
    model_rows(
        sierra_gltf::builtin::mannequin::MODEL_NAME,
        &mannequin,
        &mut report,
    )?;
    if anchor {
        let skel = synthetic::skeleton(68);
        for (name, seed) in [("walk", 1), ("run", 2)] {
            let clip = synthetic::clip(&skel, name, 1.0, 30.0, seed);
            report.clips.push(row("anchor", &clip, &skel)?);
        }
    }
    report.total_raw_bytes = report.clips.iter().map(|r| r.raw_bytes).sum();
    report.total_compressed_bytes = report.clips.iter().map(|r| r.compressed_bytes).sum();
    Ok(report)
}

/// Runs `sierra bench compression`.
///
/// # Errors
/// See [`report`].
pub fn run(args: CompressionBenchArgs) -> anyhow::Result<()> {
    let assets = args.assets.unwrap_or_else(default_assets);
    let r = report(Some(&assets), true)?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&r)?)?;
        return Ok(());
    }
    outln!("| model | clip | joints | animated tracks | raw bytes | compressed bytes | ratio | max error (mm) |")?;
    outln!("|---|---|---:|---:|---:|---:|---:|---:|")?;
    for c in &r.clips {
        outln!(
            "| {} | {} | {} | {} | {} | {} | {:.3} | {:.4} |",
            c.model,
            c.clip,
            c.joints,
            c.animated_tracks,
            c.raw_bytes,
            c.compressed_bytes,
            c.compressed_bytes as f64 / c.raw_bytes as f64,
            c.max_error_m * 1e3
        )?;
    }
    outln!(
        "| **total** | {} clips | | | {} | {} | {:.3} | {:.4} |",
        r.clips.len(),
        r.total_raw_bytes,
        r.total_compressed_bytes,
        r.total_compressed_bytes as f64 / r.total_raw_bytes.max(1) as f64,
        r.clips.iter().map(|c| c.max_error_m).fold(0.0, f64::max) * 1e3
    )?;
    for s in &r.skipped {
        outln!("skipped: {} — {}", s.what, s.reason)?;
    }
    Ok(())
}
