//! The fractal planet hanging in the sky (thesis, seed 002, §2.3: "planeta fractal" with a
//! cloud layer): a sphere whose radius is displaced by 3D fBm of the unit direction, oceans
//! where the fBm falls below zero, and a slightly larger translucent cloud shell whose alpha is
//! another fBm.
//!
//! Each mesh is a UV sphere whose vertices sample one 3D fBm at `direction * frequency`; the
//! samples come from [`PlanetNoise::evaluate_cpu`] (the reference) or from the GPU's noise
//! compute shader (`sierra_content::planet`), and [`planet_mesh_from_noise`] /
//! [`cloud_mesh_from_noise`] build the same mesh from either. [`THESIS_RINGS`] gives the
//! thesis's density (Table 1: 318,400 triangles for the planet and its clouds).

use glam::{Quat, Vec2, Vec3, Vec4};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{all_finite, all_positive, named_fields, size_in, Error};
use crate::mesh::{grid_cells, Mesh};
use crate::noise::{Fbm, FbmParams, Permutation};

/// Parameters of the `Planet` level component.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct PlanetParams {
    /// Centre in the world (metres) — far away in the sky.
    pub position: [f32; 3],
    /// Radius of the undisplaced sphere, metres.
    pub radius: f32,
    /// Largest displacement as a fraction of the radius.
    pub relief: f32,
    /// Latitude rings of the sphere (`3..=2048`); twice as many segments around.
    pub rings: i64,
    /// fBm of the surface.
    pub surface: FbmParams,
    /// Noise units per unit direction (higher: more continents).
    pub surface_frequency: f32,
    /// Noise seed (`None`: reference permutation).
    pub seed: Option<u64>,
    /// Cloud shell radius as a multiple of `radius`.
    pub cloud_height: f32,
    /// fBm of the cloud cover.
    pub clouds: FbmParams,
    /// Noise units per unit direction for clouds.
    pub cloud_frequency: f32,
    /// fBm value where clouds start (higher: fewer clouds).
    pub cloud_coverage: f32,
    /// Cloud rotation speed about the planet's axis, radians per second.
    pub cloud_speed: f32,
    /// Planet rotation speed, radians per second.
    pub spin_speed: f32,
}

/// Latitude rings of the planet and of its clouds at the thesis's density (seed 002, Table 1:
/// "Planeta", 318,400 triangles, 955,200 indices): a UV sphere of `R` rings has `4R² − 4R`
/// triangles, so two spheres of 200 rings have 2 × 159,200 = 318,400, on 2 × 80,601 =
/// 161,202 vertices (the seam column and the pole rows are duplicated for texture coordinates;
/// the thesis lists 152,202).
pub const THESIS_RINGS: i64 = 200;

/// The fBm a planet or cloud mesh samples at every vertex: `fbm3(perm, d * frequency)` for the
/// vertex's unit direction `d`.
#[derive(Clone, Debug)]
pub struct PlanetNoise {
    /// The permutation.
    pub perm: Permutation,
    /// The fBm.
    pub fbm: Fbm,
    /// Noise units per unit direction.
    pub frequency: f32,
}

impl PlanetNoise {
    /// The surface's fBm of `params`.
    ///
    /// # Errors
    /// As [`PlanetParams::validate`].
    pub fn surface(params: &PlanetParams) -> Result<Self, Error> {
        params.validate()?;
        Ok(Self {
            perm: Permutation::from_optional_seed(params.seed),
            fbm: Fbm::new(params.surface)?,
            frequency: params.surface_frequency,
        })
    }

    /// The clouds' fBm of `params`.
    ///
    /// # Errors
    /// As [`PlanetParams::validate`].
    pub fn clouds(params: &PlanetParams) -> Result<Self, Error> {
        params.validate()?;
        Ok(Self {
            perm: Permutation::from_seed(params.seed.unwrap_or(0).wrapping_add(0xC10D)),
            fbm: Fbm::new(params.clouds)?,
            frequency: params.cloud_frequency,
        })
    }

