//! `sierra bench noise`: nanoseconds per noise sample on one thread, each next to the same
//! workload of the scalar C baseline `benchmarks/c/perlin.c`, built with `gcc -O3
//! -march=native` and run in the same invocation; the ratio is Sierra's best time over C's best
//! time (the C program reports the best of its own repeats).
//!
//! The C program's workloads and Sierra's counterparts, sample for sample:
//! - "perlin3 random points": 2^21 points uniform in [0, 200)³ (the same xorshift64* stream on
//!   both sides); Sierra's scalar `perlin3`;
//! - "perlin3 grid 128^3": [`perlin_tbl_grid`];
//! - "perlin3 heightmap": [`perlin_tbl_heightmap`] (3D noise on the plane z = 0.5, 6 octaves
//!   from 0.01, lacunarity 2, gain 0.5);
//! - "perlin3 face fbm": Sierra's 2D fBm of the island ([`fbm2_grid`]: 6 octaves of `perlin2`,
//!   the z = 0 face of 3D noise, 4 corners per sample) over 1024² samples at spacing 0.01.
//!
//! Every ratio divides the same samples on both sides (`c_and_sierra_compute_the_same_samples`
//! checks the sums of all samples agree). The 2D fBm was once divided by the 3D heightmap's C
//! time, heavier work (8 corners per sample): that flattered it by about a third.

use std::hint::black_box;
use std::time::Instant;

use crate::c_baseline::{CBaseline, CProgram};

use clap::Args;
use serde::Serialize;
use sierra_terrain::noise::grid::{fbm2_grid, fbm2d_grid, GridSpec, RowNoise, SimdPath, Threads};
use sierra_terrain::noise::workloads::{
    perlin_tbl_grid, perlin_tbl_heightmap, GRID_SIDE, HEIGHTMAP_FREQUENCY, HEIGHTMAP_OCTAVES,
    HEIGHTMAP_SIDE,
};
use sierra_terrain::noise::{perlin3, Fbm, FbmParams, NoiseFloat, Permutation};

/// `sierra bench noise` arguments.
#[derive(Debug, Args)]
pub struct NoiseBenchArgs {
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Run without the C baseline (benchmarks/c/perlin.c, built with gcc): no ratios.
    #[arg(long)]
    pub no_c_baseline: bool,
    /// Rounds: each runs the C program once and every Sierra workload a few times; the best of
    /// all rounds counts on both sides.
    #[arg(long, default_value_t = 3)]
    pub rounds: usize,
}

/// The C baseline's figures (ns per sample, best of its repeats and of all rounds).
#[derive(Debug, Default, Serialize)]
pub struct CFigures {
    /// "perlin3 random points" line.
    pub random_points_ns_per_sample: f64,
    /// "perlin3 grid 128^3" line.
    pub grid_ns_per_sample: f64,
    /// "perlin3 heightmap" line.
    pub heightmap_ns_per_sample: f64,
    /// "perlin3 face fbm" line (the work of [`fbm2_grid`]).
    pub fbm2_face_ns_per_sample: f64,
}

/// The figures.
#[derive(Debug, Serialize)]
pub struct NoiseBench {
    /// CPU model, from `/proc/cpuinfo` where readable.
    pub cpu: String,
    /// Grid code path chosen at run time (`Avx512`, `Avx2` or `Portable`).
    pub simd_path: String,
    /// Threads in the rayon pool (the "all threads" figure).
    pub threads: usize,
    /// perlin3 `f32`, scalar, random points in [0, 200)³.
    pub perlin3_scalar_f32_ns_per_sample: f64,
    /// perlin3 `f64` (reference-exact), scalar, the same points.
    pub perlin3_scalar_f64_ns_per_sample: f64,
    /// `perlin_tbl.c`'s 128³ grid workload.
    pub grid_128_ns_per_sample: f64,
    /// `perlin_tbl.c`'s 1024² 6-octave heightmap workload (3D noise at z = 0.5).
    pub heightmap_1024_ns_per_sample: f64,
    /// Sierra's 2D fBm (`fbm2_grid`, z = 0 face) over 1024² at spacing 0.01, 6 octaves.
    pub fbm2_grid_1024_ns_per_sample: f64,
    /// The same on all threads, ms per heightmap.
    pub fbm2_grid_1024_all_threads_ms: f64,
    /// True 2D noise (`noise2d`, Gustavson's planar gradients) over 1024² at spacing 0.01, one
    /// octave: the work of FastNoise2's 2D Perlin grid (no C baseline; see benchmarks/anchors).
    pub noise2d_grid_1024_ns_per_sample: f64,
    /// fBm of true 2D noise (`fbm2d_grid`) over 1024² at spacing 0.01, 6 octaves.
    pub fbm2d_grid_1024_ns_per_sample: f64,
    /// Arithmetic floors of the grid kernels on this core ([`crate::throughput`]).
    pub limits: NoiseLimits,
    /// The C baseline, or `None` with `--no-c-baseline`.
    pub c: Option<CFigures>,
    /// Sierra time over C time, per line (`None` without C).
    pub ratios: Option<Ratios>,
}

