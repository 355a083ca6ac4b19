//! A square height field on a regular grid, with bilinear height queries, normals and ray casts.

use glam::{Vec2, Vec3};

use crate::error::{all_positive, size_in, Error};

/// Largest accepted samples per side (16384, the 2D texture limit on the target GPUs).
pub const MAX_RESOLUTION: i64 = 16384;

/// Heights on a `resolution × resolution` grid centred on the origin in the XZ plane: sample
/// `(i, j)` lies at `x = −size/2 + i·spacing`, `z = −size/2 + j·spacing`, with
/// `spacing = size / (resolution − 1)`. Heights are metres along +Y, row-major by `j` (z).
#[derive(Clone, Debug, PartialEq)]
pub struct HeightField {
    resolution: usize,
    size: f32,
    heights: Vec<f32>,
}

/// Where a ray meets the height field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// Distance along the (normalised) ray direction, metres.
    pub distance: f32,
    /// World position of the hit.
    pub position: Vec3,
    /// Surface normal at the hit.
    pub normal: Vec3,
}

impl HeightField {
    /// Wraps `heights` (`[resolution²]`, row-major by z).
    ///
    /// # Errors
    /// [`Error::Size`] when `resolution` is not in `2..=MAX_RESOLUTION` or `heights` has the
    /// wrong length; [`Error::NonFinite`]/[`Error::OutOfRange`] for a bad `size`.
    pub fn new(resolution: usize, size_m: f32, heights: Vec<f32>) -> Result<Self, Error> {
        let resolution = size_in(
            "height-field resolution",
            resolution as i64,
            2,
            MAX_RESOLUTION,
        )?;
        all_positive(&[("height-field size", size_m)], "> 0 metres")?;
        if heights.len() != resolution * resolution {
            return Err(Error::length(
                "height-field sample count",
                heights.len(),
                resolution * resolution,
            ));
        }
        Ok(Self {
            resolution,
            size: size_m,
            heights,
        })
    }

    /// Samples per side.
    pub fn resolution(&self) -> usize {
        self.resolution
    }

    /// Side length, metres.
    pub fn size(&self) -> f32 {
        self.size
    }

    /// Distance between neighbouring samples, metres.
    pub fn spacing(&self) -> f32 {
        self.size / (self.resolution - 1) as f32
    }

    /// `[resolution²]` heights, row-major by z.
    pub fn heights(&self) -> &[f32] {
        &self.heights
    }

    /// Height of sample `(i, j)` (clamped to the grid).
    #[inline]
    pub fn sample(&self, i: usize, j: usize) -> f32 {
        let n = self.resolution - 1;
        self.heights[j.min(n) * self.resolution + i.min(n)]
    }

    /// World XZ of sample `(i, j)`.
    pub fn sample_xz(&self, i: usize, j: usize) -> Vec2 {
        let h = self.size * 0.5;
        Vec2::new(
            -h + i as f32 * self.spacing(),
            -h + j as f32 * self.spacing(),
        )
    }

    /// World position of sample `(i, j)`.
    pub fn sample_position(&self, i: usize, j: usize) -> Vec3 {
        let xz = self.sample_xz(i, j);
        Vec3::new(xz.x, self.sample(i, j), xz.y)
    }

