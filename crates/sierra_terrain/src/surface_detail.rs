//! Detail textures per surface type: what grass, sand, rock and snow look like up close, below
//! the island's 1 m vertex spacing and its colour bands ([`crate::island::Surface`]).
//!
//! Each type is one layer: a tileable height field of the engine's periodic fBm
//! ([`DetailMap::heights`], [`crate::noise::periodic`]), from which come both its tangent-space
//! normal (central differences with wrap-around, [`normals_from_heights`]) and an albedo factor
//! (`1 + contrast · h / depth`: hollows darker, tops lighter, the cavity shading a photograph
//! of the ground would hold). Nothing is downloaded and every layer tiles exactly.
//!
//! A layer's texels are RGBA8, linear: R, G = the normal's X, Y (`· 0.5 + 0.5`; Z is rebuilt as
//! `sqrt(1 − X² − Y²)`, +Y "up" in the image as glTF normal textures), B = albedo factor / 2 (so
//! 128 ≈ ×1, the factor spans `[0, 2)`), A = 255. The forward pass samples the layers as one
//! texture array on the terrain's `(x, z) / UV_TILE` coordinates times
//! [`SurfaceDetail::repeat`], and blends them by the vertex colour's band and the slope.

use crate::detail::{normals_from_heights, DetailMap, UV_TILE};
use crate::error::{finite, Error};

/// One surface type's detail: its height field and how strongly it tints the albedo.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SurfaceLayer {
    /// The height field (its `size` and `tile` are the set's, [`SurfaceDetail`]).
    pub relief: DetailMap,
    /// Ridged: `h → depth − 2·|h|` (sharp creases, rock's cracks), less its mean, instead of `h`.
    pub ridged: bool,
    /// Albedo factor at the highest bump minus 1 (and 1 minus the factor at the lowest), in
    /// `[0, 1)`.
    pub contrast: f32,
}

/// The four layers, in the texture array's order: grass, sand, rock, snow.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SurfaceDetail {
    /// Texels per side of every layer.
    pub size: u32,
    /// Metres one repeat of a layer covers on the ground.
    pub tile: f32,
    /// Grass, sand, rock, snow.
    pub layers: [SurfaceLayer; 4],
}

const fn layer(period: u32, octaves: u32, gain: f32, depth: f32, seed: u64) -> DetailMap {
    DetailMap {
        size: ISLAND_SURFACE_SIZE,
        tile: ISLAND_SURFACE_TILE,
        period,
        octaves,
        gain,
        depth,
        seed: Some(seed),
    }
}

const ISLAND_SURFACE_SIZE: u32 = 512;
/// 16 m / 3: 5.33 m per repeat, 1.04 cm per texel, finer than a pixel at walking height
/// (960×540, 55° vertical field of view: 1 cm is a pixel 5 m away).
const ISLAND_SURFACE_TILE: f32 = UV_TILE / 3.0;

/// The island's surface detail. Feature sizes (lattice cell = `tile / period`): grass tufts
/// of 8 cm down to 2 cm, sand ripples and grain of 17 cm down to 2 cm, rock from 33 cm cracks down to 2 cm,
/// snow from 67 cm drifts down to 8 cm; depths a few millimetres to 3 cm.
pub const ISLAND_SURFACES: SurfaceDetail = SurfaceDetail {
    size: ISLAND_SURFACE_SIZE,
    tile: ISLAND_SURFACE_TILE,
    layers: [
        SurfaceLayer {
            relief: layer(64, 3, 0.7, 0.012, 0x6EA5_5001),
            ridged: false,
            contrast: 0.7,
        },
        SurfaceLayer {
            relief: layer(32, 4, 0.65, 0.006, 0x5A4D_5002),
            ridged: false,
            contrast: 0.7,
        },
        SurfaceLayer {
            relief: layer(16, 5, 0.55, 0.03, 0x80C4_5003),
            ridged: true,
            contrast: 0.45,
        },
        SurfaceLayer {
            relief: layer(8, 4, 0.5, 0.01, 0x5A0B_5004),
            ridged: false,
            contrast: 0.08,
        },
    ],
};

impl SurfaceDetail {
    /// Repeats of a layer per unit of the terrain's texture coordinates (`UV_TILE / tile`).
    pub fn repeat(&self) -> f32 {
        UV_TILE / self.tile
    }

    /// Checks the sizes, the tile and every layer ([`DetailMap::validate`] with this set's
    /// size and tile; a contrast outside `[0, 1)`).
    ///
    /// # Errors
    /// As [`DetailMap::validate`]; [`Error::OutOfRange`] for a contrast outside `[0, 1)`.
    pub fn validate(&self) -> Result<(), Error> {
        for (k, l) in self.layers.iter().enumerate() {
            self.relief(k).validate()?;
            let c = finite("surface detail contrast", f64::from(l.contrast))?;
            if !(0.0..1.0).contains(&c) {
                return Err(Error::OutOfRange {
                    name: format!("surface detail layer {k} contrast"),
                    value: c,
                    expected: "in [0, 1)".into(),
                });
            }
        }
        Ok(())
    }

