//! Scripted camera paths (seed 002: the thesis's aerial fly-through and walk-through): an
//! `aerial` flight that starts high over the island with the planet in view, circles the coast
//! and comes down to the spinning platforms on the beach, and a `walk` at eye height over the
//! terrain. Selected with `--camera-path aerial|walk`; the window binds them to keys.
//!
//! A path is a closed Catmull-Rom spline through key eye/target points, run once over
//! `duration` seconds (then held). The walk's eye height is the ground height (a query, such as
//! [`crate::world::World::ground_height`]) plus [`EYE_HEIGHT`], never below sea level.

use glam::Vec3;

/// Eye height of the walk above the ground, metres.
pub const EYE_HEIGHT: f32 = 1.7;

/// Which path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CameraPathKind {
    /// High fly-through of the whole island, ending low by the platforms.
    Aerial,
    /// A walk along the beach at eye height.
    Walk,
}

/// A path and its duration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CameraPath {
    /// The path.
    pub kind: CameraPathKind,
    /// Seconds to run it (then it holds the last pose), > 0.
    pub duration: f32,
    /// After `duration`, hand the camera back to the level (its follow camera eases in from
    /// the path's last pose) instead of holding the last pose.
    pub then_follow: bool,
}

/// Aerial key points: (eye, target), metres, for the demo island (512 m, beach ring at about
/// 170–200 m south of the centre, platforms over the shallows near (52, 3, 200)).
const AERIAL: [(Vec3, Vec3); 5] = [
    (
        Vec3::new(260.0, 120.0, 330.0),
        Vec3::new(-30.0, 40.0, -80.0),
    ),
    (Vec3::new(60.0, 95.0, 380.0), Vec3::new(0.0, 20.0, 80.0)),
    (Vec3::new(110.0, 45.0, 290.0), Vec3::new(45.0, 8.0, 180.0)),
    (Vec3::new(70.0, 18.0, 245.0), Vec3::new(52.0, 4.0, 195.0)),
    (Vec3::new(58.0, 7.0, 214.0), Vec3::new(51.0, 3.6, 195.0)),
];

/// Walk key points (x, z), metres: along the beach band past the platforms, inland of the west
/// crowd (x 24–30, z 186–192), between the platforms' walker (circling 5.5 m around (52, 193))
/// and the east crowd (x 63–69, z 180–186), then seaward of it; at least 1 m from every body
/// (`tests/demo_island.rs::walk_path_keeps_clear_of_crowds_and_characters`).
const WALK: [(f32, f32); 8] = [
    (0.0, 184.0),
    (14.0, 183.0),
    (27.0, 182.0),
    (40.0, 184.0),
    (52.0, 184.0),
    (62.0, 189.0),
    (72.0, 189.5),
    (82.0, 186.0),
];

fn catmull_rom(p0: Vec3, p1: Vec3, p2: Vec3, p3: Vec3, t: f32) -> Vec3 {
    let t2 = t * t;
    let t3 = t2 * t;
    0.5 * (2.0 * p1
        + (p2 - p0) * t
        + (2.0 * p0 - 5.0 * p1 + 4.0 * p2 - p3) * t2
        + (3.0 * p1 - p0 - 3.0 * p2 + p3) * t3)
}

/// Point at `u` ∈ [0, 1] of the open spline through `points` (end points repeated).
fn spline(points: &[Vec3], u: f32) -> Vec3 {
    let n = points.len();
    if n == 1 {
        return points[0];
    }
    let s = u.clamp(0.0, 1.0) * (n - 1) as f32;
    let i = (s.floor() as usize).min(n - 2);
    let t = s - i as f32;
    let at = |k: isize| points[k.clamp(0, n as isize - 1) as usize];
    let i = i as isize;
    catmull_rom(at(i - 1), at(i), at(i + 1), at(i + 2), t)
}

impl CameraPath {
    /// A path run once over `duration` seconds that then holds its last pose.
    pub fn new(kind: CameraPathKind, duration: f32) -> Self {
        Self {
            kind,
            duration,
            then_follow: false,
        }
    }

    /// Whether the path drives the camera at `time` seconds (always, unless it hands over
    /// after its duration: [`Self::then_follow`]).
    pub fn drives_at(&self, time: f32) -> bool {
        !(self.then_follow && time > self.duration)
    }

    /// Eye and target at `time` seconds. `ground(x, z)` gives the terrain height (`None` off the
    /// terrain); `sea_level` is the floor of the walk over water.
    pub fn sample(
        &self,
        time: f32,
        ground: impl Fn(f32, f32) -> Option<f32>,
        sea_level: f32,
    ) -> (Vec3, Vec3) {
        let u = (time / self.duration.max(1e-3)).clamp(0.0, 1.0);
        // Smooth start and stop.
        let u = u * u * (3.0 - 2.0 * u);
        match self.kind {
            CameraPathKind::Aerial => {
                let eyes = AERIAL.map(|k| k.0);
                let targets = AERIAL.map(|k| k.1);
                let eye = spline(&eyes, u);
                // Never below the terrain.
                let floor = ground(eye.x, eye.z).unwrap_or(sea_level).max(sea_level) + 2.0;
                (eye.with_y(eye.y.max(floor)), spline(&targets, u))
            }
            CameraPathKind::Walk => {
                let keys = WALK.map(|(x, z)| Vec3::new(x, 0.0, z));
                let at = |u: f32| {
                    let p = spline(&keys, u);
                    let h = ground(p.x, p.z).unwrap_or(sea_level).max(sea_level);
                    p.with_y(h + EYE_HEIGHT)
                };
                let eye = at(u);
                let ahead = at((u + 0.15).min(1.0));
                let dir = (ahead - eye).with_y(0.0).normalize_or(Vec3::NEG_X);
                // Look ahead and a little inland/up, so the palms and slopes are in view.
                (eye, eye + dir * 10.0 + Vec3::new(0.0, 0.4, -3.0))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walk_keeps_eye_height_over_a_slope_and_aerial_stays_above_ground() {
        let ground = |x: f32, z: f32| Some(0.1 * x + 0.05 * z);
        let walk = CameraPath::new(CameraPathKind::Walk, 3.0);
        for k in 0..=30 {
            let (eye, target) = walk.sample(k as f32 * 0.1, ground, 0.0);
            let h = ground(eye.x, eye.z).unwrap();
            assert!((eye.y - h - EYE_HEIGHT).abs() < 1e-3, "{eye} over {h}");
            assert!((target - eye).length() > 1.0);
        }
        let aerial = CameraPath::new(CameraPathKind::Aerial, 3.0);
        let high = |_: f32, _: f32| Some(100.0);
        let (eye, _) = aerial.sample(3.0, high, 0.0);
        assert!(eye.y >= 102.0, "{eye}");
        // The path moves.
        let (a, _) = aerial.sample(0.0, ground, 0.0);
        let (b, _) = aerial.sample(1.5, ground, 0.0);
        assert!((a - b).length() > 10.0);
    }
}
