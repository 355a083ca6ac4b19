//! The report's data: one figure of one round ([`Sample`]), one figure over all rounds
//! ([`Row`]) and the whole [`Report`]. Measuring ([`super::sources`]) makes them and
//! rendering ([`super::render`]) reads them; this module names neither.

use serde::Serialize;

use super::environment::Environment;

/// Which way a ratio is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Better {
    /// Times: a ratio under 1 means Sierra is faster than the baseline.
    Lower,
    /// Speed-ups and bandwidths: a ratio over 1 means Sierra does better than the baseline.
    Higher,
}

/// One figure as measured in one round.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Stable identifier (the rows of the generated docs are checked against these).
    pub id: &'static str,
    /// What Sierra's side measures, without sizes.
    pub figure: &'static str,
    /// The baseline, in a few words.
    pub baseline: &'static str,
    /// What each side computes, and whether it is the same work.
    pub compares: &'static str,
    /// Sizes of this run (they differ with `--quick`).
    pub workload: String,
    /// Unit of [`Sample::sierra`] and [`Sample::baseline_value`].
    pub unit: &'static str,
    /// Sierra's figure.
    pub sierra: f64,
    /// The baseline's figure, same unit.
    pub baseline_value: f64,
    /// Which way the ratio is better.
    pub better: Better,
}

impl Sample {
    /// `sierra / baseline`.
    pub fn ratio(&self) -> f64 {
        self.sierra / self.baseline_value
    }
}

/// One figure over all rounds.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// See [`Sample::id`].
    pub id: &'static str,
    /// See [`Sample::figure`].
    pub figure: &'static str,
    /// See [`Sample::baseline`].
    pub baseline: &'static str,
    /// See [`Sample::compares`].
    pub compares: &'static str,
    /// See [`Sample::workload`].
    pub workload: String,
    /// See [`Sample::unit`].
    pub unit: &'static str,
    /// Which way the ratio is better.
    pub better: Better,
    /// Median of Sierra's figure over the rounds.
    pub sierra_median: f64,
    /// Median of the baseline's figure over the rounds.
    pub baseline_median: f64,
    /// Median of the per-round ratios (each round's Sierra over the same round's baseline).
    pub ratio_median: f64,
    /// Smallest per-round ratio.
    pub ratio_min: f64,
    /// Largest per-round ratio.
    pub ratio_max: f64,
    /// Every round's ratio, in round order.
    pub ratios: Vec<f64>,
}

/// The whole report.
#[derive(Debug, Serialize)]
pub struct Report {
    /// The machine and the code measured.
    pub environment: Environment,
    /// Rounds run.
    pub rounds: u32,
    /// `--quick` sizes.
    pub quick: bool,
    /// One row per figure, in [`sources`](super::sources) order.
    pub rows: Vec<Row>,
}
