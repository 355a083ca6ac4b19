//! GPU time per scope, read without waiting: [`GpuScopes`] wraps
//! [`wgpu_profiler::GpuProfiler`] (pooled timestamp queries, results mapped a few frames later).
//!
//! Every render pass and compute dispatch of a frame opens one scope through its pass's
//! `timestamp_writes` ([`GpuScopes::begin`] → [`wgpu_profiler::GpuProfilerQuery::render_pass_timestamp_writes`]
//! or [`…::compute_pass_timestamp_writes`](wgpu_profiler::GpuProfilerQuery::compute_pass_timestamp_writes)),
//! which needs only `TIMESTAMP_QUERY`, so every adapter with timestamps times the same scopes.
//! Where the device also writes timestamps between passes (`TIMESTAMP_QUERY_INSIDE_ENCODERS`),
//! [`GpuScopes::begin_encoder_scope`] opens a scope around a whole encoder's passes, which
//! then nest inside it.
//! The frame's last command buffer resolves the queries ([`GpuScopes::resolve`]); after the
//! submit, [`GpuScopes::end_frame`] starts mapping the results and [`GpuScopes::collect`]
//! returns the frames whose results are ready, polling the device without blocking. Only
//! [`GpuScopes::flush`] (once, at the end of a run) waits, and it counts its waits
//! ([`GpuScopes::waits`]) so a test can show that a window never does.

use std::collections::VecDeque;
use web_time::Instant;

use wgpu_profiler::{GpuProfiler, GpuProfilerQuery, GpuProfilerSettings, GpuTimerQueryResult};

use crate::context::GpuContext;
use crate::error::{RenderError, Result};
use crate::pipeline_statistics::{PassQueries, PassStatistics, StatisticsPool};

/// Frames whose timestamps may be in flight at once; a window presents at most a few frames
/// ahead, headless runs read each frame back before the next.
const MAX_PENDING_FRAMES: usize = 8;

/// One timed scope of a frame.
#[derive(Clone, Debug, PartialEq)]
pub struct GpuScopeTiming {
    /// The pass or dispatch (`"shadow"`, `"skinning"`, `"water steps"`, …).
    pub label: String,
    /// Nesting depth: 0 for a top-level scope.
    pub depth: u32,
    /// Start, milliseconds after the frame's first top-level scope started.
    pub start_ms: f64,
    /// End, milliseconds after the frame's first top-level scope started (≥ `start_ms`).
    pub end_ms: f64,
}

impl GpuScopeTiming {
    /// Duration in milliseconds.
    pub fn ms(&self) -> f64 {
        self.end_ms - self.start_ms
    }
}

/// The GPU timings of one rendered frame, available a few frames after it was submitted.
#[derive(Clone, Debug, PartialEq)]
pub struct GpuFrameTimings {
    /// The renderer's frame number ([`crate::FrameStats::frame`]).
    pub frame: u64,
    /// When the frame's last command buffer was submitted (CPU clock): the anchor of the
    /// frame's block on a trace's GPU track (GPU timestamps share no clock with the CPU).
    pub submitted: Instant,
    /// Scopes in recording order, parents before their children (depth-first).
    pub scopes: Vec<GpuScopeTiming>,
    /// Pipeline statistics per render-pass scope label, where the adapter has
    /// `PIPELINE_STATISTICS_QUERY` (else `None`).
    pub pass_statistics: Option<Vec<PassStatistics>>,
}

impl GpuFrameTimings {
    /// GPU milliseconds of the whole frame: end of the last top-level scope − start of the
    /// first (idle gaps between scopes included). 0 without scopes.
    pub fn gpu_ms(&self) -> f64 {
        self.scopes
            .iter()
            .filter(|s| s.depth == 0)
            .map(|s| s.end_ms)
            .fold(0.0, f64::max)
    }

