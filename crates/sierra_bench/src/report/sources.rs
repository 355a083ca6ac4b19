//! The report's figures, benchmark by benchmark: each source runs one benchmark once (its
//! baseline and Sierra's code, back to back) and returns its figures as [`Sample`]s. The
//! benchmarks are the ones `sierra bench anim|noise|water|propagation` print; this module only
//! says which of their numbers make a figure and what each compares.

use super::data::{Better, Sample};
use crate::{anim, noise, propagation, water};

/// The sizes a report measures.
#[derive(Clone, Debug)]
pub struct Sizes {
    /// `bench anim --characters`.
    pub anim_characters: u32,
    /// `bench anim --frames`.
    pub anim_frames: u32,
    /// `bench propagation --rigs`: the larger, then the smaller graph.
    pub propagation_rigs: [u32; 2],
    /// `bench propagation --frames`.
    pub propagation_frames: u32,
    /// `bench water --sizes`: the smaller, then the larger grid side.
    pub water_sides: [usize; 2],
}

impl Sizes {
    /// The sizes of the figures the docs quote (the commands' defaults).
    pub fn full() -> Self {
        Self {
            anim_characters: 1000,
            anim_frames: 200,
            propagation_rigs: [4000, 250],
            propagation_frames: 200,
            water_sides: [1024, 2048],
        }
    }

    /// Small sizes for tests (noise keeps its fixed workloads: about a second).
    pub fn quick() -> Self {
        Self {
            anim_characters: 40,
            anim_frames: 4,
            propagation_rigs: [40, 8],
            propagation_frames: 4,
            water_sides: [32, 64],
        }
    }
}

/// A benchmark's figures from one run.
pub type Source = fn(&Sizes) -> anyhow::Result<Vec<Sample>>;

