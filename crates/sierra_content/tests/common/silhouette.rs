//! Comparing two renders of a figure on a plain background, as the skinning and crowd tests do
//! (GPU against CPU skinning, the baked crowd path against the palette path).

/// (pixels of `image` differing from `reference` by more than 8 in some channel, pixels of
/// `reference` that are not its background): a path agrees with the reference when the first
/// is a small share of the second. The background is the colour of `reference`'s top-left
/// pixel.
pub fn differing_and_covered(
    image: &image::RgbaImage,
    reference: &image::RgbaImage,
) -> (usize, usize) {
    let background = *reference.get_pixel(0, 0);
    let differing = image
        .pixels()
        .zip(reference.pixels())
        .filter(|(a, b)| a.0.iter().zip(b.0).any(|(x, y)| x.abs_diff(y) > 8))
        .count();
    let covered = reference.pixels().filter(|p| **p != background).count();
    (differing, covered)
}
