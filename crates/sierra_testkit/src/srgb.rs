//! The sRGB transfer function (IEC 61966-2-1), written here independently of the renderer's
//! own, so that tests can turn the bytes of a rendered PNG back into the linear light they
//! expect.

/// An sRGB-encoded byte as a linear value in [0, 1].
pub fn srgb_to_linear(c: u8) -> f64 {
    let c = f64::from(c) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// A linear value in [0, 1] as an sRGB-encoded value in [0, 255] (not rounded).
pub fn linear_to_srgb(l: f64) -> f64 {
    let c = if l <= 0.003_130_8 {
        l * 12.92
    } else {
        1.055 * l.powf(1.0 / 2.4) - 0.055
    };
    c * 255.0
}

/// The 8-bit sRGB encoding of linear light `linear` (clamped to [0, 1], rounded): the byte an
/// sRGB render target should hold.
pub fn srgb_byte(linear: f64) -> u8 {
    linear_to_srgb(linear.clamp(0.0, 1.0)).round() as u8
}

#[cfg(test)]
mod tests {
    use super::{linear_to_srgb, srgb_byte, srgb_to_linear};

    #[test]
    fn known_values_and_round_trips() {
        // Mid-grey: sRGB 188 is about 50 % linear light; 0 and 255 are the ends.
        assert!((srgb_to_linear(188) - 0.5029).abs() < 1e-3);
        assert_eq!(srgb_to_linear(0), 0.0);
        assert!((srgb_to_linear(255) - 1.0).abs() < 1e-12);
        for byte in [0u8, 5, 10, 11, 100, 200, 255] {
            let back = linear_to_srgb(srgb_to_linear(byte));
            assert!((back - f64::from(byte)).abs() < 1e-9, "{byte} -> {back}");
            assert_eq!(srgb_byte(srgb_to_linear(byte)), byte);
        }
        assert_eq!((srgb_byte(-1.0), srgb_byte(2.0)), (0, 255));
    }
}
