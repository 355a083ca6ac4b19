//! The level's own meshes on the GPU: each primitive a scene uses (and a cube per non-uniform
//! scale), the surface materials of textured primitives, the meshes of its glTF files and their
//! skinned and morphed nodes, uploaded once at load.

use std::collections::HashMap;
use std::path::PathBuf;

use anyhow::{Context, Result};
use glam::{Mat4, Vec3};
use sierra_render::{primitives, GpuContext, MeshData, MeshHandle, Renderer};
use sierra_scene::scene::NodeMesh;
use sierra_scene::Primitive;

use super::level_gltf::LevelGltfMeshes;
use super::level_skins::LevelSkins;
use super::level_surfaces::LevelSurfaces;
use crate::game::Game;

/// Renderer meshes of the primitives a scene uses.
///
/// Each primitive is uploaded once, however many materials draw it: a textured node's draw names
/// the surface material of its (normal map, normal scale, colour texture) ([`LevelSurfaces`]).
#[derive(Clone, Debug, Default)]
pub struct SceneMeshes {
    pub(crate) primitives: HashMap<Primitive, MeshHandle>,
    /// Cubes drawn with a non-uniform scale, by their relative scale ([`box_key`]): UVs spread
    /// so every face has the same texels per metre ([`primitives::cube_for_scale`]).
    pub(crate) scaled_cubes: Vec<([u32; 3], MeshHandle)>,
    /// The surface materials of textured primitives (normal maps, colour textures).
    pub surfaces: LevelSurfaces,
    /// The meshes of the level's glTF files.
    pub gltf: LevelGltfMeshes,
    /// Their skinned and morphed mesh nodes under objects with an `Animator`.
    pub skins: LevelSkins,
}

impl SceneMeshes {
    /// The mesh to draw `primitive` with at `world` (its own cube for a non-uniform scale).
    pub(crate) fn mesh_for(&self, primitive: Primitive, world: &Mat4) -> Option<MeshHandle> {
        if primitive == Primitive::Cube {
            if let Some(key) = box_key(world) {
                if let Some(&(_, mesh)) = self.scaled_cubes.iter().find(|(k, _)| *k == key) {
                    return Some(mesh);
                }
            }
        }
        self.primitives.get(&primitive).copied()
    }
}

/// The length of each of `world`'s axes: its scale along x, y and z.
fn scale_of(world: &Mat4) -> Vec3 {
    Vec3::new(
        world.x_axis.truncate().length(),
        world.y_axis.truncate().length(),
        world.z_axis.truncate().length(),
    )
}