    /// The points the fBm is sampled at, noise units: `d * frequency` for every vertex
    /// direction `d` of a `rings`-ring sphere, in vertex order.
    pub fn points(&self, rings: usize) -> Vec<[f32; 3]> {
        let f = self.frequency;
        unit_sphere(rings, "points")
            .positions
            .iter()
            .map(|d| [d.x * f, d.y * f, d.z * f])
            .collect()
    }

    /// The fBm at `points`, on the CPU in f32 (the reference the GPU is held to).
    pub fn evaluate_cpu(&self, points: &[[f32; 3]]) -> Vec<f32> {
        points
            .iter()
            .map(|p| self.fbm.fbm3(&self.perm, p[0], p[1], p[2]))
            .collect()
    }
}

impl Default for PlanetParams {
    fn default() -> Self {
        Self {
            position: [-350.0, 260.0, -700.0],
            radius: 120.0,
            relief: 0.06,
            rings: 96,
            surface: FbmParams {
                octaves: 7.0,
                lacunarity: 2.0,
                gain: 0.5,
            },
            surface_frequency: 1.6,
            seed: Some(7),
            cloud_height: 1.06,
            clouds: FbmParams {
                octaves: 5.0,
                lacunarity: 2.1,
                gain: 0.5,
            },
            cloud_frequency: 2.5,
            cloud_coverage: 0.05,
            cloud_speed: 0.02,
            spin_speed: 0.005,
        }
    }
}

impl PlanetParams {
    /// Checks every field.
    ///
    /// # Errors
    /// [`Error::Size`] for `rings`, fBm errors, [`Error::NonFinite`] / [`Error::OutOfRange`].
    pub fn validate(&self) -> Result<(), Error> {
        size_in("planet rings", self.rings, 3, 2048)?;
        Fbm::new(self.surface)?;
        Fbm::new(self.clouds)?;
        all_positive(&named_fields!(self: radius, cloud_height), "> 0")?;
        all_finite(&named_fields!(self: relief, surface_frequency, cloud_frequency))?;
        all_finite(&named_fields!(self: cloud_coverage, cloud_speed, spin_speed))?;
        all_finite(&[
            ("position.x", self.position[0]),
            ("position.y", self.position[1]),
            ("position.z", self.position[2]),
        ])?;
        Ok(())
    }

    /// Rotation of the planet surface at time `t` seconds (about +Y).
    pub fn spin(&self, t: f32) -> Quat {
        Quat::from_rotation_y(self.spin_speed * t)
    }

    /// Rotation of the cloud layer at time `t` seconds (about +Y, slowly drifting).
    pub fn cloud_rotation(&self, t: f32) -> Quat {
        Quat::from_rotation_y(self.cloud_speed * t)
    }
}

/// UV sphere of unit directions: `(rings + 1) × (2·rings + 1)` vertices (the seam column is
/// duplicated for texture coordinates), triangles counter-clockwise seen from outside.
fn unit_sphere(rings: usize, name: &str) -> Mesh {
    let segments = rings * 2;
    let mut m = Mesh::named(name);
    for r in 0..=rings {
        let theta = std::f32::consts::PI * r as f32 / rings as f32;
        for s in 0..=segments {
            let phi = std::f32::consts::TAU * (s % segments) as f32 / segments as f32;
            let dir = Vec3::new(
                theta.sin() * phi.cos(),
                theta.cos(),
                -theta.sin() * phi.sin(),
            );
            m.positions.push(dir);
            m.normals.push(dir);
            m.uvs.push(Vec2::new(
                s as f32 / segments as f32,
                r as f32 / rings as f32,
            ));
        }
    }
    // The first and last bands meet at a pole: one triangle per cell.
    for (r, [a, b, c, d]) in grid_cells(rings, segments) {
        if r != 0 {
            m.indices.extend_from_slice(&[a, c, b]);
        }
        if r + 1 != rings as u32 {
            m.indices.extend_from_slice(&[b, c, d]);
        }
    }
    m
}

