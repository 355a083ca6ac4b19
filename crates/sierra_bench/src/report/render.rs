//! The report as markdown: a header naming the machine, the table of figures (median and
//! min–max of each ratio), what each figure compares, and a short summary between
//! `<!-- summary:begin -->` and `<!-- summary:end -->` (the short table of the figures, for
//! readers of `docs/performance.md`).

use std::fmt::Write as _;

use super::data::{Better, Report};

/// First line of the summary block.
pub const SUMMARY_BEGIN: &str = "<!-- summary:begin -->";
/// Last line of the summary block.
pub const SUMMARY_END: &str = "<!-- summary:end -->";

/// `v` with about three significant digits.
pub fn number(v: f64) -> String {
    let a = v.abs();
    if !v.is_finite() {
        format!("{v}")
    } else if a >= 100.0 {
        format!("{v:.0}")
    } else if a >= 10.0 {
        format!("{v:.1}")
    } else if a >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

fn load(l: Option<[f64; 3]>) -> String {
    l.map_or("unknown".into(), |[a, b, c]| {
        format!("{a:.2} / {b:.2} / {c:.2}")
    })
}

/// `value unit`, or `value×` for speed-ups.
fn with_unit(v: f64, unit: &str) -> String {
    if unit == "×" {
        format!("{}×", number(v))
    } else {
        format!("{} {unit}", number(v))
    }
}

fn arrow(b: Better) -> &'static str {
    match b {
        Better::Lower => "↓",
        Better::Higher => "↑",
    }
}

/// The one-paragraph description of the machine and run.
pub fn machine_line(r: &Report) -> String {
    let e = &r.environment;
    format!(
        "Measured on **{}** ({} logical CPUs; {}), Sierra's kernels on the {} path (animation) and \
         the {} path (noise, water); commit `{}`; {} UTC; {} round{}{}; load average (1 / 5 / 15 \
         min) {} at the start, {} at the end.",
        e.cpu,
        e.cores,
        if e.cpu_features.is_empty() {
            "no AVX2".to_string()
        } else {
            e.cpu_features.join(" ")
        },
        e.simd_animation,
        e.simd_terrain,
        e.commit,
        e.date_utc,
        r.rounds,
        if r.rounds == 1 { "" } else { "s" },
        if r.quick {
            " at `--quick` sizes (the figures say little)"
        } else {
            ""
        },
        load(e.load_start),
        load(e.load_end),
    )
}

/// The whole report as markdown.
pub fn markdown(r: &Report) -> String {
    let mut s = String::new();
    let cmd = format!(
        "sierra bench report --rounds {}{}",
        r.rounds,
        if r.quick { " --quick" } else { "" }
    );
    let _ = writeln!(
        s,
        "<!-- Written by `{cmd}`; regenerate with scripts/perf-report.sh, do not edit. -->"
    );
    let _ = writeln!(s, "\n{}\n", machine_line(r));
    let _ = writeln!(
        s,
        "Each ratio is Sierra's figure over its baseline's, both measured in the same round; \
         the median and the range (min–max) are over the rounds. Each round runs every \
         benchmark once, in alternating order, each benchmark its baseline and Sierra's code back \
         to back; the figures are the fastest pass within a run. Times: lower is faster (↓); \
         speed-ups and bandwidths: higher is better (↑).\n"
    );
    let _ = writeln!(
        s,
        "| id | figure | workload | baseline | Sierra (median) | baseline (median) | ratio (median) | ratio min–max | better |"
    );
    let _ = writeln!(s, "|---|---|---|---|---:|---:|---:|---:|:-:|");
    for row in &r.rows {
        let _ = writeln!(
            s,
            "| `{}` | {} | {} | {} | {} | {} | **{}×** | {}–{}× | {} |",
            row.id,
            row.figure,
            row.workload,
            row.baseline,
            with_unit(row.sierra_median, row.unit),
            with_unit(row.baseline_median, row.unit),
            number(row.ratio_median),
            number(row.ratio_min),
            number(row.ratio_max),
            arrow(row.better),
        );
    }
    let _ = writeln!(s, "\nWhat each figure compares:\n");
    for row in &r.rows {
        let _ = writeln!(s, "- `{}`: {}.", row.id, row.compares);
    }
    let _ = writeln!(s, "\n{SUMMARY_BEGIN}");
    let _ = writeln!(
        s,
        "| figure | baseline | ratio: median (min–max over {} round{}) | better |",
        r.rounds,
        if r.rounds == 1 { "" } else { "s" },
    );
    let _ = writeln!(s, "|---|---|---:|:-:|");
    for row in &r.rows {
        let _ = writeln!(
            s,
            "| {} ({}) | {} | **{}×** ({}–{}) | {} |",
            row.figure,
            row.workload,
            row.baseline,
            number(row.ratio_median),
            number(row.ratio_min),
            number(row.ratio_max),
            arrow(row.better),
        );
    }
    let _ = writeln!(s, "\n{}", machine_line(r));
    let _ = writeln!(s, "{SUMMARY_END}");
    s
}

/// The ids of a report table's rows in a markdown text (first cells written as `` `id` ``),
/// in order.
pub fn table_ids(markdown: &str) -> Vec<String> {
    markdown
        .lines()
        .filter_map(|l| {
            let cell = l.strip_prefix("| `")?;
            Some(cell[..cell.find('`')?].to_string())
        })
        .collect()
}

/// The figure names of a summary table's rows (the first cell up to its workload in
/// parentheses), in order: the rows between [`SUMMARY_BEGIN`] and [`SUMMARY_END`].
pub fn summary_figures(markdown: &str) -> Vec<String> {
    let Some(start) = markdown.find(SUMMARY_BEGIN) else {
        return Vec::new();
    };
    let rest = &markdown[start..];
    let block = &rest[..rest.find(SUMMARY_END).unwrap_or(rest.len())];
    block
        .lines()
        .skip(3) // the marker, the header row, the rule
        .filter_map(|l| {
            let cell = l.strip_prefix("| ")?;
            let cell = &cell[..cell.find(" | ")?];
            Some(cell[..cell.rfind(" (").unwrap_or(cell.len())].to_string())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_about_three_digits() {
        assert_eq!(number(1234.5), "1234");
        assert_eq!(number(12.345), "12.3");
        assert_eq!(number(2.164), "2.16");
        assert_eq!(number(0.07234), "0.072");
    }

    #[test]
    fn ids_and_figures_are_read_back_from_the_markdown() {
        let text = "x\n| id | figure |\n|---|---|\n| `a.b` | one |\n| `c` | two |\n\
                    <!-- summary:begin -->\n| figure | r |\n|---|---|\n| fig one (10²) | 1 |\n\
                    | fig (two) (x) | 2 |\n\nline\n<!-- summary:end -->\n| after (x) | 3 |\n";
        assert_eq!(table_ids(text), ["a.b", "c"]);
        assert_eq!(summary_figures(text), ["fig one", "fig (two)"]);
        assert!(summary_figures("no block").is_empty());
    }
}
