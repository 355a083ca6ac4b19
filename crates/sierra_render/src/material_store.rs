//! [`MaterialStore`]: the surface materials draws name by [`MaterialHandle`].
//!
//! A leaf: it binds [`SurfaceMaterial`]s (group 2 of the forward and crowd pipelines) and resolves the
//! material of a draw, knowing nothing of passes or the renderer. A draw names its material
//! ([`DrawItem::surface`]); a draw that names none takes its mesh's default material
//! ([`MaterialStore::set_mesh_default`], what `Renderer::set_material` sets), else the store's
//! default (Phong, untextured, opaque, single-sided). One mesh can so be drawn with any number
//! of materials without a second upload.

use crate::context::GpuContext;
use crate::error::{RenderError, Result};
use crate::frame::{DrawItem, MaterialHandle, MeshHandle};
use crate::material::{GpuMaterial, MaterialBinder, SurfaceMaterial};

/// The bound materials and the per-mesh defaults.
pub struct MaterialStore {
    binder: MaterialBinder,
    default: GpuMaterial,
    materials: Vec<GpuMaterial>,
    /// `[mesh]` the material of draws of that mesh that name none.
    mesh_defaults: Vec<Option<MaterialHandle>>,
}

impl MaterialStore {
    /// Creates the group-3 layout and the default material.
    ///
    /// # Errors
    /// [`RenderError::Gpu`].
    pub fn new(ctx: &GpuContext) -> Result<Self> {
        let binder = MaterialBinder::new(ctx)?;
        let default = binder.bind(ctx, &SurfaceMaterial::default())?;
        Ok(Self {
            binder,
            default,
            materials: Vec::new(),
            mesh_defaults: Vec::new(),
        })
    }

    /// The group-3 layout every material's bind group has.
    pub fn layout(&self) -> &wgpu::BindGroupLayout {
        self.binder.layout()
    }

    /// Binds `material` (uploads its parameters, binds its textures) and returns its handle.
    ///
    /// # Errors
    /// [`RenderError::Gpu`].
    pub fn add(&mut self, ctx: &GpuContext, material: &SurfaceMaterial) -> Result<MaterialHandle> {
        let gpu = self.binder.bind(ctx, material)?;
        self.materials.push(gpu);
        Ok(MaterialHandle(self.materials.len() as u32 - 1))
    }

    /// Makes `material` the default of every mesh in `meshes` (draws of them that name no
    /// material use it).
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] for a handle this store never returned.
    pub fn set_mesh_default(
        &mut self,
        meshes: &[MeshHandle],
        material: MaterialHandle,
    ) -> Result<()> {
        if material.0 as usize >= self.materials.len() {
            return Err(RenderError::InvalidInput(format!(
                "material handle {} but only {} materials were added",
                material.0,
                self.materials.len()
            )));
        }
        for mesh in meshes {
            let index = mesh.0 as usize;
            if self.mesh_defaults.len() <= index {
                self.mesh_defaults.resize(index + 1, None);
            }
            self.mesh_defaults[index] = Some(material);
        }
        Ok(())
    }

    /// Materials added so far.
    pub fn len(&self) -> usize {
        self.materials.len()
    }

    /// Whether no material was added.
    pub fn is_empty(&self) -> bool {
        self.materials.is_empty()
    }

    /// Whether `draw` names a material this store has (or none).
    pub fn knows(&self, draw: &DrawItem) -> bool {
        draw.surface
            .is_none_or(|h| (h.0 as usize) < self.materials.len())
    }

    /// The material `draw` is drawn with: the one it names, else its mesh's default, else the
    /// store's default. An unknown handle falls back the same way ([`MaterialStore::knows`]
    /// checks them).
    pub fn of_draw(&self, draw: &DrawItem) -> &GpuMaterial {
        let mesh_default = || {
            self.mesh_defaults
                .get(draw.mesh.0 as usize)
                .copied()
                .flatten()
        };
        draw.surface
            .or_else(mesh_default)
            .and_then(|h| self.materials.get(h.0 as usize))
            .unwrap_or(&self.default)
    }
}
