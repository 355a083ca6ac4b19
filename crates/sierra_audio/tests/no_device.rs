//! With no usable sound device the engine runs silently, says so once, and never panics.
//! Its own test binary: it points ALSA at a configuration whose default device does not exist,
//! so the result is the same on machines that do have a sound card.

#[path = "common/alsa.rs"]
mod alsa;

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use alsa::use_alsa_config;
use glam::Vec3;
use sierra_audio::{
    AudioEngine, AudioLoop, AudioOptions, AudioStatus, Builtin, Listener, SoundSource,
};

static WARNINGS: AtomicUsize = AtomicUsize::new(0);

struct CountWarnings;

impl log::Log for CountWarnings {
    fn enabled(&self, m: &log::Metadata) -> bool {
        m.level() <= log::Level::Warn
    }
    fn log(&self, r: &log::Record) {
        if r.level() <= log::Level::Warn && r.target().starts_with("sierra_audio") {
            WARNINGS.fetch_add(1, Ordering::SeqCst);
        }
    }
    fn flush(&self) {}
}

#[test]
fn no_sound_device_falls_back_to_silence_and_says_so_once() {
    let dir = tempfile::tempdir().unwrap();
    // Safe: set before any thread of this test binary touches ALSA or the environment.
    use_alsa_config(dir.path(), "{ type hw card 99 }", "{ type hw card 99 }");
    log::set_logger(&CountWarnings).unwrap();
    log::set_max_level(log::LevelFilter::Warn);

    let mut engine = AudioEngine::new(AudioOptions::default());
    let AudioStatus::Silent { reason } = engine.status().clone() else {
        panic!("expected silent fallback, got {:?}", engine.status());
    };
    assert!(!reason.is_empty());
    assert!(engine.status().to_string().contains("silently"));

    let gulls = AudioLoop::spatial(SoundSource::Builtin(Builtin::Gulls));
    let loops = [
        (
            AudioLoop::ambient(SoundSource::Builtin(Builtin::Surf)),
            Vec3::ZERO,
        ),
        (gulls, Vec3::new(5.0, 2.0, -3.0)),
    ];
    engine
        .start_level(&loops, Path::new("."), &Listener::default())
        .unwrap();
    for x in 0..10 {
        let listener = Listener {
            position: Vec3::new(x as f32, 0.0, 0.0),
            ..Listener::default()
        };
        engine.set_listener(&listener);
    }
    assert_eq!(engine.loop_count(), 2);
    engine.stop_all();
    assert_eq!(
        WARNINGS.load(Ordering::SeqCst),
        1,
        "the fallback is reported exactly once"
    );
}
