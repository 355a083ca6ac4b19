//! Start-up time by stage: what a run spends before its first frame (level and assets, clip
//! bakes, terrain, renderer pipelines, uploads), reported as `startup_ms` in `stats.json` and by
//! `sierra bench scene`.

use std::time::Instant;

/// Wall-clock milliseconds per start-up stage, in the order the stages ran. A stage timed twice
/// (two uploads) adds up under its name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StartupTimes {
    stages: Vec<(&'static str, f64)>,
}

impl StartupTimes {
    /// No stage timed yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Runs `f` as stage `stage`, timing it (and tracing it as a `startup` span with a `stage`
    /// field, so it shows in a trace), and returns what `f` returned.
    pub fn time<T>(&mut self, stage: &'static str, f: impl FnOnce() -> T) -> T {
        let _span = tracing::info_span!("startup", stage).entered();
        let start = Instant::now();
        let out = f();
        self.add(stage, start.elapsed().as_secs_f64() * 1e3);
        out
    }

    /// Adds `ms` milliseconds to stage `stage`.
    pub fn add(&mut self, stage: &'static str, ms: f64) {
        match self.stages.iter_mut().find(|(name, _)| *name == stage) {
            Some((_, total)) => *total += ms,
            None => self.stages.push((stage, ms)),
        }
    }

    /// Adds every stage of `other` (e.g. the level's stages to the renderer's).
    pub fn extend(&mut self, other: &StartupTimes) {
        for &(stage, ms) in &other.stages {
            self.add(stage, ms);
        }
    }

    /// The stages in the order they first ran, milliseconds.
    pub fn stages(&self) -> &[(&'static str, f64)] {
        &self.stages
    }

    /// Sum over the stages, milliseconds.
    pub fn total_ms(&self) -> f64 {
        self.stages.iter().map(|(_, ms)| ms).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_keep_their_order_and_repeated_stages_add_up() {
        let mut t = StartupTimes::new();
        t.add("level", 2.0);
        // `time` measures the closure: one that sleeps 2 ms takes at least that long.
        let v = t.time("upload", || {
            std::thread::sleep(std::time::Duration::from_millis(2));
            7
        });
        assert_eq!(v, 7);
        t.add("level", 3.0);
        let names: Vec<_> = t.stages().iter().map(|(n, _)| *n).collect();
        assert_eq!(names, ["level", "upload"]);
        assert_eq!(t.stages()[0].1, 5.0);
        assert!(t.stages()[1].1 >= 2.0, "{:?}", t.stages());
        assert!((t.total_ms() - 5.0 - t.stages()[1].1).abs() < 1e-12);
    }
}
