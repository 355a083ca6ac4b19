//! `sierra inspect LEVEL.json [--asset-root DIR] [--ticks N]`: prints the level's node tree
//! (name, path, world position/rotation/scale, mesh, components) as JSON.
//! The logic lives in `sierra_scene::inspect` (tests call it directly).

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use sierra_scene::assets::AssetCache;
use sierra_scene::level::load_level_with;
use sierra_scene::Scene;

/// `sierra inspect` arguments.
#[derive(Debug, Args)]
pub struct InspectArgs {
    /// The level file.
    pub level: PathBuf,
    /// Asset root and budgets.
    #[command(flatten)]
    pub assets: super::AssetArgs,
    /// Advance spinners by this many fixed 60 Hz ticks before printing.
    #[arg(long, default_value_t = 0, value_parser = crate::cli::limits::parse_ticks)]
    pub ticks: u32,
}

/// The JSON `sierra inspect` prints for `args`.
///
/// # Errors
/// Level and asset errors (file, JSON path, line:column where known).
pub fn inspect_json(args: &InspectArgs) -> anyhow::Result<serde_json::Value> {
    let level = load_level_with(&args.level, &args.assets.load_options())?;
    let mut assets = AssetCache::for_level(&level);
    let mut scene = Scene::from_level(&level, &mut assets)
        .with_context(|| format!("building the scene of {}", args.level.display()))?;
    // One validation with `render`: the checks `Game::new` runs before anything touches the
    // GPU (camera, gameplay, landscape components, crowds, node animation). The tree printed
    // is the level's, so the game (which adds the gameplay's joint nodes) is built on a copy.
    crate::game::Game::new(scene.clone(), args.level.clone(), 60.0)?;
    for _ in 0..args.ticks {
        sierra_scene::node_behaviour::tick_node_components(&mut scene, 1.0 / 60.0);
        scene.graph.propagate();
    }
    Ok(sierra_scene::inspect::scene_tree_json(&scene))
}

/// Prints the node tree of `args.level` as pretty JSON on stdout.
///
/// # Errors
/// As [`inspect_json`].
pub fn run(args: InspectArgs) -> anyhow::Result<()> {
    let json = inspect_json(&args)?;
    outln!("{}", serde_json::to_string_pretty(&json)?)?;
    Ok(())
}
