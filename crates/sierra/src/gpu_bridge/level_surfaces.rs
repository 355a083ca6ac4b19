//! The surface materials of a level's built-in primitives: a material with a `normalMap` or a
//! `baseColorTexture` draws with a [`SurfaceMaterial`] holding those textures, one per distinct
//! (normal map, normal scale, colour texture), bound once at load and named by its draws.
//! Texture files come through the level's asset resolver (the loader already checked that each
//! exists inside the asset root; decoding errors name the file and the object's JSON path).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use sierra_render::material::{ShadingModel, SurfaceMaterial};
use sierra_render::normal_maps::{normal_map, NormalPattern};
use sierra_render::texture::{ColorSpace, Texture2d};
use sierra_render::{GpuContext, MaterialHandle, Renderer};
use sierra_scene::level::{Material as LevelMaterial, NormalMapRef};

/// Side in texels of the built-in procedural normal maps.
const BUILTIN_NORMAL_MAP_SIZE: u32 = 256;

/// Slope strength of the built-in maps (height units per texture width, see
/// [`sierra_render::normal_maps::normal_map`]): bumps of a few centimetres on a metre-wide face.
const BUILTIN_NORMAL_MAP_STRENGTH: f32 = 0.04;

/// The tangent-space normal map a level names, as a linear texture.
///
/// # Errors
/// Unknown built-in names (the level loader refuses them first), unreadable or undecodable
/// image files, GPU errors.
pub fn load_normal_map(
    ctx: &GpuContext,
    assets: &sierra_assets::Resolver,
    map: &NormalMapRef,
) -> Result<Texture2d> {
    let (width, height, pixels, label) = match map {
        NormalMapRef::Builtin(name) => {
            let pattern = NormalPattern::from_name(name)
                .with_context(|| format!("unknown built-in normal map `builtin:{name}`"))?;
            let size = BUILTIN_NORMAL_MAP_SIZE;
            let pixels = normal_map(pattern, size, BUILTIN_NORMAL_MAP_STRENGTH);
            (size, size, pixels, format!("builtin:{name}"))
        }
        NormalMapRef::File(rel) => {
            let image = sierra_gltf::load_image_file(assets, rel).with_context(|| {
                format!("reading the normal map {}", assets.display(rel).display())
            })?;
            let label = assets.display(rel).display().to_string();
            (image.width, image.height, image.rgba8, label)
        }
    };
    Texture2d::from_rgba8(ctx, &label, width, height, &pixels, ColorSpace::Linear)
        .with_context(|| format!("uploading the normal map {label}"))
}

/// A level's colour texture (`baseColorTexture`, a path the asset resolver opens), sRGB.
///
/// # Errors
/// Unreadable or undecodable image files (naming the file), GPU errors.
pub fn load_color_texture(
    ctx: &GpuContext,
    assets: &sierra_assets::Resolver,
    rel: &std::path::Path,
) -> Result<Texture2d> {
    let label = assets.display(rel).display().to_string();
    let image = sierra_gltf::load_image_file(assets, rel)
        .with_context(|| format!("reading the colour texture {label}"))?;
    Texture2d::from_rgba8(
        ctx,
        &label,
        image.width,
        image.height,
        &image.rgba8,
        ColorSpace::Srgb,
    )
    .with_context(|| format!("uploading the colour texture {label}"))
}

/// Whether `material` needs a surface material (a normal map or a colour texture).
fn textured(material: &LevelMaterial) -> bool {
    material.normal_map.is_some() || material.base_color_texture.is_some()
}

/// The textured materials of a level, each bound once.
#[derive(Clone, Debug, Default)]
pub struct LevelSurfaces {
    /// (normal map, its scale, colour texture) → surface material; a handful per level,
    /// searched linearly so that building a frame allocates nothing.
    surfaces: Vec<(LevelMaterial, MaterialHandle)>,
}

/// Whether `a` and `b` draw with the same surface textures.
fn same_surface(a: &LevelMaterial, b: &LevelMaterial) -> bool {
    a.normal_map == b.normal_map
        && a.base_color_texture == b.base_color_texture
        && (a.normal_map.is_none() || a.normal_scale.to_bits() == b.normal_scale.to_bits())
}

impl LevelSurfaces {
    /// The surface material `material` draws with (none for an untextured material).
    pub fn get(&self, material: &LevelMaterial) -> Option<MaterialHandle> {
        if !textured(material) {
            return None;
        }
        self.surfaces
            .iter()
            .find(|(m, _)| same_surface(m, material))
            .map(|&(_, handle)| handle)
    }

    /// Drops the surfaces that read a file in `changed` (canonical paths) through `assets`, so
    /// the next [`LevelSurfaces::add`] loads them again; the others stay bound (a reload).
    pub fn forget_changed(&mut self, assets: &sierra_assets::Resolver, changed: &[PathBuf]) {
        let reads_changed = |rel: &Path| {
            let file = assets.display(rel);
            let file = std::fs::canonicalize(&file).unwrap_or(file);
            changed.contains(&file)
        };
        self.surfaces.retain(|(m, _)| {
            let normal = match &m.normal_map {
                Some(NormalMapRef::File(rel)) => reads_changed(rel),
                _ => false,
            };
            let color = m.base_color_texture.as_deref().is_some_and(reads_changed);
            !(normal || color)
        });
    }

    /// Binds `material`'s textures (loaded through `assets`) unless an equal set is bound.
    /// `json_path` names the material in the level for errors.
    ///
    /// # Errors
    /// Unreadable or undecodable textures, naming the file and `json_path`; GPU errors.
    pub fn add(
        &mut self,
        ctx: &GpuContext,
        renderer: &mut Renderer,
        assets: &sierra_assets::Resolver,
        material: &LevelMaterial,
        json_path: &str,
    ) -> Result<()> {
        if !textured(material) || self.get(material).is_some() {
            return Ok(());
        }
        let normal = material
            .normal_map
            .as_ref()
            .map(|map| load_normal_map(ctx, assets, map))
            .transpose()
            .with_context(|| format!("{json_path}.normalMap"))?;
        let base_color = material
            .base_color_texture
            .as_deref()
            .map(|rel| load_color_texture(ctx, assets, rel))
            .transpose()
            .with_context(|| format!("{json_path}.baseColorTexture"))?;
        let surface = SurfaceMaterial {
            model: ShadingModel::Phong,
            normal,
            normal_scale: material.normal_scale,
            base_color,
            ..SurfaceMaterial::default()
        };
        let handle = renderer
            .add_material(ctx, &surface)
            .with_context(|| format!("binding the textured material of {json_path}"))?;
        self.surfaces.push((material.clone(), handle));
        Ok(())
    }
}