/// Floors of the grid kernels, ns per sample: their vector operations per block
/// ([`crate::throughput::noise_ops_per_block`]) over the lanes of the path that runs and the
/// core's measured rate at that width (cell set-up per row left out).
#[derive(Debug, Serialize)]
pub struct NoiseLimits {
    /// `f32` lanes per vector of the path that ran (16 AVX-512, 8 AVX2, 4 otherwise).
    pub lanes: usize,
    /// Vector multiplies or adds per ns at that width, one thread, measured in this run.
    pub vector_ops_per_ns: f64,
    /// 3D grid (8 corners).
    pub grid3_ns_per_sample: f64,
    /// One octave of 2D noise (4 corners).
    pub noise2d_ns_per_sample: f64,
    /// 6 octaves of 2D noise summed.
    pub fbm2d_ns_per_sample: f64,
}

impl NoiseLimits {
    fn measure() -> Self {
        use crate::throughput::{noise_ops_per_block, vector_ops_per_ns};
        let lanes = match SimdPath::detect() {
            SimdPath::Avx512 => 16,
            SimdPath::Avx2 => 8,
            SimdPath::Portable => 4,
        };
        let rate = vector_ops_per_ns(lanes);
        let per = |ops: f64| ops / lanes as f64 / rate;
        Self {
            lanes,
            vector_ops_per_ns: rate,
            grid3_ns_per_sample: per(noise_ops_per_block(8, false)),
            noise2d_ns_per_sample: per(noise_ops_per_block(4, false)),
            fbm2d_ns_per_sample: per(HEIGHTMAP_OCTAVES as f64 * noise_ops_per_block(4, true)),
        }
    }
}

/// Sierra's best time over C's best time.
#[derive(Debug, Serialize)]
pub struct Ratios {
    /// Scalar f32 perlin3 vs "random points".
    pub perlin3_scalar_f32: f64,
    /// Scalar f64 perlin3 vs "random points".
    pub perlin3_scalar_f64: f64,
    /// Grid vs "128^3 grid".
    pub grid_128: f64,
    /// Heightmap vs "perlin3 heightmap".
    pub heightmap_1024: f64,
    /// `fbm2_grid` vs "perlin3 face fbm" (the same 2D work).
    pub fbm2_grid_1024: f64,
}

/// Fastest of `runs` calls of `f`, in ns.
fn best_ns(runs: usize, mut f: impl FnMut()) -> f64 {
    (0..runs.max(1))
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e9
        })
        .fold(f64::INFINITY, f64::min)
}

/// Sierra's figures of one round, ns per sample.
struct SierraRound {
    f32_ns: f64,
    f64_ns: f64,
    grid_ns: f64,
    heightmap_ns: f64,
    fbm2_ns: f64,
    noise2d_ns: f64,
    fbm2d_ns: f64,
}

struct Workloads {
    perm: Permutation,
    points: Vec<[f32; 3]>,
    points64: Vec<[f64; 3]>,
    grid: Vec<f32>,
    height: Vec<f32>,
    fbm: Fbm,
    fbm_grid: GridSpec,
}

