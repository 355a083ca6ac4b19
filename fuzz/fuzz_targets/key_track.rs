//! Window key tracks (`sierra demo --input TRACK.json`): parsing, then replaying every event.
//! `sierra::key_track` is compiled from its source file (see Cargo.toml).
#![no_main]

#[path = "../../crates/sierra/src/key_track.rs"]
#[allow(dead_code)]
mod key_track;

use key_track::KeyTrack;

/// `key_track.rs` reads track files through the binary's `crate::read_user_text`; this target
/// parses bytes only, so it reads no file.
#[allow(dead_code)]
fn read_user_text(_path: &std::path::Path) -> std::io::Result<String> {
    Err(std::io::Error::other("the fuzz target reads no files"))
}
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(mut track) = KeyTrack::from_json_str(text, std::path::Path::new("fuzz.json")) {
        // Events come out in tick order, each once.
        let mut taken = 0;
        let mut last = 0;
        for tick in 0..10_000u64 {
            for event in track.take_due(tick) {
                assert!(event.tick >= last, "events out of order");
                last = event.tick;
                taken += 1;
            }
            if track.finished() {
                break;
            }
        }
        assert!(taken <= track.events.len());
    }
});
