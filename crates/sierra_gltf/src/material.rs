//! Metallic-roughness materials and decoded images (glTF 2.0 §3.9).

use glam::{Vec3, Vec4};

/// How alpha is interpreted (glTF 2.0 §3.9.4).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum AlphaMode {
    /// Alpha ignored.
    #[default]
    Opaque,
    /// Fragments with alpha below `cutoff` are discarded.
    Mask {
        /// Alpha cutoff (default 0.5).
        cutoff: f32,
    },
    /// Alpha blended (sorted transparent pass).
    Blend,
}

/// A texture reference: image index and UV set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureRef {
    /// Index into [`crate::GltfAsset::images`].
    pub image: usize,
    /// Which TEXCOORD_n set.
    pub tex_coord: u32,
}

/// A metallic-roughness material. Factors are linear; base colour and emissive
/// textures are sRGB-encoded, normal / metallic-roughness / occlusion textures linear.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportedMaterial {
    /// Material name.
    pub name: String,
    /// Linear RGBA multiplier of the base colour.
    pub base_color_factor: Vec4,
    /// Base colour texture (sRGB).
    pub base_color_texture: Option<TextureRef>,
    /// Metalness multiplier in [0, 1].
    pub metallic_factor: f32,
    /// Roughness multiplier in [0, 1].
    pub roughness_factor: f32,
    /// Metallic (B channel) and roughness (G channel) texture, linear.
    pub metallic_roughness_texture: Option<TextureRef>,
    /// Tangent-space normal map, linear.
    pub normal_texture: Option<TextureRef>,
    /// Normal map XY scale.
    pub normal_scale: f32,
    /// Ambient occlusion (R channel), linear.
    pub occlusion_texture: Option<TextureRef>,
    /// Occlusion strength in [0, 1].
    pub occlusion_strength: f32,
    /// Linear emissive colour, already multiplied by `KHR_materials_emissive_strength`.
    pub emissive_factor: Vec3,
    /// Emissive texture (sRGB).
    pub emissive_texture: Option<TextureRef>,
    /// Alpha mode.
    pub alpha_mode: AlphaMode,
    /// Render both faces, no back-face culling.
    pub double_sided: bool,
}

impl Default for ImportedMaterial {
    /// The glTF default material (§3.9.6): white, metallic 1, roughness 1.
    fn default() -> Self {
        Self {
            name: String::new(),
            base_color_factor: Vec4::ONE,
            base_color_texture: None,
            metallic_factor: 1.0,
            roughness_factor: 1.0,
            metallic_roughness_texture: None,
            normal_texture: None,
            normal_scale: 1.0,
            occlusion_texture: None,
            occlusion_strength: 1.0,
            emissive_factor: Vec3::ZERO,
            emissive_texture: None,
            alpha_mode: AlphaMode::Opaque,
            double_sided: false,
        }
    }
}

/// A decoded image: `width × height` RGBA8 pixels, rows top to bottom.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportedImage {
    /// Image name (or URI), for debugging.
    pub name: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `[height][width][4]` bytes.
    pub rgba8: Vec<u8>,
}

fn tex(info: Option<gltf::texture::Info>) -> Option<TextureRef> {
    info.map(|i| TextureRef {
        image: i.texture().source().index(),
        tex_coord: i.tex_coord(),
    })
}

pub(crate) fn read_material(m: &gltf::Material) -> ImportedMaterial {
    let pbr = m.pbr_metallic_roughness();
    ImportedMaterial {
        name: m.name().unwrap_or("").to_owned(),
        base_color_factor: Vec4::from(pbr.base_color_factor()),
        base_color_texture: tex(pbr.base_color_texture()),
        metallic_factor: pbr.metallic_factor(),
        roughness_factor: pbr.roughness_factor(),
        metallic_roughness_texture: tex(pbr.metallic_roughness_texture()),
        normal_texture: m.normal_texture().map(|t| TextureRef {
            image: t.texture().source().index(),
            tex_coord: t.tex_coord(),
        }),
        normal_scale: m.normal_texture().map_or(1.0, |t| t.scale()),
        occlusion_texture: m.occlusion_texture().map(|t| TextureRef {
            image: t.texture().source().index(),
            tex_coord: t.tex_coord(),
        }),
        occlusion_strength: m.occlusion_texture().map_or(1.0, |t| t.strength()),
        emissive_factor: Vec3::from(m.emissive_factor()) * m.emissive_strength().unwrap_or(1.0),
        emissive_texture: tex(m.emissive_texture()),
        alpha_mode: match m.alpha_mode() {
            gltf::material::AlphaMode::Opaque => AlphaMode::Opaque,
            gltf::material::AlphaMode::Mask => AlphaMode::Mask {
                cutoff: m.alpha_cutoff().unwrap_or(0.5),
            },
            gltf::material::AlphaMode::Blend => AlphaMode::Blend,
        },
        double_sided: m.double_sided(),
    }
}
