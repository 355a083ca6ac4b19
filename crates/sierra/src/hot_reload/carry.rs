//! What a reloaded level keeps of the one it replaces ([`carry_over`]): the clock, the camera
//! (and its path), the view settings, the keys held, the sound device and, for each object
//! that keeps its name, how it moved since the load (a spinner's turn, the player's walk) and
//! its character's clips; everything else is the new file's.

use std::collections::HashMap;

use sierra_scene::graph::Transform;

use crate::game::Game;

/// The local transforms of a level's named objects as the file placed them (at load, before
/// any tick): what tells an object's motion since the load from its placement.
#[derive(Clone, Debug, Default)]
pub struct Placements(HashMap<String, Transform>);

impl Placements {
    /// The placements of `game`'s objects; call it before the first tick.
    pub fn of(game: &Game) -> Self {
        let graph = &game.scene.graph;
        Self(
            game.scene
                .objects
                .iter()
                .filter_map(|&node| Some((graph.name(node)?.to_owned(), graph.local(node)?)))
                .collect(),
        )
    }
}

/// `now`, a transform that moved from `old_placed` since the load, moved the same way from
/// `new_placed`: the translation by the same offset, the rotation by the same turn applied
/// before it (as [`sierra_scene::components::Spinner`] turns), the scale as `new_placed`'s.
pub fn moved_alike(old_placed: &Transform, now: &Transform, new_placed: &Transform) -> Transform {
    let turn = now.rotation * old_placed.rotation.inverse();
    Transform {
        translation: new_placed.translation + (now.translation - old_placed.translation),
        rotation: (turn * new_placed.rotation).normalize(),
        scale: new_placed.scale,
    }
}

/// Moves into `new` (a level just loaded from the edited files, its placements `new_placed`)
/// what the running `old` (placed as `old_placed`) should keep: see the module documentation.
pub fn carry_over(
    old: &mut Game,
    old_placed: &Placements,
    new: &mut Game,
    new_placed: &Placements,
) {
    new.clock = old.clock.clone();
    new.world.time = old.world.time;
    new.scene.camera = old.scene.camera.clone();
    new.camera_path = old.camera_path.take();
    new.wireframe = old.wireframe;
    new.debug_view = old.debug_view;
    new.gameplay.keys = old.gameplay.keys;
    carry_motion(old, old_placed, new, new_placed);
    carry_clips(old, new);
    if let (Some(was), Some(player)) = (&old.gameplay.player, &mut new.gameplay.player) {
        player.state = was.state;
        player.state_time = was.state_time;
        player.airborne = was.airborne;
        player.velocity_y = was.velocity_y;
    }
    new.audio.take_playback(&mut old.audio, &new.scene);
    new.scene.graph.propagate();
}

/// Each object of `new` whose name `old` has moves as it moved in `old` since the load.
fn carry_motion(old: &Game, old_placed: &Placements, new: &mut Game, new_placed: &Placements) {
    for (name, placed) in &new_placed.0 {
        let (Some(old_node), Some(new_node)) = (old.scene.object(name), new.scene.object(name))
        else {
            continue;
        };
        let (Some(was_placed), Some(now)) =
            (old_placed.0.get(name), old.scene.graph.local(old_node))
        else {
            continue;
        };
        new.scene
            .graph
            .set_local(new_node, moved_alike(was_placed, &now, placed));
    }
}

/// Each character of `new` on an object whose name `old`'s character had keeps playing the
/// same clips at the same times (when its model has that many clips).
fn carry_clips(old: &Game, new: &mut Game) {
    let name_of = |game: &Game, object: usize| {
        let node = *game.scene.objects.get(object)?;
        game.scene.graph.name(node).map(str::to_owned)
    };
    let names: Vec<_> = new
        .gameplay
        .characters
        .iter()
        .map(|c| name_of(new, c.object))
        .collect();
    for (character, name) in new.gameplay.characters.iter_mut().zip(names) {
        let was = old
            .gameplay
            .characters
            .iter()
            .find(|c| name.is_some() && name_of(old, c.object) == name);
        let Some(was) = was else { continue };
        let clips = character.model.clips.len();
        let fits = |clip: usize| clip < clips;
        if fits(was.current.clip) && was.previous.is_none_or(|p| fits(p.clip)) {
            character.current = was.current;
            character.previous = was.previous;
            character.fade = was.fade;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Quat, Vec3};

    /// A platform that turned 30° and rose 1 m since the load, now placed 2 m further right and
    /// tilted by the edit, keeps the turn and the rise on its new placement; one that did not
    /// move (the control) takes the new placement as written.
    #[test]
    fn motion_since_the_load_moves_the_new_placement_alike() {
        let placed = Transform::new(Vec3::ZERO, Quat::IDENTITY, Vec3::ONE);
        let turn = Quat::from_rotation_y(30f32.to_radians());
        let now = Transform::new(Vec3::Y, turn, Vec3::ONE);
        let tilt = Quat::from_rotation_z(10f32.to_radians());
        let edited = Transform::new(Vec3::new(2.0, 0.0, 0.0), tilt, Vec3::splat(2.0));
        let moved = moved_alike(&placed, &now, &edited);
        assert!(moved
            .translation
            .abs_diff_eq(Vec3::new(2.0, 1.0, 0.0), 1e-6));
        assert!(moved.rotation.abs_diff_eq(turn * tilt, 1e-6));
        assert_eq!(moved.scale, Vec3::splat(2.0));
        let still = moved_alike(&placed, &placed, &edited);
        assert_eq!(
            (still.translation, still.scale),
            (edited.translation, edited.scale)
        );
        assert!(still.rotation.abs_diff_eq(tilt, 1e-6));
    }
}
