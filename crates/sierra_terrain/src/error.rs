//! The crate's error type.

use std::path::PathBuf;

/// Everything in `sierra_terrain` that can fail returns this error.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// fBm octave count outside `(0, MAX_OCTAVES]` or not finite.
    #[error("octaves must be in (0, {max}], got {value}")]
    Octaves {
        /// The value given.
        value: f64,
        /// [`crate::noise::MAX_OCTAVES`].
        max: u32,
    },
    /// A parameter that must be a finite number is NaN or infinite.
    #[error("{name} must be a finite number, got {value}")]
    NonFinite {
        /// Parameter name as the user wrote it (e.g. `lacunarity`, `point 3 coordinate 1`).
        name: String,
        /// The value given.
        value: f64,
    },
    /// A parameter outside its documented range.
    #[error("{name} = {value} is out of range: {expected}")]
    OutOfRange {
        /// Parameter name.
        name: String,
        /// The value given.
        value: f64,
        /// The allowed range in words, e.g. `1..=8192`.
        expected: String,
    },
    /// A grid or mesh size below its smallest or above its largest accepted value (a length
    /// that must be exact has `min == max`).
    #[error("{name} = {value} is not a valid size: it must be {}", size_range(*min, *max))]
    Size {
        /// Which size (e.g. `resolution`, `grid width`).
        name: String,
        /// The value given.
        value: i64,
        /// Smallest accepted value.
        min: i64,
        /// Largest accepted value.
        max: i64,
    },
    /// A mesh whose buffers do not agree (index out of range, attribute count mismatch).
    #[error("invalid mesh `{name}`: {reason}")]
    Mesh {
        /// Mesh name.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
}

impl Error {
    /// A size outside `min..=max`.
    pub(crate) fn size_in(name: &str, value: i64, min: i64, max: i64) -> Self {
        Self::Size {
            name: name.to_string(),
            value,
            min,
            max,
        }
    }

    /// A length that must equal `want`.
    pub(crate) fn length(name: &str, got: usize, want: usize) -> Self {
        Self::size_in(name, got as i64, want as i64, want as i64)
    }

    pub(crate) fn non_finite(name: &str, value: f64) -> Self {
        Self::NonFinite {
            name: name.to_string(),
            value,
        }
    }

    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }
}

/// Checks that `value` is finite.
pub(crate) fn finite(name: &str, value: f64) -> Result<f64, Error> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(Error::non_finite(name, value))
    }
}

/// `[(name, value)]` of fields of `$s`, each named as in the struct (the name its parameter
/// has in level files and errors): `named_fields!(self: size, feature_size)`.
macro_rules! named_fields {
    ($s:ident: $($field:ident),+ $(,)?) => {
        [$((stringify!($field), $s.$field)),+]
    };
}
pub(crate) use named_fields;

/// Checks that every `(name, value)` of `values` is finite ([`Error::NonFinite`] naming the
/// first that is not).
pub(crate) fn all_finite(values: &[(&str, f32)]) -> Result<(), Error> {
    for &(name, v) in values {
        finite(name, f64::from(v))?;
    }
    Ok(())
}

/// Checks that every `(name, value)` of `values` is finite and above zero; `expected` is the
/// requirement an [`Error::OutOfRange`] states (`"> 0"`, `"> 0 metres"`).
pub(crate) fn all_positive(values: &[(&str, f32)], expected: &str) -> Result<(), Error> {
    for &(name, v) in values {
        if finite(name, f64::from(v))? <= 0.0 {
            return Err(Error::OutOfRange {
                name: name.into(),
                value: f64::from(v),
                expected: expected.into(),
            });
        }
    }
    Ok(())
}

/// Checks `1 <= value <= max` for a size given as a signed number (so negative input from the
/// command line or a level file is reported as such, not wrapped).
pub(crate) fn size(name: &str, value: i64, max: i64) -> Result<usize, Error> {
    size_in(name, value, 1, max)
}

/// Checks `min <= value <= max` (see [`size`]).
pub(crate) fn size_in(name: &str, value: i64, min: i64, max: i64) -> Result<usize, Error> {
    if (min..=max).contains(&value) {
        Ok(value as usize)
    } else {
        Err(Error::size_in(name, value, min, max))
    }
}

/// `in MIN..=MAX`, or `exactly N` when both are equal.
fn size_range(min: i64, max: i64) -> String {
    if min == max {
        format!("exactly {max}")
    } else {
        format!("in {min}..={max}")
    }
}
