//! Upper bounds on the counts the benchmarks take on the command line, so a typo such as
//! `--characters 99999999999` is a usage error naming the limit (the wording of the `sierra`
//! CLI's own limits), not an allocation of the whole memory. Each `parse_*` is a clap
//! `value_parser`.

/// Most characters in `bench anim` (`--characters`).
pub const MAX_CHARACTERS: u32 = 1_000_000;

/// Most frames or passes one benchmark measures (`--frames`).
pub const MAX_FRAMES: u32 = 100_000;

/// Most rounds of `bench report` (`--rounds`).
pub const MAX_ROUNDS: u32 = 100;

/// `text` as an integer in `min..=max`; errors name `flag` and the limit.
fn bounded(text: &str, flag: &str, min: u32, max: u32) -> Result<u32, String> {
    let value: i128 = text.trim().parse().map_err(|_| {
        format!(
            "{flag} `{}` is not an integer",
            text.chars().take(80).collect::<String>()
        )
    })?;
    if value < i128::from(min) {
        return Err(format!("{flag} must be at least {min}, got {value}"));
    }
    if value > i128::from(max) {
        return Err(format!("{flag} {value} is over the limit of {max}"));
    }
    Ok(value as u32)
}

/// `--characters`: 1..=[`MAX_CHARACTERS`].
///
/// # Errors
/// Not an integer, or outside the range (the message names the limit).
pub fn parse_characters(text: &str) -> Result<u32, String> {
    bounded(text, "--characters", 1, MAX_CHARACTERS)
}

/// `--frames`: 1..=[`MAX_FRAMES`].
///
/// # Errors
/// Not an integer, or outside the range (the message names the limit).
pub fn parse_frames(text: &str) -> Result<u32, String> {
    bounded(text, "--frames", 1, MAX_FRAMES)
}

/// `--rounds`: 1..=[`MAX_ROUNDS`].
///
/// # Errors
/// Not an integer, or outside the range (the message names the limit).
pub fn parse_rounds(text: &str) -> Result<u32, String> {
    bounded(text, "--rounds", 1, MAX_ROUNDS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_bounded_and_errors_name_the_limit() {
        assert_eq!(parse_characters("1000"), Ok(1000));
        assert!(parse_characters("99999999999")
            .unwrap_err()
            .contains("over the limit of 1000000"));
        assert!(parse_frames("0").unwrap_err().contains("at least 1"));
        assert!(parse_frames("x").unwrap_err().contains("not an integer"));
        assert_eq!(parse_rounds("5"), Ok(5));
        assert!(parse_rounds("101")
            .unwrap_err()
            .contains("--rounds 101 is over the limit of 100"));
        assert!(parse_rounds("0").unwrap_err().contains("at least 1"));
    }
}
