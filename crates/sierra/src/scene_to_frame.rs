//! The extract step: the game state (scene graph, gameplay, world) becomes the renderer's
//! complete [`FrameData`] for one frame — the camera, sun and point lights (each `PointLight`
//! component at its node's world position; when there are more than [`MAX_POINT_LIGHTS`],
//! document 000's limit of 8, the 8 nearest to the camera this frame,
//! [`nearest_point_lights`]), one [`DrawItem`] per node with a primitive mesh and per primitive
//! of a glTF mesh node ([`crate::gpu_bridge::level_gltf`], at its world matrix), the characters' skinned draws
//! ([`crate::gpu_bridge::character_meshes`]), the skinned and morphed glTF nodes of objects
//! with an `Animator` ([`crate::gpu_bridge::level_skins`]), the world's terrain and sky objects
//! ([`crate::gpu_bridge::world`]), the crowds' clock and the level's post settings. The
//! renderer never sees the scene graph, and nothing else reaches the passes.
//!
//! Extract reads, tick writes: [`extract`] takes the game by shared reference. The one-shot
//! simulation inputs the ticks queue (sea drops and sub-steps, changed crowd members) reach the
//! frame through the runner's hand-over step ([`crate::gpu_bridge::GpuBridge::hand_over`]),
//! and what was uploaded at load is the GPU bridge's ([`crate::gpu_bridge`]).
//!
//! A window extracts between ticks: [`View::alpha`] interpolates node transforms, the camera
//! and the world clock between the previous tick ([`TickSnapshot`]) and the last one, so motion
//! is smooth at any frame rate. Skinned palettes are those of the last tick.

use anyhow::Result;
use glam::{Mat4, Vec3};
use sierra_render::{
    Camera, DebugView, DrawItem, FrameData, Material, PointLight, PostSettings, MAX_POINT_LIGHTS,
};
use sierra_scene::scene::NodeMesh;
use sierra_scene::Component;

use crate::frame_settings::{environment_settings, level_sun, post_settings};
use crate::game::Game;
use crate::gpu_bridge::scene_meshes::SceneMeshes;
use crate::gpu_bridge::GpuBridge;

/// What the viewer adds to the game state when a frame is extracted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// Output width / height.
    pub aspect: f32,
    /// A free camera `(eye, target)` replacing the level's (the window's fly camera), world
    /// metres; the level camera's field of view and clip planes are kept.
    pub camera: Option<(Vec3, Vec3)>,
    /// Where between the previous tick (0) and the last one (1) to draw: the fixed-step clock's
    /// [`crate::game_loop::FixedTimestep::alpha`] in a window, 1 headless.
    pub alpha: f32,
}

impl View {
    /// The last tick as it is, through the level's camera, at `aspect`.
    pub fn at_tick(aspect: f32) -> Self {
        Self {
            aspect,
            camera: None,
            alpha: 1.0,
        }
    }
}

/// The state of the tick before the last, for interpolating: node world transforms (in
/// parent-first order), camera and world clock. Taken by [`TickSnapshot::take`] before a tick.
#[derive(Clone, Debug, Default)]
pub struct TickSnapshot {
    worlds: Vec<glam::Affine3A>,
    eye: Vec3,
    target: Vec3,
    time: f64,
    valid: bool,
}

impl TickSnapshot {
    /// Records `game`'s state now (no allocation once grown).
    pub fn take(&mut self, game: &Game) {
        let graph = &game.scene.graph;
        self.worlds.clear();
        self.worlds.extend(
            graph
                .parent_first_order()
                .iter()
                .map(|&n| graph.world(n).unwrap_or_default()),
        );
        self.eye = game.scene.camera.position;
        self.target = game.scene.camera.target;
        self.time = game.world.time;
        self.valid = true;
    }
}

/// Interpolates two affine transforms: translation and scale linearly, rotation by slerp
/// (exactly `b` at `t = 1`, and when they are equal).
fn lerp_affine(a: &glam::Affine3A, b: &glam::Affine3A, t: f32) -> Mat4 {
    if t >= 1.0 || a == b {
        return Mat4::from(*b);
    }
    let (sa, ra, ta) = a.to_scale_rotation_translation();
    let (sb, rb, tb) = b.to_scale_rotation_translation();
    Mat4::from_scale_rotation_translation(sa.lerp(sb, t), ra.slerp(rb, t), ta.lerp(tb, t))
}

