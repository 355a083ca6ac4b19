//! Sierra's own accounting of the GPU memory it creates: every buffer and texture made through
//! [`crate::GpuContext`]'s `create_*` functions is added to a [`MemoryLedger`] under a
//! [`MemoryClass`] read from its usage; resources a run replaces (render targets and bloom
//! targets on resize) hand their bytes back when dropped ([`MemoryRelease`]). Read-back staging
//! buffers (`MAP_READ`, alive for one copy) are not counted.
//!
//! Bytes are the resource's logical size (a texture's texel blocks over its mip chain, layers
//! and samples; a buffer's size), not the driver's allocation, which rounds up and may pad;
//! [`GpuMemory::wgpu_allocated`] carries wgpu's allocator report where the backend gives one.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// What a buffer or texture is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemoryClass {
    /// Vertex and index buffers.
    Meshes,
    /// Sampled textures that are not render targets (material maps, baked animation, noise).
    Textures,
    /// Textures rendered into (scene colour and depth, shadow map, bloom, output images).
    RenderTargets,
    /// Storage buffers (water columns, skinning palettes and outputs, crowd instances).
    Storage,
    /// Uniform buffers.
    Uniforms,
    /// Anything else (copy-only buffers, indirect arguments).
    Other,
}

impl MemoryClass {
    /// Every class, in report order.
    pub const ALL: [MemoryClass; 6] = [
        Self::Meshes,
        Self::Textures,
        Self::RenderTargets,
        Self::Storage,
        Self::Uniforms,
        Self::Other,
    ];

    /// The class of a buffer with `usage`; `None` for read-back staging (`MAP_READ`).
    pub fn of_buffer(usage: wgpu::BufferUsages) -> Option<Self> {
        use wgpu::BufferUsages as U;
        if usage.contains(U::MAP_READ) {
            None
        } else if usage.intersects(U::VERTEX | U::INDEX) {
            Some(Self::Meshes)
        } else if usage.contains(U::STORAGE) {
            Some(Self::Storage)
        } else if usage.contains(U::UNIFORM) {
            Some(Self::Uniforms)
        } else {
            Some(Self::Other)
        }
    }

    /// The class of a texture with `usage`.
    pub fn of_texture(usage: wgpu::TextureUsages) -> Self {
        if usage.contains(wgpu::TextureUsages::RENDER_ATTACHMENT) {
            Self::RenderTargets
        } else {
            Self::Textures
        }
    }

    /// The class's name in reports (`stats.json`): `meshes`, `textures`, `render_targets`,
    /// `storage`, `uniforms`, `other`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Meshes => "meshes",
            Self::Textures => "textures",
            Self::RenderTargets => "render_targets",
            Self::Storage => "storage",
            Self::Uniforms => "uniforms",
            Self::Other => "other",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Bytes of a texture: texel blocks of every mip level × layers × samples. Depth formats
/// without a copyable size (`Depth24Plus…`) count 4 bytes per texel.
pub fn texture_bytes(
    size: wgpu::Extent3d,
    format: wgpu::TextureFormat,
    mip_level_count: u32,
    sample_count: u32,
) -> u64 {
    let block = u64::from(
        format
            .block_copy_size(None)
            .or_else(|| format.block_copy_size(Some(wgpu::TextureAspect::DepthOnly)))
            .unwrap_or(4),
    );
    let (bw, bh) = format.block_dimensions();
    let texels: u64 = (0..mip_level_count)
        .map(|level| {
            let w = (size.width >> level).max(1).div_ceil(bw);
            let h = (size.height >> level).max(1).div_ceil(bh);
            u64::from(w) * u64::from(h)
        })
        .sum();
    texels * block * u64::from(size.depth_or_array_layers) * u64::from(sample_count.max(1))
}

/// Live bytes per [`MemoryClass`], shared by a context and the [`MemoryRelease`] guards.
#[derive(Debug, Default)]
pub struct MemoryLedger {
    bytes: [AtomicU64; 6],
}

impl MemoryLedger {
    /// Adds `bytes` to `class`.
    pub fn add(&self, class: MemoryClass, bytes: u64) {
        self.bytes[class.index()].fetch_add(bytes, Ordering::Relaxed);
    }

    /// Takes `bytes` from `class` (never below 0).
    pub fn release(&self, class: MemoryClass, bytes: u64) {
        let cell = &self.bytes[class.index()];
        let _ = cell.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| {
            Some(b.saturating_sub(bytes))
        });
    }

    /// Bytes now held in `class`.
    pub fn bytes(&self, class: MemoryClass) -> u64 {
        self.bytes[class.index()].load(Ordering::Relaxed)
    }
}

