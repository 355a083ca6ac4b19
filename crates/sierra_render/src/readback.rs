//! Read-back of GPU buffers and textures to the CPU.
//!
//! Texture rows are copied into a buffer with `bytes_per_row` padded up to
//! `wgpu::COPY_BYTES_PER_ROW_ALIGNMENT` (256 bytes), as WebGPU requires
//! (spec §"GPUImageCopyBuffer"), and the padding is stripped here, so any
//! width (e.g. 37 pixels = 148 bytes per row) comes back without skew.

use crate::context::GpuContext;
use crate::error::{RenderError, Result};

/// Copies `source` (which must have `COPY_SRC` usage, or `MAP_READ`) to the CPU.
///
/// Returns all `source.size()` bytes. Blocks until the GPU has finished.
///
/// # Errors
/// [`RenderError::InvalidInput`] when the buffer lacks `COPY_SRC`/`MAP_READ`,
/// [`RenderError::Readback`] when mapping fails, [`RenderError::Gpu`] on validation errors,
/// [`RenderError::DeviceLost`] when the device is (or gets) lost.
pub fn read_buffer(ctx: &GpuContext, source: &wgpu::Buffer) -> Result<Vec<u8>> {
    if source.usage().contains(wgpu::BufferUsages::MAP_READ) {
        return map_and_copy(ctx, source, |bytes| bytes.to_vec());
    }
    if !source.usage().contains(wgpu::BufferUsages::COPY_SRC) {
        return Err(RenderError::InvalidInput(format!(
            "read_buffer needs a buffer with COPY_SRC or MAP_READ usage, got {:?}",
            source.usage()
        )));
    }
    let staging = ctx.create_buffer(&wgpu::BufferDescriptor {
        label: Some("read_buffer staging"),
        size: source.size(),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })?;
    ctx.scoped(
        || "copying a buffer for read-back".to_owned(),
        || {
            let mut encoder = ctx
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some("read_buffer"),
                });
            encoder.copy_buffer_to_buffer(source, 0, &staging, 0, source.size());
            ctx.queue.submit([encoder.finish()]);
        },
    )?;
    map_and_copy(ctx, &staging, |bytes| bytes.to_vec())
}

/// `bytes_per_row` of a texture copy: `unpadded` rounded up to `COPY_BYTES_PER_ROW_ALIGNMENT`.
pub fn padded_bytes_per_row(unpadded: u32) -> u32 {
    let align = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    unpadded.div_ceil(align) * align
}

/// Copies mip 0, layer 0 of a 2D texture (with `COPY_SRC` usage, an uncompressed
/// colour format) to the CPU as tightly packed rows, top row first:
/// `[height][width * bytes_per_texel]` bytes.
///
/// # Errors
/// [`RenderError::InvalidInput`] for formats without a fixed texel size or
/// textures without `COPY_SRC`; [`RenderError::Readback`]; [`RenderError::Gpu`].
pub fn read_texture(ctx: &GpuContext, texture: &wgpu::Texture) -> Result<Vec<u8>> {
    let copy = TextureCopy::submit(ctx, texture)?;
    map_and_copy(ctx, &copy.staging, |bytes| copy.tighten(bytes))
}

/// A texture's mip 0 copied into a `MAP_READ` buffer with padded rows, submitted.
struct TextureCopy {
    staging: wgpu::Buffer,
    /// Bytes per row in the buffer (a multiple of 256).
    padded: u32,
    /// Bytes per row of the texture.
    unpadded: u32,
    height: u32,
}

