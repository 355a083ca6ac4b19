//! Metallic-roughness materials and decoded images (glTF 2.0 §3.9).

use glam::{Vec2, Vec3, Vec4};

use crate::extensions::{PathPart, RawJson};

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

/// A texture reference: image index, UV set, UV transform and sampler.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct TextureRef {
    /// Index into [`crate::GltfAsset::images`].
    pub image: usize,
    /// Which TEXCOORD_n set (`KHR_texture_transform`'s `texCoord` override applied).
    pub tex_coord: u32,
    /// `KHR_texture_transform` (identity without the extension).
    pub transform: TextureTransform,
    /// The texture's glTF sampler (glTF 2.0 §3.8.4; defaults where the file leaves it open).
    pub sampler: ImportedSampler,
}

/// `KHR_texture_transform`: `uv' = T · R · S · uv` with `T` the offset, `R` the rotation
/// (radians, counter-clockwise in UV space) and `S` the scale, as the extension's spec writes
/// it (<https://github.com/KhronosGroup/glTF/tree/main/extensions/2.0/Khronos/KHR_texture_transform>).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TextureTransform {
    /// UV offset.
    pub offset: Vec2,
    /// Rotation in radians.
    pub rotation: f32,
    /// UV scale.
    pub scale: Vec2,
}

impl Default for TextureTransform {
    /// The identity: offset 0, rotation 0, scale 1.
    fn default() -> Self {
        Self {
            offset: Vec2::ZERO,
            rotation: 0.0,
            scale: Vec2::ONE,
        }
    }
}

impl TextureTransform {
    /// `uv` transformed: `u' = sx·u·cos r + sy·v·sin r + ox`, `v' = −sx·u·sin r + sy·v·cos r + oy`.
    pub fn apply(&self, uv: Vec2) -> Vec2 {
        let (sin, cos) = self.rotation.sin_cos();
        let s = uv * self.scale;
        Vec2::new(s.x * cos + s.y * sin, -s.x * sin + s.y * cos) + self.offset
    }
}

/// How a texture coordinate outside [0, 1] wraps (glTF sampler `wrapS`/`wrapT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Wrap {
    /// `REPEAT` (10497), the default.
    #[default]
    Repeat,
    /// `MIRRORED_REPEAT` (33648).
    MirroredRepeat,
    /// `CLAMP_TO_EDGE` (33071).
    ClampToEdge,
}

/// Texel filter (glTF sampler `magFilter`/`minFilter`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Filter {
    /// `NEAREST`.
    Nearest,
    /// `LINEAR`, Sierra's choice where the file names none.
    #[default]
    Linear,
}

/// A glTF sampler (glTF 2.0 §3.8.4). A filter the file leaves undefined is linear, and an
/// undefined `minFilter` filters between mips linearly (trilinear).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ImportedSampler {
    /// Wrap along U (`wrapS`).
    pub wrap_s: Wrap,
    /// Wrap along V (`wrapT`).
    pub wrap_t: Wrap,
    /// Magnification filter.
    pub mag_filter: Filter,
    /// Minification filter within a mip level.
    pub min_filter: Filter,
    /// Filter between mip levels; `None`: no mips (`minFilter` `NEAREST` or `LINEAR`).
    pub mipmap_filter: Option<Filter>,
}