/// The relative scale (each axis over the largest, in thousandths) of a non-uniformly scaled
/// `world` transform; `None` for a uniform (or degenerate) scale, which the plain cube serves.
fn box_key(world: &Mat4) -> Option<[u32; 3]> {
    let scale = scale_of(world);
    let largest = scale.max_element();
    if !(largest > 0.0 && scale.is_finite()) {
        return None;
    }
    let key = (scale / largest * 1000.0).round().as_uvec3().to_array();
    (key != [1000; 3]).then_some(key)
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

/// Uploads each distinct primitive the scene uses, and each mesh of its glTF files, once.
///
/// # Errors
/// GPU errors while uploading.
pub fn upload(ctx: &GpuContext, renderer: &mut Renderer, game: &Game) -> Result<SceneMeshes> {
    upload_onto(ctx, renderer, game, SceneMeshes::default())
}

/// What of `previous` (the meshes of the level before a reload) `game`'s new scene can draw
/// again without uploading: every primitive and scaled cube (their data depends on nothing
/// else), the surfaces that read no file in `changed` (canonical paths) and the glTF meshes of
/// the imports the new scene shares with the old one. Animated skins are uploaded again.
pub fn reusable(previous: SceneMeshes, game: &Game, changed: &[PathBuf]) -> SceneMeshes {
    let mut surfaces = previous.surfaces;
    surfaces.forget_changed(&game.scene.assets, changed);
    SceneMeshes {
        primitives: previous.primitives,
        scaled_cubes: previous.scaled_cubes,
        surfaces,
        gltf: previous.gltf,
        skins: LevelSkins::default(),
    }
}

/// [`upload`] starting from `kept` ([`reusable`]): only what `kept` lacks is uploaded.
///
/// # Errors
/// GPU errors while uploading.
pub fn upload_onto(
    ctx: &GpuContext,
    renderer: &mut Renderer,
    game: &Game,
    kept: SceneMeshes,
) -> Result<SceneMeshes> {
    let msaa = game.scene.post.msaa;
    if let Err(e) = renderer.set_sample_count(ctx, msaa) {
        // A level asking for more than the adapter offers still runs, without anti-aliasing.
        log::warn!(
            "{}: post.msaa = {msaa}: {e}; rendering without MSAA",
            game.file.display()
        );
    }
    let mut meshes = kept;
    for (node, content) in game.scene.content.iter() {
        if let Some(NodeMesh::Primitive { primitive, .. }) = &content.mesh {
            if !meshes.primitives.contains_key(primitive) {
                let handle = renderer
                    .upload_mesh(ctx, &primitive_mesh(*primitive), &format!("{primitive:?}"))
                    .with_context(|| format!("uploading the {primitive:?} primitive"))?;
                meshes.primitives.insert(*primitive, handle);
            }
            upload_scaled_cube(ctx, renderer, game, node, *primitive, &mut meshes)?;
        }
        if let Some(NodeMesh::Primitive { material, .. }) = &content.mesh {
            let json_path = format!("objects[{}].material", content.object.unwrap_or_default());
            meshes
                .surfaces
                .add(ctx, renderer, &game.scene.assets, material, &json_path)
                .with_context(|| format!("{}: {json_path}", game.file.display()))?;
        }
    }
    meshes.gltf = std::mem::take(&mut meshes.gltf)
        .upload_onto(ctx, renderer, &game.scene)
        .with_context(|| format!("{}: uploading the glTF meshes", game.file.display()))?;
    meshes.skins = LevelSkins::upload(ctx, renderer, &game.scene, &game.node_animators)
        .with_context(|| format!("{}: uploading the animated glTF skins", game.file.display()))?;
    Ok(meshes)
}

/// Uploads the cube mesh of `node`'s scale when it is non-uniform and not uploaded yet.
fn upload_scaled_cube(
    ctx: &GpuContext,
    renderer: &mut Renderer,
    game: &Game,
    node: sierra_scene::NodeId,
    primitive: Primitive,
    meshes: &mut SceneMeshes,
) -> Result<()> {
    let world = game.scene.graph.world(node).map(Mat4::from);
    let Some((world, key)) = world.and_then(|w| Some((w, box_key(&w)?))) else {
        return Ok(());
    };
    if primitive != Primitive::Cube || meshes.scaled_cubes.iter().any(|(k, _)| *k == key) {
        return Ok(());
    }
    let scale = scale_of(&world);
    let label = format!("Cube scaled {scale}");
    let handle = renderer
        .upload_mesh(ctx, &primitives::cube_for_scale(scale), &label)
        .with_context(|| format!("uploading the {label} primitive"))?;
    meshes.scaled_cubes.push((key, handle));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thin_cube_draws_its_own_mesh_and_a_uniform_one_the_shared_cube() {
        let thin = Mat4::from_scale_rotation_translation(
            Vec3::new(4.0, 0.4, 4.0),
            glam::Quat::from_rotation_y(0.7),
            Vec3::new(38.0, 3.0, 200.0),
        );
        assert_eq!(box_key(&thin), Some([1000, 100, 1000]));
        assert_eq!(box_key(&Mat4::from_scale(Vec3::splat(2.5))), None);
        assert_eq!(box_key(&Mat4::from_scale(Vec3::ZERO)), None);
        let mut meshes = SceneMeshes::default();
        meshes.primitives.insert(Primitive::Cube, MeshHandle(0));
        meshes.primitives.insert(Primitive::Sphere, MeshHandle(1));
        meshes.scaled_cubes.push(([1000, 100, 1000], MeshHandle(2)));
        assert_eq!(meshes.mesh_for(Primitive::Cube, &thin), Some(MeshHandle(2)));
        assert_eq!(
            meshes.mesh_for(Primitive::Cube, &Mat4::IDENTITY),
            Some(MeshHandle(0))
        );
        // Only cubes get their own mesh; a scale with no uploaded mesh falls back to the cube.
        assert_eq!(
            meshes.mesh_for(Primitive::Sphere, &thin),
            Some(MeshHandle(1))
        );
        let other = Mat4::from_scale(Vec3::new(1.0, 2.0, 3.0));
        assert_eq!(
            meshes.mesh_for(Primitive::Cube, &other),
            Some(MeshHandle(0))
        );
    }
}
