//! Pipeline statistics per render pass, where the adapter offers
//! `wgpu::Features::PIPELINE_STATISTICS_QUERY` (Vulkan and DX12 desktop drivers and Mesa's
//! lavapipe do; Metal, GL and WebGPU do not, and the statistics are then absent).
//!
//! Each timed render pass ([`crate::gpu_profiler::GpuScopes::render_pass`]) gets
//! [`PassQueries`]: its timestamp writes and a [`StatisticsScope`] with the scope's label. The
//! helpers that begin render passes ([`crate::gpu_util::colour_pass`],
//! [`crate::gpu_util::depth_pass`], [`crate::targets::RenderTargets::begin_scene_pass`]) open a
//! query right after beginning the pass and the returned [`QueriedRenderPass`] closes it when
//! dropped. A scope of several render passes (bloom) gets one query per pass, summed by label.
//! The frame's last command buffer resolves the queries into one of a few read-back buffers
//! ([`StatisticsPool::resolve`]), mapped after the submit and read when ready, like the
//! timestamps: nothing waits.
//!
//! Counts follow Vulkan's `VkQueryPipelineStatisticFlagBits` definitions; implementations may
//! count invocations differently (e.g. a vertex shader run once per index or once per vertex).

use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::context::GpuContext;
use crate::error::Result;

/// Queries one frame may open; passes past it go uncounted.
pub const MAX_QUERIES_PER_FRAME: u32 = 64;

/// Values each query writes, in [`wgpu::PipelineStatisticsTypes`] bit order.
const VALUES: u64 = 5;

/// What the GPU counted in one pass (summed over the passes of one scope label).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PassStatistics {
    /// The scope (`"forward"`, `"shadow"`, `"bloom"`, …).
    pub label: String,
    /// Vertex shader invocations.
    pub vertex_shader_invocations: u64,
    /// Primitives that reached the clipper.
    pub clipper_invocations: u64,
    /// Primitives the clipper passed on to rasterisation.
    pub clipper_primitives_out: u64,
    /// Fragment shader invocations.
    pub fragment_shader_invocations: u64,
}

impl PassStatistics {
    /// Vertex and fragment shader invocations per pixel of a `pixels`-pixel image (the frame's
    /// screen, whatever target the pass drew into: a shadow map's texels count against the
    /// screen too, so passes compare on one scale); `(0, 0)` for no pixels.
    pub fn per_pixel(&self, pixels: u64) -> InvocationsPerPixel {
        let per = |n: u64| {
            if pixels == 0 {
                0.0
            } else {
                n as f64 / pixels as f64
            }
        };
        InvocationsPerPixel {
            vertex: per(self.vertex_shader_invocations),
            fragment: per(self.fragment_shader_invocations),
        }
    }
}

/// Shader invocations per screen pixel of one pass ([`PassStatistics::per_pixel`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct InvocationsPerPixel {
    /// Vertex shader invocations / screen pixels.
    pub vertex: f64,
    /// Fragment shader invocations / screen pixels.
    pub fragment: f64,
}

/// The queries a timed render pass hands to its render pass: timestamp writes and a
/// pipeline-statistics scope (each `None` when the adapter lacks the feature or the pass is
/// untimed).
#[derive(Default)]
pub struct PassQueries<'a> {
    /// Timestamp writes for the render pass descriptor.
    pub timestamps: Option<wgpu::RenderPassTimestampWrites<'a>>,
    /// Pipeline statistics of the pass, under the scope's label.
    pub statistics: Option<StatisticsScope<'a>>,
}

impl<'a> PassQueries<'a> {
    /// Queries that measure nothing.
    pub fn none() -> Self {
        Self::default()
    }

    /// The part of these queries that one of a scope's several render passes should use: the
    /// beginning timestamp on the first, the end timestamp on the last (so the group is timed
    /// as one), and statistics on each (summed by label).
    pub fn split(&self, first: bool, last: bool) -> PassQueries<'a> {
        let timestamps = self.timestamps.as_ref().and_then(|w| {
            let beginning = w.beginning_of_pass_write_index.filter(|_| first);
            let end = w.end_of_pass_write_index.filter(|_| last);
            (beginning.is_some() || end.is_some()).then_some(wgpu::RenderPassTimestampWrites {
                query_set: w.query_set,
                beginning_of_pass_write_index: beginning,
                end_of_pass_write_index: end,
            })
        });
        PassQueries {
            timestamps,
            statistics: self.statistics,
        }
    }

    /// Begins a render pass with `desc` (its `timestamp_writes` replaced by these queries')
    /// and opens the statistics query in it.
    pub fn begin_render_pass<'e>(
        self,
        encoder: &'e mut wgpu::CommandEncoder,
        desc: wgpu::RenderPassDescriptor<'_>,
    ) -> QueriedRenderPass<'e> {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            timestamp_writes: self.timestamps,
            ..desc
        });
        let counting = self.statistics.is_some_and(|s| s.begin(&mut pass));
        QueriedRenderPass { pass, counting }
    }
}

