//! [`MeshStore`]: every mesh the renderer can draw, by [`MeshHandle`], with its model-space
//! bounds for frustum culling and how many of its indices cast sun shadows.
//!
//! A leaf: it knows meshes and nothing of passes, materials or the renderer. A mesh is uploaded
//! once and drawn by any number of draws, each naming its own material
//! ([`crate::DrawItem::surface`]); [`MeshStore::uploads`] counts the uploads so tests can check
//! that sharing holds.

use glam::Vec3;

use crate::context::GpuContext;
use crate::error::Result;
use crate::frame::MeshHandle;
use crate::mesh::{GpuMesh, MeshData};
use crate::passes::frustum::bounds_of;

/// Model-space bounds `(min, max)` in metres; `None`: unknown (never culled).
pub type MeshBounds = Option<(Vec3, Vec3)>;

/// The meshes on the GPU, indexed by [`MeshHandle`] (handles stay valid for the store's life).
#[derive(Debug, Default)]
pub struct MeshStore {
    meshes: Vec<GpuMesh>,
    bounds: Vec<MeshBounds>,
    /// Per mesh, the leading indices that cast sun shadows (`None`: all of them).
    caster_indices: Vec<Option<u32>>,
    uploads: u64,
}

impl MeshStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// Validates and uploads `mesh` (one vertex and one index buffer, counted in
    /// [`MeshStore::uploads`]); its bounds are its vertices' box.
    ///
    /// # Errors
    /// As [`GpuMesh::upload`].
    pub fn upload(&mut self, ctx: &GpuContext, mesh: &MeshData, label: &str) -> Result<MeshHandle> {
        let gpu = GpuMesh::upload(ctx, mesh, label)?;
        self.uploads += 1;
        Ok(self.push(gpu, bounds_of(&mesh.positions)))
    }

    /// Registers a mesh already on the GPU (e.g. a skinned instance's output vertex buffer);
    /// its bounds are unknown until [`MeshStore::set_bounds`].
    pub fn add_gpu_mesh(&mut self, mesh: GpuMesh) -> MeshHandle {
        self.push(mesh, None)
    }

    fn push(&mut self, mesh: GpuMesh, bounds: MeshBounds) -> MeshHandle {
        let handle = MeshHandle(self.meshes.len() as u32);
        self.meshes.push(mesh);
        self.bounds.push(bounds);
        self.caster_indices.push(None);
        handle
    }

    /// Sets the model-space bounds of `handle` (posed bounds of a skinned output, or `None`:
    /// never culled). Unknown handles are ignored.
    pub fn set_bounds(&mut self, handle: MeshHandle, bounds: MeshBounds) {
        if let Some(slot) = self.bounds.get_mut(handle.0 as usize) {
            *slot = bounds;
        }
    }

    /// The bounds of `handle` (`None` when unknown or not a handle of this store).
    pub fn bounds(&self, handle: MeshHandle) -> MeshBounds {
        self.bounds.get(handle.0 as usize).copied().flatten()
    }

    /// Lets only the first `count` indices of `handle`'s range cast sun shadows (`None`: all),
    /// e.g. a terrain chunk's ground without the skirt that hangs below it, or none of a skirt.
    /// Unknown handles are ignored; a count past the mesh's indices means all of them.
    pub fn set_caster_indices(&mut self, handle: MeshHandle, count: Option<u32>) {
        if let Some(slot) = self.caster_indices.get_mut(handle.0 as usize) {
            *slot = count;
        }
    }

    /// How many leading indices of `handle`'s range cast sun shadows (0 for an unknown handle).
    pub fn caster_index_count(&self, handle: MeshHandle) -> u32 {
        let Some(mesh) = self.get(handle) else {
            return 0;
        };
        let limit = self.caster_indices[handle.0 as usize];
        limit.map_or(mesh.index_count, |n| n.min(mesh.index_count))
    }

    /// The mesh of `handle`.
    pub fn get(&self, handle: MeshHandle) -> Option<&GpuMesh> {
        self.meshes.get(handle.0 as usize)
    }

    /// Meshes in the store (handles `0..len`).
    pub fn len(&self) -> usize {
        self.meshes.len()
    }

    /// Whether the store holds no mesh.
    pub fn is_empty(&self) -> bool {
        self.meshes.is_empty()
    }

    /// Meshes uploaded from CPU data so far ([`MeshStore::upload`] calls that succeeded).
    pub fn uploads(&self) -> u64 {
        self.uploads
    }
}
