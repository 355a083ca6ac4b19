//! `sierra bench noise`: nanoseconds per noise sample on one thread, each next to the same
//! workload of the scalar C baseline `perlin_tbl.c` (shared bench folder, never part of the
//! repository), built with `gcc -O3 -march=native` and run in the same invocation; the ratio is
//! Sierra's best time over C's best time (the C program reports the best of its own repeats).
//!
//! The C program's workloads and Sierra's counterparts:
//! - "random points": 2^21 points uniform in [0, 200)³; Sierra's scalar `perlin3` runs the same
//!   count from the same distribution (not the same points: C draws them with `rand()`);
//! - "128^3 grid": [`perlin_tbl_grid`], sample for sample;
//! - "2D heightmap": [`perlin_tbl_heightmap`], sample for sample (3D noise on the plane
//!   z = 0.5, 6 octaves from 0.01, lacunarity 2, gain 0.5); Sierra's own 2D fBm ([`fbm2_grid`],
//!   the z = 0 face of 3D noise, 4 corners per octave instead of 8) over the same 1024² samples
//!   at spacing 0.01 is printed against the same line, marked as the lighter workload it is.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;

use sierra_testkit::c_bench::CProgram;

use clap::Args;
use serde::Serialize;
use sierra_terrain::noise::grid::{fbm2_grid, GridSpec, SimdPath, Threads};
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
    /// Folder holding `perlin_tbl.c` (the shared C baselines).
    #[arg(long, default_value = "../shared/bench")]
    pub c_dir: PathBuf,
    /// Rounds: each runs the C program once and every Sierra workload a few times; the best of
    /// all rounds counts on both sides.
    #[arg(long, default_value_t = 3)]
    pub rounds: usize,
}

/// The C baseline's figures (ns per sample, best of its repeats and of all rounds).
#[derive(Debug, Default, Serialize)]
pub struct CFigures {
    /// "random points" line.
    pub random_points_ns_per_sample: f64,
    /// "128^3 grid" line.
    pub grid_ns_per_sample: f64,
    /// "2D heightmap" line.
    pub heightmap_ns_per_sample: f64,
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
    /// The C baseline, or `None` (see `c_error`).
    pub c: Option<CFigures>,
    /// Why the C baseline did not run.
    pub c_error: Option<String>,
    /// Sierra time over C time, per line (`None` without C).
    pub ratios: Option<Ratios>,
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
    /// Heightmap vs "2D heightmap".
    pub heightmap_1024: f64,
    /// `fbm2_grid` (2D noise, lighter) vs "2D heightmap".
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
        Ok(SierraRound {
            f32_ns,
            f64_ns,
            grid_ns,
            heightmap_ns,
            fbm2_ns,
        })
    }
}

/// Builds `perlin_tbl.c` from `dir` ([`CProgram`]).
fn build_c(dir: &Path) -> anyhow::Result<CProgram> {
    CProgram::build(&dir.join("perlin_tbl.c"), &[]).map_err(anyhow::Error::msg)
}

/// The last `<number> ns/sample` on the first output line containing `key`.
fn ns_on_line(output: &str, key: &str) -> anyhow::Result<f64> {
    let line = output
        .lines()
        .find(|l| l.contains(key))
        .ok_or_else(|| anyhow::anyhow!("perlin_tbl printed no line with {key:?}"))?;
    let words: Vec<&str> = line.split_whitespace().collect();
    words
        .windows(2)
        .filter(|w| w[1].starts_with("ns/sample"))
        .filter_map(|w| w[0].parse::<f64>().ok())
        .next_back()
        .ok_or_else(|| anyhow::anyhow!("no ns/sample figure in {line:?}"))
}

/// Runs the C program once and reads its three lines.
fn run_c(program: &CProgram) -> anyhow::Result<CFigures> {
    let text = program.run(&[]).map_err(anyhow::Error::msg)?;
    Ok(CFigures {
        random_points_ns_per_sample: ns_on_line(&text, "random points")?,
        grid_ns_per_sample: ns_on_line(&text, "Perlin, 128^3 grid")?,
        heightmap_ns_per_sample: ns_on_line(&text, "2D heightmap")?,
    })
}

fn cpu_model() -> String {
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

/// Measures everything: `rounds` rounds of (C program, Sierra workloads), best of all.
///
/// # Errors
/// Workload set-up failures only; a missing compiler or C file is reported in `c_error`.
pub fn measure(c_dir: &Path, rounds: usize) -> anyhow::Result<NoiseBench> {
    let mut work = Workloads::new()?;
    let exe = build_c(c_dir);
    let mut c_best: Option<CFigures> = None;
    let mut c_error = exe.as_ref().err().map(|e| e.to_string());
    let mut s_best: Option<SierraRound> = None;
    let mut progress = crate::progress::Progress::new("bench noise round", rounds.max(1) as u64);
    for _ in 0..rounds.max(1) {
        if let Ok(exe) = &exe {
            match run_c(exe) {
                Ok(c) => {
                    let b = c_best.get_or_insert(CFigures {
                        random_points_ns_per_sample: f64::INFINITY,
                        grid_ns_per_sample: f64::INFINITY,
                        heightmap_ns_per_sample: f64::INFINITY,
                    });
                    b.random_points_ns_per_sample = b
                        .random_points_ns_per_sample
                        .min(c.random_points_ns_per_sample);
                    b.grid_ns_per_sample = b.grid_ns_per_sample.min(c.grid_ns_per_sample);
                    b.heightmap_ns_per_sample =
                        b.heightmap_ns_per_sample.min(c.heightmap_ns_per_sample);
                }
                Err(e) => c_error = Some(e.to_string()),
            }
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
        fbm2_grid_1024: s.fbm2_ns / c.heightmap_ns_per_sample,
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
        c: c_best,
        c_error,
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
    let b = measure(&args.c_dir, args.rounds)?;
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
    if let Some(e) = &b.c_error {
        outln!("  C baseline perlin_tbl.c not run: {e} (no ratios)")?;
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
            "fbm2_grid 1024^2, 6 octaves (2D: z=0 face)",
            b.fbm2_grid_1024_ns_per_sample,
            |c| c.heightmap_ns_per_sample,
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
        "  fbm2_grid 1024^2, 6 octaves, all {} threads         {:8.2} ms",
        b.threads,
        b.fbm2_grid_1024_all_threads_ms
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parser against `perlin_tbl.c`'s own output format (a copy of its lines).
    #[test]
    fn reads_the_c_programs_lines() {
        let text = "3D improved Perlin, random points (no hoisting): 15.94 ns/sample (62.7 M/s)\n\
                    3D improved Perlin, 128^3 grid (compiler may hoist y/z work): 15.74 ns/sample\n\
                    3D fBm 6 octaves on 128^3 grid: 116.13 ns/sample (19.35 ns/octave)\n\
                    2D heightmap 1024^2, fBm 6 octaves (3D noise at z=0.5): 59.91 ms total, 57.13 ns/sample\n";
        assert_eq!(ns_on_line(text, "random points").unwrap(), 15.94);
        assert_eq!(ns_on_line(text, "Perlin, 128^3 grid").unwrap(), 15.74);
        assert_eq!(ns_on_line(text, "2D heightmap").unwrap(), 57.13);
        assert!(ns_on_line(text, "no such line").is_err());
        assert!(ns_on_line("2D heightmap: fast", "2D heightmap").is_err());
    }
}
