//! Turns the game state into the renderer's [`FrameData`]: one [`DrawItem`] per
//! object with a mesh, one [`PointLight`] per `PointLight` component, the level's
//! camera and sun. The renderer never sees the level or the scene graph.

use std::collections::HashMap;

use anyhow::{Context, Result};
use glam::Vec4;
use sierra_render::{
    primitives, Camera, DrawItem, FrameData, GpuContext, Material, MeshData, MeshHandle,
    PointLight, Renderer, Sun,
};
use sierra_scene::{Component, Level, MeshRef, Primitive};

use crate::game::Game;

/// The renderer's mesh for each level object (`None`: nothing to draw).
#[derive(Clone, Debug, Default)]
pub struct LevelMeshes {
    /// Indexed like `level.objects`.
    pub per_object: Vec<Option<MeshHandle>>,
}

/// The mesh data of a level primitive (sizes as `sierra_scene::Primitive` documents).
pub fn primitive_mesh(primitive: Primitive) -> MeshData {
    match primitive {
        Primitive::Cube => primitives::cube(1.0),
        Primitive::Sphere => primitives::uv_sphere(0.5, 32, 16),
        Primitive::Plane => primitives::plane(1.0),
        Primitive::Grid { cells } => primitives::grid(cells, 1.0),
    }
}

/// Uploads each distinct primitive the level uses once.
///
/// glTF meshes are not drawn yet (the glTF importer adds them); such objects get `None` and a warning.
///
/// # Errors
/// GPU errors while uploading, naming the object.
pub fn upload_level_meshes(
    ctx: &GpuContext,
    renderer: &mut Renderer,
    level: &Level,
) -> Result<LevelMeshes> {
    let mut uploaded: HashMap<Primitive, MeshHandle> = HashMap::new();
    let mut per_object = Vec::with_capacity(level.objects.len());
    for (i, object) in level.objects.iter().enumerate() {
        let handle = match &object.mesh {
            None => None,
            Some(MeshRef::Primitive(p)) => Some(match uploaded.get(p) {
                Some(&h) => h,
                None => {
                    let h = renderer
                        .upload_mesh(ctx, &primitive_mesh(*p), &format!("{p:?}"))
                        .with_context(|| {
                            format!("{}: at `objects[{i}].mesh`", level.file.display())
                        })?;
                    uploaded.insert(*p, h);
                    h
                }
            }),
            Some(MeshRef::Gltf(path)) => {
                log::warn!(
                    "objects[{i}] `{}`: glTF mesh {} is not drawn yet",
                    object.name,
                    path.display()
                );
                None
            }
        };
        per_object.push(handle);
    }
    Ok(LevelMeshes { per_object })
}

/// Writes the frame for the game's current tick into `frame`, reusing its vectors.
/// `aspect` is the output's width / height.
pub fn build_frame(game: &Game, meshes: &LevelMeshes, aspect: f32, frame: &mut FrameData) {
    let level = &game.level;
    let c = &level.camera;
    frame.camera = Camera::look_at(
        c.position,
        c.target,
        glam::Vec3::Y,
        c.fov_y_degrees.to_radians(),
        aspect,
        c.near,
        c.far,
    );
    frame.sun = Sun {
        direction: level.sun.direction,
        color: level.sun.color,
        intensity: level.sun.intensity,
        ambient: level.sun.ambient,
    };
    frame.clear_color = level.clear_color.extend(1.0);
    frame.draws.clear();
    frame.point_lights.clear();
    for (i, object) in level.objects.iter().enumerate() {
        let world = game.world[i];
        if let Some(mesh) = meshes.per_object.get(i).copied().flatten() {
            let m = &object.material;
            frame.draws.push(DrawItem {
                mesh,
                model: world,
                material: Material {
                    base_color: m.base_color.extend(1.0),
                    specular_color: m.specular_color,
                    specular_power: m.specular_power,
                    emissive: m.emissive,
                },
            });
        }
        for component in &object.components {
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
}

/// An empty frame to fill with [`build_frame`].
pub fn empty_frame() -> FrameData {
    FrameData {
        camera: Camera::look_at(
            glam::Vec3::Z,
            glam::Vec3::ZERO,
            glam::Vec3::Y,
            1.0,
            1.0,
            0.1,
            10.0,
        ),
        sun: Sun::default(),
        point_lights: Vec::new(),
        draws: Vec::new(),
        clear_color: Vec4::W,
    }
}
