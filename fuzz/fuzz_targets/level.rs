//! Level JSON: parsing and validation (names, parents, cycles, components), as `sierra render`
//! and `inspect` load it. The asset root is an empty folder name, so mesh files are never found.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sierra_scene::level::Level;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = Level::from_json_str(text, "/nonexistent-fuzz/level.json", "/nonexistent-fuzz");
    }
});
