//! Relief on a lit plane, measured in a rendered image: under a grazing sun a bumpy surface
//! spreads the brightness of its pixels (a large variance), a flat one is one colour. The
//! normal-map and bump-detail tests render a bumpy plane in the left half of the image and a
//! flat one in the right half and compare the two halves.

use image::RgbaImage;

/// Mean and variance of the red channel (8-bit values) over the columns `x0..x1`, leaving an
/// 8-pixel margin at the top and bottom of `image`.
pub fn red_stats(image: &RgbaImage, x0: u32, x1: u32) -> (f64, f64) {
    let h = image.height();
    let values: Vec<f64> = (8..h.saturating_sub(8))
        .flat_map(|y| (x0..x1).map(move |x| (x, y)))
        .map(|(x, y)| f64::from(image.get_pixel(x, y).0[0]))
        .collect();
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / values.len() as f64;
    (mean, variance)
}

/// Asserts that the left half of `image` (inner columns) shows relief and the right half is
/// flat: both lit (red means above 20 and 40), the right half one colour (variance below 4),
/// the left's variance above `min_variance` and above `min_ratio` times the right's (at least
/// 1). Returns the (left, right) red means.
///
/// # Panics
/// When any of these fails, with the measured values in the message.
pub fn assert_bumpy_left_flat_right(
    image: &RgbaImage,
    min_variance: f64,
    min_ratio: f64,
) -> (f64, f64) {
    let w = image.width();
    let (bumpy_mean, bumpy_var) = red_stats(image, 8, w / 2 - 8);
    let (flat_mean, flat_var) = red_stats(image, w / 2 + 8, w - 8);
    assert!(
        flat_mean > 40.0 && bumpy_mean > 20.0,
        "lit: bumpy mean {bumpy_mean}, flat mean {flat_mean}"
    );
    assert!(
        flat_var < 4.0,
        "the flat plane is one colour: variance {flat_var}"
    );
    assert!(
        bumpy_var > min_variance && bumpy_var > min_ratio * flat_var.max(1.0),
        "relief shows: variance {bumpy_var} vs flat {flat_var}"
    );
    (bumpy_mean, flat_mean)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stripes_on_the_left_and_grey_on_the_right_pass_and_the_reverse_fails() {
        let striped_left = RgbaImage::from_fn(64, 32, |x, _| {
            let v = if x < 32 {
                [40, 120][x as usize % 2]
            } else {
                100
            };
            image::Rgba([v, v, v, 255])
        });
        let (left, right) = assert_bumpy_left_flat_right(&striped_left, 100.0, 20.0);
        assert_eq!((left, right), (80.0, 100.0));
        let flipped = RgbaImage::from_fn(64, 32, |x, y| *striped_left.get_pixel(63 - x, y));
        let result =
            std::panic::catch_unwind(|| assert_bumpy_left_flat_right(&flipped, 100.0, 20.0));
        assert!(result.is_err());
    }
}
