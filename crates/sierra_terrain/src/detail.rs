//! The terrain's detail normal map: bump mapping of the island's surface (thesis, seed 002,
//! §2.3 "Materiales y texturas": the mountains and the beach get normal maps that bend the
//! normal per pixel). The thesis used photographs run through CrazyBump; here the bumps come
//! from the engine's own noise, so nothing is downloaded and the map tiles exactly.
//!
//! A height field `h(x, y)` (metres) of tileable fBm ([`crate::noise::periodic`]) over one tile
//! of [`DetailMap::tile`] metres becomes a tangent-space normal map by central differences with
//! wrap-around, `n = normalize(−∂h/∂x, +∂h/∂v, 1)`: +X along the texture's u, +Y "up" in the image
//! (v decreasing), as glTF 2.0 §3.9.3 normal textures and the forward pass expect. Terrain chunk
//! meshes carry texture coordinates `(x, z) / UV_TILE` and tangents along +X
//! ([`crate::chunks::grid_mesh`]), so one texel spans the same ground everywhere.

use glam::Vec3;

use crate::error::{finite, size, Error};
use crate::noise::periodic::{fbm2_periodic, MAX_PERIOD};
use crate::noise::Permutation;

/// Metres of ground one repeat of the terrain's texture coordinates covers (`uv = (x, z) /
/// UV_TILE`).
pub const UV_TILE: f32 = 16.0;

/// Largest accepted map side, texels.
pub const MAX_SIZE: i64 = 4096;

/// Parameters of the detail normal map.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DetailMap {
    /// Texels per side (the map is square).
    pub size: u32,
    /// Metres one tile covers; equal to [`UV_TILE`] for terrain chunks so bumps keep their size.
    pub tile: f32,
    /// Noise lattice cells per tile in the first octave (a power of two keeps every octave
    /// periodic; see [`fbm2_periodic`]).
    pub period: u32,
    /// Whole fBm octaves (lacunarity 2).
    pub octaves: u32,
    /// Amplitude ratio between octaves (the thesis's `H`).
    pub gain: f32,
    /// Height of the largest bumps, metres: the fBm sum is scaled to `[−depth, depth]`.
    pub depth: f32,
    /// Permutation seed (`None`: Perlin's reference permutation).
    pub seed: Option<u64>,
}

impl Default for DetailMap {
    /// 512² texels over 16 m (3 cm texels), bumps from 2 m down to 12 cm, up to 30 cm high.
    fn default() -> Self {
        Self {
            size: 512,
            tile: UV_TILE,
            period: 8,
            octaves: 5,
            gain: 0.5,
            depth: 0.3,
            seed: Some(0x5EED_D37A),
        }
    }
}

impl DetailMap {
    /// Checks every field.
    ///
    /// # Errors
    /// [`Error::Size`] for a size outside `1..=MAX_SIZE` or a period outside
    /// `1..=MAX_PERIOD`, [`Error::Octaves`] for 0 or more than 8 octaves, [`Error::OutOfRange`]
    /// when the finest octave's period `period · 2^(octaves − 1)` exceeds `MAX_PERIOD`,
    /// [`Error::NonFinite`] / [`Error::OutOfRange`] for a non-positive tile or a negative depth
    /// or gain.
    pub fn validate(&self) -> Result<(), Error> {
        size("detail map size", i64::from(self.size), MAX_SIZE)?;
        size(
            "detail map period",
            i64::from(self.period),
            i64::from(MAX_PERIOD),
        )?;
        if !(1..=8).contains(&self.octaves) {
            return Err(Error::Octaves {
                value: f64::from(self.octaves),
                max: 8,
            });
        }
        // The finest octave's period must fit the permutation, or the map would not tile.
        let finest = u64::from(self.period) << (self.octaves - 1);
        if finest > u64::from(MAX_PERIOD) {
            return Err(Error::OutOfRange {
                name: "detail map period · 2^(octaves − 1)".to_string(),
                value: finest as f64,
                expected: format!("<= {MAX_PERIOD}, so every octave tiles"),
            });
        }
        for (name, value, positive) in [
            ("detail map tile", self.tile, true),
            ("detail map gain", self.gain, false),
            ("detail map depth", self.depth, false),
        ] {
            let v = finite(name, f64::from(value))?;
            if v < 0.0 || (positive && v == 0.0) {
                return Err(Error::OutOfRange {
                    name: name.to_string(),
                    value: v,
                    expected: if positive { "> 0" } else { ">= 0" }.to_string(),
                });
            }
        }
        Ok(())
    }

