//! Birds (thesis, seed 002, §2.3.4): a few simple birds, each a handful of triangles whose
//! wings alternate between poses to flap, flying in straight lines between random waypoints and
//! picking a new one when they arrive. Deterministic by seed.

use glam::{Mat4, Quat, Vec3, Vec4};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{all_positive, finite, named_fields, size, Error};
use crate::mesh::Mesh;
use crate::rng;

/// Parameters of the `Birds` level component.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct BirdsParams {
    /// Number of birds (`1..=10000`; the thesis has 10).
    pub count: i64,
    /// Seed of the waypoints and flap phases.
    pub seed: u64,
    /// Centre of the box the waypoints are drawn in, metres.
    pub center: [f32; 3],
    /// Half extents of that box, metres.
    pub half_extent: [f32; 3],
    /// Flight speed, metres per second.
    pub speed: f32,
    /// Wingspan, metres.
    pub wingspan: f32,
    /// Wing beats per second.
    pub flap_hz: f32,
}

impl Default for BirdsParams {
    fn default() -> Self {
        Self {
            count: 10,
            seed: 22,
            center: [0.0, 45.0, 0.0],
            half_extent: [180.0, 15.0, 180.0],
            speed: 9.0,
            wingspan: 1.6,
            flap_hz: 2.5,
        }
    }
}

/// One bird's state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bird {
    /// Position, metres.
    pub position: Vec3,
    /// Waypoint it flies to.
    pub target: Vec3,
    /// Unit flight direction.
    pub heading: Vec3,
    /// Flap phase in `[0, 1)`.
    pub phase: f32,
    rng: u64,
}

/// All birds of a level.
#[derive(Clone, Debug)]
pub struct Flock {
    params: BirdsParams,
    birds: Vec<Bird>,
}

/// Vertices of one bird (body + two two-segment wings), before the wing pose.
const BIRD_VERTICES: usize = 10;

impl Flock {
    /// Places the birds at random waypoints, each heading to another.
    ///
    /// # Errors
    /// [`Error::Size`] for a count outside `1..=10000`; [`Error::NonFinite`]/[`Error::OutOfRange`].
    pub fn new(params: &BirdsParams) -> Result<Self, Error> {
        let count = size("bird count", params.count, 10_000)?;
        all_positive(&named_fields!(params: speed, wingspan, flap_hz), "> 0")?;
        for v in params.center.iter().chain(&params.half_extent) {
            finite("birds box", f64::from(*v))?;
        }
        let birds = (0..count)
            .map(|i| {
                // Hash seed and index into an unrelated SplitMix64 state per bird (consecutive
                // states would give overlapping streams).
                let mut mix = params.seed ^ (i as u64).wrapping_mul(0xD1B5_4A32_D192_ED03);
                let mut state = rng::next_u64(&mut mix);
                let position = waypoint(params, &mut state);
                let target = waypoint(params, &mut state);
                Bird {
                    position,
                    target,
                    heading: (target - position).normalize_or(Vec3::X),
                    phase: rng::unit_f32(&mut state),
                    rng: state,
                }
            })
            .collect();
        Ok(Self {
            params: params.clone(),
            birds,
        })
    }

    /// The birds.
    pub fn birds(&self) -> &[Bird] {
        &self.birds
    }

    /// Advances by `dt` seconds: straight flight towards the waypoint; on arrival a new random
    /// waypoint is drawn (leftover distance is flown towards it).
    pub fn update(&mut self, dt: f32) {
        let p = &self.params;
        for b in &mut self.birds {
            let mut travel = p.speed * dt.max(0.0);
            for _ in 0..8 {
                let to = b.target - b.position;
                let d = to.length();
                if d > travel {
                    b.heading = to / d;
                    b.position += b.heading * travel;
                    break;
                }
                b.position = b.target;
                travel -= d;
                b.target = waypoint(p, &mut b.rng);
            }
            b.phase = (b.phase + p.flap_hz * dt.max(0.0)).fract();
        }
    }

    /// Model matrix of bird `i`: faces its heading (+Z forward), wings along ±X, Y up.
    pub fn transform(&self, i: usize) -> Mat4 {
        let b = &self.birds[i];
        let yaw = Quat::from_rotation_arc(
            Vec3::Z,
            Vec3::new(b.heading.x, 0.0, b.heading.z).normalize_or(Vec3::Z),
        );
        Mat4::from_rotation_translation(yaw, b.position)
    }

    /// All birds in world space as one small mesh (rebuild it every frame; `count × 8` triangles).
    pub fn mesh(&self) -> Mesh {
        let mut all = Mesh::named("birds");
        for (i, b) in self.birds.iter().enumerate() {
            all.append(
                &bird_mesh(self.params.wingspan, wing_pose(b.phase)),
                self.transform(i),
            );
        }
        all
    }
}