    /// Minimum and maximum height.
    pub fn height_range(&self) -> (f32, f32) {
        self.heights
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &h| {
                (lo.min(h), hi.max(h))
            })
    }

    /// An upper bound of the bilinear surface over the world XZ box `[lo, hi]` (metres): the
    /// highest sample of every cell the box touches (a bilinear patch never rises above its
    /// corners); the part of the box outside the field is ignored, `None` when none of it is
    /// inside (or for non-finite input).
    pub fn max_in(&self, lo: Vec2, hi: Vec2) -> Option<f32> {
        let h = self.size * 0.5;
        let s = self.spacing();
        let last = (self.resolution - 1) as f32;
        let (g0, g1) = ((lo + h) / s, (hi + h) / s);
        if !(g0.is_finite() && g1.is_finite())
            || g1.x < 0.0
            || g1.y < 0.0
            || g0.x > last
            || g0.y > last
        {
            return None;
        }
        let (g0, g1) = (g0.max(Vec2::ZERO).floor(), g1.min(Vec2::splat(last)).ceil());
        let (i0, j0, i1, j1) = (g0.x as usize, g0.y as usize, g1.x as usize, g1.y as usize);
        let rows =
            (j0..=j1).map(|j| &self.heights[j * self.resolution + i0..=j * self.resolution + i1]);
        Some(rows.flatten().copied().fold(f32::NEG_INFINITY, f32::max))
    }

    /// Bilinearly interpolated height at world `(x, z)`, or `None` outside the field (or for
    /// non-finite input).
    pub fn height_at(&self, x: f32, z: f32) -> Option<f32> {
        let (gx, gz) = self.grid_coords(x, z)?;
        let (i, j) = (gx.floor() as usize, gz.floor() as usize);
        let (fx, fz) = (gx - i as f32, gz - j as f32);
        let h00 = self.sample(i, j);
        let h10 = self.sample(i + 1, j);
        let h01 = self.sample(i, j + 1);
        let h11 = self.sample(i + 1, j + 1);
        let a = h00 + (h10 - h00) * fx;
        let b = h01 + (h11 - h01) * fx;
        Some(a + (b - a) * fz)
    }

    /// Normal of the bilinear surface at world `(x, z)` (from the same central differences as
    /// [`Self::sample_normal`], interpolated), or `None` outside.
    pub fn normal_at(&self, x: f32, z: f32) -> Option<Vec3> {
        let (gx, gz) = self.grid_coords(x, z)?;
        let (i, j) = (gx.floor() as usize, gz.floor() as usize);
        let (fx, fz) = (gx - i as f32, gz - j as f32);
        let n = self
            .sample_normal(i, j)
            .lerp(self.sample_normal(i + 1, j), fx)
            .lerp(
                self.sample_normal(i, j + 1)
                    .lerp(self.sample_normal(i + 1, j + 1), fx),
                fz,
            );
        Some(n.normalize_or(Vec3::Y))
    }

    fn grid_coords(&self, x: f32, z: f32) -> Option<(f32, f32)> {
        let h = self.size * 0.5;
        let s = self.spacing();
        let (gx, gz) = ((x + h) / s, (z + h) / s);
        let max = (self.resolution - 1) as f32;
        ((0.0..=max).contains(&gx) && (0.0..=max).contains(&gz)).then_some((gx, gz))
    }

    /// Normal at sample `(i, j)` from central differences (one-sided at the border):
    /// `normalize(−∂h/∂x, 1, −∂h/∂z)`.
    pub fn sample_normal(&self, i: usize, j: usize) -> Vec3 {
        let n = self.resolution - 1;
        let (i, j) = (i.min(n), j.min(n));
        let (il, ir) = (i.saturating_sub(1), (i + 1).min(n));
        let (jd, ju) = (j.saturating_sub(1), (j + 1).min(n));
        let s = self.spacing();
        let dhdx = (self.sample(ir, j) - self.sample(il, j)) / ((ir - il) as f32 * s);
        let dhdz = (self.sample(i, ju) - self.sample(i, jd)) / ((ju - jd) as f32 * s);
        Vec3::new(-dhdx, 1.0, -dhdz).normalize()
    }

    /// First intersection of the ray `origin + t·direction` (`t` in `[0, max_distance]`) with
    /// the surface, or `None`. Marches in half-sample steps inside the field's bounding box and
    /// refines the crossing by bisection to 1e-4 of a sample.
    pub fn raycast(&self, origin: Vec3, direction: Vec3, max_distance: f32) -> Option<RayHit> {
        let dir = direction.try_normalize()?;
        if !origin.is_finite() || !max_distance.is_finite() {
            return None;
        }
        let (lo, hi) = self.height_range();
        let h = self.size * 0.5;
        let (t0, t1) = slab(origin, dir, Vec3::new(-h, lo, -h), Vec3::new(h, hi, h))?;
        let (t0, t1) = (t0.max(0.0), t1.min(max_distance));
        if t0 > t1 {
            return None;
        }
        let above = |t: f32| {
            let p = origin + dir * t;
            self.height_at(p.x, p.z).map(|y| p.y - y)
        };
        let step = self.spacing() * 0.5;
        let mut prev_t = t0;
        let mut prev = above(t0).unwrap_or(1.0);
        if prev <= 0.0 {
            return self.hit(origin, dir, t0);
        }
        let mut t = t0;
        while t < t1 {
            t = (t + step).min(t1);
            let d = above(t).unwrap_or(1.0);
            if d <= 0.0 {
                let (mut a, mut b) = (prev_t, t);
                while b - a > step * 2e-4 {
                    let m = 0.5 * (a + b);
                    if above(m).unwrap_or(1.0) > 0.0 {
                        a = m;
                    } else {
                        b = m;
                    }
                }
                return self.hit(origin, dir, b);
            }
            prev_t = t;
            prev = d;
        }
        let _ = prev;
        None
    }

    fn hit(&self, origin: Vec3, dir: Vec3, t: f32) -> Option<RayHit> {
        let position = origin + dir * t;
        Some(RayHit {
            distance: t,
            position,
            normal: self.normal_at(position.x, position.z)?,
        })
    }
}