/// A render pass whose pipeline-statistics query (when one was opened) ends when it is
/// dropped; use it as a [`wgpu::RenderPass`].
pub struct QueriedRenderPass<'e> {
    pass: wgpu::RenderPass<'e>,
    counting: bool,
}

impl<'e> std::ops::Deref for QueriedRenderPass<'e> {
    type Target = wgpu::RenderPass<'e>;
    fn deref(&self) -> &Self::Target {
        &self.pass
    }
}

impl std::ops::DerefMut for QueriedRenderPass<'_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.pass
    }
}

impl Drop for QueriedRenderPass<'_> {
    fn drop(&mut self) {
        if self.counting {
            self.pass.end_pipeline_statistics_query();
        }
    }
}

/// The statistics of one scope: a label and the pool its queries come from.
#[derive(Clone, Copy)]
pub struct StatisticsScope<'a> {
    pool: &'a StatisticsPool,
    label: &'a str,
}

impl StatisticsScope<'_> {
    /// Opens a query in `pass` (false, and nothing opened, when the frame's queries ran out).
    fn begin(self, pass: &mut wgpu::RenderPass<'_>) -> bool {
        let mut labels = self.pool.labels.borrow_mut();
        let index = labels.len() as u32;
        if index >= MAX_QUERIES_PER_FRAME {
            return false;
        }
        labels.push(self.label.to_owned());
        pass.begin_pipeline_statistics_query(&self.pool.query_set, index);
        true
    }
}

/// One frame's queries on their way back.
struct Pending {
    frame: Option<u64>,
    labels: Vec<String>,
    buffer: Option<wgpu::Buffer>,
    mapped: Arc<AtomicBool>,
}

/// The query set, resolve buffer and read-back buffers of the statistics.
pub struct StatisticsPool {
    query_set: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    free: Vec<wgpu::Buffer>,
    /// Labels of the queries opened this frame, by query index.
    labels: RefCell<Vec<String>>,
    pending: VecDeque<Pending>,
}

