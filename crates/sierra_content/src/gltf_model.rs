//! Uploading an imported glTF asset (`sierra_gltf`) for drawing: one mesh per primitive with its
//! surface material ([`crate::gltf_material`], the one glTF material conversion), placed by its
//! node's world matrix in the default scene.
//!
//! Skinned meshes are placed in their bind pose by their node (the skinning pass, when present,
//! replaces that); flat normals are computed when a primitive has none (glTF 2.0 §3.7.2.1), and
//! tangents with MikkTSpace when a normal-mapped primitive has none.

use std::collections::HashMap;

use glam::{Mat4, Vec3};
use sierra_gltf::{GltfAsset, ImportedPrimitive};

use sierra_render::tangents::generate_tangents_if_missing;
use sierra_render::{
    DrawItem, GpuContext, Material, MeshData, MeshHandle, RenderError, Renderer, Result,
};

use crate::gltf_material::GltfMaterials;

/// An uploaded glTF asset: what to draw, and its world-space bounds.
#[derive(Clone, Debug)]
pub struct GltfModel {
    /// One draw per primitive instance (node × primitive), with the node's world matrix as model.
    pub draws: Vec<DrawItem>,
    /// `[draw]` the glTF node drawing it (to re-place it when the node animates).
    pub nodes: Vec<usize>,
    /// `[draw]` model-space bounds `(min, max)` of its primitive's vertices (metres).
    pub local_bounds: Vec<(Vec3, Vec3)>,
    /// Minimum corner of the drawn vertices' world-space bounds (metres).
    pub bounds_min: Vec3,
    /// Maximum corner.
    pub bounds_max: Vec3,
}

impl GltfModel {
    /// The draws placed under `transform` (e.g. a scene node's world matrix).
    pub fn draws_at(&self, transform: Mat4) -> impl Iterator<Item = DrawItem> + '_ {
        self.draws.iter().map(move |d| DrawItem {
            model: transform * d.model,
            ..*d
        })
    }
}

/// Engine mesh data of one primitive: the UVs its material samples (`draw_uvs`: UV set and
/// `KHR_texture_transform` of its primary texture), COLOR_0 as vertex colours, flat normals when
/// absent, MikkTSpace tangents when absent.
pub fn primitive_mesh(primitive: &ImportedPrimitive) -> MeshData {
    let vec3s = |v: &[Vec3]| v.iter().map(|p| p.to_array()).collect::<Vec<_>>();
    let mut indices = primitive.indices.clone();
    if indices.is_empty() {
        indices = (0..primitive.positions.len() as u32).collect();
    }
    let mut mesh = MeshData {
        positions: vec3s(&primitive.positions),
        normals: vec3s(&primitive.normals),
        uvs: primitive
            .draw_uvs()
            .iter()
            .map(|uv| uv.to_array())
            .collect(),
        tangents: primitive.tangents.iter().map(|t| t.to_array()).collect(),
        colors: primitive.colors.iter().map(|c| c.to_array()).collect(),
        indices,
    };
    if mesh.normals.len() != mesh.positions.len() {
        mesh = flat_shaded(&mesh);
    }
    generate_tangents_if_missing(&mut mesh);
    mesh
}

/// Un-indexes `mesh` and gives each triangle its face normal.
fn flat_shaded(mesh: &MeshData) -> MeshData {
    let mut out = MeshData {
        positions: Vec::with_capacity(mesh.indices.len()),
        normals: Vec::with_capacity(mesh.indices.len()),
        uvs: Vec::new(),
        tangents: Vec::new(),
        colors: Vec::new(),
        indices: (0..mesh.indices.len() as u32).collect(),
    };
    for tri in mesh.indices.chunks_exact(3) {
        let p = [0, 1, 2].map(|k| {
            Vec3::from(
                mesh.positions
                    .get(tri[k] as usize)
                    .copied()
                    .unwrap_or_default(),
            )
        });
        let normal = (p[1] - p[0]).cross(p[2] - p[0]).normalize_or(Vec3::Y);
        for &i in tri {
            let i = i as usize;
            out.positions
                .push(mesh.positions.get(i).copied().unwrap_or_default());
            out.normals.push(normal.to_array());
            if let Some(uv) = mesh.uvs.get(i) {
                out.uvs.push(*uv);
            }
            if let Some(c) = mesh.colors.get(i) {
                out.colors.push(*c);
            }
        }
    }
    out.indices.truncate(out.positions.len());
    if out.uvs.len() != out.positions.len() {
        out.uvs.clear();
    }
    if out.colors.len() != out.positions.len() {
        out.colors.clear();
    }
    out
}

