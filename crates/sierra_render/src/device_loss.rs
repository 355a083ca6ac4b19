//! Device loss (issue #44): what wgpu reported through its device-lost callback, and the one
//! guarded way to poll the device.
//!
//! wgpu reports a lost device (driver reset, GPU removed, `Device::destroy`) once, through the
//! callback [`LossFlag::install`] sets, and afterwards reports the errors of every call on the
//! device as *device-lost* errors that reach no error scope and no uncaptured-error handler
//! (they are "surfaced via the callback"). Resources created after the loss are invalid, and
//! some wgpu calls panic on them (`DeviceExt::create_buffer_init` expects a mapping it cannot
//! get; `Device::poll` panics on a device error from the driver). So the renderer does not call
//! into wgpu once the flag is set: [`crate::GpuContext::check_device`] at the start of every
//! frame and in every `GpuContext` helper turns it into [`RenderError::DeviceLost`].
//!
//! Sierra does not re-create the device: see `docs/faults.md` ("Device loss").

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, Once, PoisonError};
use std::time::Duration;

use crate::error::{RenderError, Result};

/// What wgpu said when it lost the device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceLoss {
    /// wgpu's reason: `Destroyed` after `Device::destroy`, `Unknown` otherwise.
    pub reason: wgpu::DeviceLostReason,
    /// wgpu's message (empty after `Device::destroy`).
    pub message: String,
}

impl DeviceLoss {
    /// The reason in words, with wgpu's message when it gave one.
    pub fn describe(&self) -> String {
        let reason = match self.reason {
            wgpu::DeviceLostReason::Destroyed => "the device was destroyed",
            wgpu::DeviceLostReason::Unknown => "the driver lost it",
        };
        if self.message.is_empty() {
            reason.to_owned()
        } else {
            format!("{reason}: {}", self.message)
        }
    }

    /// The error for an operation (`doing`, e.g. "rendering a frame") refused after this loss.
    pub fn error(&self, doing: &str) -> RenderError {
        RenderError::DeviceLost {
            context: doing.to_owned(),
            reason: self.describe(),
        }
    }
}

/// The loss wgpu reported for one device, if any: set once by the device-lost callback (on
/// whichever thread wgpu runs it), read before every use of the device.
#[derive(Clone, Debug, Default)]
pub struct LossFlag(Arc<Mutex<Option<DeviceLoss>>>);

impl LossFlag {
    /// A flag that `device`'s device-lost callback sets.
    pub fn install(device: &wgpu::Device) -> Self {
        let flag = Self::default();
        let sink = flag.clone();
        device.set_device_lost_callback(move |reason, message| {
            let loss = DeviceLoss { reason, message };
            log::warn!("wgpu reported the GPU device lost: {}", loss.describe());
            sink.set(loss);
        });
        flag
    }

    /// Records `loss` unless a loss was recorded already (the first one stays).
    pub fn set(&self, loss: DeviceLoss) {
        let mut slot = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        slot.get_or_insert(loss);
    }

    /// The recorded loss, if any.
    pub fn get(&self) -> Option<DeviceLoss> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// `Err(RenderError::DeviceLost)` naming `doing` once a loss was recorded.
    ///
    /// # Errors
    /// [`RenderError::DeviceLost`].
    pub fn check(&self, doing: &str) -> Result<()> {
        match self.get() {
            Some(loss) => Err(loss.error(doing)),
            None => Ok(()),
        }
    }
}

/// Longest single wait of [`poll`]: waits for the GPU are made of waits this long, with the
/// loss flag checked between them, so a wait ends within this time of a loss being reported.
pub const WAIT_SLICE: Duration = Duration::from_millis(100);

/// One `Device::poll`: without blocking when `wait` is `None`, else blocking at most `wait`.
/// Returns whether the queue was empty (or the waited-for work finished). A lost device is
/// checked before and after (the poll may run the device-lost callback); a panic inside wgpu's
/// poll (wgpu 30 panics on a device error reported by the driver, which is how a real loss
/// shows there) is caught, kept off stderr and returned as [`RenderError::DeviceLost`].
///
/// # Errors
/// [`RenderError::DeviceLost`]; [`RenderError::Gpu`] for other poll errors.
pub fn poll(
    device: &wgpu::Device,
    lost: &LossFlag,
    doing: &str,
    wait: Option<Duration>,
) -> Result<bool> {
    lost.check(doing)?;
    let poll_type = match wait {
        Some(timeout) => wgpu::PollType::Wait {
            submission_index: None,
            timeout: Some(timeout),
        },
        None => wgpu::PollType::Poll,
    };
    let result = quietly(|| device.poll(poll_type));
    lost.check(doing)?;
    match result {
        Ok(Ok(status)) => Ok(!matches!(status, wgpu::PollStatus::Poll)),
        Ok(Err(wgpu::PollError::Timeout)) => Ok(false),
        Ok(Err(e)) => Err(RenderError::Gpu {
            context: doing.to_owned(),
            message: e.to_string(),
        }),
        Err(message) => {
            let loss = DeviceLoss {
                reason: wgpu::DeviceLostReason::Unknown,
                message,
            };
            lost.set(loss.clone());
            Err(loss.error(doing))
        }
    }
}

/// Waits until `ready` gives a value, polling the device in waits of [`WAIT_SLICE`]: never a
/// busy loop, and it ends within a slice of a loss. With work that never finishes on a device
/// that is not lost it waits on (a slow GPU is not a lost one).
///
/// # Errors
/// As [`poll`].
pub fn wait_until<T>(
    device: &wgpu::Device,
    lost: &LossFlag,
    doing: &str,
    mut ready: impl FnMut() -> Option<T>,
) -> Result<T> {
    // Polls that found the queue empty and `ready` still without a value: callbacks run at the
    // end of a poll, so a few are allowed before the result is declared missing.
    let mut idle_polls = 0;
    loop {
        if let Some(value) = ready() {
            return Ok(value);
        }
        if poll(device, lost, doing, Some(WAIT_SLICE))? {
            idle_polls += 1;
            if idle_polls > 3 {
                return ready().ok_or_else(|| {
                    RenderError::Readback(format!(
                        "{doing}: the GPU finished but the result never arrived"
                    ))
                });
            }
        }
    }
}

thread_local! {
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f`, turning a panic into its message; while `f` runs on this thread the panic hook
/// (installed once, chaining the previous one) prints nothing for it.
fn quietly<T>(f: impl FnOnce() -> T) -> std::result::Result<T, String> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(std::cell::Cell::get) {
                previous(info);
            }
        }));
    });
    QUIET.with(|q| q.set(true));
    let result = catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(false));
    result.map_err(|payload| {
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_else(|| "wgpu panicked while polling the device".to_owned())
    })
}
