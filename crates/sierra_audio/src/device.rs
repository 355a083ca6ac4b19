//! Opening the default sound device.

use kira::{AudioManager, AudioManagerSettings, DefaultBackend};

/// Opens kira on the default output device, or says why not.
///
/// On Linux, alsa-lib prints its own diagnostics on stderr while probing a machine without a
/// sound card (about eight `ALSA lib …` lines). They are captured for this thread
/// (`alsa::Output::local_error_handler`) and logged at debug level instead, so the application
/// reports a missing device in one line of its own. The capture stays installed on this thread;
/// audio streaming runs on cpal's own thread and is not affected.
pub(crate) fn open_default() -> Result<AudioManager<DefaultBackend>, String> {
    #[cfg(target_os = "linux")]
    let alsa_messages = alsa::Output::local_error_handler().ok();
    let result = AudioManager::<DefaultBackend>::new(AudioManagerSettings::default())
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