/// World matrix of every node (identity for nodes outside the default scene's trees).
pub fn node_world_matrices(asset: &GltfAsset) -> Vec<Mat4> {
    let mut world = vec![Mat4::IDENTITY; asset.nodes.len()];
    let mut stack: Vec<(usize, Mat4)> = asset
        .scene_roots
        .iter()
        .map(|&r| (r, Mat4::IDENTITY))
        .collect();
    while let Some((node, parent)) = stack.pop() {
        let Some(n) = asset.nodes.get(node) else {
            continue;
        };
        let m = parent * n.transform.to_matrix();
        world[node] = m;
        stack.extend(n.children.iter().map(|&c| (c, m)));
    }
    world
}

/// Uploads every mesh primitive of `asset` drawn by its default scene, with materials.
///
/// # Errors
/// [`RenderError::InvalidInput`] for out-of-range mesh, material or image indices or bad
/// vertex data; GPU errors from uploads.
pub fn upload_gltf(
    ctx: &GpuContext,
    renderer: &mut Renderer,
    asset: &GltfAsset,
) -> Result<GltfModel> {
    let file = asset.path.display();
    let world = node_world_matrices(asset);
    let materials = GltfMaterials::upload(ctx, asset)?;
    let mut uploaded: HashMap<(usize, usize), (MeshHandle, Material)> = HashMap::new();
    let mut model = GltfModel {
        draws: Vec::new(),
        nodes: Vec::new(),
        local_bounds: Vec::new(),
        bounds_min: Vec3::splat(f32::INFINITY),
        bounds_max: Vec3::splat(f32::NEG_INFINITY),
    };
    let mut in_scene = vec![false; asset.nodes.len()];
    let mut stack = asset.scene_roots.clone();
    while let Some(n) = stack.pop() {
        if let Some(node) = asset.nodes.get(n) {
            if !std::mem::replace(&mut in_scene[n], true) {
                stack.extend(&node.children);
            }
        }
    }
    for (node_index, node) in asset.nodes.iter().enumerate() {
        let Some(mesh_index) = node.mesh.filter(|_| in_scene[node_index]) else {
            continue;
        };
        let mesh = asset.meshes.get(mesh_index).ok_or_else(|| {
            RenderError::InvalidInput(format!(
                "{file}: node {node_index} uses missing mesh {mesh_index}"
            ))
        })?;
        for (prim_index, primitive) in mesh.primitives.iter().enumerate() {
            let key = (mesh_index, prim_index);
            let (handle, material) = match uploaded.get(&key) {
                Some(found) => *found,
                None => {
                    let data = primitive_mesh(primitive);
                    data.validate().map_err(|e| {
                        RenderError::InvalidInput(format!(
                            "{file}: mesh {mesh_index} primitive {prim_index}: {e}"
                        ))
                    })?;
                    let label = format!("{} mesh {mesh_index}.{prim_index}", file);
                    let handle = renderer.upload_mesh(ctx, &data, &label)?;
                    let (surface, material) = materials.get(primitive.material).map_err(|e| {
                        RenderError::InvalidInput(format!(
                            "mesh {mesh_index} primitive {prim_index}: {e}"
                        ))
                    })?;
                    renderer.set_material(ctx, handle, surface)?;
                    uploaded.insert(key, (handle, material));
                    (handle, material)
                }
            };
            let m = world[node_index];
            let mut local = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
            for p in &primitive.positions {
                let w = m.transform_point3(*p);
                model.bounds_min = model.bounds_min.min(w);
                model.bounds_max = model.bounds_max.max(w);
                local = (local.0.min(*p), local.1.max(*p));
            }
            model.nodes.push(node_index);
            model.local_bounds.push(local);
            model.draws.push(DrawItem {
                mesh: handle,
                model: m,
                material,
                surface: None,
            });
        }
    }
    Ok(model)
}
