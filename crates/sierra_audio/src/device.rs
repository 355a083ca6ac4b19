//! Opening the default sound device.

use kira::{AudioManager, DefaultBackend};

/// Opens kira on the default output device, or says why not.
///
/// On Linux, alsa-lib prints its own diagnostics on stderr while probing a machine without a
/// sound card (about eight `ALSA lib …` lines). They are captured for this thread
/// (`alsa::Output::local_error_handler`) and logged at debug level instead, so the application
/// reports a missing device in one line of its own. The capture stays installed on this thread;
/// audio streaming runs on cpal's own thread and is not affected.
#[cfg(feature = "device")]
pub(crate) fn open_default() -> Result<AudioManager<DefaultBackend>, String> {
    #[cfg(target_os = "linux")]
    let alsa_messages = alsa::Output::local_error_handler().ok();
    let result = AudioManager::<DefaultBackend>::new(kira::AudioManagerSettings::default())
        .map_err(|e| e.to_string());
    #[cfg(target_os = "linux")]
    if let (Err(_), Some(messages)) = (&result, alsa_messages) {
        log::debug!(
            "alsa-lib while opening the default device:\n{}",
            messages.borrow()
        );
    }
    result
}

/// Without the `device` feature there is no sound-device backend (kira's `DefaultBackend` is
/// then its mock, which would play nothing while claiming to): always the reason to run silently.
#[cfg(not(feature = "device"))]
pub(crate) fn open_default() -> Result<AudioManager<DefaultBackend>, String> {
    Err(
        "built without sound-device support (the `device` feature of sierra_audio, \
         `audio-device` of sierra)"
            .to_owned(),
    )
}
