//! The one glTF material conversion (glTF 2.0 §3.9): an [`ImportedMaterial`] as the renderer's
//! per-draw factors ([`Material`]: base colour and emissive factors) and per-mesh surface
//! ([`SurfaceMaterial`]: metallic-roughness, base colour, metallic-roughness, normal (with its
//! scale), occlusion (with its strength) and emissive textures, alpha mode, double-sidedness).
//! Static models ([`crate::upload_gltf`]), skinned and morphed characters
//! ([`crate::SkinnedModel`], `sierra view`) and baked crowds ([`crate::crowd`]) all draw
//! through it, so a texture reaches every path or none.
//!
//! Texture coordinates and samplers: the renderer draws a material with one UV set and one
//! sampler, those of its primary texture (`ImportedMaterial::primary_texture`; the importer
//! bakes its `KHR_texture_transform` into the primitive's `texture_uvs` and warns when the
//! material's other textures differ).
//!
//! Colour spaces: base colour and emissive images are sRGB-encoded, the others linear (§3.9.2);
//! each image is uploaded once per colour space it is used in, however many materials share it.
//! A primitive without a material gets glTF's default material (§3.9.6): white, metallic 1,
//! roughness 1, opaque, single-sided.

use std::collections::HashMap;

use glam::Vec3;
use sierra_gltf::{GltfAsset, ImportedImage, ImportedMaterial, TextureRef};
use sierra_render::compute::skinning::SkinnedMeshHandle;
use sierra_render::material::{AlphaMode, ShadingModel, SurfaceMaterial};
use sierra_render::sampler::{MaterialSampler, SamplerFilter, SamplerWrap};
use sierra_render::texture::{ColorSpace, Texture2d};
use sierra_render::{GpuContext, Material, RenderError, Renderer, Result};

/// The per-draw factors of `material` (glTF's default material for `None`): base colour
/// factor (linear RGBA), emissive factor (linear RGB, `KHR_materials_emissive_strength`
/// applied), no Phong specular (the metallic-roughness BRDF ignores it).
pub fn draw_factors(material: Option<&ImportedMaterial>) -> Material {
    let default = ImportedMaterial::default();
    let m = material.unwrap_or(&default);
    Material {
        base_color: m.base_color_factor,
        specular_color: Vec3::ZERO,
        specular_power: 1.0,
        emissive: m.emissive_factor,
    }
}

/// Every material of one glTF file, converted and uploaded once: index them with
/// [`GltfMaterials::get`] by a primitive's `material`.
#[derive(Clone, Debug)]
pub struct GltfMaterials {
    /// The file, for error messages.
    name: String,
    /// `[material]` surfaces, then glTF's default material last.
    surfaces: Vec<SurfaceMaterial>,
    /// `[material]` draw factors, then the default material's.
    factors: Vec<Material>,
}

impl GltfMaterials {
    /// Converts and uploads every material of `asset` ([`GltfMaterials::from_parts`]).
    ///
    /// # Errors
    /// As [`GltfMaterials::from_parts`].
    pub fn upload(ctx: &GpuContext, asset: &GltfAsset) -> Result<Self> {
        Self::from_parts(
            ctx,
            &asset.path.display().to_string(),
            &asset.materials,
            &asset.images,
        )
    }

    /// Converts `materials` (glTF file order) whose textures index `images`; `name` names the
    /// file in errors and texture labels. A texture whose image is absent (the import skipped
    /// images) is left unbound: the material draws with its factors alone.
    ///
    /// # Errors
    /// [`RenderError::Gpu`] / [`RenderError::InvalidInput`] from texture uploads (an image whose
    /// byte count is not `width · height · 4`).
    pub fn from_parts(
        ctx: &GpuContext,
        name: &str,
        materials: &[ImportedMaterial],
        images: &[ImportedImage],
    ) -> Result<Self> {
        let mut textures = TextureCache {
            ctx,
            images,
            uploaded: HashMap::new(),
        };
        let mut surfaces = Vec::with_capacity(materials.len() + 1);
        for m in materials {
            surfaces.push(surface(m, &mut textures)?);
        }
        surfaces.push(surface(&ImportedMaterial::default(), &mut textures)?);
        let factors = materials
            .iter()
            .map(Some)
            .chain([None])
            .map(draw_factors)
            .collect();
        Ok(Self {
            name: name.to_owned(),
            surfaces,
            factors,
        })
    }

