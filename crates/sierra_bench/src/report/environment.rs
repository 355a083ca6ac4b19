//! The machine and the code a report measured: CPU model and features, the SIMD paths Sierra's
//! kernels chose, cores, commit, date, and the load average before and after (a shared machine's
//! other work inflates every time).

use serde::Serialize;

/// Where and when a report was measured.
#[derive(Clone, Debug, Serialize)]
pub struct Environment {
    /// `model name` from `/proc/cpuinfo` ("unknown" where unreadable).
    pub cpu: String,
    /// The vector extensions of interest the CPU has (`avx2`, `fma`, `avx512f`, …).
    pub cpu_features: Vec<&'static str>,
    /// Logical CPUs this process may use (`std::thread::available_parallelism`).
    pub cores: usize,
    /// The animation kernels' path (`sierra_anim::SimdLevel::detect`).
    pub simd_animation: String,
    /// The noise and water kernels' path (`sierra_terrain::simd::SimdPath::detect`).
    pub simd_terrain: String,
    /// `git rev-parse HEAD` of the working directory, `+ uncommitted changes` when tracked files
    /// differ from it; "unknown" outside a git checkout.
    pub commit: String,
    /// UTC start time, `YYYY-MM-DD HH:MM`.
    pub date_utc: String,
    /// 1-, 5- and 15-minute load averages at the start (`/proc/loadavg`).
    pub load_start: Option<[f64; 3]>,
    /// The same at the end.
    pub load_end: Option<[f64; 3]>,
}

impl Environment {
    /// Reads everything but `load_end`.
    pub fn now() -> Self {
        Self {
            cpu: crate::noise::cpu_model(),
            cpu_features: cpu_features(),
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            simd_animation: format!("{:?}", sierra_anim::SimdLevel::detect()),
            simd_terrain: format!("{:?}", sierra_terrain::simd::SimdPath::detect()),
            commit: commit(),
            date_utc: utc_now(),
            load_start: load_average(),
            load_end: None,
        }
    }

    /// Records the load average at the end.
    pub fn finish(&mut self) {
        self.load_end = load_average();
    }
}

fn cpu_features() -> Vec<&'static str> {
    #[cfg(target_arch = "x86_64")]
    {
        let mut v = Vec::new();
        macro_rules! check {
            ($($f:tt),*) => {$(
                if std::arch::is_x86_feature_detected!($f) {
                    v.push($f);
                }
            )*};
        }
        check!(
            "avx2",
            "fma",
            "avx512f",
            "avx512bw",
            "avx512vl",
            "avx512vbmi"
        );
        v
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Vec::new()
    }
}

fn load_average() -> Option<[f64; 3]> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let mut w = text.split_whitespace().map(|x| x.parse::<f64>().ok());
    Some([w.next()??, w.next()??, w.next()??])
}

fn git(args: &[&str]) -> Option<String> {
    let out = std::process::Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn commit() -> String {
    match git(&["rev-parse", "HEAD"]) {
        Some(hash) if !hash.is_empty() => {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{hash} + uncommitted changes")
            } else {
                hash
            }
        }
        _ => "unknown (not run in a git checkout)".into(),
    }
}

fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    utc_from_unix(secs)
}

/// `YYYY-MM-DD HH:MM` (UTC) of a Unix time in seconds (Howard Hinnant's `civil_from_days`).
pub fn utc_from_unix(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against dates computed independently (`date -u -d @SECONDS`).
    #[test]
    fn unix_times_become_utc_dates() {
        assert_eq!(utc_from_unix(0), "1970-01-01 00:00");
        assert_eq!(utc_from_unix(951_782_400), "2000-02-29 00:00");
        assert_eq!(utc_from_unix(1_796_566_365), "2026-12-06 14:12");
        assert_ne!(utc_from_unix(1_796_566_365 + 86_400), "2026-12-06 14:12");
    }
}
