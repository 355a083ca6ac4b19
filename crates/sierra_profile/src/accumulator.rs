use std::collections::HashMap;
use std::time::Duration;

use crate::stats::{ScopeStat, ScopeStats};

/// Per-frame times of one scope: a running total for the open frame and a ring of closed frames.
#[derive(Debug)]
struct ScopeHistory {
    name: &'static str,
    /// Busy time recorded in the open frame, nanoseconds.
    open_frame_ns: u64,
    /// Whether the scope ran in the open frame (a 0 ns span still counts as a run).
    ran_this_frame: bool,
    /// Closed frames as (frame index, time in nanoseconds); `len() <= window`, allocated once.
    ring: Vec<(u64, u64)>,
    /// Next slot to overwrite once the ring is full.
    next: usize,
}

/// Collects span busy times and turns them into per-frame statistics per scope.
///
/// Times are added with [`record`](Self::record) (by the [`StatsLayer`](crate::StatsLayer), or by
/// tests with synthetic durations) and grouped into frames by [`end_frame`](Self::end_frame).
/// Memory is bounded: each scope keeps the last `window` frames it ran in (allocated when the
/// scope first appears), so a long session neither grows nor allocates per frame.
#[derive(Debug)]
pub struct StatsAccumulator {
    window: usize,
    frames: u64,
    index: HashMap<&'static str, usize>,
    scopes: Vec<ScopeHistory>,
}

impl StatsAccumulator {
    /// Default number of frames kept per scope (about 2 minutes at 60 frames per second).
    pub const DEFAULT_WINDOW: usize = 8192;

    /// An empty accumulator keeping the last `window` frames per scope (at least 1).
    pub fn new(window: usize) -> Self {
        Self {
            window: window.max(1),
            frames: 0,
            index: HashMap::new(),
            scopes: Vec::new(),
        }
    }

    /// Adds `busy` time to scope `name` in the open frame.
    pub fn record(&mut self, name: &'static str, busy: Duration) {
        let slot = match self.index.get(name) {
            Some(&slot) => slot,
            None => {
                self.scopes.push(ScopeHistory {
                    name,
                    open_frame_ns: 0,
                    ran_this_frame: false,
                    ring: Vec::with_capacity(self.window),
                    next: 0,
                });
                self.index.insert(name, self.scopes.len() - 1);
                self.scopes.len() - 1
            }
        };
        let scope = &mut self.scopes[slot];
        let busy_ns = u64::try_from(busy.as_nanos()).unwrap_or(u64::MAX);
        scope.open_frame_ns = scope.open_frame_ns.saturating_add(busy_ns);
        scope.ran_this_frame = true;
    }

    /// Closes the open frame: every scope that ran in it stores its total; the next frame starts
    /// empty. Scopes that did not run get no sample for this frame.
    pub fn end_frame(&mut self) {
        let frame = self.frames;
        self.frames += 1;
        for scope in &mut self.scopes {
            if !scope.ran_this_frame {
                continue;
            }
            let sample = (frame, scope.open_frame_ns);
            if scope.ring.len() < self.window {
                scope.ring.push(sample);
            } else {
                scope.ring[scope.next] = sample;
                scope.next = (scope.next + 1) % self.window;
            }
            scope.open_frame_ns = 0;
            scope.ran_this_frame = false;
        }
    }

    /// Number of frames closed so far.
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// Time of scope `name` in the last closed frame it ran in, milliseconds (for a live overlay).
    pub fn last_frame_ms(&self, name: &str) -> Option<f64> {
        let scope = &self.scopes[*self.index.get(name)?];
        let last = if scope.ring.len() < self.window {
            scope.ring.last()
        } else {
            scope.ring.get((scope.next + self.window - 1) % self.window)
        };
        last.map(|&(_, ns)| ns as f64 * 1e-6)
    }

