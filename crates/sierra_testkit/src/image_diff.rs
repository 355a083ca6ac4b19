//! Comparing rendered images with golden ones: per-pixel differences in 8-bit sRGB levels
//! (LSB) and the tolerance the golden-image tests use.

/// How two RGBA8 images of the same size differ, over their R, G and B channels (alpha ignored).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ImageDiff {
    /// Share of pixels (0..1) whose every colour channel is within 1 LSB.
    pub within_one: f64,
    /// Largest difference of any channel, LSB.
    pub max: u8,
    /// Mean absolute difference over every colour channel of every pixel, LSB.
    pub mean: f64,
}

impl ImageDiff {
    /// Compares `a` and `b`, both `[height][width][4]` RGBA8, same length.
    ///
    /// # Panics
    /// When the lengths differ or are not a multiple of 4 (a test's own mistake).
    pub fn of(a: &[u8], b: &[u8]) -> Self {
        assert_eq!(a.len(), b.len(), "images of different sizes");
        assert_eq!(a.len() % 4, 0, "not RGBA8");
        let pixels = a.len() / 4;
        let (mut within, mut max, mut sum) = (0usize, 0u8, 0u64);
        for (p, q) in a.chunks_exact(4).zip(b.chunks_exact(4)) {
            let mut worst = 0u8;
            for c in 0..3 {
                let d = p[c].abs_diff(q[c]);
                worst = worst.max(d);
                sum += u64::from(d);
            }
            within += usize::from(worst <= 1);
            max = max.max(worst);
        }
        Self {
            within_one: within as f64 / pixels.max(1) as f64,
            max,
            mean: sum as f64 / (pixels.max(1) * 3) as f64,
        }
    }

    /// The golden-image tolerance: at least 99.5 % of pixels within 1 LSB, none off by more
    /// than 6, and a mean absolute difference of at most 0.2 LSB.
    pub fn matches_golden(&self) -> bool {
        self.within_one >= 0.995 && self.max <= 6 && self.mean <= 0.2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_images_match_and_each_bound_can_fail() {
        let a = vec![100u8; 4 * 1000];
        assert!(ImageDiff::of(&a, &a).matches_golden());
        // One pixel off by 7: the maximum fails.
        let mut b = a.clone();
        b[0] = 107;
        let d = ImageDiff::of(&a, &b);
        assert_eq!(d.max, 7);
        assert!(!d.matches_golden());
        // 1 % of pixels off by 2: within-one fails, the maximum passes.
        let mut c = a.clone();
        for p in 0..10 {
            c[p * 4] = 102;
        }
        let d = ImageDiff::of(&a, &c);
        assert!((d.within_one - 0.99).abs() < 1e-9 && !d.matches_golden());
        // Every pixel off by 1 in every channel: within-one passes, the mean (1.0) fails.
        let e: Vec<u8> = a.iter().map(|v| v + 1).collect();
        let d = ImageDiff::of(&a, &e);
        assert_eq!(d.within_one, 1.0);
        assert!(!d.matches_golden());
    }
}