/// Hands a texture's bytes back to the ledger when dropped: owners of resources that are
/// replaced during a run (render targets on resize) keep one beside each texture.
#[derive(Debug)]
pub struct MemoryRelease {
    ledger: Arc<MemoryLedger>,
    class: MemoryClass,
    bytes: u64,
}

impl MemoryRelease {
    /// A guard for `bytes` of `class` counted in `ledger`.
    pub fn new(ledger: Arc<MemoryLedger>, class: MemoryClass, bytes: u64) -> Self {
        Self {
            ledger,
            class,
            bytes,
        }
    }

    /// A guard for `texture`, counted in `ledger`.
    pub fn for_texture(ledger: Arc<MemoryLedger>, texture: &wgpu::Texture) -> Self {
        let bytes = texture_bytes(
            texture.size(),
            texture.format(),
            texture.mip_level_count(),
            texture.sample_count(),
        );
        Self::new(ledger, MemoryClass::of_texture(texture.usage()), bytes)
    }
}

impl Drop for MemoryRelease {
    fn drop(&mut self) {
        self.ledger.release(self.class, self.bytes);
    }
}

/// A snapshot of the GPU memory a context created, bytes per class.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GpuMemory {
    /// Vertex and index buffers.
    pub meshes: u64,
    /// Sampled, non-render-target textures.
    pub textures: u64,
    /// Render targets.
    pub render_targets: u64,
    /// Storage buffers.
    pub storage: u64,
    /// Uniform buffers.
    pub uniforms: u64,
    /// Other buffers.
    pub other: u64,
    /// Sum of the classes.
    pub total: u64,
    /// wgpu's allocator report of the bytes allocated (its sub-allocator's view: padding and
    /// alignment included), where the backend gives one (`None` otherwise).
    pub wgpu_allocated: Option<u64>,
}

impl GpuMemory {
    /// The ledger's bytes, plus wgpu's report when `device` gives one.
    pub fn of(ledger: &MemoryLedger, device: &wgpu::Device) -> Self {
        let get = |c| ledger.bytes(c);
        let mut m = Self {
            meshes: get(MemoryClass::Meshes),
            textures: get(MemoryClass::Textures),
            render_targets: get(MemoryClass::RenderTargets),
            storage: get(MemoryClass::Storage),
            uniforms: get(MemoryClass::Uniforms),
            other: get(MemoryClass::Other),
            total: 0,
            wgpu_allocated: device
                .generate_allocator_report()
                .map(|r| r.total_allocated_bytes),
        };
        m.total = MemoryClass::ALL.iter().map(|&c| get(c)).sum();
        m
    }

    /// Bytes of `class`.
    pub fn class(&self, class: MemoryClass) -> u64 {
        match class {
            MemoryClass::Meshes => self.meshes,
            MemoryClass::Textures => self.textures,
            MemoryClass::RenderTargets => self.render_targets,
            MemoryClass::Storage => self.storage,
            MemoryClass::Uniforms => self.uniforms,
            MemoryClass::Other => self.other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mipmapped_texture_counts_each_level_and_a_multisampled_one_each_sample() {
        let size = wgpu::Extent3d {
            width: 8,
            height: 4,
            depth_or_array_layers: 1,
        };
        let rgba = wgpu::TextureFormat::Rgba8Unorm;
        // 8x4 + 4x2 + 2x1 + 1x1 texels, 4 bytes each.
        assert_eq!(texture_bytes(size, rgba, 4, 1), (32 + 8 + 2 + 1) * 4);
        assert_eq!(
            texture_bytes(size, wgpu::TextureFormat::Rgba16Float, 1, 4),
            32 * 8 * 4
        );
        // Block-compressed: 4x4 blocks of 16 bytes.
        assert_eq!(
            texture_bytes(size, wgpu::TextureFormat::Bc7RgbaUnorm, 1, 1),
            2 * 16
        );
        assert_eq!(
            texture_bytes(size, wgpu::TextureFormat::Depth24Plus, 1, 1),
            32 * 4
        );
    }

    #[test]
    fn released_bytes_leave_the_class_and_never_go_below_zero() {
        let ledger = MemoryLedger::default();
        ledger.add(MemoryClass::RenderTargets, 100);
        ledger.release(MemoryClass::RenderTargets, 60);
        assert_eq!(ledger.bytes(MemoryClass::RenderTargets), 40);
        ledger.release(MemoryClass::RenderTargets, 60);
        assert_eq!(ledger.bytes(MemoryClass::RenderTargets), 0);
        assert_eq!(
            MemoryClass::of_buffer(wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST),
            None
        );
        assert_eq!(
            MemoryClass::of_buffer(wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::STORAGE),
            Some(MemoryClass::Meshes)
        );
    }
}