    /// The per-frame times of scope `name` in the window, oldest first, as
    /// `(frame index counted from 0, milliseconds)`; frames in which it did not run are absent.
    /// For plots of frame time per stage. Allocates.
    pub fn history_ms(&self, name: &str) -> Option<Vec<(u64, f64)>> {
        let scope = &self.scopes[*self.index.get(name)?];
        let (newer, older) = scope.ring.split_at(scope.next);
        Some(
            older
                .iter()
                .chain(newer)
                .map(|&(frame, ns)| (frame, ns as f64 * 1e-6))
                .collect(),
        )
    }

    /// Names of the scopes seen so far, in order of first appearance.
    pub fn scope_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.scopes.iter().map(|s| s.name)
    }

    /// Average, maximum and 95th percentile per scope over the closed frames in the window.
    /// Allocates (it sorts a copy); meant for reports, not for every frame.
    pub fn stats(&self) -> ScopeStats {
        let mut samples = Vec::new();
        let mut scratch = Vec::new();
        let mut out = ScopeStats {
            frames: self.frames,
            ..ScopeStats::default()
        };
        for scope in &self.scopes {
            samples.clear();
            samples.extend(scope.ring.iter().map(|&(_, ns)| ns as f64 * 1e-6));
            if let Some(stat) = ScopeStat::from_samples(&samples, &mut scratch) {
                out.scopes.insert(scope.name.to_owned(), stat);
            }
        }
        out
    }
}

impl Default for StatsAccumulator {
    fn default() -> Self {
        Self::new(Self::DEFAULT_WINDOW)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    #[test]
    fn spans_in_one_frame_add_up_and_frames_give_avg_max_p95() {
        let mut acc = StatsAccumulator::new(100);
        // 20 frames: "animation" takes 1..=20 ms, split into two spans (e.g. two worker jobs).
        for f in 1..=20u64 {
            acc.record("animation", Duration::from_micros(f * 250));
            acc.record("animation", Duration::from_micros(f * 750));
            acc.record("render", ms(4));
            acc.end_frame();
        }
        let stats = acc.stats();
        assert_eq!(stats.frames, 20);
        let anim = stats.scopes["animation"];
        assert!((anim.avg_ms - 10.5).abs() < 1e-9, "{anim:?}");
        assert!((anim.max_ms - 20.0).abs() < 1e-9);
        // nearest rank ceil(0.95 * 20) = 19 → 19 ms
        assert!((anim.p95_ms - 19.0).abs() < 1e-9);
        assert_eq!(anim.frames, 20);
        let render = stats.scopes["render"];
        assert_eq!(
            (render.avg_ms, render.max_ms, render.p95_ms),
            (4.0, 4.0, 4.0)
        );
        assert_eq!(acc.last_frame_ms("animation"), Some(20.0));
    }

    #[test]
    fn scope_absent_from_a_frame_gets_no_sample() {
        let mut acc = StatsAccumulator::new(10);
        acc.record("water", ms(2));
        acc.end_frame();
        acc.end_frame(); // water did not run
        acc.record("water", ms(4));
        acc.end_frame();
        let water = acc.stats().scopes["water"];
        assert_eq!(water.frames, 2);
        assert!((water.avg_ms - 3.0).abs() < 1e-9);
        assert_eq!(acc.stats().frames, 3);
        assert_eq!(acc.history_ms("water").unwrap(), [(0, 2.0), (2, 4.0)]);
        assert_eq!(acc.scope_names().collect::<Vec<_>>(), ["water"]);
    }

    #[test]
    fn window_keeps_only_the_latest_frames() {
        let mut acc = StatsAccumulator::new(4);
        for v in [100, 1, 2, 3, 4] {
            acc.record("s", ms(v));
            acc.end_frame();
        }
        let s = acc.stats().scopes["s"];
        assert_eq!(s.frames, 4);
        assert!(
            (s.max_ms - 4.0).abs() < 1e-9,
            "the 100 ms frame left the window: {s:?}"
        );
        assert!((s.avg_ms - 2.5).abs() < 1e-9);
        assert_eq!(acc.last_frame_ms("s"), Some(4.0));
        assert_eq!(acc.last_frame_ms("missing"), None);
        let history = acc.history_ms("s").unwrap();
        assert_eq!(history, [(1, 1.0), (2, 2.0), (3, 3.0), (4, 4.0)]);
    }
}
