//! The island: mountains and beach as one height field shaped from two fBm channels, with
//! surface colours by height and slope (thesis, seed 002, §2.3: mountains, dry and wet beach,
//! sea).
//!
//! The expensive part, the fBm grids, is separate from the cheap shaping so the grids can come
//! from the GPU (`sierra_render::compute::noise`) or the CPU ([`NoiseGridRequest::run_cpu`]) and
//! feed the same [`Island::from_noise`]. Heights (metres, sea level at `sea_level`):
//!
//! ```text
//! r      = |(x, z)| / (size/2) + coast_wobble · coast_fbm(x/coast_feature, z/coast_feature)
//! land   = smoothstep(0.95, 0.62, r)          1 inland, 0 offshore (the beach is the ramp)
//! inner  = smoothstep(0.72, 0.22, r)          where mountains may rise
//! ridge  = ridged_fbm(x/feature, z/feature) / Σamp   in [0, 1]
//! h      = sea_level − sea_depth + (sea_depth + 1.4·beach_height)·land
//!          + height_scale · inner · smoothstep(0.25, 0.85, ridge)
//! ```

use glam::{Vec2, Vec3, Vec4};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{all_finite, all_positive, named_fields, size, size_in, Error};
use crate::heightfield::{HeightField, RayHit, MAX_RESOLUTION};
use crate::noise::grid::{fbm2_grid, GridSpec, Threads};
use crate::noise::{Fbm, FbmKind, FbmParams, Permutation};

/// Where the island's fBm grids are computed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Backend {
    /// Compute shader (`sierra_render::compute::noise`); heights are read back once.
    #[default]
    Gpu,
    /// CPU SIMD grid path on all threads.
    Cpu,
}

/// Parameters of the `Terrain` level component (all fields optional in JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct TerrainParams {
    /// Side of the square terrain, metres.
    pub size: f32,
    /// Height samples per side (`2..=16384`); `resolution − 1` should be a multiple of
    /// `chunk_cells`.
    pub resolution: i64,
    /// Highest mountain relief above the beach, metres.
    pub height_scale: f32,
    /// Seed of both noise permutations (`None`: Perlin's reference permutation for mountains).
    pub seed: Option<u64>,
    /// fBm of the mountains (ridged).
    pub mountains: FbmParams,
    /// Metres per noise unit for the mountains.
    pub feature_size: f32,
    /// Metres per noise unit for the coastline wobble.
    pub coast_feature_size: f32,
    /// How far the coastline wanders, as a fraction of the island radius.
    pub coast_wobble: f32,
    /// Height of the sea surface, metres.
    pub sea_level: f32,
    /// Depth of the sea floor below sea level, metres.
    pub sea_depth: f32,
    /// Wet sand up to this height above sea level, metres.
    pub wet_sand_height: f32,
    /// Dry sand up to this height above sea level, metres.
    pub beach_height: f32,
    /// Snow above this fraction of `height_scale`.
    pub snow_line: f32,
    /// Grid cells per chunk side for level-of-detail drawing.
    pub chunk_cells: i64,
    /// GPU (default) or CPU generation.
    pub backend: Backend,
}

impl Default for TerrainParams {
    fn default() -> Self {
        Self {
            size: 512.0,
            resolution: 513,
            height_scale: 80.0,
            seed: Some(2014),
            mountains: FbmParams {
                octaves: 6.0,
                lacunarity: 2.0,
                gain: 0.5,
            },
            feature_size: 150.0,
            coast_feature_size: 180.0,
            coast_wobble: 0.22,
            sea_level: 0.0,
            sea_depth: 10.0,
            wet_sand_height: 0.6,
            beach_height: 2.5,
            snow_line: 0.7,
            chunk_cells: 64,
            backend: Backend::Gpu,
        }
    }
}