    /// The surface and draw factors of material `index` (`None`: glTF's default material).
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] naming the file for an index past the file's materials.
    pub fn get(&self, index: Option<usize>) -> Result<(&SurfaceMaterial, Material)> {
        let default = self.surfaces.len() - 1;
        let i = index.unwrap_or(default);
        if i >= default && index.is_some() {
            return Err(RenderError::InvalidInput(format!(
                "{}: material {i} does not exist ({} materials)",
                self.name, default
            )));
        }
        Ok((&self.surfaces[i], self.factors[i]))
    }

    /// Gives skinned mesh instance `mesh` (its skinning output) material `index`'s surface in the
    /// forward pass, and returns the draw factors its [`sierra_render::SkinnedDrawItem`]s carry.
    ///
    /// # Errors
    /// As [`GltfMaterials::get`]; [`RenderError::InvalidInput`] for a mesh never uploaded;
    /// binding errors.
    pub fn bind_skinned(
        &self,
        ctx: &GpuContext,
        renderer: &mut Renderer,
        mesh: SkinnedMeshHandle,
        index: Option<usize>,
    ) -> Result<Material> {
        let (surface, factors) = self.get(index)?;
        let output = renderer
            .skinning()
            .and_then(|s| s.output_mesh(mesh))
            .ok_or_else(|| {
                RenderError::InvalidInput(format!(
                    "{}: skinned mesh {} was never uploaded",
                    self.name, mesh.0
                ))
            })?;
        renderer.set_material(ctx, output, surface)?;
        Ok(factors)
    }
}

/// Images uploaded so far, by `(image, sRGB)`.
struct TextureCache<'a> {
    ctx: &'a GpuContext,
    images: &'a [ImportedImage],
    uploaded: HashMap<(usize, bool), Texture2d>,
}

impl TextureCache<'_> {
    fn get(&mut self, reference: &Option<TextureRef>, srgb: bool) -> Result<Option<Texture2d>> {
        let Some(r) = reference else {
            return Ok(None);
        };
        if let Some(t) = self.uploaded.get(&(r.image, srgb)) {
            return Ok(Some(t.clone()));
        }
        let Some(image) = self.images.get(r.image) else {
            return Ok(None);
        };
        let space = if srgb {
            ColorSpace::Srgb
        } else {
            ColorSpace::Linear
        };
        let t = Texture2d::from_rgba8(
            self.ctx,
            &image.name,
            image.width,
            image.height,
            &image.rgba8,
            space,
        )?;
        self.uploaded.insert((r.image, srgb), t.clone());
        Ok(Some(t))
    }
}

/// The per-mesh part of glTF material `m`.
fn surface(m: &ImportedMaterial, textures: &mut TextureCache<'_>) -> Result<SurfaceMaterial> {
    Ok(SurfaceMaterial {
        model: ShadingModel::MetallicRoughness {
            metallic: m.metallic_factor,
            roughness: m.roughness_factor,
        },
        base_color: textures.get(&m.base_color_texture, true)?,
        metallic_roughness: textures.get(&m.metallic_roughness_texture, false)?,
        normal: textures.get(&m.normal_texture, false)?,
        normal_scale: m.normal_scale,
        occlusion: textures.get(&m.occlusion_texture, false)?,
        occlusion_strength: m.occlusion_strength,
        emissive: textures.get(&m.emissive_texture, true)?,
        alpha_mode: match m.alpha_mode {
            sierra_gltf::AlphaMode::Opaque => AlphaMode::Opaque,
            sierra_gltf::AlphaMode::Mask { cutoff } => AlphaMode::Mask(cutoff),
            sierra_gltf::AlphaMode::Blend => AlphaMode::Blend,
        },
        double_sided: m.double_sided,
        detail: None,
        surface_detail: None,
        sampler: m
            .primary_texture()
            .map_or_else(MaterialSampler::default, |t| material_sampler(&t.sampler)),
    })
}

/// A glTF sampler as the renderer's (glTF 2.0 §3.8.4).
pub fn material_sampler(s: &sierra_gltf::ImportedSampler) -> MaterialSampler {
    let wrap = |w| match w {
        sierra_gltf::Wrap::Repeat => SamplerWrap::Repeat,
        sierra_gltf::Wrap::MirroredRepeat => SamplerWrap::MirroredRepeat,
        sierra_gltf::Wrap::ClampToEdge => SamplerWrap::ClampToEdge,
    };
    let filter = |f| match f {
        sierra_gltf::Filter::Nearest => SamplerFilter::Nearest,
        sierra_gltf::Filter::Linear => SamplerFilter::Linear,
    };
    MaterialSampler {
        wrap_u: wrap(s.wrap_s),
        wrap_v: wrap(s.wrap_t),
        mag_filter: filter(s.mag_filter),
        min_filter: filter(s.min_filter),
        mipmap_filter: s.mipmap_filter.map(filter),
    }
}
