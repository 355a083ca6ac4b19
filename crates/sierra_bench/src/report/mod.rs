//! `sierra bench report`: every performance figure `docs/performance.md` quotes,
//! re-measured as a ratio of Sierra's time to its baseline's, measured in the same run on the
//! same machine, over several rounds; written as a markdown table (or JSON) with each figure's
//! median and spread (min–max over the rounds) and the machine it came from.
//!
//! A round runs every benchmark once ([`sources`]), in alternating order from one round to the
//! next so that a slow spell of a shared machine does not always fall on the same benchmark; each
//! benchmark runs its baseline and Sierra's code back to back within the round. `--quick` uses
//! small sizes so a test runs the whole report in seconds (the figures then say little).
//!
//! `docs/performance.md` (its table and summary) is generated from this command's
//! output by `scripts/perf-report.sh`; `tests/report.rs` checks that their rows are the rows
//! this command produces.

pub mod data;
pub mod environment;
pub mod render;
pub mod sources;

use std::path::PathBuf;

use clap::Args;

pub use data::{Better, Report, Row, Sample};
pub use environment::Environment;

/// `sierra bench report` arguments.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Rounds: each runs every benchmark (baseline and Sierra) once; the report gives the
    /// median and the min–max of each ratio over the rounds.
    #[arg(long, default_value_t = 5, value_parser = crate::limits::parse_rounds)]
    pub rounds: u32,
    /// Small sizes (seconds in all): checks that every figure is produced; its figures say little.
    #[arg(long)]
    pub quick: bool,
    /// Write the report to FILE (a temporary file beside it, then renamed over it) instead of
    /// standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// One JSON object instead of markdown.
    #[arg(long)]
    pub json: bool,
}

/// Median of `v` (mean of the middle two for an even count); NaN for an empty slice.
pub fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    match s.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => s[n / 2],
        n => 0.5 * (s[n / 2 - 1] + s[n / 2]),
    }
}

/// Gathers the rounds' samples into rows, in the first round's order.
///
/// # Errors
/// A round that produced a different set of figures from the first (a figure missing or extra).
pub fn aggregate(rounds: &[Vec<Sample>]) -> anyhow::Result<Vec<Row>> {
    let Some(first) = rounds.first() else {
        return Ok(Vec::new());
    };
    first
        .iter()
        .map(|s| {
            let mine: Vec<&Sample> = rounds
                .iter()
                .enumerate()
                .map(|(r, round)| {
                    round.iter().find(|x| x.id == s.id).ok_or_else(|| {
                        anyhow::anyhow!("round {} did not measure figure {}", r + 1, s.id)
                    })
                })
                .collect::<anyhow::Result<_>>()?;
            let ratios: Vec<f64> = mine.iter().map(|x| x.ratio()).collect();
            let values =
                |f: fn(&Sample) -> f64| median(&mine.iter().map(|x| f(x)).collect::<Vec<_>>());
            Ok(Row {
                id: s.id,
                figure: s.figure,
                baseline: s.baseline,
                compares: s.compares,
                workload: s.workload.clone(),
                unit: s.unit,
                better: s.better,
                sierra_median: values(|x| x.sierra),
                baseline_median: values(|x| x.baseline_value),
                ratio_median: median(&ratios),
                ratio_min: ratios.iter().copied().fold(f64::INFINITY, f64::min),
                ratio_max: ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                ratios,
            })
        })
        .collect()
}

/// Runs `rounds` rounds of every source (alternating their order each round) and aggregates.
///
/// # Errors
/// A benchmark failing (a C baseline that gcc cannot build, a bad size), or a non-finite ratio.
pub fn measure(rounds: u32, quick: bool) -> anyhow::Result<Report> {
    let sizes = if quick {
        sources::Sizes::quick()
    } else {
        sources::Sizes::full()
    };
    let mut environment = Environment::now();
    let list = sources::all();
    let mut progress = sierra_profile::progress::Progress::new(
        "bench report benchmark",
        u64::from(rounds) * list.len() as u64,
    );
    let mut samples = Vec::new();
    for round in 0..rounds {
        let mut this = Vec::new();
        let order: Vec<usize> = if round % 2 == 0 {
            (0..list.len()).collect()
        } else {
            (0..list.len()).rev().collect()
        };
        for i in order {
            let (name, source) = list[i];
            let mut got = source(&sizes).map_err(|e| e.context(format!("bench report: {name}")))?;
            this.append(&mut got);
            progress.inc();
        }
        // Keep the sources' order in every round, whatever order they ran in.
        this.sort_by_key(|s| sources::position(s.id));
        samples.push(this);
    }
    progress.finish();
    environment.finish();
    let rows = aggregate(&samples)?;
    if let Some(bad) = rows
        .iter()
        .find(|r| !(r.ratio_median.is_finite() && r.ratio_median > 0.0))
    {
        anyhow::bail!(
            "bench report: figure {} has no finite ratio (Sierra {} / baseline {})",
            bad.id,
            bad.sierra_median,
            bad.baseline_median
        );
    }
    Ok(Report {
        environment,
        rounds,
        quick,
        rows,
    })
}