/// The extract step: writes the complete frame for the game's current state seen through
/// `view` into `frame`, reusing its vectors (no allocation once they have grown), naming the
/// meshes and materials `bridge` uploaded. `previous` (the tick before the last) is used when
/// `view.alpha < 1`. Reads `game` only; the frame's one-shot inputs (`frame.sea.ops`,
/// `frame.crowds` updates) are left as they are: the hand-over step fills them
/// ([`GpuBridge::hand_over`]) and the frame's first render consumes them. `bridge` is mutable
/// for its reused scratch buffers only.
///
/// # Errors
/// A character whose palette does not match its model.
pub fn extract(
    game: &Game,
    bridge: &mut GpuBridge,
    view: &View,
    previous: Option<&TickSnapshot>,
    frame: &mut FrameData,
) -> Result<()> {
    let previous = previous.filter(|p| p.valid && view.alpha < 1.0);
    let alpha = view.alpha.clamp(0.0, 1.0);
    extract_scene(game, &bridge.meshes, view, previous, frame);
    frame.skinned.clear();
    bridge
        .characters
        .extract(&game.gameplay, &mut frame.skinned)?;
    bridge
        .meshes
        .skins
        .extract(&game.scene, &game.node_animators, &mut frame.skinned)?;
    frame.post = post_settings(&game.scene.post, game.wireframe, brightest_light(frame));
    if game.debug_view != DebugView::Lit {
        frame.post = PostSettings {
            debug_view: game.debug_view,
            wireframe: game.wireframe,
            ..PostSettings::default()
        };
        if game.debug_view == DebugView::Foam {
            // Only the sea's mask shows: what it does not cover is black.
            frame.clear_color = glam::Vec4::new(0.0, 0.0, 0.0, 1.0);
        }
    }
    let time = match previous {
        Some(p) => p.time + (game.world.time - p.time) * f64::from(alpha),
        None => game.world.time,
    };
    let eye = frame.camera.position;
    game.world.extract(time, frame);
    if game.debug_view == DebugView::Foam {
        // The world turns an outdoor level's sky on; the foam view shows the sea's mask alone.
        frame.post.sky.enabled = false;
    }
    bridge
        .world
        .push_draws(&game.world, eye, time, &mut frame.draws);
    frame.post.environment = environment_settings(
        game.scene.post.environment.as_ref(),
        frame.post.sky.enabled,
        time,
    );
    Ok(())
}

/// The largest channel of the sun's or any point light's colour × intensity in `frame`.
fn brightest_light(frame: &FrameData) -> f32 {
    let sun = (frame.sun.color * frame.sun.intensity).max_element();
    (frame.point_lights.iter())
        .map(|l| (l.color * l.intensity).max_element())
        .fold(sun, f32::max)
}

/// Camera, sun, lights and primitive draws of `game.scene` (see [`extract`]).
fn extract_scene(
    game: &Game,
    meshes: &SceneMeshes,
    view: &View,
    previous: Option<&TickSnapshot>,
    frame: &mut FrameData,
) {
    let scene = &game.scene;
    let c = &scene.camera;
    let alpha = view.alpha.clamp(0.0, 1.0);
    let (eye, target) = match (view.camera, previous) {
        (Some(free), _) => free,
        (None, Some(p)) => (
            p.eye.lerp(c.position, alpha),
            p.target.lerp(c.target, alpha),
        ),
        (None, None) => (c.position, c.target),
    };
    frame.camera = Camera::look_at(
        eye,
        target,
        Vec3::Y,
        c.fov_y_degrees.to_radians(),
        view.aspect,
        c.near,
        c.far,
    );
    frame.sun = level_sun(scene);
    frame.clear_color = scene.clear_color.extend(1.0);
    frame.draws.clear();
    frame.point_lights.clear();
    let order = scene.graph.parent_first_order();
    let previous = previous.filter(|p| p.worlds.len() == order.len());
    for (index, &node) in order.iter().enumerate() {
        let (Some(content), Some(world)) = (scene.content.get(node), scene.graph.world(node))
        else {
            continue;
        };
        let world = match previous {
            Some(p) => lerp_affine(&p.worlds[index], &world, alpha),
            None => Mat4::from(world),
        };
        if let Some(NodeMesh::Primitive {
            primitive,
            material,
        }) = &content.mesh
        {
            let surface = meshes.surfaces.get(material);
            if let Some(mesh) = meshes.mesh_for(*primitive, &world) {
                frame.draws.push(DrawItem {
                    mesh,
                    model: world,
                    material: Material {
                        base_color: material.base_color.extend(1.0),
                        specular_color: material.specular_color,
                        specular_power: material.specular_power,
                        emissive: material.emissive,
                    },
                    surface,
                });
            }
        }
        if let Some(NodeMesh::Gltf { asset, mesh, .. }) = &content.mesh {
            if !meshes.skins.draws_node(node) {
                meshes.gltf.draw(asset, *mesh, world, &mut frame.draws);
            }
        }
        for component in &content.components {
            if let Component::PointLight(light) = component {
                frame.point_lights.push(PointLight {
                    position: world.w_axis.truncate(),
                    color: light.light_color,
                    intensity: light.intensity,
                    inner_radius: light.inner_radius,
                    outer_radius: light.outer_radius,
                });
            }
        }
    }
    nearest_point_lights(&mut frame.point_lights, eye);
}