/// The planet surface in its local frame (centre at the origin): displaced sphere coloured
/// ocean / sand / forest / rock / snow by altitude, its fBm evaluated on the CPU.
///
/// # Errors
/// As [`PlanetParams::validate`].
pub fn planet_mesh(params: &PlanetParams) -> Result<Mesh, Error> {
    let noise = PlanetNoise::surface(params)?;
    let values = noise.evaluate_cpu(&noise.points(params.rings as usize));
    planet_mesh_from_noise(params, &values)
}

/// Checks that `values` has one sample per vertex of `params`' sphere.
fn check_samples(params: &PlanetParams, values: &[f32]) -> Result<(), Error> {
    params.validate()?;
    let rings = params.rings as usize;
    let expected = (rings + 1) * (2 * rings + 1);
    if values.len() != expected || values.iter().any(|v| !v.is_finite()) {
        return Err(Error::OutOfRange {
            name: "planet noise samples".into(),
            value: values.len() as f64,
            expected: format!("{expected} finite values (one per vertex)"),
        });
    }
    Ok(())
}

/// [`planet_mesh`] from the surface fBm's values at [`PlanetNoise::points`] (CPU or GPU).
///
/// # Errors
/// As [`PlanetParams::validate`]; [`Error::OutOfRange`] when `values` is not one finite value
/// per vertex.
pub fn planet_mesh_from_noise(params: &PlanetParams, values: &[f32]) -> Result<Mesh, Error> {
    check_samples(params, values)?;
    let bound = Fbm::new(params.surface)?.amplitude_bound() as f32;
    let mut m = unit_sphere(params.rings as usize, "planet");
    let colors = m
        .positions
        .iter_mut()
        .zip(values)
        .map(|(p, &v)| {
            let dir = *p;
            let n = v / bound;
            // Oceans are flat at the undisplaced radius.
            let h = n.max(0.0);
            *p = dir * params.radius * (1.0 + params.relief * h * 2.0);
            planet_color(n, dir.y.abs())
        })
        .collect();
    m.colors = colors;
    m.smooth_normals_welded();
    Ok(m)
}

fn planet_color(n: f32, latitude: f32) -> Vec4 {
    let deep = Vec4::new(0.01, 0.04, 0.15, 1.0);
    let shallow = Vec4::new(0.03, 0.15, 0.32, 1.0);
    let sand = Vec4::new(0.55, 0.48, 0.30, 1.0);
    let forest = Vec4::new(0.08, 0.22, 0.05, 1.0);
    let rock = Vec4::new(0.28, 0.23, 0.18, 1.0);
    let snow = Vec4::new(0.9, 0.92, 0.95, 1.0);
    let c = if n < 0.0 {
        deep.lerp(shallow, (1.0 + n * 6.0).clamp(0.0, 1.0))
    } else if n < 0.02 {
        sand
    } else if n < 0.18 {
        forest.lerp(rock, ((n - 0.02) / 0.16).clamp(0.0, 1.0))
    } else {
        rock.lerp(snow, ((n - 0.18) / 0.1).clamp(0.0, 1.0))
    };
    // Polar caps.
    c.lerp(snow, ((latitude - 0.85) / 0.08).clamp(0.0, 1.0))
}

/// The cloud shell in the planet's local frame: white vertices whose alpha is
/// `smoothstep(coverage, coverage + 0.35, fbm3(dir))` (draw with alpha blending, after the
/// planet, rotated by [`PlanetParams::cloud_rotation`]), its fBm evaluated on the CPU.
///
/// # Errors
/// As [`PlanetParams::validate`].
pub fn cloud_mesh(params: &PlanetParams) -> Result<Mesh, Error> {
    let noise = PlanetNoise::clouds(params)?;
    let values = noise.evaluate_cpu(&noise.points(params.rings as usize));
    cloud_mesh_from_noise(params, &values)
}

