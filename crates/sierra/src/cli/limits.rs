//! Upper bounds on counts given on the command line, so a typo such as
//! `--frames 18446744073709551615` is an error naming the limit, not an allocation of the whole
//! memory or a run that never ends. Each `parse_*` is a clap `value_parser`.

/// Most frames one run renders or measures (`--frames`): 30 minutes at 60 Hz.
pub const MAX_FRAMES: u64 = 100_000;

/// Most worker threads (`--threads`).
pub const MAX_THREADS: u64 = 1024;

/// Most characters in `bench anim` (`--characters`).
pub const MAX_CHARACTERS: u64 = 1_000_000;

/// Most crowd instances per size in `bench crowd` (`--instances`).
pub const MAX_INSTANCES: u64 = 1_000_000;

/// Most simulation steps (`water --steps`).
pub const MAX_STEPS: u64 = 1_000_000;

/// Most fixed ticks `inspect --ticks` advances (about 28 minutes at 60 Hz).
pub const MAX_TICKS: u64 = 100_000;

/// Widest or tallest image or window (`--size`), pixels: wgpu's default 2D texture limit.
pub const MAX_SIDE: u64 = 8192;

use sierra_assets::MAX_CROWD_INSTANCES_LIMIT;

/// `text` as an integer in `min..=max`; errors name `flag` and the limit.
///
/// # Errors
/// Not an integer, below `min`, or above `max`.
pub fn bounded(text: &str, flag: &str, min: u64, max: u64) -> Result<u64, String> {
    let value: i128 = text
        .trim()
        .parse()
        .map_err(|_| format!("{flag} `{}` is not an integer", shorten(text)))?;
    if value < i128::from(min) {
        return Err(format!("{flag} must be at least {min}, got {value}"));
    }
    if value > i128::from(max) {
        return Err(format!("{flag} {value} is over the limit of {max}"));
    }
    Ok(value as u64)
}

/// Defines clap `value_parser`s `fn(&str) -> Result<T, String>`, one a line:
/// `name(flag) -> T: min..=MAX`, each [`bounded`] and converted to `T` (lossless: every
/// `MAX` fits its `T`).
macro_rules! bounded_parsers {
    ($($(#[$doc:meta])* $name:ident($flag:literal) -> $ty:ty: $min:literal..=$max:ident;)*) => {$(
        $(#[$doc])*
        ///
        /// # Errors
        /// See [`bounded`].
        pub fn $name(text: &str) -> Result<$ty, String> {
            bounded(text, $flag, $min, $max).map(|v| v as $ty)
        }
    )*};
}

bounded_parsers! {
    /// `--frames`: 1..=[`MAX_FRAMES`].
    parse_frames("--frames") -> u32: 1..=MAX_FRAMES;
    /// `--threads`: 1..=[`MAX_THREADS`].
    parse_threads("--threads") -> usize: 1..=MAX_THREADS;
    /// `--characters`: 1..=[`MAX_CHARACTERS`].
    parse_characters("--characters") -> usize: 1..=MAX_CHARACTERS;
    /// One `--instances` value: 1..=[`MAX_INSTANCES`].
    parse_instances("--instances") -> u32: 1..=MAX_INSTANCES;
    /// `--steps`: 1..=[`MAX_STEPS`].
    parse_steps("--steps") -> u32: 1..=MAX_STEPS;
    /// `--ticks`: 0..=[`MAX_TICKS`].
    parse_ticks("--ticks") -> u32: 0..=MAX_TICKS;
    /// `--max-crowd-instances`: 1..=[`sierra_assets::MAX_CROWD_INSTANCES_LIMIT`].
    parse_crowd_instances("--max-crowd-instances") -> u64: 1..=MAX_CROWD_INSTANCES_LIMIT;
}

/// At most `max` characters of `text` (whole characters), with `…` when cut: user input
/// quoted in messages stays short whatever its length.
pub fn shorten_to(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => text.into(),
        Some((cut, _)) => format!("{}… ({} bytes in all)", &text[..cut], text.len()).into(),
    }
}

/// [`shorten_to`] 80 characters.
pub fn shorten(text: &str) -> std::borrow::Cow<'_, str> {
    shorten_to(text, 80)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_bounded_and_errors_name_the_limit() {
        assert_eq!(parse_frames("8"), Ok(8));
        assert_eq!(parse_frames("100000"), Ok(100_000));
        let over = parse_frames("18446744073709551615").unwrap_err();
        assert!(
            over.contains("--frames") && over.contains("100000"),
            "{over}"
        );
        assert!(parse_frames("4294967296").unwrap_err().contains("limit"));
        assert!(parse_frames("0").unwrap_err().contains("at least 1"));
        assert!(parse_threads("100000").unwrap_err().contains("1024"));
        assert!(parse_instances("-3").unwrap_err().contains("at least 1"));
        assert!(parse_characters("x")
            .unwrap_err()
            .contains("not an integer"));
        assert_eq!(parse_ticks("0"), Ok(0));
    }

    #[test]
    fn long_text_is_shortened_on_a_character_boundary() {
        assert_eq!(shorten("short"), "short");
        let long = "é".repeat(10_000);
        let short = shorten(&long);
        assert!(short.chars().count() < 120, "{short}");
        assert!(short.contains("20000 bytes in all"), "{short}");
    }
}