    /// Milliseconds per scope label, summed over the scopes of that label (a frame may step the
    /// water twice), in first-recorded order.
    pub fn per_label_ms(&self) -> Vec<(String, f64)> {
        let mut out: Vec<(String, f64)> = Vec::new();
        for s in &self.scopes {
            match out.iter_mut().find(|(label, _)| *label == s.label) {
                Some((_, ms)) => *ms += s.ms(),
                None => out.push((s.label.clone(), s.ms())),
            }
        }
        out
    }
}

/// GPU scopes of every frame a renderer submits, read a few frames later without waiting.
pub struct GpuScopes {
    profiler: GpuProfiler,
    /// Whether the device writes timestamps (`TIMESTAMP_QUERY`); without, no frame reports.
    timed: bool,
    /// Whether it writes them between passes too (`TIMESTAMP_QUERY_INSIDE_ENCODERS`).
    nested: bool,
    /// Frame number and submit time of each frame handed to the profiler and not yet read.
    pending: VecDeque<(u64, Instant)>,
    next_frame: u64,
    waits: u64,
    /// Pipeline statistics of the render passes, where the device counts them.
    statistics: Option<StatisticsPool>,
}

impl GpuScopes {
    /// Scopes for `ctx`'s device; they time nothing (and report no frames) where the adapter
    /// lacks `TIMESTAMP_QUERY`.
    ///
    /// # Errors
    /// [`RenderError::Gpu`] when the profiler cannot be created.
    pub fn new(ctx: &GpuContext) -> Result<Self> {
        let timed = ctx.has_timestamps();
        let nested = timed
            && ctx
                .features
                .contains(wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS);
        let settings = GpuProfilerSettings {
            enable_timer_queries: timed,
            enable_debug_groups: false,
            max_num_pending_frames: MAX_PENDING_FRAMES,
        };
        let profiler = GpuProfiler::new(&ctx.device, settings).map_err(|e| RenderError::Gpu {
            context: "creating the GPU profiler".to_owned(),
            message: e.to_string(),
        })?;
        Ok(Self {
            profiler,
            timed,
            nested,
            pending: VecDeque::new(),
            next_frame: 0,
            waits: 0,
            statistics: StatisticsPool::new(ctx, MAX_PENDING_FRAMES + 1)?,
        })
    }

    /// Whether frames are timed (the adapter has timestamp queries).
    pub fn timed(&self) -> bool {
        self.timed
    }

    /// The number the next frame ends with ([`Self::end_frame`]).
    pub fn next_frame(&self) -> u64 {
        self.next_frame
    }

    /// Opens scope `label` for the one render or compute pass the caller begins next on
    /// `encoder`, nested in `parent` when given: pass the query's
    /// `render_pass_timestamp_writes()` or `compute_pass_timestamp_writes()` to it, then close
    /// it with [`Self::end`].
    pub fn begin(
        &self,
        label: &str,
        encoder: &mut wgpu::CommandEncoder,
        parent: Option<&GpuProfilerQuery>,
    ) -> GpuProfilerQuery {
        self.profiler
            .begin_pass_query(label, encoder)
            .with_parent(parent)
    }