    fn relief(&self, k: usize) -> DetailMap {
        DetailMap {
            size: self.size,
            tile: self.tile,
            ..self.layers[k].relief
        }
    }

    /// Layer `k`'s heights in metres, `[size][size]`, top row first (ridged where asked).
    ///
    /// # Errors
    /// As [`SurfaceDetail::validate`]; [`Error::OutOfRange`] for `k > 3`.
    pub fn heights(&self, k: usize) -> Result<Vec<f32>, Error> {
        self.validate()?;
        let Some(l) = self.layers.get(k) else {
            return Err(Error::OutOfRange {
                name: "surface detail layer".into(),
                value: k as f64,
                expected: "0..=3".into(),
            });
        };
        let mut h = self.relief(k).heights()?;
        if l.ridged {
            // Creases, then re-centred on 0 so the layer's mean albedo factor stays ≈ 1.
            let depth = l.relief.depth;
            h.iter_mut().for_each(|v| *v = depth - 2.0 * v.abs());
            let mean = h.iter().sum::<f32>() / h.len().max(1) as f32;
            h.iter_mut().for_each(|v| *v -= mean);
        }
        Ok(h)
    }

    /// The four layers' texels (`[layer][size][size][4]` RGBA8, see the module docs), to upload
    /// as one linear texture array with mipmaps.
    ///
    /// # Errors
    /// As [`SurfaceDetail::validate`].
    pub fn layers_rgba8(&self) -> Result<Vec<Vec<u8>>, Error> {
        let n = self.size as usize;
        let texel = self.tile / self.size as f32;
        (0..4)
            .map(|k| {
                let heights = self.heights(k)?;
                let l = &self.layers[k];
                let depth = l.relief.depth.max(f32::MIN_POSITIVE);
                let normals = normals_from_heights(&heights, n, texel);
                let mut out = Vec::with_capacity(n * n * 4);
                for (h, nrm) in heights.iter().zip(&normals) {
                    let albedo = 1.0 + l.contrast * (h / depth).clamp(-1.0, 1.0);
                    out.extend([
                        unorm8(nrm.x * 0.5 + 0.5),
                        unorm8(nrm.y * 0.5 + 0.5),
                        unorm8(albedo * 0.5),
                        255,
                    ]);
                }
                Ok(out)
            })
            .collect()
    }
}

fn unorm8(v: f32) -> u8 {
    (v.clamp(0.0, 1.0) * 255.0).round() as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Small copy of the island's set (64² texels) for fast tests.
    fn small() -> SurfaceDetail {
        let mut s = ISLAND_SURFACES;
        s.size = 64;
        for l in &mut s.layers {
            l.relief.size = 64;
        }
        s
    }

    /// Each layer tiles (its first and last columns and rows differ no more than neighbouring
    /// columns inside), its albedo factor averages ≈ 1 (`B` ≈ 128) and varies by about its
    /// contrast; a contrast of 1 is refused, naming the layer.
    #[test]
    fn layers_tile_average_one_and_vary_by_their_contrast() {
        let s = small();
        let layers = s.layers_rgba8().unwrap();
        assert_eq!(layers.len(), 4);
        for (k, texels) in layers.iter().enumerate() {
            assert_eq!(texels.len(), 64 * 64 * 4);
            let b: Vec<f32> = texels.chunks(4).map(|t| f32::from(t[2])).collect();
            let mean = b.iter().sum::<f32>() / b.len() as f32;
            let (lo, hi) = b
                .iter()
                .fold((255.0f32, 0.0f32), |(l, h), &v| (l.min(v), h.max(v)));
            let contrast = s.layers[k].contrast;
            assert!(
                (mean - 127.5).abs() < 127.5 * contrast * 0.7 + 2.0,
                "layer {k} mean {mean}"
            );
            assert!(
                hi - lo > 127.5 * contrast * 0.5,
                "layer {k} spans {lo}..{hi}"
            );
            let h = s.heights(k).unwrap();
            let step = |a: usize, b: usize| (h[a] - h[b]).abs();
            let inner: f32 = (0..64).map(|j| step(j * 64 + 31, j * 64 + 32)).sum();
            let seam: f32 = (0..64).map(|j| step(j * 64 + 63, j * 64)).sum();
            assert!(
                seam < 3.0 * inner + 1e-6,
                "layer {k}: seam {seam} vs inner {inner}"
            );
        }
        let mut bad = s;
        bad.layers[2].contrast = 1.0;
        let e = bad.layers_rgba8().unwrap_err().to_string();
        assert!(e.contains("layer 2 contrast"), "{e}");
    }
}
