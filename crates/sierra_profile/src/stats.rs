use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Statistics of one scope over the frames in which it ran.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ScopeStat {
    /// Mean per-frame time, milliseconds.
    pub avg_ms: f64,
    /// Largest per-frame time, milliseconds.
    pub max_ms: f64,
    /// 95th percentile of the per-frame times (nearest-rank method: the smallest sample that is
    /// ≥ 95 % of the samples), milliseconds.
    pub p95_ms: f64,
    /// Number of frames the statistics cover (frames in which the scope ran, within the window).
    pub frames: usize,
}

impl ScopeStat {
    /// Statistics of per-frame times `samples_ms` (milliseconds, any order); `None` when empty.
    /// `scratch` is reused for sorting.
    pub(crate) fn from_samples(samples_ms: &[f64], scratch: &mut Vec<f64>) -> Option<Self> {
        if samples_ms.is_empty() {
            return None;
        }
        scratch.clear();
        scratch.extend_from_slice(samples_ms);
        scratch.sort_by(f64::total_cmp);
        let n = scratch.len();
        // Nearest rank: ceil(0.95 n), 1-based. Integer form avoids 0.95 * n rounding up by an ulp.
        let rank = (95 * n).div_ceil(100).max(1);
        Some(Self {
            avg_ms: scratch.iter().sum::<f64>() / n as f64,
            max_ms: scratch[n - 1],
            p95_ms: scratch[rank - 1],
            frames: n,
        })
    }
}

/// Per-scope statistics, the content of `stats.json`:
/// `{"frames": 120, "scopes": {"animation": {"avg_ms": .., "max_ms": .., "p95_ms": .., "frames": ..}, ..}}`.
///
/// A scope's per-frame time is the sum of the busy times of all its spans in that frame, on all
/// threads (so a scope run by four rayon workers in parallel reports CPU time, not wall time).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ScopeStats {
    /// Frames closed with [`Profiler::end_frame`](crate::Profiler::end_frame) since the start.
    pub frames: u64,
    /// Statistics per scope name, sorted by name.
    pub scopes: BTreeMap<String, ScopeStat>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p95_nearest_rank_of_1_to_100_is_95() {
        let samples: Vec<f64> = (1..=100).rev().map(f64::from).collect();
        let s = ScopeStat::from_samples(&samples, &mut Vec::new()).unwrap();
        assert_eq!(s.p95_ms, 95.0);
        assert_eq!(s.max_ms, 100.0);
        assert_eq!(s.avg_ms, 50.5);
        assert_eq!(s.frames, 100);
    }

    #[test]
    fn p95_of_few_samples_is_the_maximum() {
        // ceil(0.95 * 10) = 10: with 10 samples the 95th percentile is the largest one.
        let samples: Vec<f64> = (1..=10).map(f64::from).collect();
        let s = ScopeStat::from_samples(&samples, &mut Vec::new()).unwrap();
        assert_eq!(s.p95_ms, 10.0);
        let one = ScopeStat::from_samples(&[4.0], &mut Vec::new()).unwrap();
        assert_eq!((one.avg_ms, one.max_ms, one.p95_ms), (4.0, 4.0, 4.0));
    }

    #[test]
    fn no_samples_no_stat() {
        assert!(ScopeStat::from_samples(&[], &mut Vec::new()).is_none());
    }
}