/// Ray vs axis-aligned box by the slab method: the entry and exit distances, or `None`.
fn slab(origin: Vec3, dir: Vec3, lo: Vec3, hi: Vec3) -> Option<(f32, f32)> {
    let mut t0 = f32::NEG_INFINITY;
    let mut t1 = f32::INFINITY;
    for a in 0..3 {
        if dir[a].abs() < 1e-12 {
            if origin[a] < lo[a] || origin[a] > hi[a] {
                return None;
            }
        } else {
            let inv = 1.0 / dir[a];
            let (ta, tb) = ((lo[a] - origin[a]) * inv, (hi[a] - origin[a]) * inv);
            t0 = t0.max(ta.min(tb));
            t1 = t1.min(ta.max(tb));
        }
    }
    (t0 <= t1).then_some((t0, t1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_in_bounds_the_surface_over_a_box() {
        // 5 × 5 samples over 4 m (1 m apart, from −2 to 2): a spike of 9 at sample (3, 1).
        let mut heights = vec![0.0; 25];
        heights[5 + 3] = 9.0;
        let f = HeightField::new(5, 4.0, heights).unwrap();
        // A box inside the cells around the spike, not containing the sample itself.
        assert_eq!(
            f.max_in(Vec2::new(0.2, -1.8), Vec2::new(0.4, -1.6)),
            Some(9.0)
        );
        // Every bilinear height inside is below the bound; the control: a box two cells away.
        assert!(f.height_at(0.3, -1.7).unwrap() <= 9.0);
        assert_eq!(
            f.max_in(Vec2::new(-2.0, 0.5), Vec2::new(-1.5, 2.0)),
            Some(0.0)
        );
        // Partly outside: clipped; wholly outside or NaN: none.
        assert_eq!(
            f.max_in(Vec2::new(-9.0, -9.0), Vec2::new(9.0, 9.0)),
            Some(9.0)
        );
        assert_eq!(f.max_in(Vec2::new(3.0, 0.0), Vec2::new(4.0, 1.0)), None);
        assert_eq!(
            f.max_in(Vec2::new(f32::NAN, 0.0), Vec2::new(1.0, 1.0)),
            None
        );
    }

    fn plane(a: f32, b: f32, c: f32) -> HeightField {
        let n = 33;
        let mut hf = HeightField::new(n, 64.0, vec![0.0; n * n]).unwrap();
        for j in 0..n {
            for i in 0..n {
                let p = hf.sample_xz(i, j);
                hf.heights[j * n + i] = a * p.x + b * p.y + c;
            }
        }
        hf
    }

    #[test]
    fn bilinear_reproduces_a_plane_and_its_normal() {
        let hf = plane(0.5, -0.25, 3.0);
        for (x, z) in [(0.3, 0.7), (-31.9, 12.2), (10.0, -5.5)] {
            let h = hf.height_at(x, z).unwrap();
            assert!((h - (0.5 * x - 0.25 * z + 3.0)).abs() < 1e-4);
            let n = hf.normal_at(x, z).unwrap();
            let expected = Vec3::new(-0.5, 1.0, 0.25).normalize();
            assert!(n.distance(expected) < 1e-5, "{n} {expected}");
        }
        assert_eq!(hf.height_at(40.0, 0.0), None);
        assert_eq!(hf.height_at(f32::NAN, 0.0), None);
    }

    #[test]
    fn vertical_and_oblique_rays_hit_the_plane() {
        let hf = plane(0.1, 0.2, 1.0);
        let hit = hf
            .raycast(Vec3::new(3.0, 50.0, -4.0), Vec3::NEG_Y, 100.0)
            .unwrap();
        let expect = 0.1 * 3.0 + 0.2 * -4.0 + 1.0;
        assert!((hit.position.y - expect).abs() < 1e-3);
        assert!((hit.distance - (50.0 - expect)).abs() < 1e-3);
        let dir = Vec3::new(1.0, -0.5, 0.3);
        let hit = hf.raycast(Vec3::new(-30.0, 20.0, 0.0), dir, 200.0).unwrap();
        let h = hf.height_at(hit.position.x, hit.position.z).unwrap();
        assert!((hit.position.y - h).abs() < 1e-3);
        assert!(hf
            .raycast(Vec3::new(0.0, 50.0, 0.0), Vec3::Y, 100.0)
            .is_none());
        assert!(hf
            .raycast(Vec3::new(0.0, 50.0, 0.0), Vec3::NEG_Y, 10.0)
            .is_none());
    }

    #[test]
    fn bad_construction_is_an_error() {
        assert!(HeightField::new(1, 10.0, vec![0.0]).is_err());
        assert!(HeightField::new(4, -1.0, vec![0.0; 16]).is_err());
        assert!(HeightField::new(4, 10.0, vec![0.0; 15]).is_err());
    }
}
