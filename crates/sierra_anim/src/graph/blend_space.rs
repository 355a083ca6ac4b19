//! 1D blend spaces: clips placed on one parameter's axis (idle at 0, walk at 1.5, run at 4 m/s).

use super::definition::SlotId;

/// The two points around `x` on `points` (sorted by strictly increasing value) and the
/// weight of the upper one: `(lower, upper, w)` with `x = (1 − w)·v_lower + w·v_upper`.
/// Outside the range (or with one point) the nearest end plays alone (`w` = 0, `lower == upper`).
/// A non-finite `x` counts as the lowest point.
pub fn blend1d_weights(points: &[(f32, SlotId)], x: f32) -> (usize, usize, f32) {
    let last = points.len().saturating_sub(1);
    if points.is_empty() || !x.is_finite() || x <= points[0].0 {
        return (0, 0, 0.0);
    }
    if x >= points[last].0 {
        return (last, last, 0.0);
    }
    let upper = points.partition_point(|&(v, _)| v <= x);
    let (a, b) = (points[upper - 1].0, points[upper].0);
    (upper - 1, upper, (x - a) / (b - a))
}
