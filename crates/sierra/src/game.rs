//! The game state a level turns into, and one fixed tick of it.
//!
//! For now the state is the level's object transforms (parent-first order,
//! world matrices propagated each tick) and the only system is `Spinner`.
//! Gameplay systems (player, follow camera, birds, paths) add themselves to [`Game::tick`].

use anyhow::{bail, Result};
use glam::{Mat4, Quat, Vec3};
use sierra_scene::{Component, Level};

use crate::game_loop::FixedTimestep;

/// Local transform of one object (translation metres, rotation, scale).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LocalTransform {
    /// Translation relative to the parent, metres.
    pub position: Vec3,
    /// Rotation relative to the parent.
    pub rotation: Quat,
    /// Scale relative to the parent.
    pub scale: Vec3,
}

impl LocalTransform {
    /// `T * R * S` as a column-major matrix.
    pub fn matrix(&self) -> Mat4 {
        Mat4::from_scale_rotation_translation(self.scale, self.rotation, self.position)
    }
}

/// A running level.
pub struct Game {
    /// The level as loaded (static data: meshes, materials, components).
    pub level: Level,
    /// Local transforms, indexed like `level.objects`.
    pub locals: Vec<LocalTransform>,
    /// World matrices, indexed like `level.objects`; valid after [`Game::new`] and each tick.
    pub world: Vec<Mat4>,
    parents: Vec<Option<usize>>,
    /// Object indices with every parent before its children.
    order: Vec<usize>,
    /// The fixed-step clock.
    pub clock: FixedTimestep,
}

impl Game {
    /// Starts `level` at tick 0 with a `tick_hz` clock.
    ///
    /// # Errors
    /// A camera that cannot be projected (field of view outside (0°, 180°), `near` ≤ 0,
    /// `far` ≤ `near`), named with the level file and JSON path.
    pub fn new(level: Level, tick_hz: f64) -> Result<Self> {
        validate_camera(&level)?;
        let locals: Vec<LocalTransform> = level
            .objects
            .iter()
            .map(|o| LocalTransform {
                position: o.position,
                rotation: o.rotation,
                scale: o.scale,
            })
            .collect();
        let parents: Vec<Option<usize>> = level
            .objects
            .iter()
            .map(|o| o.parent.as_deref().and_then(|p| level.object_index(p)))
            .collect();
        let order = parent_first_order(&parents);
        let mut game = Self {
            world: vec![Mat4::IDENTITY; locals.len()],
            level,
            locals,
            parents,
            order,
            clock: FixedTimestep::new(tick_hz),
        };
        game.propagate();
        Ok(game)
    }

    /// Runs one fixed tick: systems, then transform propagation.
    pub fn tick(&mut self) {
        let dt = self.clock.dt() as f32;
        for (object, local) in self.level.objects.iter().zip(&mut self.locals) {
            for component in &object.components {
                if let Component::Spinner(spinner) = component {
                    local.rotation = spinner.spin(local.rotation, dt);
                }
            }
        }
        self.clock.advance();
        self.propagate();
    }

    fn propagate(&mut self) {
        for &i in &self.order {
            let local = self.locals[i].matrix();
            self.world[i] = match self.parents[i] {
                Some(p) => self.world[p] * local,
                None => local,
            };
        }
    }
}

/// Indices ordered so that each parent precedes its children (the level loader rejects cycles).
fn parent_first_order(parents: &[Option<usize>]) -> Vec<usize> {
    let mut placed = vec![false; parents.len()];
    let mut order = Vec::with_capacity(parents.len());
    for start in 0..parents.len() {
        let mut chain = Vec::new();
        let mut i = Some(start);
        while let Some(node) = i {
            if placed[node] || chain.contains(&node) {
                break;
            }
            chain.push(node);
            i = parents[node];
        }
        for &node in chain.iter().rev() {
            placed[node] = true;
            order.push(node);
        }
    }
    order
}

fn validate_camera(level: &Level) -> Result<()> {
    let c = &level.camera;
    let file = level.file.display();
    if !(c.fov_y_degrees > 0.0 && c.fov_y_degrees < 180.0) {
        bail!(
            "{file}: at `camera.fovYDegrees`: {} is outside (0, 180) degrees",
            c.fov_y_degrees
        );
    }
    if !(c.near > 0.0) {
        bail!("{file}: at `camera.near`: {} must be > 0 metres", c.near);
    }
    if !(c.far > c.near) || !c.far.is_finite() {
        bail!(
            "{file}: at `camera.far`: {} must be finite and > near ({})",
            c.far,
            c.near
        );
    }
    if (c.target - c.position).length_squared() < 1e-12 {
        bail!("{file}: at `camera.target`: equals camera.position, so there is no view direction");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(json: &str) -> Level {
        Level::from_json_str(json, "test.json", ".").unwrap()
    }

    #[test]
    fn children_follow_parents_listed_after_them() {
        let game = Game::new(
            level(
                r#"{"objects": [
                {"name": "child", "parent": "root", "position": [0, 1, 0]},
                {"name": "root", "position": [5, 0, 0], "scale": 2}]}"#,
            ),
            60.0,
        )
        .unwrap();
        let p = game.world[0].transform_point3(Vec3::ZERO);
        assert!((p - Vec3::new(5.0, 2.0, 0.0)).length() < 1e-6, "{p}");
    }

    #[test]
    fn spinner_turns_by_rate_times_ticks() {
        let mut game = Game::new(
            level(r#"{"objects": [{"name": "s", "components": [{"type": "Spinner", "degreesPerSecond": 90}]}]}"#),
            60.0,
        )
        .unwrap();
        for _ in 0..60 {
            game.tick();
        }
        assert_eq!(game.clock.tick(), 60);
        let x = game.world[0].transform_vector3(Vec3::X);
        // 90°/s for 1 s about +Y turns +X into -Z.
        assert!((x - Vec3::NEG_Z).length() < 1e-4, "{x}");
    }

    #[test]
    fn unprojectable_camera_is_an_error_with_its_json_path() {
        let err = Game::new(level(r#"{"camera": {"fovYDegrees": 0}}"#), 60.0)
            .err()
            .unwrap();
        assert!(err.to_string().contains("camera.fovYDegrees"), "{err}");
    }
}
