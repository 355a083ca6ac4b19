//! The glTF files a level places (objects whose `mesh` is a `.gltf`/`.glb`): every mesh node
//! the file's default scene made under the object is drawn at its scene node's world matrix
//! with the file's materials ([`GltfMaterials`], the one glTF material conversion). Each
//! (file, mesh) is uploaded once, however many nodes or objects draw it; the scene's asset cache
//! already imports each file once.
//!
//! Without an `Animator`, skinned mesh nodes are drawn in their bind pose placed by their node
//! (as [`sierra_content::upload_gltf`] does); with one, skinned and morphed mesh nodes are drawn
//! posed by [`super::level_skins`]; a `Character` component poses a skinned model.

use std::collections::HashMap;
use std::sync::Arc;

use anyhow::{Context, Result};
use glam::Mat4;
use sierra_content::gltf_model::primitive_mesh;
use sierra_content::GltfMaterials;
use sierra_render::{DrawItem, GpuContext, Material, MeshHandle, Renderer};
use sierra_scene::assets::GltfScene;
use sierra_scene::scene::NodeMesh;
use sierra_scene::Scene;

/// Renderer meshes of the level's glTF files, keyed by (file, mesh index).
#[derive(Clone, Debug, Default)]
pub struct LevelGltfMeshes {
    /// `(file identity, mesh)` → one `(mesh, draw factors)` per primitive. The identity is the
    /// shared import's address: the scene keeps every `Arc` alive for the level's lifetime.
    meshes: HashMap<(usize, usize), Vec<(MeshHandle, Material)>>,
}

fn key(asset: &Arc<GltfScene>, mesh: usize) -> (usize, usize) {
    (Arc::as_ptr(asset) as usize, mesh)
}

impl LevelGltfMeshes {
    /// Uploads every glTF mesh the scene's nodes draw, with its file's materials.
    ///
    /// # Errors
    /// Bad vertex data or material indices (naming the file, mesh and primitive), GPU errors.
    pub fn upload(ctx: &GpuContext, renderer: &mut Renderer, scene: &Scene) -> Result<Self> {
        Self::default().upload_onto(ctx, renderer, scene)
    }

    /// Keeps the meshes of the (file, mesh) pairs `scene` still draws through the same import
    /// (a reloaded level whose asset cache kept the file), drops the others, and uploads what
    /// `scene` draws that is not kept: a reload uploads only the files that changed. Call it
    /// while the previous scene is still alive, so no kept key names a freed import.
    ///
    /// # Errors
    /// As [`LevelGltfMeshes::upload`].
    pub fn upload_onto(
        mut self,
        ctx: &GpuContext,
        renderer: &mut Renderer,
        scene: &Scene,
    ) -> Result<Self> {
        let drawn: std::collections::HashSet<(usize, usize)> = scene
            .content
            .iter()
            .filter_map(|(_, content)| match &content.mesh {
                Some(NodeMesh::Gltf { asset, mesh, .. }) => Some(key(asset, *mesh)),
                _ => None,
            })
            .collect();
        self.meshes.retain(|k, _| drawn.contains(k));
        let mut out = self;
        let mut materials: HashMap<usize, GltfMaterials> = HashMap::new();
        for (_, content) in scene.content.iter() {
            let Some(NodeMesh::Gltf { asset, mesh, .. }) = &content.mesh else {
                continue;
            };
            if out.meshes.contains_key(&key(asset, *mesh)) {
                continue;
            }
            let import = &asset.import;
            let file = import.path.display().to_string();
            let converted = match materials.entry(Arc::as_ptr(asset) as usize) {
                std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::hash_map::Entry::Vacant(e) => e.insert(
                    GltfMaterials::upload(ctx, import)
                        .with_context(|| format!("uploading the materials of {file}"))?,
                ),
            };
            let primitives = &import
                .meshes
                .get(*mesh)
                .with_context(|| format!("{file}: mesh {mesh} is missing"))?
                .primitives;
            let mut uploaded = Vec::with_capacity(primitives.len());
            for (p, primitive) in primitives.iter().enumerate() {
                let label = format!("{file} mesh {mesh}.{p}");
                let data = primitive_mesh(primitive);
                data.validate().with_context(|| label.clone())?;
                let handle = renderer
                    .upload_mesh(ctx, &data, &label)
                    .with_context(|| format!("uploading {label}"))?;
                let (surface, factors) = converted
                    .get(primitive.material)
                    .with_context(|| label.clone())?;
                renderer
                    .set_material(ctx, handle, surface)
                    .with_context(|| format!("binding the material of {label}"))?;
                uploaded.push((handle, factors));
            }
            out.meshes.insert(key(asset, *mesh), uploaded);
        }
        Ok(out)
    }

    /// Appends the draws of mesh `mesh` of `asset` at `world` to `draws` (none when it was not
    /// uploaded). Allocates nothing once `draws` has grown.
    pub fn draw(
        &self,
        asset: &Arc<GltfScene>,
        mesh: usize,
        world: Mat4,
        draws: &mut Vec<DrawItem>,
    ) {
        if let Some(primitives) = self.meshes.get(&key(asset, mesh)) {
            draws.extend(primitives.iter().map(|&(mesh, material)| DrawItem {
                mesh,
                model: world,
                material,
                surface: None,
            }));
        }
    }

    /// Distinct (file, mesh) pairs uploaded.
    pub fn len(&self) -> usize {
        self.meshes.len()
    }

    /// Whether the level places no glTF mesh.
    pub fn is_empty(&self) -> bool {
        self.meshes.is_empty()
    }
}
