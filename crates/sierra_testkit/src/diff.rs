//! How far two fields of numbers (depths, flows, noise values, image bytes) are apart.

/// The largest `|a[i] - b[i]|` (0 for empty slices): the worst disagreement between a
/// result and its reference.
///
/// # Panics
/// When the slices differ in length, since then they cannot be the same field.
pub fn max_abs_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len(), "fields of different lengths");
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

/// The largest difference between two byte buffers of equal length, e.g. two RGBA8 images
/// (every channel, alpha included); 0 for empty ones.
///
/// # Panics
/// When the buffers differ in length (images of different sizes).
pub fn max_byte_diff(a: &[u8], b: &[u8]) -> u8 {
    assert_eq!(a.len(), b.len(), "buffers of different lengths");
    a.iter()
        .zip(b)
        .map(|(x, y)| x.abs_diff(*y))
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::{max_abs_diff, max_byte_diff};

    #[test]
    fn the_worst_element_counts_whatever_its_sign() {
        assert_eq!(max_abs_diff(&[1.0, 2.0, 3.0], &[1.0, 2.5, 2.0]), 1.0);
        assert_eq!(max_abs_diff(&[], &[]), 0.0);
        assert_eq!(max_byte_diff(&[0, 255, 7], &[3, 250, 7]), 5);
    }
}
