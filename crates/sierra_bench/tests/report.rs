//! `sierra bench report` at `--quick` sizes, one round: every figure gets a finite ratio, and
//! the committed docs (`docs/performance-report.md`, `docs/performance.md`) hold exactly the rows the
//! command produces (names, not numbers: no timing decides anything here).

use sierra_bench::report::{self, render};

fn repo_file(path: &str) -> String {
    let full = concat!(env!("CARGO_MANIFEST_DIR"), "/../../").to_owned() + path;
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("reading {full}: {e}"))
}

/// The rows missing from and extra in `doc` compared with `want` (both empty when they agree).
fn differences(want: &[String], doc: &[String]) -> (Vec<String>, Vec<String>) {
    let missing = want.iter().filter(|w| !doc.contains(w)).cloned().collect();
    let extra = doc.iter().filter(|d| !want.contains(d)).cloned().collect();
    (missing, extra)
}

#[test]
fn the_report_measures_every_figure_and_the_docs_show_its_rows() {
    let r = report::measure(1, true).expect("bench report --quick --rounds 1");
    let ids: Vec<String> = r.rows.iter().map(|row| row.id.to_string()).collect();
    assert_eq!(
        ids,
        report::sources::IDS.map(String::from),
        "figures measured"
    );
    for row in &r.rows {
        assert!(
            row.ratio_median.is_finite() && row.ratio_median > 0.0,
            "{}: ratio {}",
            row.id,
            row.ratio_median
        );
        assert_eq!(row.ratios.len(), 1, "{}", row.id);
    }
    // The markdown the command writes reads back as the same rows.
    let text = render::markdown(&r);
    assert_eq!(render::table_ids(&text), ids);
    let figures: Vec<String> = r.rows.iter().map(|row| row.figure.to_string()).collect();
    assert_eq!(render::summary_figures(&text), figures);

    // The committed docs: the raw output, the page generated from it; the summary in both.
    for path in ["docs/performance-report.md", "docs/performance.md"] {
        let doc = repo_file(path);
        assert_eq!(
            differences(&ids, &render::table_ids(&doc)),
            (vec![], vec![]),
            "{path}: (missing, extra) rows; run scripts/perf-report.sh"
        );
    }
    for path in ["docs/performance-report.md", "docs/performance.md"] {
        let doc = repo_file(path);
        assert_eq!(
            differences(&figures, &render::summary_figures(&doc)),
            (vec![], vec![]),
            "{path}: summary (missing, extra) rows; run scripts/perf-report.sh"
        );
    }

    // Control: a document without one row, or with a stale one, is caught.
    let docs = repo_file("docs/performance.md");
    let cut: String = docs
        .lines()
        .filter(|l| !l.starts_with("| `noise.fbm2`"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(
        differences(&ids, &render::table_ids(&cut)).0,
        ["noise.fbm2"]
    );
    let stale = docs.replace("| `noise.fbm2`", "| `noise.fbm2_old`");
    assert_eq!(
        differences(&ids, &render::table_ids(&stale)),
        (
            vec!["noise.fbm2".to_string()],
            vec!["noise.fbm2_old".to_string()]
        )
    );
}