/// Keeps the [`MAX_POINT_LIGHTS`] lights nearest to `eye` (Euclidean distance to the
/// light's position, metres), nearest first, when there are more; fewer are left as they
/// are. A light farther than the 8th nearest is not shaded this frame, so a level may
/// place any number of lights and the ones around the camera light it. Runs per frame
/// in the extract step without allocating (`select_nth_unstable_by`, O(n), then a sort
/// of the 8 kept).
pub fn nearest_point_lights(lights: &mut Vec<PointLight>, eye: Vec3) {
    if lights.len() <= MAX_POINT_LIGHTS {
        return;
    }
    let distance = |l: &PointLight| l.position.distance_squared(eye);
    lights.select_nth_unstable_by(MAX_POINT_LIGHTS - 1, |a, b| {
        distance(a).total_cmp(&distance(b))
    });
    lights.truncate(MAX_POINT_LIGHTS);
    lights.sort_unstable_by(|a, b| distance(a).total_cmp(&distance(b)));
}

/// An empty frame to fill with [`extract`].
pub fn empty_frame() -> FrameData {
    FrameData::new(Camera::look_at(
        Vec3::Z,
        Vec3::ZERO,
        Vec3::Y,
        1.0,
        1.0,
        0.1,
        10.0,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sierra_render::MeshHandle;
    use sierra_scene::Primitive;

    use crate::game::game_from_json;

    #[test]
    fn children_are_drawn_at_parent_times_local_and_lights_follow_their_node() {
        let game = game_from_json(
            r#"{"objects": [
              {"name": "child", "parent": "root", "position": [0, 1, 0], "mesh": "sphere",
               "material": {"baseColor": [0.1, 0.2, 0.3]},
               "components": [{"type": "PointLight", "lightColor": [1, 0, 0], "innerRadius": 1, "outerRadius": 2}]},
              {"name": "root", "position": [5, 0, 0], "scale": 2, "mesh": "cube"}]}"#,
            60.0,
        )
        .unwrap();
        let mut meshes = SceneMeshes::default();
        meshes.primitives.insert(Primitive::Cube, MeshHandle(0));
        meshes.primitives.insert(Primitive::Sphere, MeshHandle(1));
        let mut frame = empty_frame();
        extract_scene(&game, &meshes, &View::at_tick(1.5), None, &mut frame);
        assert_eq!(frame.draws.len(), 2);
        // Parent first, whatever the file order.
        assert_eq!(frame.draws[0].mesh, MeshHandle(0));
        let child = frame.draws[1];
        assert_eq!(child.mesh, MeshHandle(1));
        assert_eq!(
            child.material.base_color,
            glam::Vec4::new(0.1, 0.2, 0.3, 1.0)
        );
        let p = child.model.transform_point3(Vec3::ZERO);
        assert!((p - Vec3::new(5.0, 2.0, 0.0)).length() < 1e-6, "{p}");
        assert_eq!(frame.point_lights.len(), 1);
        assert!((frame.point_lights[0].position - Vec3::new(5.0, 2.0, 0.0)).length() < 1e-6);
    }

    /// A level with 12 point lights in a row along +X, 5 m apart, at x = 0, 5, …, 55.
    fn twelve_lights() -> Game {
        let lights: Vec<String> = (0..12)
            .map(|i| {
                format!(
                    r#"{{"name": "light{i}", "position": [{}, 2, 0], "components": [{{"type": "PointLight",
                        "lightColor": [1, 1, 1], "intensity": {}, "innerRadius": 1, "outerRadius": 4}}]}}"#,
                    5 * i,
                    1 + i
                )
            })
            .collect();
        let json = format!(
            r#"{{"camera": {{"position": [-10, 2, 5], "target": [0, 2, 0]}}, "objects": [{}]}}"#,
            lights.join(",")
        );
        game_from_json(&json, 60.0).unwrap()
    }

    /// Light numbers (intensity − 1) the frame shades with, sorted.
    fn used(frame: &FrameData) -> Vec<u32> {
        let mut v: Vec<u32> = frame
            .point_lights
            .iter()
            .map(|l| l.intensity as u32 - 1)
            .collect();
        v.sort_unstable();
        v
    }

    /// The 8 nearest to `eye` by brute force over the 12 positions.
    fn brute_force_nearest(eye: Vec3) -> Vec<u32> {
        let mut all: Vec<(f32, u32)> = (0..12)
            .map(|i| (Vec3::new(5.0 * i as f32, 2.0, 0.0).distance(eye), i))
            .collect();
        all.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut v: Vec<u32> = all[..8].iter().map(|&(_, i)| i).collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn the_eight_point_lights_nearest_to_the_camera_are_used_each_frame() {
        let mut game = twelve_lights();
        let meshes = SceneMeshes::default();
        let mut frame = empty_frame();
        let mut seen = Vec::new();
        for eye in [
            Vec3::new(-10.0, 2.0, 5.0),
            Vec3::new(60.0, 2.0, 5.0),
            Vec3::new(27.0, 2.0, 3.0),
        ] {
            game.scene.camera.position = eye;
            extract_scene(&game, &meshes, &View::at_tick(1.5), None, &mut frame);
            assert_eq!(frame.point_lights.len(), MAX_POINT_LIGHTS);
            assert_eq!(used(&frame), brute_force_nearest(eye), "camera at {eye}");
            // Nearest first.
            let d: Vec<f32> = frame
                .point_lights
                .iter()
                .map(|l| l.position.distance(eye))
                .collect();
            assert!(d.windows(2).all(|w| w[0] <= w[1]), "{d:?}");
            seen.push(used(&frame));
        }
        // Moving the camera changes the set (negative control: not the first 8 in file order).
        assert_eq!(seen[0], (0..8).collect::<Vec<_>>());
        assert_eq!(seen[1], (4..12).collect::<Vec<_>>());
        assert_eq!(seen[2], (2..10).collect::<Vec<_>>());
    }

    #[test]
    fn between_ticks_node_transforms_and_the_camera_are_interpolated_and_headless_draws_the_tick() {
        // A cube spinning 90 degrees per second about +Y, at x = 2: one tick turns it by 1.5 degrees.
        let mut game = game_from_json(
            r#"{"camera": {"position": [0, 2, 8], "target": [0, 0, 0]}, "objects": [{"name": "s",
               "position": [2, 0, 0], "mesh": "cube",
               "components": [{"type": "Spinner", "degreesPerSecond": 90}]}]}"#,
            60.0,
        )
        .unwrap();
        let mut meshes = SceneMeshes::default();
        meshes.primitives.insert(Primitive::Cube, MeshHandle(0));
        for _ in 0..10 {
            game.tick();
        }
        let mut previous = TickSnapshot::default();
        previous.take(&game);
        game.scene.camera.position.x += 1.0;
        game.tick();
        let angle = |frame: &FrameData| {
            let x = frame.draws[0].model.transform_vector3(Vec3::X);
            (-x.z).atan2(x.x).to_degrees()
        };
        let mut frame = empty_frame();
        let at = |alpha: f32| View {
            alpha,
            ..View::at_tick(1.0)
        };
        extract_scene(&game, &meshes, &at(1.0), Some(&previous), &mut frame);
        assert!((angle(&frame) - 16.5).abs() < 1e-3, "{}", angle(&frame));
        assert!((frame.camera.position.x - 1.0).abs() < 1e-6);
        extract_scene(&game, &meshes, &at(0.0), Some(&previous), &mut frame);
        assert!((angle(&frame) - 15.0).abs() < 1e-3, "{}", angle(&frame));
        assert!(frame.camera.position.x.abs() < 1e-6);
        extract_scene(&game, &meshes, &at(0.5), Some(&previous), &mut frame);
        assert!((angle(&frame) - 15.75).abs() < 1e-3, "{}", angle(&frame));
        assert!((frame.camera.position.x - 0.5).abs() < 1e-6);
        // The spinner stays at x = 2 while it turns (rotation slerped, translation kept).
        let p = frame.draws[0].model.w_axis.truncate();
        assert!((p - Vec3::new(2.0, 0.0, 0.0)).length() < 1e-5, "{p}");
        // Without a previous tick (headless), alpha is irrelevant: the last tick is drawn.
        extract_scene(&game, &meshes, &at(0.0), None, &mut frame);
        assert!((angle(&frame) - 16.5).abs() < 1e-3);
    }
}
