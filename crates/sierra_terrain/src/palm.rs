//! Procedural palm trees (the thesis used five modelled palms; ours are generated): a leaning,
//! tapering trunk of ring segments and a crown of drooping fronds, placed on the island's dry
//! sand band.

use glam::{Mat4, Quat, Vec2, Vec3, Vec4};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{all_positive, finite, named_fields, size, Error};
use crate::island::Island;
use crate::mesh::{grid_cells, Mesh};
use crate::rng;

/// Parameters of the `PalmTrees` level component.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct PalmParams {
    /// Number of palms (`0..=2000`).
    pub count: i64,
    /// Placement and shape seed.
    pub seed: u64,
    /// Trunk height, metres.
    pub height: f32,
    /// Trunk segments (`1..=64`).
    pub trunk_segments: i64,
    /// Trunk base radius, metres.
    pub trunk_radius: f32,
    /// Fronds per crown (`1..=32`).
    pub fronds: i64,
    /// Frond length, metres.
    pub frond_length: f32,
    /// Horizontal lean of the top, as a fraction of the height.
    pub lean: f32,
}

impl Default for PalmParams {
    fn default() -> Self {
        Self {
            count: 14,
            seed: 5,
            height: 7.0,
            trunk_segments: 8,
            trunk_radius: 0.22,
            fronds: 9,
            frond_length: 3.4,
            lean: 0.25,
        }
    }
}

impl PalmParams {
    /// Checks every field.
    ///
    /// # Errors
    /// [`Error::Size`] for counts out of range, [`Error::OutOfRange`] for non-positive lengths.
    pub fn validate(&self) -> Result<(), Error> {
        if self.count != 0 {
            size("palm count", self.count, 2000)?;
        }
        size("trunk_segments", self.trunk_segments, 64)?;
        size("fronds", self.fronds, 32)?;
        let lengths = named_fields!(self: height, trunk_radius, frond_length);
        all_positive(&lengths, "> 0 metres")?;
        finite("lean", f64::from(self.lean))?;
        Ok(())
    }
}

const TRUNK_SIDES: usize = 8;
const FROND_STEPS: usize = 6;

/// One palm in its local frame (base at the origin, Y up), shape varied by `variant`.
///
/// # Errors
/// As [`PalmParams::validate`].
pub fn palm_mesh(params: &PalmParams, variant: u64) -> Result<Mesh, Error> {
    params.validate()?;
    let mut state = params.seed ^ variant.wrapping_mul(0xA24B_AED4_963E_E407);
    let mut m = Mesh::named("palm");
    let segments = params.trunk_segments as usize;
    let lean_dir = rng::range_f32(&mut state, 0.0, std::f32::consts::TAU);
    let lean = Vec3::new(lean_dir.cos(), 0.0, lean_dir.sin()) * params.lean * params.height;
    // Trunk centre line bends quadratically towards the lean.
    let centre = |t: f32| Vec3::new(0.0, t * params.height, 0.0) + lean * t * t;
    let bark = Vec4::new(0.26, 0.18, 0.10, 1.0);
    let bark_dark = Vec4::new(0.16, 0.11, 0.06, 1.0);
    for k in 0..=segments {
        let t = k as f32 / segments as f32;
        let radius = params.trunk_radius * (1.0 - 0.45 * t);
        let c = centre(t);
        for s in 0..=TRUNK_SIDES {
            let a = std::f32::consts::TAU * s as f32 / TRUNK_SIDES as f32;
            let n = Vec3::new(a.cos(), 0.0, -a.sin());
            m.positions.push(c + n * radius);
            m.normals.push(n);
            m.uvs.push(Vec2::new(
                s as f32 / TRUNK_SIDES as f32,
                t * segments as f32,
            ));
            m.colors.push(if k % 2 == 0 { bark_dark } else { bark });
        }
    }
    for (_, [a, b, c, d]) in grid_cells(segments, TRUNK_SIDES) {
        m.indices.extend_from_slice(&[a, b, c, c, b, d]);
    }
    let top = centre(1.0);
    let fronds = params.fronds as usize;
    for f in 0..fronds {
        let yaw = std::f32::consts::TAU * (f as f32 + rng::range_f32(&mut state, -0.2, 0.2))
            / fronds as f32;
        let droop = rng::range_f32(&mut state, 0.7, 1.3);
        add_frond(
            &mut m,
            top,
            yaw,
            params.frond_length * rng::range_f32(&mut state, 0.85, 1.1),
            droop,
        );
    }
    Ok(m)
}