fn waypoint(p: &BirdsParams, state: &mut u64) -> Vec3 {
    let c = Vec3::from(p.center);
    let h = Vec3::from(p.half_extent);
    c + Vec3::new(
        rng::range_f32(state, -h.x, h.x),
        rng::range_f32(state, -h.y, h.y),
        rng::range_f32(state, -h.z, h.z),
    )
}

/// Wing pose in `[-1, 1]` (−1 fully down, +1 fully up) for a flap phase: the thesis swaps
/// between fixed wing positions; we move smoothly between the two extreme poses.
pub fn wing_pose(phase: f32) -> f32 {
    (phase * std::f32::consts::TAU).sin()
}

/// One bird in its local frame (+Z forward, Y up) with the wings at `pose` (−1 down … 1 up).
/// Triangles are emitted with both windings so the bird shows from above and below.
pub fn bird_mesh(wingspan: f32, pose: f32) -> Mesh {
    let half = wingspan * 0.5;
    let lift = pose * 0.5;
    // Inner wing rises with the pose, the wing tip twice as much.
    let v: [Vec3; BIRD_VERTICES] = [
        Vec3::new(0.0, 0.0, 0.45),                        // beak
        Vec3::new(0.0, 0.05, 0.0),                        // back
        Vec3::new(0.0, 0.0, -0.45),                       // tail
        Vec3::new(0.0, -0.06, 0.05),                      // belly
        Vec3::new(half * 0.5, half * 0.5 * lift, 0.12),   // right elbow, front
        Vec3::new(half * 0.5, half * 0.5 * lift, -0.15),  // right elbow, back
        Vec3::new(half, half * lift * 1.6, -0.05),        // right tip
        Vec3::new(-half * 0.5, half * 0.5 * lift, 0.12),  // left elbow, front
        Vec3::new(-half * 0.5, half * 0.5 * lift, -0.15), // left elbow, back
        Vec3::new(-half, half * lift * 1.6, -0.05),       // left tip
    ];
    let one_side: [[u32; 3]; 8] = [
        [0, 4, 1],
        [1, 4, 5],
        [1, 5, 2],
        [4, 6, 5],
        [0, 1, 7],
        [1, 8, 7],
        [1, 2, 8],
        [7, 8, 9],
    ];
    let mut m = Mesh::named("bird");
    m.positions.extend_from_slice(&v);
    m.colors = vec![Vec4::new(0.05, 0.05, 0.06, 1.0); BIRD_VERTICES];
    for t in one_side {
        m.indices.extend_from_slice(&t);
        m.indices.extend_from_slice(&[t[0], t[2], t[1]]);
    }
    m.normals = vec![Vec3::Y; BIRD_VERTICES];
    let _ = &v[3];
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn birds_fly_straight_to_waypoints_deterministically() {
        let p = BirdsParams::default();
        let mut a = Flock::new(&p).unwrap();
        let mut b = Flock::new(&p).unwrap();
        assert_eq!(a.birds().len(), 10);
        let start = a.birds()[0];
        a.update(0.5);
        b.update(0.5);
        let moved = a.birds()[0].position - start.position;
        assert!((moved.length() - p.speed * 0.5).abs() < 1e-3);
        assert!(
            moved.normalize().dot(start.heading) > 0.9999,
            "straight line"
        );
        for _ in 0..2000 {
            a.update(1.0 / 30.0);
            b.update(1.0 / 30.0);
        }
        assert_eq!(a.birds(), b.birds());
        let targets: std::collections::HashSet<[u32; 3]> = a
            .birds()
            .iter()
            .map(|b| b.target.to_array().map(f32::to_bits))
            .collect();
        assert_eq!(targets.len(), 10, "independent birds");
        let c = Vec3::from(p.center);
        let h = Vec3::from(p.half_extent);
        for bird in a.birds() {
            let d = (bird.position - c).abs();
            assert!(d.cmple(h + 1e-3).all(), "stays in the box");
        }
        let m = a.mesh();
        m.validate().unwrap();
        assert_eq!(m.triangle_count(), 10 * 16);
    }

    #[test]
    fn wings_move_between_poses() {
        let up = bird_mesh(1.6, 1.0);
        let down = bird_mesh(1.6, -1.0);
        assert!(up.positions[6].y > 0.5 && down.positions[6].y < -0.5);
        assert_eq!(up.positions[0], down.positions[0]);
    }

    #[test]
    fn bad_birds_are_errors() {
        let mut p = BirdsParams {
            count: 0,
            ..BirdsParams::default()
        };
        assert!(matches!(Flock::new(&p), Err(Error::Size { .. })));
        p.count = -3;
        assert!(Flock::new(&p).is_err());
        p.count = 3;
        p.speed = f32::NAN;
        assert!(Flock::new(&p).is_err());
    }
}
