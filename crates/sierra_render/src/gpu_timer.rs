//! GPU time per pass from timestamp queries (when the adapter has `TIMESTAMP_QUERY`).

use crate::context::GpuContext;
use crate::error::Result;
use crate::readback;

/// Timestamp queries for up to `capacity` passes: each pass writes a begin and
/// an end timestamp; after the frame the pair differences, times the queue's
/// timestamp period (ns per tick), give GPU milliseconds per pass.
pub struct GpuTimer {
    query_set: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    capacity: u32,
}

impl GpuTimer {
    /// Creates the timer, or `None` when the device lacks `TIMESTAMP_QUERY`.
    ///
    /// # Errors
    /// [`crate::RenderError::Gpu`] when query set or buffer creation fails.
    pub fn new(ctx: &GpuContext, capacity: u32) -> Result<Option<Self>> {
        if !ctx.has_timestamps() {
            return Ok(None);
        }
        let query_set = ctx.scoped(
            || "creating the timestamp query set".to_owned(),
            || {
                ctx.device.create_query_set(&wgpu::QuerySetDescriptor {
                    label: Some("pass timestamps"),
                    ty: wgpu::QueryType::Timestamp,
                    count: capacity * 2,
                })
            },
        )?;
        let resolve = ctx.create_buffer(&wgpu::BufferDescriptor {
            label: Some("pass timestamps resolve"),
            size: u64::from(capacity) * 2 * 8,
            usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        })?;
        Ok(Some(Self {
            query_set,
            resolve,
            capacity,
        }))
    }

    /// Timestamp writes for pass number `index` (`None` beyond the capacity).
    pub fn writes(&self, index: u32) -> Option<wgpu::RenderPassTimestampWrites<'_>> {
        (index < self.capacity).then_some(wgpu::RenderPassTimestampWrites {
            query_set: &self.query_set,
            beginning_of_pass_write_index: Some(2 * index),
            end_of_pass_write_index: Some(2 * index + 1),
        })
    }

    /// Records the resolve of the first `passes` passes' timestamps; call after recording them.
    pub fn resolve(&self, encoder: &mut wgpu::CommandEncoder, passes: u32) {
        let count = passes.min(self.capacity) * 2;
        encoder.resolve_query_set(&self.query_set, 0..count, &self.resolve, 0);
    }

    /// Reads the resolved timestamps (blocks until the frame finished) and
    /// returns GPU milliseconds per pass.
    ///
    /// # Errors
    /// Read-back errors.
    pub fn read_ms(&self, ctx: &GpuContext, passes: u32) -> Result<Vec<f64>> {
        let bytes = readback::read_buffer(ctx, &self.resolve)?;
        // The byte vector is not 8-aligned, so read each tick unaligned.
        let ticks: Vec<u64> = bytes
            .chunks_exact(8)
            .map(bytemuck::pod_read_unaligned)
            .collect();
        let period_ns = f64::from(ctx.queue.get_timestamp_period());
        Ok(ticks
            .chunks_exact(2)
            .take(passes.min(self.capacity) as usize)
            .map(|pair| pair[1].saturating_sub(pair[0]) as f64 * period_ns * 1e-6)
            .collect())
    }
}