impl TerrainParams {
    /// Checks every field.
    ///
    /// # Errors
    /// [`Error::Size`] for a resolution or chunk size out of range, [`Error::Octaves`] and
    /// [`Error::NonFinite`] for bad fBm parameters, [`Error::OutOfRange`] for non-positive
    /// lengths.
    pub fn validate(&self) -> Result<(), Error> {
        size_in("resolution", self.resolution, 3, MAX_RESOLUTION)?;
        size("chunk_cells", self.chunk_cells, 1024)?;
        Fbm::new(self.mountains)?;
        let lengths = named_fields!(self: size, feature_size, coast_feature_size);
        all_positive(&lengths, "> 0 metres")?;
        all_finite(&named_fields!(self: height_scale, coast_wobble, sea_level, sea_depth))?;
        all_finite(&named_fields!(self: wet_sand_height, beach_height, snow_line))?;
        Ok(())
    }

    fn grid(&self, feature: f32) -> Result<GridSpec, Error> {
        let n = self.resolution;
        let spacing = self.size / (n - 1) as f32 / feature;
        let origin = -0.5 * self.size / feature;
        GridSpec::new(n, n, [origin, origin], [spacing, spacing])
    }

    /// The two fBm grids the island needs: `[coast, mountains]`.
    ///
    /// # Errors
    /// As [`Self::validate`].
    pub fn noise_requests(&self) -> Result<[NoiseGridRequest; 2], Error> {
        self.validate()?;
        let coast_seed = self.seed.map_or(1, |s| s.wrapping_add(0x5EA));
        Ok([
            NoiseGridRequest {
                permutation: Permutation::from_seed(coast_seed),
                fbm: Fbm::new(FbmParams {
                    octaves: 3.0,
                    lacunarity: 2.0,
                    gain: 0.5,
                })?,
                grid: self.grid(self.coast_feature_size)?,
            },
            NoiseGridRequest {
                permutation: Permutation::from_optional_seed(self.seed),
                fbm: Fbm::new(self.mountains)?.with_kind(FbmKind::Ridged),
                grid: self.grid(self.feature_size)?,
            },
        ])
    }
}

/// One fBm grid to compute, on whichever backend.
#[derive(Clone, Debug)]
pub struct NoiseGridRequest {
    /// Noise permutation.
    pub permutation: Permutation,
    /// fBm parameters and kind.
    pub fbm: Fbm,
    /// Sample positions (noise units).
    pub grid: GridSpec,
}

impl NoiseGridRequest {
    /// Computes the grid on the CPU: `[height][width]` row-major `f32`.
    pub fn run_cpu(&self, threads: Threads) -> Vec<f32> {
        let mut out = vec![0f32; self.grid.width * self.grid.height];
        // Length matches by construction.
        let _ = fbm2_grid(&self.permutation, &self.fbm, &self.grid, threads, &mut out);
        out
    }
}

/// Surface classes of the island, by height above sea level and slope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surface {
    /// Below `wet_sand_height` (and the sea floor).
    WetSand,
    /// Up to `beach_height`.
    DrySand,
    /// Gentle slopes above the beach.
    Grass,
    /// Steep slopes (normal.y < 0.8) above the beach.
    Rock,
    /// Above the snow line on slopes that hold snow (normal.y ≥ 0.6).
    Snow,
}

impl Surface {
    /// Linear RGB(A) colour of the class.
    pub fn color(self) -> Vec4 {
        match self {
            Surface::WetSand => Vec4::new(0.30, 0.22, 0.12, 1.0),
            Surface::DrySand => Vec4::new(0.72, 0.60, 0.38, 1.0),
            Surface::Grass => Vec4::new(0.10, 0.24, 0.04, 1.0),
            Surface::Rock => Vec4::new(0.22, 0.19, 0.17, 1.0),
            Surface::Snow => Vec4::new(0.90, 0.92, 0.95, 1.0),
        }
    }
}

/// The generated island: its parameters and height field.
#[derive(Clone, Debug)]
pub struct Island {
    params: TerrainParams,
    field: HeightField,
}