impl StatisticsPool {
    /// The pool for `ctx`'s device, with `buffers` read-back buffers (frames in flight);
    /// `None` where the device lacks `PIPELINE_STATISTICS_QUERY`.
    ///
    /// # Errors
    /// GPU errors creating the buffers.
    pub fn new(ctx: &GpuContext, buffers: usize) -> Result<Option<Self>> {
        if !ctx
            .features
            .contains(wgpu::Features::PIPELINE_STATISTICS_QUERY)
        {
            return Ok(None);
        }
        let query_set = ctx.device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("pipeline statistics"),
            ty: wgpu::QueryType::PipelineStatistics(wgpu::PipelineStatisticsTypes::all()),
            count: MAX_QUERIES_PER_FRAME,
        });
        let bytes = u64::from(MAX_QUERIES_PER_FRAME) * VALUES * 8;
        let buffer = |label, usage| {
            ctx.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: bytes,
                usage,
                mapped_at_creation: false,
            })
        };
        let resolve = buffer(
            "pipeline statistics resolve",
            wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
        )?;
        let free = (0..buffers)
            .map(|_| {
                buffer(
                    "pipeline statistics read-back",
                    wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                )
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Some(Self {
            query_set,
            resolve,
            free,
            labels: RefCell::default(),
            pending: VecDeque::new(),
        }))
    }

    /// A scope counting under `label`.
    pub fn scope<'a>(&'a self, label: &'a str) -> StatisticsScope<'a> {
        StatisticsScope { pool: self, label }
    }

    /// Records the resolve of this frame's queries into `encoder` (the frame's last command
    /// buffer). Without a free read-back buffer the frame's statistics are dropped.
    pub fn resolve(&mut self, encoder: &mut wgpu::CommandEncoder) {
        let labels = std::mem::take(self.labels.get_mut());
        let buffer = if labels.is_empty() {
            None
        } else {
            self.free.pop()
        };
        if let Some(buffer) = &buffer {
            let n = labels.len() as u32;
            encoder.resolve_query_set(&self.query_set, 0..n, &self.resolve, 0);
            let bytes = u64::from(n) * VALUES * 8;
            encoder.copy_buffer_to_buffer(&self.resolve, 0, buffer, 0, bytes);
        }
        self.pending.push_back(Pending {
            frame: None,
            labels: if buffer.is_some() { labels } else { Vec::new() },
            buffer,
            mapped: Arc::default(),
        });
    }

    /// After the submit of the frame numbered `frame`: starts mapping its read-back buffer.
    pub fn end_frame(&mut self, frame: u64) {
        let Some(p) = self.pending.back_mut().filter(|p| p.frame.is_none()) else {
            return;
        };
        p.frame = Some(frame);
        if let Some(buffer) = &p.buffer {
            let mapped = Arc::clone(&p.mapped);
            buffer.map_async(wgpu::MapMode::Read, .., move |r| {
                mapped.store(r.is_ok(), Ordering::Release);
            });
        }
    }

    /// The statistics of frame `frame` once its read-back is mapped (summed by label, in
    /// first-recorded order; empty for a frame with no counted pass), else `None`. Frames
    /// before it that were never taken are dropped.
    pub fn take(&mut self, frame: u64) -> Option<Vec<PassStatistics>> {
        while self
            .pending
            .front()
            .is_some_and(|p| p.frame.is_some_and(|f| f < frame))
        {
            let p = self.pending.pop_front()?;
            self.recycle(p);
        }
        let front = self.pending.front()?;
        if front.frame != Some(frame) {
            return None;
        }
        if front.buffer.is_some() && !front.mapped.load(Ordering::Acquire) {
            return None;
        }
        let p = self.pending.pop_front()?;
        let values: Vec<u64> = match p.buffer.as_ref().map(|b| b.slice(..).get_mapped_range()) {
            Some(Ok(data)) => data
                .chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default()))
                .collect(),
            _ => Vec::new(),
        };
        let stats = sum_by_label(&p.labels, &values);
        self.recycle(p);
        Some(stats)
    }

    fn recycle(&mut self, p: Pending) {
        if let Some(buffer) = p.buffer {
            if p.mapped.load(Ordering::Acquire) {
                buffer.unmap();
            }
            self.free.push(buffer);
        }
    }
}

/// Per label, the sum of its queries' values (`values`: `VALUES` (5) u64 per query, in
/// `PipelineStatisticsTypes` bit order: vertex shader, clipper in, clipper out, fragment
/// shader, compute shader invocations).
pub fn sum_by_label(labels: &[String], values: &[u64]) -> Vec<PassStatistics> {
    let mut out: Vec<PassStatistics> = Vec::new();
    for (label, v) in labels.iter().zip(values.chunks_exact(VALUES as usize)) {
        let i = match out.iter().position(|s| s.label == *label) {
            Some(i) => i,
            None => {
                out.push(PassStatistics {
                    label: label.clone(),
                    ..PassStatistics::default()
                });
                out.len() - 1
            }
        };
        let entry = &mut out[i];
        entry.vertex_shader_invocations += v[0];
        entry.clipper_invocations += v[1];
        entry.clipper_primitives_out += v[2];
        entry.fragment_shader_invocations += v[3];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_of_one_label_are_summed_in_first_recorded_order() {
        let labels = ["bloom", "forward", "bloom"].map(str::to_owned);
        let values = [1, 2, 3, 4, 0, 10, 20, 30, 40, 0, 100, 200, 300, 400, 0];
        let stats = sum_by_label(&labels, &values);
        assert_eq!(stats.len(), 2);
        assert_eq!(stats[0].label, "bloom");
        assert_eq!(stats[0].vertex_shader_invocations, 101);
        assert_eq!(stats[0].fragment_shader_invocations, 404);
        assert_eq!(stats[1].clipper_primitives_out, 30);
    }

    #[test]
    fn invocations_per_pixel_divide_by_the_screen() {
        let stats = PassStatistics {
            vertex_shader_invocations: 300,
            fragment_shader_invocations: 1_200,
            ..PassStatistics::default()
        };
        // A 20 x 30 screen: 600 pixels.
        let per = stats.per_pixel(600);
        assert_eq!(per.vertex, 0.5);
        assert_eq!(per.fragment, 2.0);
        // No screen: zeros, not infinities.
        assert_eq!(stats.per_pixel(0), InvocationsPerPixel::default());
    }
}
