//! What `sierra bench scene` measures and how it is summarised: the CPU [`STAGES`], one
//! backend's run ([`BackendRun`]) and its series' [`Summary`]. Both the bench (`scene`) and
//! its plots (`scene_plot`) read these; this module names neither.

use std::path::Path;

use sierra_terrain::island::Backend;

/// `"cpu"` or `"gpu"`.
pub fn backend_name(backend: Backend) -> &'static str {
    match backend {
        Backend::Cpu => "cpu",
        Backend::Gpu => "gpu",
    }
}

/// CPU stages timed per frame (profiler scope names), in frame order; the CPU sea's steps
/// (`sea_cpu`) run inside `gameplay`.
pub const STAGES: [&str; 4] = [
    "gameplay",
    crate::world::sea::SEA_CPU_SCOPE,
    "build_frame",
    "render",
];

/// Mean, p95 and max of a series, milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Summary {
    /// Mean, ms.
    pub mean: f64,
    /// 95th percentile (nearest rank), ms.
    pub p95: f64,
    /// Maximum, ms.
    pub max: f64,
}

impl Summary {
    /// Of `values` (all 0 when empty).
    pub fn of(values: &[f64]) -> Self {
        if values.is_empty() {
            return Self::default();
        }
        let mut v = values.to_vec();
        v.sort_by(f64::total_cmp);
        Self {
            mean: v.iter().sum::<f64>() / v.len() as f64,
            p95: v[((v.len() - 1) as f64 * 0.95).round() as usize],
            max: v[v.len() - 1],
        }
    }

    /// `{mean_ms, p95_ms, max_ms}`.
    pub(super) fn json(self) -> serde_json::Value {
        serde_json::json!({"mean_ms": self.mean, "p95_ms": self.p95, "max_ms": self.max})
    }
}

/// What one backend's run measured.
pub struct BackendRun {
    /// The compute path.
    pub backend: Backend,
    /// Start-up time by stage in start-up order, then `total`, ms.
    pub startup_ms: Vec<(String, f64)>,
    /// Wall time of each frame, ms.
    pub frame_ms: Vec<f64>,
    /// Per CPU stage of [`STAGES`], its time in each frame `(frame, ms)`.
    pub stages: Vec<(&'static str, Vec<(u64, f64)>)>,
    /// Per GPU scope label, its time in each frame, ms.
    pub passes: Vec<(String, Vec<f64>)>,
    /// Skinned meshes drawn, per frame on average.
    pub skinned_draws: f64,
    /// The adapter, in words.
    pub adapter: String,
    /// The last frame rendered.
    pub last_frame: image::RgbaImage,
    /// GPU memory held after the last frame, by class.
    pub gpu_memory: crate::output::GpuMemoryRecord,
    /// Per render-pass label, its pipeline statistics averaged over the frames that reported
    /// them; `None` where the adapter has no pipeline statistics.
    pub pipeline_statistics: Option<serde_json::Map<String, serde_json::Value>>,
}

impl BackendRun {
    /// Mean time per frame of each CPU stage, ms, in [`STAGES`] order.
    pub fn stage_means(&self) -> Vec<(&'static str, f64)> {
        self.stages
            .iter()
            .map(|(name, h)| {
                let v: Vec<f64> = h.iter().map(|&(_, ms)| ms).collect();
                (*name, Summary::of(&v).mean)
            })
            .collect()
    }

    /// The run's entry in `bench_scene.json`, naming its frame image `frame_image`.
    pub(super) fn json(&self, frame_image: &Path) -> serde_json::Value {
        let stage = |h: &Vec<(u64, f64)>| {
            Summary::of(&h.iter().map(|&(_, ms)| ms).collect::<Vec<_>>()).json()
        };
        serde_json::json!({
            "backend": backend_name(self.backend),
            "startup_ms": self.startup_ms.iter().map(|(s, ms)| (s.clone(), serde_json::json!(ms))).collect::<serde_json::Map<_, _>>(),
            "frame": Summary::of(&self.frame_ms).json(),
            "cpu_stages": self.stages.iter().map(|(n, h)| (n.to_string(), stage(h))).collect::<serde_json::Map<_, _>>(),
            "gpu_passes": self.passes.iter().map(|(n, v)| (n.clone(), Summary::of(v).json())).collect::<serde_json::Map<_, _>>(),
            "skinned_draws_per_frame": self.skinned_draws,
            "gpu_memory": self.gpu_memory,
            "pipeline_statistics": self.pipeline_statistics,
            "frame_image": frame_image.display().to_string(),
        })
    }
}

/// The names of all `lists`, each once, in first-seen order.
pub fn union<'a, L: Iterator<Item = &'a String>>(
    lists: impl Iterator<Item = L>,
) -> Vec<&'a String> {
    let mut out: Vec<&String> = Vec::new();
    for name in lists.flatten() {
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// The value named `name` in `pairs`.
pub fn lookup(pairs: &[(String, f64)], name: &str) -> Option<f64> {
    pairs.iter().find(|(n, _)| n == name).map(|&(_, v)| v)
}
