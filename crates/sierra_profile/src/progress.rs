//! Progress of long commands on stderr (`render`, `demo`, `view`, `water`, `export-obj`,
//! `bench scene|soak|water|crowd|terrain|noise`): an
//! [`indicatif`] bar when stderr is a terminal, otherwise a plain line about every tenth of the
//! work (CI logs, pipes). Nothing is printed for runs shorter than [`QUIET_SECONDS`], so quick
//! commands and tests stay quiet; stdout keeps only the command's results.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Runs shorter than this print no progress at all, seconds.
pub const QUIET_SECONDS: f64 = 1.0;

/// Progress of `total` steps (frames) of one task.
pub struct Progress {
    label: &'static str,
    total: u64,
    done: u64,
    start: Instant,
    /// Shown once the run has lasted [`QUIET_SECONDS`] (terminal only).
    bar: Option<ProgressBar>,
    terminal: bool,
    /// Steps between plain lines.
    every: u64,
}

impl Progress {
    /// Progress of `total` steps, each called `label` (e.g. `"frame"`: "frame 12/48 (3.1 s)").
    pub fn new(label: &'static str, total: u64) -> Self {
        Self {
            label,
            total,
            done: 0,
            start: Instant::now(),
            bar: None,
            terminal: std::io::stderr().is_terminal(),
            every: (total / 10).max(1),
        }
    }

    /// Records one finished step.
    pub fn inc(&mut self) {
        self.add(1);
    }

    /// Records `n` finished steps.
    pub fn add(&mut self, n: u64) {
        let before = self.done;
        self.done = (self.done + n).min(self.total);
        let elapsed = self.start.elapsed();
        if elapsed < Duration::from_secs_f64(QUIET_SECONDS) {
            return;
        }
        if self.terminal {
            let bar = self.bar.get_or_insert_with(|| {
                let bar =
                    ProgressBar::with_draw_target(Some(self.total), ProgressDrawTarget::stderr());
                if let Ok(style) = ProgressStyle::with_template(
                    "{prefix} {pos}/{len} [{bar:30}] {elapsed} (eta {eta})",
                ) {
                    bar.set_style(style.progress_chars("=> "));
                }
                bar.set_prefix(self.label);
                bar
            });
            bar.set_position(self.done);
        } else if self.done / self.every != before / self.every || self.done == self.total {
            eprintln!(
                "{} {}/{} ({:.1} s)",
                self.label,
                self.done,
                self.total,
                elapsed.as_secs_f64()
            );
        }
    }

    /// Ends the bar (its last state stays on the terminal).
    pub fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish();
        }
    }
}