impl TextureCopy {
    /// Checks `texture` (fixed texel size, `COPY_SRC`) and submits its copy.
    fn submit(ctx: &GpuContext, texture: &wgpu::Texture) -> Result<Self> {
        let format = texture.format();
        let texel_bytes = format
            .block_copy_size(None)
            .filter(|_| format.block_dimensions() == (1, 1));
        let Some(texel_bytes) = texel_bytes else {
            return Err(RenderError::InvalidInput(format!(
                "read_texture cannot read format {format:?}"
            )));
        };
        if !texture.usage().contains(wgpu::TextureUsages::COPY_SRC) {
            return Err(RenderError::InvalidInput(format!(
                "read_texture needs COPY_SRC usage, got {:?}",
                texture.usage()
            )));
        }
        let (width, height) = (texture.width(), texture.height());
        let unpadded = width * texel_bytes;
        let padded = padded_bytes_per_row(unpadded);
        let staging = ctx.create_buffer(&wgpu::BufferDescriptor {
            label: Some("read_texture staging"),
            size: u64::from(padded) * u64::from(height),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })?;
        ctx.scoped(
            || format!("copying a {width}x{height} {format:?} texture for read-back"),
            || {
                let mut encoder =
                    ctx.device
                        .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                            label: Some("read_texture"),
                        });
                encoder.copy_texture_to_buffer(
                    texture.as_image_copy(),
                    wgpu::TexelCopyBufferInfo {
                        buffer: &staging,
                        layout: wgpu::TexelCopyBufferLayout {
                            offset: 0,
                            bytes_per_row: Some(padded),
                            rows_per_image: Some(height),
                        },
                    },
                    wgpu::Extent3d {
                        width,
                        height,
                        depth_or_array_layers: 1,
                    },
                );
                ctx.queue.submit([encoder.finish()]);
            },
        )?;
        Ok(Self {
            staging,
            padded,
            unpadded,
            height,
        })
    }

    /// The mapped rows without their padding: `[height][unpadded]` bytes.
    fn tighten(&self, bytes: &[u8]) -> Vec<u8> {
        let mut tight = Vec::with_capacity((self.unpadded * self.height) as usize);
        for row in bytes.chunks_exact(self.padded as usize) {
            tight.extend_from_slice(&row[..self.unpadded as usize]);
        }
        tight
    }
}

/// Reads an 8-bit RGBA or BGRA texture (`Rgba8Unorm[Srgb]`, `Bgra8Unorm[Srgb]`)
/// as an RGBA image. The bytes are the stored values: for `*Srgb` formats they
/// are sRGB-encoded, as a PNG expects.
///
/// # Errors
/// [`RenderError::InvalidInput`] for other formats, else as [`read_texture`].
pub fn read_texture_rgba(ctx: &GpuContext, texture: &wgpu::Texture) -> Result<image::RgbaImage> {
    let swap_red_blue = rgba_swap(texture)?;
    into_rgba(texture, read_texture(ctx, texture)?, swap_red_blue)
}

/// [`read_texture_rgba`] without blocking: the web build's read-back (wasm32), where the
/// mapping's answer arrives only after control returns to the browser, so it is awaited. The
/// same copy and row handling as the blocking read; natively it is the blocking read.
///
/// # Errors
/// As [`read_texture_rgba`].
pub async fn read_texture_rgba_async(
    ctx: &GpuContext,
    texture: &wgpu::Texture,
) -> Result<image::RgbaImage> {
    #[cfg(not(target_arch = "wasm32"))]
    let image = read_texture_rgba(ctx, texture);
    #[cfg(target_arch = "wasm32")]
    let image = {
        let swap_red_blue = rgba_swap(texture)?;
        let copy = TextureCopy::submit(ctx, texture)?;
        let bytes = map_async(ctx, &copy.staging, |bytes| copy.tighten(bytes)).await?;
        into_rgba(texture, bytes, swap_red_blue)
    };
    image
}

/// Whether `texture`'s format stores blue first (`Bgra8*`); an error for non-8-bit-RGBA formats.
fn rgba_swap(texture: &wgpu::Texture) -> Result<bool> {
    use wgpu::TextureFormat as F;
    match texture.format() {
        F::Rgba8Unorm | F::Rgba8UnormSrgb => Ok(false),
        F::Bgra8Unorm | F::Bgra8UnormSrgb => Ok(true),
        other => Err(RenderError::InvalidInput(format!(
            "read_texture_rgba needs an 8-bit RGBA/BGRA texture, got {other:?}"
        ))),
    }
}

