//! Radiance `.hdr` environment images (`sierra_content::radiance`, compiled from its source
//! file; see Cargo.toml): any bytes decode or give an error, never a panic, and a decoded image
//! holds exactly width × height × 4 finite values.
#![no_main]

#[path = "../../crates/sierra_content/src/radiance.rs"]
mod radiance;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(image) = radiance::decode_radiance(data, 4096, 1 << 28) {
        let texels = image.width as usize * image.height as usize;
        assert_eq!(image.rgba.len(), texels * 4);
        assert!(image.rgba.iter().all(|v| v.is_finite()));
    }
});