/// [`cloud_mesh`] from the cloud fBm's values at [`PlanetNoise::points`] (CPU or GPU).
///
/// # Errors
/// As [`planet_mesh_from_noise`].
pub fn cloud_mesh_from_noise(params: &PlanetParams, values: &[f32]) -> Result<Mesh, Error> {
    check_samples(params, values)?;
    let bound = Fbm::new(params.clouds)?.amplitude_bound() as f32;
    let mut m = unit_sphere(params.rings as usize, "clouds");
    let r = params.radius * params.cloud_height;
    m.colors = m
        .positions
        .iter_mut()
        .zip(values)
        .map(|(p, &v)| {
            let n = v / bound;
            *p *= r;
            let t = ((n - params.cloud_coverage) / 0.35).clamp(0.0, 1.0);
            Vec4::new(1.0, 1.0, 1.0, t * t * (3.0 - 2.0 * t) * 0.9)
        })
        .collect();
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planet_is_a_displaced_sphere_with_oceans_and_clouds() {
        let p = PlanetParams {
            rings: 48,
            ..PlanetParams::default()
        };
        let planet = planet_mesh(&p).unwrap();
        planet.validate().unwrap();
        let radii: Vec<f32> = planet.positions.iter().map(|v| v.length()).collect();
        let lo = radii.iter().copied().fold(f32::INFINITY, f32::min);
        let hi = radii.iter().copied().fold(0.0, f32::max);
        assert!(
            (lo - p.radius).abs() < 1e-3,
            "oceans at the base radius: {lo}"
        );
        assert!(hi > p.radius * 1.02 && hi <= p.radius * (1.0 + 2.0 * p.relief) + 1e-3);
        let ocean = radii.iter().filter(|&&r| r < p.radius + 1e-3).count();
        assert!(
            ocean > radii.len() / 10 && ocean < radii.len() * 9 / 10,
            "{ocean}"
        );
        let clouds = cloud_mesh(&p).unwrap();
        clouds.validate().unwrap();
        let clear = clouds.colors.iter().filter(|c| c.w == 0.0).count();
        let cloudy = clouds.colors.iter().filter(|c| c.w > 0.5).count();
        assert!(clear > 0 && cloudy > 0, "{clear} {cloudy}");
        // Outward normals.
        for (pos, n) in planet.positions.iter().zip(&planet.normals) {
            assert!(pos.normalize().dot(*n) > 0.3);
        }
    }

    /// Two spheres of [`THESIS_RINGS`] rings: the thesis's 318,400 triangles.
    #[test]
    fn the_thesis_density_has_the_thesis_triangle_count() {
        let m = unit_sphere(THESIS_RINGS as usize, "t");
        assert_eq!(2 * m.indices.len() / 3, 318_400);
        assert_eq!(2 * m.positions.len(), 161_202);
        let p = PlanetParams {
            rings: 8,
            ..PlanetParams::default()
        };
        assert!(planet_mesh_from_noise(&p, &[0.0; 3]).is_err());
        assert!(cloud_mesh_from_noise(&p, &vec![f32::NAN; 9 * 17]).is_err());
        assert!(cloud_mesh_from_noise(&p, &vec![0.0; 9 * 17]).is_ok());
    }

    #[test]
    fn bad_planets_are_errors() {
        let mut p = PlanetParams {
            rings: -1,
            ..PlanetParams::default()
        };
        assert!(planet_mesh(&p).is_err());
        p.rings = 10;
        p.surface.octaves = 40.0;
        assert!(planet_mesh(&p).is_err());
        p.surface.octaves = 4.0;
        p.radius = f32::INFINITY;
        assert!(cloud_mesh(&p).is_err());
    }
}