    /// Heights in metres, `[size][size]` row-major, row 0 at the top of the image (v = 0),
    /// texel centres at `(i + 0.5) / size`; periodic across opposite edges.
    ///
    /// # Errors
    /// As [`DetailMap::validate`].
    pub fn heights(&self) -> Result<Vec<f32>, Error> {
        self.validate()?;
        let perm = Permutation::from_optional_seed(self.seed);
        let n = self.size as usize;
        // Σ gain^k bounds |fBm| since |noise| ≤ 1.
        let bound: f32 = (0..self.octaves).map(|k| self.gain.powi(k as i32)).sum();
        let scale = self.depth / bound.max(f32::MIN_POSITIVE);
        let cells = self.period as f32 / n as f32;
        let mut out = Vec::with_capacity(n * n);
        for j in 0..n {
            for i in 0..n {
                let (x, y) = ((i as f32 + 0.5) * cells, (j as f32 + 0.5) * cells);
                out.push(fbm2_periodic(&perm, x, y, self.period, self.octaves, self.gain) * scale);
            }
        }
        Ok(out)
    }

    /// The tangent-space normal map, `[size][size][4]` RGBA8 (RGB = XYZ · 0.5 + 0.5, A = 255),
    /// top row first, to upload as linear (not sRGB) data.
    ///
    /// # Errors
    /// As [`DetailMap::validate`].
    pub fn normal_map(&self) -> Result<Vec<u8>, Error> {
        let heights = self.heights()?;
        Ok(encode_normals(&normals_from_heights(
            &heights,
            self.size as usize,
            self.tile / self.size as f32,
        )))
    }
}

/// Unit tangent-space normals `[n][n]` of a height field `[n][n]` (metres, row 0 at the top)
/// with texels `texel` metres apart, by central differences that wrap around the edges (so a
/// periodic field gives a seamless map).
pub fn normals_from_heights(heights: &[f32], n: usize, texel: f32) -> Vec<Vec3> {
    let at = |i: usize, j: usize| heights[(j % n) * n + (i % n)];
    let mut out = Vec::with_capacity(n * n);
    for j in 0..n {
        for i in 0..n {
            let dh_dx = (at(i + 1, j) - at(i + n - 1, j)) / (2.0 * texel);
            let dh_dv = (at(i, j + 1) - at(i, j + n - 1)) / (2.0 * texel);
            // Rows grow down the image (+v) while tangent-space +Y points up (−v).
            out.push(Vec3::new(-dh_dx, dh_dv, 1.0).normalize());
        }
    }
    out
}