impl Workloads {
    fn new() -> anyhow::Result<Self> {
        // 2^21 points uniform in [0, 200)³ as the C program draws them (xorshift64* here).
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut uniform = || {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40) as f32 / (1u64 << 24) as f32 * 200.0
        };
        let points: Vec<[f32; 3]> = (0..1 << 21)
            .map(|_| [uniform(), uniform(), uniform()])
            .collect();
        let points64 = points.iter().map(|p| p.map(f64::from)).collect();
        let m = HEIGHTMAP_SIDE;
        Ok(Self {
            perm: Permutation::reference(),
            points,
            points64,
            grid: vec![0.0; GRID_SIDE.pow(3)],
            height: vec![0.0; m * m],
            fbm: Fbm::new(FbmParams {
                octaves: HEIGHTMAP_OCTAVES as f64,
                lacunarity: 2.0,
                gain: 0.5,
            })?,
            fbm_grid: GridSpec::new(
                m as i64,
                m as i64,
                [0.0, 0.0],
                [HEIGHTMAP_FREQUENCY, HEIGHTMAP_FREQUENCY],
            )?,
        })
    }

    fn round(&mut self) -> anyhow::Result<SierraRound> {
        let perm = &self.perm;
        let n = self.points.len() as f64;
        let f32_ns = best_ns(3, || {
            black_box(noise_sum(perm, &self.points));
        }) / n;
        let f64_ns = best_ns(3, || {
            black_box(noise_sum(perm, &self.points64));
        }) / n;
        let mut err: anyhow::Result<()> = Ok(());
        let grid = &mut self.grid;
        let grid_ns = best_ns(5, || {
            err = perlin_tbl_grid(perm, grid).map_err(Into::into);
        }) / grid.len() as f64;
        std::mem::replace(&mut err, Ok(()))?;
        let height = &mut self.height;
        let heightmap_ns = best_ns(5, || {
            err = perlin_tbl_heightmap(perm, height).map_err(Into::into);
        }) / height.len() as f64;
        std::mem::replace(&mut err, Ok(()))?;
        let (fbm, spec) = (&self.fbm, &self.fbm_grid);
        let fbm2_ns = best_ns(5, || {
            err = fbm2_grid(perm, fbm, spec, Threads::One, height).map_err(Into::into);
        }) / height.len() as f64;
        std::mem::replace(&mut err, Ok(()))?;
        let fbm2d_ns = best_ns(5, || {
            err = fbm2d_grid(perm, fbm, spec, Threads::One, height).map_err(Into::into);
        }) / height.len() as f64;
        std::mem::replace(&mut err, Ok(()))?;
        let mut rows = RowNoise::new();
        let noise2d_ns = best_ns(5, || {
            for (j, row) in height.chunks_mut(spec.width).enumerate() {
                rows.noise2d_row(perm, spec.x0, spec.dx, spec.y(j), row);
            }
        }) / height.len() as f64;
        Ok(SierraRound {
            f32_ns,
            f64_ns,
            grid_ns,
            heightmap_ns,
            fbm2_ns,
            noise2d_ns,
            fbm2d_ns,
        })
    }
}

/// The last `<number> ns/sample` on the first output line containing `key`.
fn ns_on_line(output: &str, key: &str) -> anyhow::Result<f64> {
    let line = output
        .lines()
        .find(|l| l.contains(key))
        .ok_or_else(|| anyhow::anyhow!("perlin.c printed no line with {key:?}"))?;
    let words: Vec<&str> = line.split_whitespace().collect();
    words
        .windows(2)
        .filter(|w| w[1].starts_with("ns/sample"))
        .filter_map(|w| w[0].parse::<f64>().ok())
        .next_back()
        .ok_or_else(|| anyhow::anyhow!("no ns/sample figure in {line:?}"))
}

/// Runs the C program once and reads its lines.
fn run_c(program: &CProgram) -> anyhow::Result<CFigures> {
    let text = program.run(&[]).map_err(anyhow::Error::msg)?;
    Ok(CFigures {
        random_points_ns_per_sample: ns_on_line(&text, "perlin3 random points")?,
        grid_ns_per_sample: ns_on_line(&text, "perlin3 grid 128^3")?,
        heightmap_ns_per_sample: ns_on_line(&text, "perlin3 heightmap")?,
        fbm2_face_ns_per_sample: ns_on_line(&text, "perlin3 face fbm")?,
    })
}