/// Tight texel `bytes` of `texture` as an RGBA image (red and blue swapped back for BGRA).
fn into_rgba(
    texture: &wgpu::Texture,
    mut bytes: Vec<u8>,
    swap_red_blue: bool,
) -> Result<image::RgbaImage> {
    if swap_red_blue {
        for texel in bytes.chunks_exact_mut(4) {
            texel.swap(0, 2);
        }
    }
    image::RgbaImage::from_raw(texture.width(), texture.height(), bytes)
        .ok_or_else(|| RenderError::Readback("texture size does not match its bytes".to_owned()))
}

/// Maps a `MAP_READ` buffer and awaits the mapping (the web's read-back: the browser runs the
/// callback from its event loop), then hands its bytes to `read`.
#[cfg(target_arch = "wasm32")]
async fn map_async<T>(
    ctx: &GpuContext,
    buffer: &wgpu::Buffer,
    read: impl FnOnce(&[u8]) -> T,
) -> Result<T> {
    const DOING: &str = "reading back from the GPU";
    ctx.check_device(DOING)?;
    let slice = buffer.slice(..);
    let (sender, receiver) = futures_channel::oneshot::channel();
    slice.map_async(wgpu::MapMode::Read, move |result| {
        let _ = sender.send(result);
    });
    receiver
        .await
        .map_err(|_| RenderError::Readback("map callback never ran".to_owned()))?
        .map_err(|e| RenderError::Readback(format!("mapping the buffer: {e}")))?;
    ctx.check_device(DOING)?;
    read_mapped(ctx, buffer, read)
}

/// Maps a `MAP_READ` buffer, waits ([`GpuContext::wait_until`]: in bounded slices, ending with
/// [`RenderError::DeviceLost`] when the device is lost, never a hang), and hands its bytes to
/// `read`.
fn map_and_copy<T>(
    ctx: &GpuContext,
    buffer: &wgpu::Buffer,
    read: impl FnOnce(&[u8]) -> T,
) -> Result<T> {
    const DOING: &str = "reading back from the GPU";
    ctx.check_device(DOING)?;
    let slice = buffer.slice(..);
    let (sender, receiver) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |result| {
        // The receiver outlives the wait below; a failed send only means it was dropped.
        let _ = sender.send(result);
    });
    let mapped = ctx.wait_until(DOING, || match receiver.try_recv() {
        Ok(result) => Some(Ok(result)),
        Err(std::sync::mpsc::TryRecvError::Empty) => None,
        Err(std::sync::mpsc::TryRecvError::Disconnected) => Some(Err(())),
    })?;
    // A mapping refused because the device went away is the loss, not a read-back error: the
    // poll lets wgpu report a loss it has not reported yet (after `Device::destroy` it does so
    // only at a poll).
    if !matches!(mapped, Ok(Ok(()))) {
        ctx.poll_device(DOING)?;
    }
    mapped
        .map_err(|()| RenderError::Readback("map callback never ran".to_owned()))?
        .map_err(|e| RenderError::Readback(format!("mapping the buffer: {e}")))?;
    read_mapped(ctx, buffer, read)
}

/// Hands the bytes of `buffer`, mapped for reading, to `read`, unmaps it and reports the GPU
/// errors raised meanwhile: the end both read-backs (blocking and asynchronous) share.
///
/// # Errors
/// [`RenderError::Readback`] when the mapped range is refused; GPU errors.
fn read_mapped<T>(
    ctx: &GpuContext,
    buffer: &wgpu::Buffer,
    read: impl FnOnce(&[u8]) -> T,
) -> Result<T> {
    let value = {
        let view = buffer
            .slice(..)
            .get_mapped_range()
            .map_err(|e| RenderError::Readback(format!("mapped range: {e}")))?;
        read(&view)
    };
    buffer.unmap();
    ctx.take_uncaptured_errors("reading back from the GPU")?;
    Ok(value)
}