/// Every source, in report order, with its name.
pub fn all() -> [(&'static str, Source); 4] {
    [
        ("anim", anim_figures),
        ("propagation", propagation_figures),
        ("noise", noise_figures),
        ("water", water_figures),
    ]
}

/// Every figure's id, in report order.
pub const IDS: [&str; 19] = [
    "anim.full_job",
    "anim.l2m_palette",
    "anim.two_thread_speedup",
    "anim.fused_vs_staged",
    "propagation.larger",
    "propagation.smaller",
    "noise.grid3",
    "noise.heightmap3",
    "noise.fbm2",
    "noise.scalar_f32",
    "noise.scalar_f64",
    "water.smaller.one_thread",
    "water.smaller.two_threads",
    "water.smaller.speedup",
    "water.smaller.bandwidth",
    "water.larger.one_thread",
    "water.larger.two_threads",
    "water.larger.speedup",
    "water.larger.bandwidth",
];

/// Index of `id` in [`IDS`] (unknown ids last).
pub fn position(id: &str) -> usize {
    IDS.iter().position(|&x| x == id).unwrap_or(IDS.len())
}

const SKELETON_JOB: &str = "skeleton.c, 1 thread: TRS → matrix + local-to-model + palette";

/// `bench anim`: the anchor workload against `benchmarks/c/skeleton.c`.
fn anim_figures(sizes: &Sizes) -> anyhow::Result<Vec<Sample>> {
    let r = anim::measure(&anim::AnimBenchArgs {
        characters: sizes.anim_characters,
        joints: 68,
        frames: sizes.anim_frames,
        no_c_baseline: false,
        json: false,
    })?;
    let c = r
        .skel_c
        .as_ref()
        .ok_or_else(|| anyhow::anyhow!("skeleton.c did not run"))?;
    let workload = format!("{} characters × 68 joints", r.characters);
    let crowd = &r.stages_over_crowd;
    Ok(vec![
        Sample {
            id: "anim.full_job",
            figure: "animation full job, 1 thread",
            baseline: SKELETON_JOB,
            compares:
                "Sierra: sample 2 clips (31 keys, 136 tracks each) + blend + local-to-model + \
                       palette; skeleton.c: TRS → matrix + local-to-model + palette. Not the same \
                       work (Sierra also samples and blends): skeleton.c's job is the unit of cost \
                       issue #23 set",
            workload: workload.clone(),
            unit: "ns/character",
            sierra: r.one_thread_us_per_character * 1e3,
            baseline_value: c.one_thread_ns_per_character,
            better: Better::Lower,
        },
        Sample {
            id: "anim.l2m_palette",
            figure: "animation local-to-model + palette, 1 thread",
            baseline: SKELETON_JOB,
            compares: "the same work: Sierra's fused local-to-model + palette pass (which builds \
                       each joint's matrix from its TRS; `local_to_palette_soa`, what the job \
                       runs) over all characters; skeleton.c does the same per character",
            workload: workload.clone(),
            unit: "ns/character",
            sierra: crowd.l2m_palette_fused_ns,
            baseline_value: c.one_thread_ns_per_character,
            better: Better::Lower,
        },
        Sample {
            id: "anim.two_thread_speedup",
            figure: "animation full job, 2-thread speed-up",
            baseline: "skeleton.c's 2-thread speed-up (OpenMP)",
            compares: "each side's 1-thread time over its own 2-thread time",
            workload: workload.clone(),
            unit: "×",
            sierra: r.two_thread_speedup,
            baseline_value: c.two_thread_speedup,
            better: Better::Higher,
        },
        Sample {
            id: "anim.fused_vs_staged",
            figure: "animation full job, fused sample-and-blend",
            baseline: "Sierra staged (sample each clip, then blend)",
            compares: "the same work by two Sierra paths",
            workload,
            unit: "ns/character",
            sierra: r.one_thread_us_per_character * 1e3,
            baseline_value: r.staged_one_thread_us_per_character * 1e3,
            better: Better::Lower,
        },
    ])
}

/// `bench propagation`: scene-graph propagation against `skeleton.c --no-skin`.
fn propagation_figures(sizes: &Sizes) -> anyhow::Result<Vec<Sample>> {
    let rows = propagation::measure(
        &sizes.propagation_rigs,
        sizes.propagation_frames as usize,
        true,
    )?;
    let ids = [
        ("propagation.larger", "transform propagation, larger graph"),
        (
            "propagation.smaller",
            "transform propagation, smaller graph",
        ),
    ];
    rows.iter()
        .zip(ids)
        .map(|(row, (id, figure))| {
            Ok(Sample {
                id,
                figure,
                baseline: "skeleton.c --no-skin, 1 thread: TRS → matrix + local-to-model",
                compares: "the same work: per moving rig's node, its local TRS to a matrix and \
                           the parent product (every second rig turns; skeleton.c runs as many \
                           68-joint characters as moving rigs)",
                workload: format!(
                    "{} rigs of 68 nodes, {} updated per frame",
                    row.rigs, row.updated_nodes
                ),
                unit: "ns/node",
                sierra: row.ns_per_node,
                baseline_value: row
                    .c_no_skin_ns_per_joint
                    .ok_or_else(|| anyhow::anyhow!("skeleton.c --no-skin did not run"))?,
                better: Better::Lower,
            })
        })
        .collect()
}

/// `bench noise` (one round): Sierra's noise against `benchmarks/c/perlin.c`.
fn noise_figures(_: &Sizes) -> anyhow::Result<Vec<Sample>> {
    let b = noise::measure(true, 1)?;
    let c =
        b.c.as_ref()
            .ok_or_else(|| anyhow::anyhow!("perlin.c did not run"))?;
    let sample = |id, figure, baseline, compares, workload: &str, sierra, base| Sample {
        id,
        figure,
        baseline,
        compares,
        workload: workload.to_owned(),
        unit: "ns/sample",
        sierra,
        baseline_value: base,
        better: Better::Lower,
    };
    Ok(vec![
        sample(
            "noise.grid3",
            "3D Perlin grid (SIMD path), 1 thread",
            "perlin.c grid 128^3",
            "the same samples: noise3(i·0.0371 + 0.5, j·0.0371 + 0.25, k·0.0371 + 0.125)",
            "128³",
            b.grid_128_ns_per_sample,
            c.grid_ns_per_sample,
        ),
        sample(
            "noise.heightmap3",
            "fBm heightmap of 3D noise, 1 thread",
            "perlin.c heightmap",
            "the same samples: 6 octaves of noise3(i·f + 0.5, j·f + 0.25, 0.5) from f = 0.01",
            "1024², 6 octaves",
            b.heightmap_1024_ns_per_sample,
            c.heightmap_ns_per_sample,
        ),
        sample(
            "noise.fbm2",
            "2D fBm (`fbm2_grid`, the island's noise), 1 thread",
            "perlin.c face fbm",
            "the same samples: 6 octaves of noise3(x·f, y·f, 0) at spacing 0.01, both sides \
             evaluating the z = 0 face only (4 corners); it used to be divided by the 3D \
             heightmap's C time, heavier work",
            "1024², 6 octaves",
            b.fbm2_grid_1024_ns_per_sample,
            c.fbm2_face_ns_per_sample,
        ),
        sample(
            "noise.scalar_f32",
            "3D Perlin, scalar f32, random points",
            "perlin.c random points",
            "the same 2²¹ points in [0, 200)³, one call per point, f32 on both sides",
            "2²¹ points",
            b.perlin3_scalar_f32_ns_per_sample,
            c.random_points_ns_per_sample,
        ),
        sample(
            "noise.scalar_f64",
            "3D Perlin, scalar f64 (reference-exact), random points",
            "perlin.c random points",
            "the same points and formula; Sierra in f64, C in f32 (not the same precision)",
            "2²¹ points",
            b.perlin3_scalar_f64_ns_per_sample,
            c.random_points_ns_per_sample,
        ),
    ])
}

/// `bench water` (CPU only): the water step against `benchmarks/c/pipes.c` and a copy.
fn water_figures(sizes: &Sizes) -> anyhow::Result<Vec<Sample>> {
    let (rows, _) = water::bench(&sizes.water_sides, false, true)?;
    let mut out = Vec::new();
    let names = [
        (
            [
                "water.smaller.one_thread",
                "water.smaller.two_threads",
                "water.smaller.speedup",
                "water.smaller.bandwidth",
            ],
            [
                "water step, 1 thread, smaller grid",
                "water step, 2 threads, smaller grid",
                "water step, 2-thread speed-up, smaller grid",
                "water step bandwidth, 2 threads, smaller grid",
            ],
        ),
        (
            [
                "water.larger.one_thread",
                "water.larger.two_threads",
                "water.larger.speedup",
                "water.larger.bandwidth",
            ],
            [
                "water step, 1 thread, larger grid",
                "water step, 2 threads, larger grid",
                "water step, 2-thread speed-up, larger grid",
                "water step bandwidth, 2 threads, larger grid",
            ],
        ),
    ];
    const SAME_STEP: &str = "the same work: one virtual-pipes step (Mei et al. 2007: flux, then \
                             depth) of the same closed pool, structure of arrays, double-buffered";
    for (row, (ids, figures)) in rows.iter().zip(names) {
        let missing = || anyhow::anyhow!("pipes.c did not run at {}²", row.size);
        let c1 = row.pipes_c_1_thread_ns_per_cell_step.ok_or_else(missing)?;
        let c2 = row.pipes_c_2_threads_ns_per_cell_step.ok_or_else(missing)?;
        let workload = format!("{}², {} steps", row.size, row.steps);
        let (one, two) = (
            row.cpu_1_thread_ns_per_cell_step,
            row.cpu_2_threads_ns_per_cell_step,
        );
        // Bytes per cell a step moves (6 arrays read, 5 written): bytes/ns = GB/s.
        let bytes = sierra_terrain::water::STEP_BYTES_PER_CELL as f64;
        out.extend([
            Sample {
                id: ids[0],
                figure: figures[0],
                baseline: "pipes.c, 1 thread",
                compares: SAME_STEP,
                workload: workload.clone(),
                unit: "ns/cell",
                sierra: one,
                baseline_value: c1,
                better: Better::Lower,
            },
            Sample {
                id: ids[1],
                figure: figures[1],
                baseline: "pipes.c, 2 threads (OpenMP)",
                compares: SAME_STEP,
                workload: workload.clone(),
                unit: "ns/cell",
                sierra: two,
                baseline_value: c2,
                better: Better::Lower,
            },
            Sample {
                id: ids[2],
                figure: figures[2],
                baseline: "pipes.c's 2-thread speed-up",
                compares: "each side's 1-thread step time over its own 2-thread step time",
                workload: workload.clone(),
                unit: "×",
                sierra: one / two,
                baseline_value: c1 / c2,
                better: Better::Higher,
            },
            Sample {
                id: ids[3],
                figure: figures[3],
                baseline: "a 2-thread banded copy of the same bytes",
                compares: "the 2-thread step's 44 bytes per cell (6 arrays read, 5 written) over \
                           its time, against a copy moving the same bytes on the same threads: \
                           the fraction of the machine's copy bandwidth the step reaches",
                workload,
                unit: "GB/s",
                sierra: bytes / two,
                baseline_value: bytes / row.copy_2_threads_ns_per_cell,
                better: Better::Higher,
            },
        ]);
    }
    Ok(out)
}