fn smoothstep(e0: f32, e1: f32, x: f32) -> f32 {
    let t = ((x - e0) / (e1 - e0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

impl Island {
    /// Generates the island with the CPU grid path.
    ///
    /// # Errors
    /// As [`TerrainParams::validate`].
    pub fn generate_cpu(params: &TerrainParams, threads: Threads) -> Result<Self, Error> {
        let [coast, mountains] = params.noise_requests()?;
        Self::from_noise(params, &coast.run_cpu(threads), &mountains.run_cpu(threads))
    }

    /// Shapes the island from its two fBm grids (`[resolution²]` each, as
    /// [`TerrainParams::noise_requests`] describes them).
    ///
    /// # Errors
    /// [`Error::Size`] when a grid has the wrong length; as [`TerrainParams::validate`].
    pub fn from_noise(
        params: &TerrainParams,
        coast: &[f32],
        mountains: &[f32],
    ) -> Result<Self, Error> {
        params.validate()?;
        let n = params.resolution as usize;
        for (name, g) in [("coast grid", coast), ("mountain grid", mountains)] {
            if g.len() != n * n {
                return Err(Error::length(name, g.len(), n * n));
            }
        }
        let ridge_bound = Fbm::new(params.mountains)?.amplitude_bound() as f32;
        let spacing = params.size / (n - 1) as f32;
        let radius = params.size * 0.5;
        let p = params;
        let heights = (0..n * n)
            .map(|k| {
                let (i, j) = (k % n, k / n);
                let xz = Vec2::new(-radius + i as f32 * spacing, -radius + j as f32 * spacing);
                let r = xz.length() / radius + p.coast_wobble * coast[k];
                let land = smoothstep(0.95, 0.62, r);
                let inner = smoothstep(0.72, 0.22, r);
                let ridge = mountains[k] / ridge_bound;
                p.sea_level - p.sea_depth
                    + (p.sea_depth + 1.4 * p.beach_height) * land
                    + p.height_scale * inner * smoothstep(0.25, 0.85, ridge)
            })
            .collect();
        Ok(Self {
            params: params.clone(),
            field: HeightField::new(n, params.size, heights)?,
        })
    }

    /// The parameters it was generated with.
    pub fn params(&self) -> &TerrainParams {
        &self.params
    }

    /// The height field (metres).
    pub fn height_field(&self) -> &HeightField {
        &self.field
    }

    /// Ground height at world `(x, z)`, or `None` off the terrain.
    pub fn height_at(&self, x: f32, z: f32) -> Option<f32> {
        self.field.height_at(x, z)
    }

    /// First hit of a ray with the ground (see [`HeightField::raycast`]).
    pub fn raycast(&self, origin: Vec3, direction: Vec3, max_distance: f32) -> Option<RayHit> {
        self.field.raycast(origin, direction, max_distance)
    }

    /// Surface class at a height (metres) with a given normal.
    pub fn classify(&self, height: f32, normal: Vec3) -> Surface {
        let p = &self.params;
        let above = height - p.sea_level;
        if above < p.wet_sand_height {
            Surface::WetSand
        } else if above < p.beach_height {
            Surface::DrySand
        } else if above > p.snow_line * p.height_scale && normal.y >= 0.6 {
            Surface::Snow
        } else if normal.y < 0.8 {
            Surface::Rock
        } else {
            Surface::Grass
        }
    }

    /// Vertex colour: the class colour, blended across band edges so bands do not alias.
    pub fn surface_color(&self, height: f32, normal: Vec3) -> Vec4 {
        let p = &self.params;
        let above = height - p.sea_level;
        let wet = Surface::WetSand.color();
        let dry = Surface::DrySand.color();
        let high = if above > p.snow_line * p.height_scale && normal.y >= 0.6 {
            Surface::Snow.color()
        } else {
            Surface::Rock
                .color()
                .lerp(Surface::Grass.color(), smoothstep(0.72, 0.86, normal.y))
        };
        let sand = wet.lerp(
            dry,
            smoothstep(p.wet_sand_height - 0.2, p.wet_sand_height + 0.2, above),
        );
        sand.lerp(
            high,
            smoothstep(p.beach_height - 0.3, p.beach_height + 0.5, above),
        )
    }

    /// World position of a random point on the dry-sand beach band with a gentle slope, drawn
    /// deterministically from `seed`; `None` after many failed tries.
    pub fn beach_point(&self, rng: &mut u64) -> Option<Vec3> {
        let p = &self.params;
        let half = p.size * 0.5;
        for _ in 0..4096 {
            let x = (crate::rng::unit_f32(rng) * 2.0 - 1.0) * half * 0.98;
            let z = (crate::rng::unit_f32(rng) * 2.0 - 1.0) * half * 0.98;
            let h = self.field.height_at(x, z)?;
            let above = h - p.sea_level;
            let n = self.field.normal_at(x, z)?;
            if above > p.wet_sand_height + 0.3 && above < p.beach_height && n.y > 0.95 {
                return Some(Vec3::new(x, h, z));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> TerrainParams {
        TerrainParams {
            resolution: 129,
            chunk_cells: 32,
            ..TerrainParams::default()
        }
    }

    #[test]
    fn island_has_sea_beach_and_mountains() {
        let island = Island::generate_cpu(&small(), Threads::All).unwrap();
        let p = island.params().clone();
        let (lo, hi) = island.height_field().height_range();
        assert!(lo < p.sea_level - 0.8 * p.sea_depth, "sea floor {lo}");
        assert!(hi > p.beach_height + 0.3 * p.height_scale, "peak {hi}");
        let corner = island.height_at(-250.0, -250.0).unwrap();
        assert!(corner < p.sea_level, "corners are sea");
        let mut counts = [0usize; 5];
        let hf = island.height_field();
        for j in 0..hf.resolution() {
            for i in 0..hf.resolution() {
                let s = island.classify(hf.sample(i, j), hf.sample_normal(i, j));
                counts[s as usize] += 1;
            }
        }
        assert!(
            counts.iter().all(|&c| c > 0),
            "every surface class present: {counts:?}"
        );
    }

    #[test]
    fn beach_points_are_on_dry_sand() {
        let island = Island::generate_cpu(&small(), Threads::One).unwrap();
        let mut rng = 5;
        for _ in 0..10 {
            let pt = island.beach_point(&mut rng).unwrap();
            let n = island.height_field().normal_at(pt.x, pt.z).unwrap();
            assert_eq!(island.classify(pt.y, n), Surface::DrySand);
        }
    }

    #[test]
    fn level_json_uses_camel_case_and_rejects_unknown_fields() {
        let p: TerrainParams = serde_json::from_str(
            r#"{"heightScale": 50, "resolution": 257, "mountains": {"octaves": 5.5}, "backend": "cpu"}"#,
        )
        .unwrap();
        assert_eq!(p.height_scale, 50.0);
        assert_eq!(p.mountains.octaves, 5.5);
        assert_eq!(p.mountains.lacunarity, 2.0);
        assert_eq!(p.backend, Backend::Cpu);
        let e = serde_json::from_str::<TerrainParams>(r#"{"heigth": 1}"#).unwrap_err();
        assert!(e.to_string().contains("heigth"), "{e}");
    }

    /// Issue #44: a resolution of 1 said "(at least 3) = 1 … must be in 1..=16384"; the range
    /// in the message is now the rule itself.
    #[test]
    fn a_resolution_below_three_names_the_real_range() {
        let mut p = small();
        for r in [1, 2] {
            p.resolution = r;
            let e = p.validate().unwrap_err().to_string();
            assert_eq!(
                e,
                format!("resolution = {r} is not a valid size: it must be in 3..={MAX_RESOLUTION}")
            );
        }
        // Negative control: the smallest accepted resolution passes.
        p.resolution = 3;
        p.validate().unwrap();
    }

    #[test]
    fn bad_parameters_are_errors() {
        let mut p = small();
        p.resolution = -5;
        assert!(matches!(
            Island::generate_cpu(&p, Threads::One),
            Err(Error::Size { .. })
        ));
        p.resolution = MAX_RESOLUTION + 1;
        assert!(matches!(p.validate(), Err(Error::Size { .. })));
        let mut p = small();
        p.mountains.octaves = 0.0;
        assert!(matches!(p.validate(), Err(Error::Octaves { .. })));
        p.mountains.octaves = 33.0;
        assert!(matches!(p.validate(), Err(Error::Octaves { .. })));
        let mut p = small();
        p.size = f32::NAN;
        assert!(p.validate().is_err());
        assert!(Island::from_noise(&small(), &[0.0; 3], &[0.0; 3]).is_err());
    }
}