/// A frond: a strip along a drooping arc, widest in the middle, both windings.
fn add_frond(m: &mut Mesh, base: Vec3, yaw: f32, length: f32, droop: f32) {
    let dir = Vec3::new(yaw.cos(), 0.0, yaw.sin());
    let side = Vec3::Y.cross(dir).normalize();
    let green = Vec4::new(0.08, 0.25, 0.04, 1.0);
    let tip_green = Vec4::new(0.18, 0.32, 0.06, 1.0);
    let first = m.positions.len() as u32;
    for k in 0..=FROND_STEPS {
        let t = k as f32 / FROND_STEPS as f32;
        // Rises then droops: a parabola in the frond's vertical plane.
        let p = base + dir * (t * length) + Vec3::Y * (length * (0.35 * t - 0.75 * droop * t * t));
        let width = length * 0.22 * (std::f32::consts::PI * t).sin().max(0.02);
        let tangent = (dir + Vec3::Y * (0.35 - 1.5 * droop * t)).normalize();
        let normal = tangent.cross(side).normalize() * -1.0;
        let normal = if normal.y < 0.0 { -normal } else { normal };
        for s in [-1.0f32, 1.0] {
            m.positions
                .push(p + side * (s * width) - Vec3::Y * (width * 0.3));
            m.normals.push(normal);
            m.uvs.push(Vec2::new((s + 1.0) * 0.5, t));
            m.colors.push(green.lerp(tip_green, t));
        }
    }
    for k in 0..FROND_STEPS as u32 {
        let (a, b, c, d) = (
            first + 2 * k,
            first + 2 * k + 1,
            first + 2 * k + 2,
            first + 2 * k + 3,
        );
        m.indices.extend_from_slice(&[a, b, c, c, b, d]);
        m.indices.extend_from_slice(&[a, c, b, c, d, b]);
    }
}

/// Placement of the palms on the island's dry-sand band: model matrices (random yaw, scale
/// 0.8–1.2, base sunk 0.2 m into the sand), deterministic by seed.
///
/// # Errors
/// As [`PalmParams::validate`].
pub fn place_palms(island: &Island, params: &PalmParams) -> Result<Vec<Mat4>, Error> {
    params.validate()?;
    let mut state = params.seed.wrapping_add(0x9A1E);
    let mut out = Vec::with_capacity(params.count as usize);
    for _ in 0..params.count {
        let Some(p) = island.beach_point(&mut state) else {
            break;
        };
        let yaw = rng::range_f32(&mut state, 0.0, std::f32::consts::TAU);
        let scale = rng::range_f32(&mut state, 0.8, 1.2);
        out.push(Mat4::from_scale_rotation_translation(
            Vec3::splat(scale),
            Quat::from_rotation_y(yaw),
            p - Vec3::Y * 0.2,
        ));
    }
    Ok(out)
}

/// All palms of the island merged in world space (4 shape variants).
///
/// # Errors
/// As [`PalmParams::validate`].
pub fn palms_mesh(island: &Island, params: &PalmParams) -> Result<Mesh, Error> {
    let variants: Vec<Mesh> = (0..4)
        .map(|v| palm_mesh(params, v))
        .collect::<Result<_, _>>()?;
    let mut all = Mesh::named("palms");
    for (i, m) in place_palms(island, params)?.into_iter().enumerate() {
        all.append(&variants[i % variants.len()], m);
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::island::{Surface, TerrainParams};
    use crate::noise::grid::Threads;

    #[test]
    fn palm_has_trunk_and_fronds() {
        let p = PalmParams::default();
        let m = palm_mesh(&p, 0).unwrap();
        m.validate().unwrap();
        let (lo, hi) = m.bounds().unwrap();
        assert!(lo.y.abs() < 1e-5 && hi.y > p.height * 0.95, "{lo} {hi}");
        assert!(hi.x - lo.x > p.frond_length, "crown spreads");
        assert_eq!(
            m.triangle_count(),
            8 * 8 * 2 + 9 * FROND_STEPS * 4,
            "trunk quads + double-sided fronds"
        );
    }

    #[test]
    fn palms_stand_on_dry_sand() {
        let island = Island::generate_cpu(
            &TerrainParams {
                resolution: 129,
                ..TerrainParams::default()
            },
            Threads::All,
        )
        .unwrap();
        let places = place_palms(&island, &PalmParams::default()).unwrap();
        assert_eq!(places.len(), 14);
        for m in places {
            let p = m.transform_point3(Vec3::ZERO) + Vec3::Y * 0.2;
            let n = island.height_field().normal_at(p.x, p.z).unwrap();
            assert_eq!(island.classify(p.y, n), Surface::DrySand);
        }
        assert!(palms_mesh(&island, &PalmParams::default())
            .unwrap()
            .validate()
            .is_ok());
    }

    #[test]
    fn bad_palms_are_errors() {
        let mut p = PalmParams {
            fronds: 0,
            ..PalmParams::default()
        };
        assert!(palm_mesh(&p, 0).is_err());
        p.fronds = 5;
        p.height = -1.0;
        assert!(palm_mesh(&p, 0).is_err());
        p.height = 5.0;
        p.count = -2;
        assert!(p.validate().is_err());
    }
}