    /// Opens scope `label` around what is recorded next into `encoder` (timestamps written
    /// between passes), or returns `None` where the device cannot write them there. Nest the
    /// passes in it (their `parent`) and close it with [`Self::end`] on the same encoder.
    pub fn begin_encoder_scope(
        &self,
        label: &str,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Option<GpuProfilerQuery> {
        self.nested
            .then(|| self.profiler.begin_query(label, encoder))
    }

    /// Runs `record` (which begins its render passes through the [`PassQueries`] it is given)
    /// inside scope `label`: timed, and counted where the device has pipeline statistics.
    pub fn render_pass(
        &self,
        label: &str,
        encoder: &mut wgpu::CommandEncoder,
        parent: Option<&GpuProfilerQuery>,
        record: impl FnOnce(&mut wgpu::CommandEncoder, PassQueries<'_>),
    ) {
        let query = self.begin(label, encoder, parent);
        let queries = PassQueries {
            timestamps: query.render_pass_timestamp_writes(),
            statistics: self.statistics.as_ref().map(|s| s.scope(label)),
        };
        record(encoder, queries);
        self.end(encoder, query);
    }

    /// Whether render passes are counted (the device has `PIPELINE_STATISTICS_QUERY`).
    pub fn counts_pipeline_statistics(&self) -> bool {
        self.statistics.is_some()
    }

    /// Runs `record` (which begins one compute pass with the timestamp writes it is given)
    /// inside scope `label`, and returns what it returned; the scope is closed whatever it was.
    pub fn compute_pass<T>(
        &self,
        label: &str,
        encoder: &mut wgpu::CommandEncoder,
        parent: Option<&GpuProfilerQuery>,
        record: impl FnOnce(
            &mut wgpu::CommandEncoder,
            Option<wgpu::ComputePassTimestampWrites<'_>>,
        ) -> T,
    ) -> T {
        let query = self.begin(label, encoder, parent);
        let out = record(encoder, query.compute_pass_timestamp_writes());
        self.end(encoder, query);
        out
    }

    /// Closes a scope opened with [`Self::begin`] or [`Self::begin_encoder_scope`].
    pub fn end(&self, encoder: &mut wgpu::CommandEncoder, query: GpuProfilerQuery) {
        self.profiler.end_query(encoder, query);
    }

    /// Records the resolve of every scope of the frame into `encoder`, which must be the
    /// frame's last submitted command buffer.
    pub fn resolve(&mut self, encoder: &mut wgpu::CommandEncoder) {
        self.profiler.resolve_queries(encoder);
        if let Some(statistics) = &mut self.statistics {
            statistics.resolve(encoder);
        }
    }

    /// Ends the frame whose command buffers were submitted at `submitted` and returns its
    /// number; starts mapping its results (they arrive through [`Self::collect`]).
    ///
    /// # Errors
    /// [`RenderError::Gpu`] for a scope left open or unresolved (a renderer bug).
    pub fn end_frame(&mut self, submitted: Instant) -> Result<u64> {
        // The profiler drops its newest pending frame (not the oldest) when full: mirror that.
        if self.pending.len() == MAX_PENDING_FRAMES {
            self.pending.pop_back();
        }
        self.profiler.end_frame().map_err(|e| RenderError::Gpu {
            context: "ending a GPU profiler frame".to_owned(),
            message: e.to_string(),
        })?;
        let frame = self.next_frame;
        self.next_frame += 1;
        self.pending.push_back((frame, submitted));
        if let Some(statistics) = &mut self.statistics {
            statistics.end_frame(frame);
        }
        Ok(frame)
    }

    /// The frames whose results are ready, oldest first; polls the device without blocking.
    ///
    /// # Errors
    /// [`RenderError::DeviceLost`] when the device is lost.
    pub fn collect(&mut self, ctx: &GpuContext) -> Result<Vec<GpuFrameTimings>> {
        if self.pending.is_empty() {
            return Ok(Vec::new());
        }
        ctx.poll_device("polling for GPU timings")?;
        Ok(self.take_finished(ctx))
    }

    /// Waits once for every submitted frame and returns the results not collected yet: call it
    /// at the end of a run. Counts as one wait ([`Self::waits`]) when frames were pending.
    ///
    /// # Errors
    /// [`RenderError::DeviceLost`] when the device is lost.
    pub fn flush(&mut self, ctx: &GpuContext) -> Result<Vec<GpuFrameTimings>> {
        if self.pending.is_empty() {
            return Ok(Vec::new());
        }
        self.waits += 1;
        ctx.wait_idle("waiting for GPU timings")?;
        Ok(self.take_finished(ctx))
    }

    /// How many times the scopes waited on the GPU for timings ([`Self::flush`] only).
    pub fn waits(&self) -> u64 {
        self.waits
    }

    fn take_finished(&mut self, ctx: &GpuContext) -> Vec<GpuFrameTimings> {
        let period = ctx.queue.get_timestamp_period();
        let mut out = Vec::new();
        while let Some(results) = self.profiler.process_finished_frame(period) {
            let Some((frame, submitted)) = self.pending.pop_front() else {
                break;
            };
            // Mapped with the timestamps, after the same submit: ready when they are.
            let pass_statistics = self.statistics.as_mut().and_then(|s| s.take(frame));
            if self.timed {
                out.push(GpuFrameTimings {
                    frame,
                    submitted,
                    scopes: flatten(&results),
                    pass_statistics,
                });
            }
        }
        out
    }
}

/// Depth-first list of `results` (seconds on the GPU's clock) in milliseconds after the first
/// top-level scope's start; scopes without a time (not written) are left out with their children.
pub fn flatten(results: &[GpuTimerQueryResult]) -> Vec<GpuScopeTiming> {
    let origin = results
        .iter()
        .filter_map(|r| r.time.as_ref().map(|t| t.start))
        .fold(f64::INFINITY, f64::min);
    let mut out = Vec::new();
    push_scopes(results, 0, origin, &mut out);
    out
}

fn push_scopes(
    results: &[GpuTimerQueryResult],
    depth: u32,
    origin: f64,
    out: &mut Vec<GpuScopeTiming>,
) {
    for r in results {
        let Some(time) = &r.time else { continue };
        let start_ms = (time.start - origin) * 1e3;
        out.push(GpuScopeTiming {
            label: r.label.clone(),
            depth,
            start_ms,
            end_ms: ((time.end - origin) * 1e3).max(start_ms),
        });
        push_scopes(&r.nested_queries, depth + 1, origin, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(
        label: &str,
        s: f64,
        e: f64,
        nested: Vec<GpuTimerQueryResult>,
    ) -> GpuTimerQueryResult {
        GpuTimerQueryResult {
            label: label.to_owned(),
            pid: 0,
            tid: std::thread::current().id(),
            time: Some(s..e),
            nested_queries: nested,
        }
    }

    #[test]
    fn flatten_is_depth_first_relative_to_the_first_start_in_ms() {
        let results = [
            result(
                "a",
                10.0,
                10.002,
                vec![result("a1", 10.0005, 10.001, vec![])],
            ),
            result("b", 10.003, 10.004, vec![]),
        ];
        let scopes = flatten(&results);
        let labels: Vec<_> = scopes.iter().map(|s| (s.label.as_str(), s.depth)).collect();
        assert_eq!(labels, [("a", 0), ("a1", 1), ("b", 0)]);
        assert!((scopes[0].start_ms).abs() < 1e-9);
        assert!((scopes[1].start_ms - 0.5).abs() < 1e-6);
        assert!((scopes[2].end_ms - 4.0).abs() < 1e-6);
        let frame = GpuFrameTimings {
            frame: 0,
            submitted: Instant::now(),
            scopes,
            pass_statistics: None,
        };
        // Gaps count in the frame's time: 4 ms, though the top-level scopes add to 3 ms.
        assert!((frame.gpu_ms() - 4.0).abs() < 1e-6);
    }

    #[test]
    fn per_label_sums_repeated_scopes() {
        let frame = GpuFrameTimings {
            frame: 3,
            submitted: Instant::now(),
            scopes: flatten(&[
                result("water steps", 0.0, 0.001, vec![]),
                result("forward", 0.001, 0.004, vec![]),
                result("water steps", 0.004, 0.006, vec![]),
            ]),
            pass_statistics: None,
        };
        let per = frame.per_label_ms();
        assert_eq!(per.len(), 2);
        assert_eq!(per[0].0, "water steps");
        assert!((per[0].1 - 3.0).abs() < 1e-6);
    }
}
