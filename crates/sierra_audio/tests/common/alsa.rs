//! Pointing ALSA at a configuration of the test's own, so that a test of the sound output
//! gives the same result on machines with and without a sound card.

use std::path::Path;

/// Writes `dir/asound.conf`, which includes ALSA's own configuration and sets the default PCM
/// device to `pcm` and the default control device to `ctl` (ALSA configuration syntax, e.g.
/// `{ type null }`), and points `ALSA_CONFIG_PATH` at it.
///
/// Call it before any thread of the test binary touches ALSA or the environment: it sets a
/// process-wide variable, so such a test needs a test binary of its own.
pub fn use_alsa_config(dir: &Path, pcm: &str, ctl: &str) {
    let config = dir.join("asound.conf");
    std::fs::write(
        &config,
        format!("</usr/share/alsa/alsa.conf>\npcm.!default {pcm}\nctl.!default {ctl}\n"),
    )
    .unwrap();
    std::env::set_var("ALSA_CONFIG_PATH", &config);
}