/// The CPU's model name from `/proc/cpuinfo` ("unknown" where it cannot be read).
pub(crate) fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

/// Measures everything: `rounds` rounds of (C program, Sierra workloads), best of all; without
/// the C program when `c_baseline` is false.
///
/// # Errors
/// Workload set-up failures; the C baseline failing to build (no gcc) or run.
pub fn measure(c_baseline: bool, rounds: usize) -> anyhow::Result<NoiseBench> {
    let mut work = Workloads::new()?;
    let exe = if c_baseline {
        Some(CProgram::build(CBaseline::Perlin).map_err(anyhow::Error::msg)?)
    } else {
        None
    };
    let mut c_best: Option<CFigures> = None;
    let mut s_best: Option<SierraRound> = None;
    let mut progress =
        sierra_profile::progress::Progress::new("bench noise round", rounds.max(1) as u64);
    for _ in 0..rounds.max(1) {
        if let Some(exe) = &exe {
            let c = run_c(exe)?;
            let b = c_best.get_or_insert(CFigures {
                random_points_ns_per_sample: f64::INFINITY,
                grid_ns_per_sample: f64::INFINITY,
                heightmap_ns_per_sample: f64::INFINITY,
                fbm2_face_ns_per_sample: f64::INFINITY,
            });
            b.random_points_ns_per_sample = b
                .random_points_ns_per_sample
                .min(c.random_points_ns_per_sample);
            b.grid_ns_per_sample = b.grid_ns_per_sample.min(c.grid_ns_per_sample);
            b.heightmap_ns_per_sample = b.heightmap_ns_per_sample.min(c.heightmap_ns_per_sample);
            b.fbm2_face_ns_per_sample = b.fbm2_face_ns_per_sample.min(c.fbm2_face_ns_per_sample);
        }
        let r = work.round()?;
        s_best = Some(match s_best {
            None => r,
            Some(b) => SierraRound {
                f32_ns: b.f32_ns.min(r.f32_ns),
                f64_ns: b.f64_ns.min(r.f64_ns),
                grid_ns: b.grid_ns.min(r.grid_ns),
                heightmap_ns: b.heightmap_ns.min(r.heightmap_ns),
                fbm2_ns: b.fbm2_ns.min(r.fbm2_ns),
                noise2d_ns: b.noise2d_ns.min(r.noise2d_ns),
                fbm2d_ns: b.fbm2d_ns.min(r.fbm2d_ns),
            },
        });
        progress.inc();
    }
    progress.finish();
    drop(exe); // removes the compiled C program
    let s = s_best.ok_or_else(|| anyhow::anyhow!("no round ran"))?;
    let all_ms = {
        let (perm, fbm, spec) = (&work.perm, &work.fbm, &work.fbm_grid);
        let height = &mut work.height;
        best_ns(5, || {
            let _ = fbm2_grid(perm, fbm, spec, Threads::All, height);
        }) / 1e6
    };
    let ratios = c_best.as_ref().map(|c| Ratios {
        perlin3_scalar_f32: s.f32_ns / c.random_points_ns_per_sample,
        perlin3_scalar_f64: s.f64_ns / c.random_points_ns_per_sample,
        grid_128: s.grid_ns / c.grid_ns_per_sample,
        heightmap_1024: s.heightmap_ns / c.heightmap_ns_per_sample,
        fbm2_grid_1024: s.fbm2_ns / c.fbm2_face_ns_per_sample,
    });
    Ok(NoiseBench {
        cpu: cpu_model(),
        simd_path: format!("{:?}", SimdPath::detect()),
        threads: rayon::current_num_threads(),
        perlin3_scalar_f32_ns_per_sample: s.f32_ns,
        perlin3_scalar_f64_ns_per_sample: s.f64_ns,
        grid_128_ns_per_sample: s.grid_ns,
        heightmap_1024_ns_per_sample: s.heightmap_ns,
        fbm2_grid_1024_ns_per_sample: s.fbm2_ns,
        fbm2_grid_1024_all_threads_ms: all_ms,
        noise2d_grid_1024_ns_per_sample: s.noise2d_ns,
        fbm2d_grid_1024_ns_per_sample: s.fbm2d_ns,
        limits: NoiseLimits::measure(),
        c: c_best,
        ratios,
    })
}