impl Default for ImportedSampler {
    /// Repeat, trilinear.
    fn default() -> Self {
        Self {
            wrap_s: Wrap::Repeat,
            wrap_t: Wrap::Repeat,
            mag_filter: Filter::Linear,
            min_filter: Filter::Linear,
            mipmap_filter: Some(Filter::Linear),
        }
    }
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

fn sampler(s: gltf::texture::Sampler) -> ImportedSampler {
    use gltf::texture::{MagFilter, MinFilter, WrappingMode};
    let wrap = |w| match w {
        WrappingMode::Repeat => Wrap::Repeat,
        WrappingMode::MirroredRepeat => Wrap::MirroredRepeat,
        WrappingMode::ClampToEdge => Wrap::ClampToEdge,
    };
    let (min_filter, mipmap_filter) = match s.min_filter() {
        None | Some(MinFilter::LinearMipmapLinear) => (Filter::Linear, Some(Filter::Linear)),
        Some(MinFilter::Nearest) => (Filter::Nearest, None),
        Some(MinFilter::Linear) => (Filter::Linear, None),
        Some(MinFilter::NearestMipmapNearest) => (Filter::Nearest, Some(Filter::Nearest)),
        Some(MinFilter::LinearMipmapNearest) => (Filter::Linear, Some(Filter::Nearest)),
        Some(MinFilter::NearestMipmapLinear) => (Filter::Nearest, Some(Filter::Linear)),
    };
    ImportedSampler {
        wrap_s: wrap(s.wrap_s()),
        wrap_t: wrap(s.wrap_t()),
        mag_filter: match s.mag_filter() {
            Some(MagFilter::Nearest) => Filter::Nearest,
            None | Some(MagFilter::Linear) => Filter::Linear,
        },
        min_filter,
        mipmap_filter,
    }
}

/// `KHR_texture_transform` of the textureInfo at `path` and its `texCoord` override; values
/// that are absent or not finite numbers keep their identity defaults.
fn transform(raw: &RawJson, path: &[PathPart]) -> (TextureTransform, Option<u32>) {
    let Some(ext) = raw.extension(path, "KHR_texture_transform") else {
        return (TextureTransform::default(), None);
    };
    let number = |v: &serde_json::Value| v.as_f64().map(|x| x as f32).filter(|x| x.is_finite());
    let pair = |key: &str, default: Vec2| {
        ext.get(key)
            .and_then(|v| Some(Vec2::new(number(v.get(0)?)?, number(v.get(1)?)?)))
            .unwrap_or(default)
    };
    let t = TextureTransform {
        offset: pair("offset", Vec2::ZERO),
        rotation: ext.get("rotation").and_then(number).unwrap_or(0.0),
        scale: pair("scale", Vec2::ONE),
    };
    let tex_coord = ext
        .get("texCoord")
        .and_then(serde_json::Value::as_u64)
        .and_then(|t| u32::try_from(t).ok());
    (t, tex_coord)
}

/// The reference of one textureInfo; `slot` is its JSON path inside the material.
fn tex(
    texture: gltf::Texture,
    tex_coord: u32,
    raw: &RawJson,
    material: usize,
    slot: &[&str],
) -> TextureRef {
    let mut path = vec![PathPart::Key("materials"), PathPart::Index(material)];
    path.extend(slot.iter().map(|k| PathPart::Key(k)));
    let (transform, override_tex_coord) = transform(raw, &path);
    TextureRef {
        image: texture.source().index(),
        tex_coord: override_tex_coord.unwrap_or(tex_coord),
        transform,
        sampler: sampler(texture.sampler()),
    }
}

pub(crate) fn read_material(m: &gltf::Material, raw: &RawJson) -> ImportedMaterial {
    let pbr = m.pbr_metallic_roughness();
    let i = m.index().unwrap_or(0);
    let info =
        |t: gltf::texture::Info, slot: &[&str]| tex(t.texture(), t.tex_coord(), raw, i, slot);
    const PBR: &str = "pbrMetallicRoughness";
    ImportedMaterial {
        name: m.name().unwrap_or("").to_owned(),
        base_color_factor: Vec4::from(pbr.base_color_factor()),
        base_color_texture: pbr
            .base_color_texture()
            .map(|t| info(t, &[PBR, "baseColorTexture"])),
        metallic_factor: pbr.metallic_factor(),
        roughness_factor: pbr.roughness_factor(),
        metallic_roughness_texture: pbr
            .metallic_roughness_texture()
            .map(|t| info(t, &[PBR, "metallicRoughnessTexture"])),
        normal_texture: m
            .normal_texture()
            .map(|t| tex(t.texture(), t.tex_coord(), raw, i, &["normalTexture"])),
        normal_scale: m.normal_texture().map_or(1.0, |t| t.scale()),
        occlusion_texture: m
            .occlusion_texture()
            .map(|t| tex(t.texture(), t.tex_coord(), raw, i, &["occlusionTexture"])),
        occlusion_strength: m.occlusion_texture().map_or(1.0, |t| t.strength()),
        emissive_factor: Vec3::from(m.emissive_factor()) * m.emissive_strength().unwrap_or(1.0),
        emissive_texture: m.emissive_texture().map(|t| info(t, &["emissiveTexture"])),
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

impl ImportedMaterial {
    /// Every texture of the material with its slot name, in the order Sierra picks the UV set,
    /// transform and sampler the whole material uses ([`ImportedMaterial::primary_texture`]).
    pub fn textures(&self) -> impl Iterator<Item = (&'static str, &TextureRef)> {
        [
            ("baseColorTexture", &self.base_color_texture),
            ("emissiveTexture", &self.emissive_texture),
            ("metallicRoughnessTexture", &self.metallic_roughness_texture),
            ("occlusionTexture", &self.occlusion_texture),
            ("normalTexture", &self.normal_texture),
        ]
        .into_iter()
        .filter_map(|(slot, t)| Some((slot, t.as_ref()?)))
    }

    /// The texture whose UV set, transform and sampler the renderer applies to all of the
    /// material's textures (one UV set and one sampler per draw): the base colour texture, else
    /// the first of emissive, metallic-roughness, occlusion, normal.
    pub fn primary_texture(&self) -> Option<&TextureRef> {
        self.textures().next().map(|(_, t)| t)
    }
}