/// Writes `text` to `path` through a temporary file in the same folder, renamed over `path`,
/// so a reader never sees half a report.
///
/// # Errors
/// The temporary file cannot be written or renamed (the message names the path).
pub fn write_atomically(path: &std::path::Path, text: &str) -> anyhow::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".sierra-report")
        .tempfile_in(&dir)
        .map_err(|e| anyhow::anyhow!("cannot create a temporary file in {}: {e}", dir.display()))?;
    std::io::Write::write_all(&mut tmp, text.as_bytes())
        .map_err(|e| anyhow::anyhow!("writing a temporary file for {}: {e}", path.display()))?;
    tmp.persist(path)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {}", path.display(), e.error))?;
    Ok(())
}

/// Runs `sierra bench report`.
///
/// # Errors
/// See [`measure`] and [`write_atomically`].
pub fn run(args: ReportArgs) -> anyhow::Result<()> {
    let report = measure(args.rounds, args.quick)?;
    let text = if args.json {
        format!("{}\n", serde_json::to_string_pretty(&report)?)
    } else {
        render::markdown(&report)
    };
    match &args.out {
        Some(path) => {
            write_atomically(path, &text)?;
            eprintln!("bench report: wrote {}", path.display());
            Ok(())
        }
        None => {
            use std::io::Write as _;
            let mut out = std::io::stdout().lock();
            match out.write_all(text.as_bytes()) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                r => Ok(r?),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(id: &'static str, sierra: f64, base: f64) -> Sample {
        Sample {
            id,
            figure: "f",
            baseline: "b",
            compares: "c",
            workload: "w".into(),
            unit: "ns",
            sierra,
            baseline_value: base,
            better: Better::Lower,
        }
    }

    #[test]
    fn rows_give_the_median_and_range_of_the_per_round_ratios() {
        let rounds = vec![
            vec![sample("a", 1.0, 4.0), sample("b", 3.0, 1.0)],
            vec![sample("b", 6.0, 2.0), sample("a", 3.0, 4.0)],
            vec![sample("a", 2.0, 2.0), sample("b", 3.0, 3.0)],
        ];
        let rows = aggregate(&rounds).unwrap();
        assert_eq!(rows.iter().map(|r| r.id).collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(rows[0].ratios, [0.25, 0.75, 1.0]);
        assert_eq!(rows[0].ratio_median, 0.75);
        assert_eq!((rows[0].ratio_min, rows[0].ratio_max), (0.25, 1.0));
        assert_eq!(rows[0].sierra_median, 2.0);
        // The median ratio is not the ratio of the medians (3/2 here).
        assert_eq!(rows[1].ratio_median, 3.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
    }

    /// A round that misses a figure is an error naming it.
    #[test]
    fn a_round_missing_a_figure_is_an_error() {
        let rounds = vec![vec![sample("a", 1.0, 1.0)], vec![sample("z", 1.0, 1.0)]];
        let e = aggregate(&rounds).unwrap_err().to_string();
        assert!(e.contains("round 2 did not measure figure a"), "{e}");
    }

    #[test]
    fn the_report_is_written_whole_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.md");
        std::fs::write(&path, "old").unwrap();
        write_atomically(&path, "new report").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new report");
        // Only the report is left in the folder (the temporary file was renamed).
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        let missing = dir.path().join("no/such/folder/report.md");
        let e = write_atomically(&missing, "x").unwrap_err().to_string();
        assert!(e.contains("no/such/folder"), "{e}");
    }
}
