//! What a run does when the GPU device is lost (issue #44; `docs/faults.md`, "Device loss"):
//! headless runs and the window alike stop at the frame that notices it and end with
//! [`sierra_render::RenderError::DeviceLost`], which `sierra` prints as `error: GPU device lost
//! while …` and exits with [`EXIT_DEVICE_LOST`]. Nothing is re-created: the frames (and other
//! files) written before the loss are complete, and nothing later is written.
//!
//! The hidden `--test-lose-device-at-frame N` option ([`inject`]) destroys the device before
//! frame N so the tests can show it (`crates/sierra/tests/device_loss.rs`).

use sierra_render::GpuContext;

/// Exit status of `sierra` when the GPU device was lost (1 is any other error, 2 a usage error):
/// a supervisor can tell "run again, the GPU went away" from "the input is wrong".
pub const EXIT_DEVICE_LOST: u8 = 3;

/// `--test-lose-device-at-frame`: destroys `ctx`'s device before `frame` with
/// `wgpu::Device::destroy` (the closest wgpu offers to a driver losing it) and says so on
/// stderr. Nothing else: wgpu marks the device invalid at once but reports the loss only at the
/// next poll, so the frame finds the loss as it would find a real one (its read-back's poll,
/// the window's failed surface acquire) and ends the run.
pub fn inject(ctx: &GpuContext, frame: u64) {
    ctx.device.destroy();
    eprintln!("test-lose-device: destroyed the GPU device before frame {frame}");
}

/// Whether `error` (or one of its causes) is a lost GPU device.
pub fn is_device_lost(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<sierra_render::RenderError>()
            .is_some_and(sierra_render::RenderError::is_device_lost)
    })
}