/// Normals as RGBA8 bytes (`c · 0.5 + 0.5` per channel, alpha 255).
pub fn encode_normals(normals: &[Vec3]) -> Vec<u8> {
    let mut out = Vec::with_capacity(normals.len() * 4);
    for n in normals {
        for c in n.to_array() {
            out.push(((c * 0.5 + 0.5).clamp(0.0, 1.0) * 255.0).round() as u8);
        }
        out.push(255);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(t: &[u8]) -> Vec3 {
        Vec3::new(f32::from(t[0]), f32::from(t[1]), f32::from(t[2])) / 127.5 - Vec3::ONE
    }

    fn texel(map: &[u8], n: usize, i: usize, j: usize) -> Vec3 {
        decode(&map[(j * n + i) * 4..][..4])
    }

    /// Mean angle (radians) between the normals of texel pairs `(a, b)`.
    fn mean_angle(
        map: &[u8],
        n: usize,
        pairs: impl Iterator<Item = ((usize, usize), (usize, usize))>,
    ) -> f32 {
        let (mut sum, mut count) = (0.0, 0);
        for ((ai, aj), (bi, bj)) in pairs {
            let (a, b) = (texel(map, n, ai, aj), texel(map, n, bi, bj));
            sum += a.normalize().angle_between(b.normalize());
            count += 1;
        }
        sum / count as f32
    }

    /// Mean angle between neighbouring texels across the left/right seam, the top/bottom seam
    /// and a line through the interior (three neighbour pairs around each line).
    fn seam_and_interior(map: &[u8], n: usize) -> (f32, f32, f32) {
        let around = |c: usize| [(c + n - 2) % n, (c + n - 1) % n, c].map(|k| (k, (k + 1) % n));
        let lr = mean_angle(
            map,
            n,
            (0..n).flat_map(move |j| around(0).map(|(a, b)| ((a, j), (b, j)))),
        );
        let tb = mean_angle(
            map,
            n,
            (0..n).flat_map(move |i| around(0).map(|(a, b)| ((i, a), (i, b)))),
        );
        let inner = mean_angle(
            map,
            n,
            (0..n).flat_map(move |j| around(n / 2).map(|(a, b)| ((a, j), (b, j)))),
        );
        (lr, tb, inner)
    }

    #[test]
    fn detail_map_is_unit_length_facing_out_and_bumpy() {
        let params = DetailMap {
            size: 128,
            ..DetailMap::default()
        };
        let map = params.normal_map().unwrap();
        assert_eq!(map.len(), 128 * 128 * 4);
        let mut tilted = 0;
        for t in map.chunks_exact(4) {
            let n = decode(t);
            // 8-bit quantisation: each channel within 1/255, so the length within ~1.5 %.
            assert!(
                (n.length() - 1.0).abs() < 0.015,
                "{t:?} has length {}",
                n.length()
            );
            assert!(n.z > 0.3, "{t:?} faces away from the surface");
            assert_eq!(t[3], 255);
            if n.z < 0.995 {
                tilted += 1;
            }
        }
        // Real surface detail, not a flat map: most texels bend the normal by more than 5.7°.
        assert!(tilted > 128 * 128 / 2, "only {tilted} tilted texels");
    }

    #[test]
    fn detail_map_tiles_seamlessly() {
        let n = 128;
        let params = DetailMap {
            size: n as u32,
            ..DetailMap::default()
        };
        let map = params.normal_map().unwrap();
        let (lr, tb, inner) = seam_and_interior(&map, n);
        // Across each seam the normal turns as little as between interior neighbours.
        assert!(
            lr < inner * 1.5 + 0.01,
            "left/right seam {lr} vs interior {inner}"
        );
        assert!(
            tb < inner * 1.5 + 0.01,
            "top/bottom seam {tb} vs interior {inner}"
        );
        // The heights themselves continue: the texel past the right edge (by the fBm's period)
        // is the first texel of the row.
        let heights = params.heights().unwrap();
        let perm = Permutation::from_optional_seed(params.seed);
        let cells = params.period as f32 / n as f32;
        let bound: f32 = (0..params.octaves)
            .map(|k| params.gain.powi(k as i32))
            .sum();
        for j in [0, 17, n - 1] {
            let y = (j as f32 + 0.5) * cells;
            let past_right = fbm2_periodic(
                &perm,
                (n as f32 + 0.5) * cells,
                y,
                params.period,
                params.octaves,
                params.gain,
            ) * params.depth
                / bound;
            assert!((past_right - heights[j * n]).abs() < 1e-4);
        }

        // The same check catches a seam: plain (non-periodic) noise over the tile leaves one.
        let plain = DetailMap {
            period: MAX_PERIOD,
            ..params
        };
        let plain_heights: Vec<f32> = (0..n * n)
            .map(|k| {
                let (i, j) = (k % n, k / n);
                fbm2_periodic(
                    &perm,
                    (i as f32 + 0.5) * 8.0 / n as f32 + 0.37,
                    (j as f32 + 0.5) * 8.0 / n as f32 + 0.61,
                    plain.period,
                    plain.octaves,
                    plain.gain,
                ) * plain.depth
                    / bound
            })
            .collect();
        let seamy = encode_normals(&normals_from_heights(
            &plain_heights,
            n,
            plain.tile / n as f32,
        ));
        let (lr, tb, inner) = seam_and_interior(&seamy, n);
        assert!(lr > inner * 2.0 && tb > inner * 2.0, "{lr} {tb} {inner}");
    }

    #[test]
    fn bad_parameters_are_errors() {
        let ok = DetailMap::default();
        for bad in [
            DetailMap { size: 0, ..ok },
            DetailMap { period: 0, ..ok },
            DetailMap { period: 512, ..ok },
            DetailMap { octaves: 0, ..ok },
            DetailMap { octaves: 9, ..ok },
            DetailMap {
                period: 64,
                octaves: 4,
                ..ok
            },
            DetailMap { tile: 0.0, ..ok },
            DetailMap {
                depth: f32::NAN,
                ..ok
            },
            DetailMap { gain: -1.0, ..ok },
        ] {
            assert!(bad.normal_map().is_err(), "{bad:?}");
        }
    }
}
