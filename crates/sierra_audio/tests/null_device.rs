//! A real output stream on ALSA's null device (PLATFORM.md): the engine opens the device,
//! plays the built-in loops through kira and follows the listener without panicking.
//! Its own test binary because it sets ALSA_CONFIG_PATH for the process.

#[path = "common/alsa.rs"]
mod alsa;

use std::path::Path;
use std::time::Duration;

use alsa::use_alsa_config;
use glam::Vec3;
use sierra_audio::{
    AudioEngine, AudioLoop, AudioOptions, AudioStatus, Builtin, Listener, SoundSource,
};

#[test]
fn plays_on_a_null_alsa_device() {
    let dir = tempfile::tempdir().unwrap();
    // Safe: set before any thread of this test binary touches ALSA or the environment.
    use_alsa_config(dir.path(), "{ type null }", "{ type hw card 0 }");

    let mut engine = AudioEngine::new(AudioOptions::default());
    assert_eq!(
        engine.status(),
        &AudioStatus::Playing,
        "{}",
        engine.status()
    );
    let gulls = AudioLoop::spatial(SoundSource::Builtin(Builtin::Gulls));
    let loops = [
        (
            AudioLoop::ambient(SoundSource::Builtin(Builtin::Surf)),
            Vec3::ZERO,
        ),
        (gulls, Vec3::new(20.0, 0.0, 0.0)),
    ];
    engine
        .start_level(&loops, Path::new("."), &Listener::default())
        .unwrap();
    for step in 0..5 {
        std::thread::sleep(Duration::from_millis(40));
        engine.set_listener(&Listener {
            position: Vec3::new(step as f32 * 5.0, 0.0, 0.0),
            ..Listener::default()
        });
    }
    engine.stop_all();
}
