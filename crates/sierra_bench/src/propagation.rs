//! `sierra bench propagation`: the scene graph's transform propagation
//! ([`SceneGraph::propagate`]) on rigs of 68 nodes ([`sierra_scene::synthetic::add_rig`]), every
//! second rig's root turning each frame, in ns per updated node (fastest frame), beside the C
//! baseline `benchmarks/c/skeleton.c` run in the same invocation on one thread for as many
//! characters as there are moving rigs (the same number of matrices per frame): its full loop
//! (TRS → matrix, parent multiply, skinning multiply) and `--no-skin` (TRS → matrix, parent
//! multiply), which is the same work as propagation.

use std::hint::black_box;
use std::time::Instant;

use clap::Args;
use serde::Serialize;
use sierra_scene::graph::{NodeId, SceneGraph};
use sierra_scene::synthetic::{add_rig, turn_roots, RIG_NODES};

use crate::c_baseline::{self, CBaseline};

/// `sierra bench propagation` arguments.
#[derive(Debug, Args)]
pub struct PropagationBenchArgs {
    /// Rig counts to measure (half of each moves per frame).
    #[arg(long, value_delimiter = ',', default_value = "4000,250", value_parser = clap::value_parser!(u32).range(2..=100_000))]
    pub rigs: Vec<u32>,
    /// Frames timed per rig count (the fastest is reported).
    #[arg(long, default_value_t = 200, value_parser = crate::limits::parse_frames)]
    pub frames: u32,
    /// Run without the C baseline (benchmarks/c/skeleton.c, built with gcc): no ratios.
    #[arg(long)]
    pub no_c_baseline: bool,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// One rig count's figures.
#[derive(Clone, Debug, Serialize)]
pub struct PropagationRow {
    /// Rigs in the graph.
    pub rigs: usize,
    /// Nodes recomputed per frame (moving rigs × 68).
    pub updated_nodes: usize,
    /// Fastest frame, ns per updated node.
    pub ns_per_node: f64,
    /// Median frame, ns per updated node.
    pub median_ns_per_node: f64,
    /// skeleton.c, one thread, as many characters as moving rigs: ns per joint, full loop.
    pub c_full_ns_per_joint: Option<f64>,
    /// skeleton.c `--no-skin` (TRS → matrix + parent multiply), ns per joint.
    pub c_no_skin_ns_per_joint: Option<f64>,
    /// `ns_per_node / c_full_ns_per_joint`.
    pub ratio_to_c_full: Option<f64>,
    /// `ns_per_node / c_no_skin_ns_per_joint` (the same work).
    pub ratio_to_c_no_skin: Option<f64>,
}

/// `skeleton.c --threads 1` for `characters` characters: (full, `--no-skin`) ns per joint.
fn skeleton_c(characters: usize) -> anyhow::Result<(f64, f64)> {
    let n = characters.to_string();
    let run = |extra: &[&str]| -> anyhow::Result<f64> {
        let args: Vec<&str> = [n.as_str(), "--threads", "1"]
            .into_iter()
            .chain(extra.iter().copied())
            .collect();
        let out =
            c_baseline::build_and_run(CBaseline::Skeleton, &args).map_err(anyhow::Error::msg)?;
        c_baseline::require(&out, "threads=1", " ns/joint").map_err(anyhow::Error::msg)
    };
    Ok((run(&[])?, run(&["--no-skin"])?))
}

/// Fastest and median frame, ns per updated node, of `frames` frames on `rigs` rigs.
fn measure_rigs(rigs: usize, frames: usize) -> anyhow::Result<(usize, f64, f64)> {
    let mut graph = SceneGraph::new();
    let roots: Vec<NodeId> = (0..rigs)
        .map(|r| add_rig(&mut graph, r))
        .collect::<Result<_, _>>()?;
    graph.propagate();
    let moving: Vec<NodeId> = roots.iter().step_by(2).copied().collect();
    let updated = moving.len() * RIG_NODES;
    let mut times: Vec<f64> = (0..=frames)
        .map(|f| {
            let start = Instant::now();
            turn_roots(&mut graph, &moving, f as f32 * 0.02);
            black_box(graph.propagate());
            start.elapsed().as_secs_f64() * 1e9 / updated as f64
        })
        .skip(1)
        .collect();
    times.sort_by(f64::total_cmp);
    Ok((updated, times[0], times[times.len() / 2]))
}

/// Measures each rig count, the C baseline before and after (best of both).
///
/// # Errors
/// The C baseline failing (unless `c` is false), or a graph error.
pub fn measure(rigs: &[u32], frames: usize, c: bool) -> anyhow::Result<Vec<PropagationRow>> {
    rigs.iter()
        .map(|&r| {
            let r = r as usize;
            let characters = r.div_ceil(2);
            let before = c.then(|| skeleton_c(characters)).transpose()?;
            let (updated, best, median) = measure_rigs(r, frames)?;
            let after = c.then(|| skeleton_c(characters)).transpose()?;
            let c = before.zip(after).map(|(a, b)| (a.0.min(b.0), a.1.min(b.1)));
            Ok(PropagationRow {
                rigs: r,
                updated_nodes: updated,
                ns_per_node: best,
                median_ns_per_node: median,
                c_full_ns_per_joint: c.map(|c| c.0),
                c_no_skin_ns_per_joint: c.map(|c| c.1),
                ratio_to_c_full: c.map(|c| best / c.0),
                ratio_to_c_no_skin: c.map(|c| best / c.1),
            })
        })
        .collect()
}

/// Runs `sierra bench propagation`.
///
/// # Errors
/// See [`measure`].
pub fn run(args: PropagationBenchArgs) -> anyhow::Result<()> {
    let rows = measure(&args.rigs, args.frames as usize, !args.no_c_baseline)?;
    if args.json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({ "propagation": rows }))?
        )?;
        return Ok(());
    }
    outln!("transform propagation, rigs of {RIG_NODES} nodes, every second rig turning; one thread, fastest frame")?;
    let cell =
        |v: Option<f64>, digits: usize| v.map_or("-".to_owned(), |v| format!("{v:.digits$}"));
    for r in &rows {
        outln!(
            "  {:>6} rigs ({:>7} nodes/frame): {:6.2} ns/node (median {:.2}); skeleton.c {} ns/joint, --no-skin {} -> {}x full, {}x --no-skin",
            r.rigs,
            r.updated_nodes,
            r.ns_per_node,
            r.median_ns_per_node,
            cell(r.c_full_ns_per_joint, 2),
            cell(r.c_no_skin_ns_per_joint, 2),
            cell(r.ratio_to_c_full, 3),
            cell(r.ratio_to_c_no_skin, 3),
        )?;
    }
    Ok(())
}
