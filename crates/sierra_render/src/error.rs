//! The crate's one error type.

use thiserror::Error;

/// Everything that can go wrong in `sierra_render`.
///
/// wgpu validation errors never panic here: they are caught by error scopes
/// around resource creation, or by the uncaptured-error handler that
/// [`crate::GpuContext`] installs, and come back as [`RenderError::Gpu`].
#[derive(Debug, Error)]
pub enum RenderError {
    /// No adapter matched the request (no GPU and no software driver, or a
    /// `WGPU_ADAPTER_NAME` / `WGPU_BACKEND` filter that nothing matches).
    #[error(
        "no usable GPU adapter ({reason}). On Linux without a GPU install Mesa's software \
         Vulkan driver: `sudo apt-get install -y mesa-vulkan-drivers libvulkan1` (or run \
         `scripts/setup.sh`); check WGPU_BACKEND / WGPU_ADAPTER_NAME if they are set"
    )]
    NoAdapter {
        /// What was asked for and what was found.
        reason: String,
    },
    /// The adapter refused to create a device.
    #[error("could not create a GPU device on adapter `{adapter}`: {source}")]
    RequestDevice {
        /// Adapter name.
        adapter: String,
        /// wgpu's error.
        #[source]
        source: wgpu::RequestDeviceError,
    },
    /// A window surface could not be created or configured.
    #[error("window surface: {0}")]
    Surface(String),
    /// A wgpu validation or out-of-memory error, with what was being done.
    #[error("GPU error while {context}: {message}")]
    Gpu {
        /// What the renderer was doing (e.g. "creating texture `hdr` 640x480").
        context: String,
        /// wgpu's message.
        message: String,
    },
    /// A requested resource is larger than the device allows (`device.limits()`).
    #[error("{what} is {requested}, above the device limit {limit} ({limit_name})")]
    LimitExceeded {
        /// The resource (e.g. "render target width").
        what: String,
        /// The requested size.
        requested: u64,
        /// The device's limit.
        limit: u64,
        /// Name of the `wgpu::Limits` field.
        limit_name: &'static str,
    },
    /// A size, count or index that cannot be rendered (zero-sized target, index out of range...).
    #[error("invalid input: {0}")]
    InvalidInput(String),
    /// An optional feature this adapter does not have (e.g. wireframe without
    /// `POLYGON_MODE_LINE`, a sample count its formats do not support).
    #[error("not supported by this adapter: {0}")]
    Unsupported(String),
    /// Mapping a buffer for read-back failed.
    #[error("read-back failed: {0}")]
    Readback(String),
    /// The GPU device was lost (driver reset, GPU removed, out of GPU memory, or
    /// `Device::destroy`): wgpu reported it through its device-lost callback
    /// ([`crate::device_loss`]). Nothing more is submitted on that device and Sierra does
    /// not re-create it; the `sierra` command exits with status 3 (`docs/faults.md`).
    #[error("GPU device lost while {context} ({reason}); Sierra does not re-create the device, so the run ends here (files written before the loss are complete)")]
    DeviceLost {
        /// What the renderer was doing when the loss was noticed (e.g. "rendering a frame").
        context: String,
        /// wgpu's reason and message ([`crate::device_loss::DeviceLoss::describe`]).
        reason: String,
    },
}

impl RenderError {
    /// Whether this is [`RenderError::DeviceLost`].
    pub fn is_device_lost(&self) -> bool {
        matches!(self, Self::DeviceLost { .. })
    }
}

/// Result alias of this crate.
pub type Result<T, E = RenderError> = std::result::Result<T, E>;
