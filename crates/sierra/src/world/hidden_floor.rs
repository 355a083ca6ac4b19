//! Ground the sea always hides: terrain deeper than the sea's opaque floor depth
//! ([`sierra_render::passes::sea::SeaSettings::opaque_floor_depth`]) under water that the sea pass
//! draws. Over such ground the sea's transmittance is zero whatever its waves do (the sea shader
//! keys it to the ground's height), so a triangle over ground lying wholly there (its corners and,
//! for a coarse level of detail, the finer ground between them) can never colour a pixel:
//! the landscape leaves it out of its meshes ([`drop_hidden_triangles`]) and saves its vertex,
//! fragment and shadow-map work. On the demo island that is most of the sea bed, which was shaded
//! in the forward pass and then painted over by the sea.

use std::ops::Range;

use glam::{Vec2, Vec3};

/// Where the sea hides the ground: below `below` (world y, metres) inside any of `areas`
/// (world XZ rectangles the sea pass covers: the simulated grid and the open sea's square).
#[derive(Clone, Debug, PartialEq)]
pub struct HiddenFloor {
    /// World height of the hidden floor, metres: ground strictly below it is hidden.
    pub below: f32,
    /// `[(min, max)]` world XZ rectangles, metres, each wholly covered by the sea's surface.
    pub areas: Vec<(Vec2, Vec2)>,
}

impl HiddenFloor {
    /// Whether ground over the world XZ box `[lo, hi]` (metres) whose highest point is `top`
    /// (world y, metres; an upper bound will do) is hidden: `top` below [`HiddenFloor::below`]
    /// and the box inside one of the areas.
    pub fn hides(&self, lo: Vec2, hi: Vec2, top: f32) -> bool {
        top < self.below
            && self
                .areas
                .iter()
                .any(|&(a, b)| lo.cmpge(a).all() && hi.cmple(b).all())
    }
}

/// Rebuilds the triangle list `indices` (into `positions`) without the triangles `hidden` says
/// are hidden (given their corners, world metres), part by part: `parts` are ranges of `indices`
/// (whole triangles, in order, not overlapping); returns the new index list and each part's
/// range in it (empty when all of a part was hidden). Triangles keep their order and winding.
/// Triangles with an index out of `positions` are kept (never hidden).
pub fn drop_hidden_triangles(
    positions: &[Vec3],
    indices: &[u32],
    parts: &[Range<usize>],
    hidden: impl Fn([Vec3; 3]) -> bool,
) -> (Vec<u32>, Vec<Range<usize>>) {
    let mut kept = Vec::with_capacity(indices.len());
    let mut ranges = Vec::with_capacity(parts.len());
    for part in parts {
        let start = kept.len();
        for tri in indices.get(part.clone()).unwrap_or(&[]).chunks_exact(3) {
            let corners = [0, 1, 2].map(|k| positions.get(tri[k] as usize).copied());
            let is_hidden = match corners {
                [Some(a), Some(b), Some(c)] => hidden([a, b, c]),
                _ => false,
            };
            if !is_hidden {
                kept.extend_from_slice(tri);
            }
        }
        ranges.push(start..kept.len());
    }
    (kept, ranges)
}

/// The world XZ box of `corners` and their highest y.
pub fn footprint(corners: [Vec3; 3]) -> (Vec2, Vec2, f32) {
    let lo = corners[0].min(corners[1]).min(corners[2]);
    let hi = corners[0].max(corners[1]).max(corners[2]);
    (Vec2::new(lo.x, lo.z), Vec2::new(hi.x, hi.z), hi.y)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn floor() -> HiddenFloor {
        HiddenFloor {
            below: -6.0,
            areas: vec![(Vec2::splat(-10.0), Vec2::splat(10.0))],
        }
    }

    fn hides_corners(f: &HiddenFloor, corners: [Vec3; 3]) -> bool {
        let (lo, hi, top) = footprint(corners);
        f.hides(lo, hi, top)
    }

    #[test]
    fn ground_is_hidden_only_wholly_below_and_wholly_inside() {
        let f = floor();
        let deep = [
            Vec3::new(0.0, -8.0, 0.0),
            Vec3::new(1.0, -7.0, 0.0),
            Vec3::new(0.0, -9.0, 1.0),
        ];
        assert!(hides_corners(&f, deep));
        // One corner at the hidden floor's height or above: drawn.
        let mut rising = deep;
        rising[1].y = -6.0;
        assert!(!hides_corners(&f, rising));
        // Corners below but ground between them rising to the floor (a coarse triangle over a
        // bump): drawn.
        let (lo, hi, _) = footprint(deep);
        assert!(!f.hides(lo, hi, -5.5));
        // One corner outside the sea's area: drawn (nothing covers it there).
        let mut outside = deep;
        outside[2].x = 10.5;
        assert!(!hides_corners(&f, outside));
        // No area at all (no sea): nothing is hidden.
        let none = HiddenFloor {
            areas: Vec::new(),
            ..f
        };
        assert!(!hides_corners(&none, deep));
    }

    #[test]
    fn dropping_keeps_order_winding_and_part_ranges() {
        let positions = [
            Vec3::new(0.0, -8.0, 0.0),
            Vec3::new(1.0, -8.0, 0.0),
            Vec3::new(0.0, -8.0, 1.0),
            Vec3::new(1.0, 2.0, 1.0),
        ];
        // Part 0: hidden, shown (touches the raised vertex 3), hidden; part 1: hidden only;
        // part 2: shown, with an index out of range (kept).
        let indices = [0, 1, 2, 2, 1, 3, 0, 2, 1, 1, 0, 2, 3, 2, 9];
        let parts = [0..9, 9..12, 12..15];
        let f = floor();
        let (kept, ranges) =
            drop_hidden_triangles(&positions, &indices, &parts, |c| hides_corners(&f, c));
        assert_eq!(kept, vec![2, 1, 3, 3, 2, 9]);
        assert_eq!(ranges, vec![0..3, 3..3, 3..6]);
        // The control: with the floor far below, every triangle stays.
        let low = HiddenFloor {
            below: -100.0,
            ..floor()
        };
        let (all, ranges) =
            drop_hidden_triangles(&positions, &indices, &parts, |c| hides_corners(&low, c));
        assert_eq!(all, indices.to_vec());
        assert_eq!(ranges, parts.to_vec());
    }
}
