//! The `sierra noise` stdin reader (`sierra::cli::noise_points`, compiled from its source file;
//! see Cargo.toml): points, 1-3 numbers a line. The first byte picks the dimension count; the
//! rest is the input.
#![no_main]

#[path = "../../crates/sierra/src/cli/limits.rs"]
#[allow(dead_code)]
mod limits;
#[path = "../../crates/sierra/src/cli/noise_points.rs"]
mod noise_points;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let dims = usize::from(first % 3) + 1;
    match noise_points::parse_points(rest, dims) {
        Ok(points) => assert!(points.iter().flatten().all(|v| v.is_finite())),
        // Messages quote the input: they must stay short whatever the line length.
        Err(error) => {
            let message = format!("{error:#}");
            assert!(message.len() < 4096, "message of {} bytes", message.len());
        }
    }
});
