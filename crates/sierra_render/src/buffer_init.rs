//! Creating a buffer with its contents without wgpu's panic on a lost device: a leaf module
//! (wgpu only) that [`crate::context`] and [`crate::gpu_util`] both call.

/// `wgpu::util::DeviceExt::create_buffer_init` (the same padded size, mapped at creation,
/// filled, unmapped) without its panic: on a lost device the new buffer is invalid and cannot
/// be mapped, which wgpu's version `expect`s. Returns the buffer and, when it could not be
/// filled, wgpu's message (the buffer is then invalid, like everything created on a lost
/// device: see [`crate::device_loss`]).
pub fn create_buffer_init(
    device: &wgpu::Device,
    desc: &wgpu::util::BufferInitDescriptor<'_>,
) -> (wgpu::Buffer, Option<String>) {
    let unpadded = desc.contents.len() as wgpu::BufferAddress;
    if unpadded == 0 {
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: desc.label,
            size: 0,
            usage: desc.usage,
            mapped_at_creation: false,
        });
        return (buffer, None);
    }
    let align_mask = wgpu::COPY_BUFFER_ALIGNMENT - 1;
    let padded = ((unpadded + align_mask) & !align_mask).max(wgpu::COPY_BUFFER_ALIGNMENT);
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: desc.label,
        size: padded,
        usage: desc.usage,
        mapped_at_creation: true,
    });
    let failed = match buffer.get_mapped_range_mut(..) {
        Ok(mut view) => {
            view.slice(..unpadded as usize)
                .copy_from_slice(desc.contents);
            None
        }
        Err(e) => Some(e.to_string()),
    };
    if failed.is_none() {
        buffer.unmap();
    }
    (buffer, failed)
}