/// `Σ perlin3(p)` over `points` in order (the sum keeps the calls from being optimised away;
/// `black_box` on each `x` keeps them from being hoisted).
fn noise_sum<T: NoiseFloat>(perm: &Permutation, points: &[[T; 3]]) -> T {
    let mut acc = T::ZERO;
    for p in points {
        acc = acc + perlin3(perm, black_box(p[0]), p[1], p[2]);
    }
    acc
}

/// Runs and prints.
///
/// # Errors
/// Workload set-up or JSON serialisation failure.
pub fn run(args: NoiseBenchArgs) -> anyhow::Result<()> {
    let b = measure(!args.no_c_baseline, args.rounds)?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&b)?)?;
        return Ok(());
    }
    outln!(
        "noise, one thread, best of {} rounds; CPU {}; grid path {}",
        args.rounds.max(1),
        b.cpu,
        b.simd_path
    )?;
    if b.c.is_none() {
        outln!("  C baseline perlin.c not run (--no-c-baseline): no ratios")?;
    }
    // (workload, Sierra ns/sample, the C figure it is compared with, the ratio of the two).
    type Row = (&'static str, f64, fn(&CFigures) -> f64, fn(&Ratios) -> f64);
    let rows: [Row; 5] = [
        (
            "perlin3 scalar f32, random points",
            b.perlin3_scalar_f32_ns_per_sample,
            |c| c.random_points_ns_per_sample,
            |r| r.perlin3_scalar_f32,
        ),
        (
            "perlin3 scalar f64 (reference-exact)",
            b.perlin3_scalar_f64_ns_per_sample,
            |c| c.random_points_ns_per_sample,
            |r| r.perlin3_scalar_f64,
        ),
        (
            "perlin3 grid 128^3 at 0.0371",
            b.grid_128_ns_per_sample,
            |c| c.grid_ns_per_sample,
            |r| r.grid_128,
        ),
        (
            "heightmap 1024^2, 6-octave fBm of 3D noise, z=0.5",
            b.heightmap_1024_ns_per_sample,
            |c| c.heightmap_ns_per_sample,
            |r| r.heightmap_1024,
        ),
        (
            "fbm2_grid 1024^2, 6 octaves (z=0 face, 2D work)",
            b.fbm2_grid_1024_ns_per_sample,
            |c| c.fbm2_face_ns_per_sample,
            |r| r.fbm2_grid_1024,
        ),
    ];
    for (name, ns, c_ns, ratio) in rows {
        match (b.c.as_ref().map(c_ns), b.ratios.as_ref().map(ratio)) {
            (Some(c), Some(r)) => {
                outln!("  {name:<50} {ns:8.2} ns/sample   C {c:7.2} ns   ratio {r:.3}x")?
            }
            _ => outln!("  {name:<50} {ns:8.2} ns/sample")?,
        }
    }
    outln!(
        "  {:<50} {:8.2} ns/sample   (no C baseline: FastNoise2 is its anchor)",
        "noise2d grid 1024^2 at 0.01, true 2D (4 corners)",
        b.noise2d_grid_1024_ns_per_sample
    )?;
    outln!(
        "  {:<50} {:8.2} ns/sample",
        "fbm2d_grid 1024^2, 6 octaves of true 2D noise",
        b.fbm2d_grid_1024_ns_per_sample
    )?;
    let l = &b.limits;
    outln!(
        "  arithmetic floors ({} lanes, {:.1} vector ops/ns measured): grid3 {:.3}, noise2d {:.3}, fbm2d {:.3} ns/sample",
        l.lanes, l.vector_ops_per_ns, l.grid3_ns_per_sample, l.noise2d_ns_per_sample, l.fbm2d_ns_per_sample
    )?;
    outln!(
        "  fbm2_grid 1024^2, 6 octaves, all {} threads         {:8.2} ms",
        b.threads,
        b.fbm2_grid_1024_all_threads_ms
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parser against `perlin.c`'s own output format (a copy of its lines).
    #[test]
    fn reads_the_c_programs_lines() {
        let text = "perlin3 random points: 15.294 ns/sample, sum 2.304003438e+02\n\
                    perlin3 grid 128^3: 16.146 ns/sample, sum 1.726019924e+04\n\
                    perlin3 heightmap 1024^2 fbm 6 octaves z=0.5: 58.965 ns/sample, sum 8.6e+04\n";
        assert_eq!(ns_on_line(text, "random points").unwrap(), 15.294);
        assert_eq!(ns_on_line(text, "perlin3 grid 128^3").unwrap(), 16.146);
        assert_eq!(ns_on_line(text, "perlin3 heightmap").unwrap(), 58.965);
        assert!(ns_on_line(text, "no such line").is_err());
        assert!(ns_on_line("perlin3 heightmap: fast", "perlin3 heightmap").is_err());
    }

    /// `sum <number>` on the first output line containing `key`: the C program's total of all
    /// the samples of a workload.
    fn sum_on_line(output: &str, key: &str) -> f64 {
        let line = output.lines().find(|l| l.contains(key)).unwrap();
        line.rsplit("sum ").next().unwrap().trim().parse().unwrap()
    }

    /// `Σ_rows (f32 sum of the row)` in f64, the C program's order.
    fn row_sums(values: &[f32], row: usize) -> f64 {
        values
            .chunks(row)
            .map(|r| f64::from(r.iter().fold(0.0f32, |a, &v| a + v)))
            .sum()
    }

    /// Every ratio's two sides compute the same samples: the sum of all samples of each Sierra
    /// workload equals the C line it is divided by (within rounding: gcc may fuse multiply-adds).
    /// Controls: the 2D fBm's sum is far from the 3D heightmap's (the line it was once divided
    /// by), and the same fBm at spacing 0.011 misses its own line by more than the tolerance.
    #[test]
    fn c_and_sierra_compute_the_same_samples() {
        let text = crate::c_baseline::build_and_run(CBaseline::Perlin, &["--reps", "1"]).unwrap();
        let mut w = Workloads::new().unwrap();
        let close = |sierra: f64, c: f64| (sierra - c).abs() <= 1.0 + 1e-5 * c.abs();

        perlin_tbl_grid(&w.perm, &mut w.grid).unwrap();
        let grid = row_sums(&w.grid, GRID_SIDE);
        let c_grid = sum_on_line(&text, "perlin3 grid 128^3");
        assert!(close(grid, c_grid), "grid: Sierra {grid} vs C {c_grid}");

        perlin_tbl_heightmap(&w.perm, &mut w.height).unwrap();
        let height = row_sums(&w.height, HEIGHTMAP_SIDE);
        let c_height = sum_on_line(&text, "perlin3 heightmap");
        assert!(
            close(height, c_height),
            "heightmap: Sierra {height} vs C {c_height}"
        );

        fbm2_grid(&w.perm, &w.fbm, &w.fbm_grid, Threads::One, &mut w.height).unwrap();
        let fbm2 = row_sums(&w.height, HEIGHTMAP_SIDE);
        let c_face = sum_on_line(&text, "perlin3 face fbm");
        assert!(close(fbm2, c_face), "2D fBm: Sierra {fbm2} vs C {c_face}");
        assert!(!close(fbm2, c_height), "the 3D heightmap is other work");

        let off = GridSpec::new(1024, 1024, [0.0, 0.0], [0.011, 0.011]).unwrap();
        fbm2_grid(&w.perm, &w.fbm, &off, Threads::One, &mut w.height).unwrap();
        let other = row_sums(&w.height, HEIGHTMAP_SIDE);
        assert!(
            !close(other, c_face),
            "spacing 0.011 gave {other}, C {c_face}"
        );
    }
}
