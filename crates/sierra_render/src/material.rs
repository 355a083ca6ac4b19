//! Surface materials: the textures and shading model of a mesh, bound as the forward pass's
//! group 2 (`forward.wgsl`: `MaterialUniform`, `material_sampler`, five textures).
//!
//! Two shading models share the same lights (see `forward.wgsl`):
//! - [`ShadingModel::Phong`]: seed 000's material (diffuse colour and texture, specular colour
//!   and power from the draw's [`crate::Material`], normal map, emissive);
//! - [`ShadingModel::MetallicRoughness`]: glTF 2.0's metallic-roughness material with the
//!   Cook-Torrance microfacet BRDF (GGX distribution, Smith-Schlick geometry, Schlick Fresnel;
//!   glTF 2.0 spec Appendix B).
//!
//! Per-draw factors (base colour, emissive, Phong specular) stay in the draw's
//! [`crate::Material`]; what a [`SurfaceMaterial`] adds is per mesh, like a glTF primitive's material.

use crate::context::GpuContext;
use crate::error::Result;
use crate::sampler::{MaterialSampler, SamplerCache};
use crate::texture::{ColorSpace, Texture2d};

/// Which BRDF lights the surface.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum ShadingModel {
    /// Blinn-Phong with the draw's specular colour and power (seed 000).
    #[default]
    Phong,
    /// glTF metallic-roughness, Cook-Torrance GGX.
    MetallicRoughness {
        /// Metalness factor in [0, 1] (multiplies the texture's blue channel).
        metallic: f32,
        /// Perceptual roughness factor in [0, 1] (multiplies the texture's green channel).
        roughness: f32,
    },
}

/// glTF `alphaMode` (spec §3.9.4).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum AlphaMode {
    /// Alpha ignored.
    #[default]
    Opaque,
    /// Fragments with alpha below the cutoff are discarded (glTF default cutoff 0.5).
    Mask(f32),
    /// Alpha-blended "over", drawn after the opaque draws, sorted back to front.
    Blend,
}

/// Procedural bump detail (Blinn 1978 bump mapping of a noise height field): three octaves of
/// world-space value noise (quintic interpolation, analytic gradient, after Quilez's "value noise
/// derivatives") perturb the shading normal per pixel, so large surfaces such as terrain show
/// relief below their vertex spacing. The normal is `normalize(N - ∇h + N (N·∇h))` with `∇h` the
/// gradient of `h(p) = Σ_k amplitude/2^k · noise(2^k · frequency · p)`; `forward.wgsl`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DetailBump {
    /// Frequency of the first octave, cycles per metre (> 0).
    pub frequency: f32,
    /// Height amplitude of the first octave, metres (each octave doubles the frequency and
    /// halves the amplitude, so every octave adds slopes of the same size).
    pub amplitude: f32,
}

/// Detail textures per surface type of a terrain (`forward.wgsl`'s `surface_detail`): a
/// texture array of 4 layers (grass, sand, rock, snow; RGBA8 linear, R, G = tangent-space normal
/// X, Y as `· 0.5 + 0.5`, B = albedo factor / 2) sampled at the mesh's texture coordinates times
/// `repeat`, blended per pixel by the vertex colour's band (its nearness to each class colour of
/// `sierra_terrain::island::Surface`) and the slope, multiplying the albedo and bending the normal
/// in the mesh's tangent frame. Only for terrain meshes, whose vertex colours are those bands.
#[derive(Clone, Debug)]
pub struct SurfaceDetailLayers {
    /// The 4-layer array (`Texture2d::array_from_rgba8`), mipmapped.
    pub layers: Texture2d,
    /// Layer repeats per unit of the mesh's texture coordinates (> 0).
    pub repeat: f32,
    /// Scale of the layers' normal X and Y (0 flat, 1 as generated).
    pub normal_scale: f32,
}

/// A mesh's material: textures (any may be absent) and fixed parameters.
#[derive(Clone, Debug, Default)]
pub struct SurfaceMaterial {
    /// Shading model.
    pub model: ShadingModel,
    /// Base colour / diffuse texture (sRGB), multiplied by the draw's base colour.
    pub base_color: Option<Texture2d>,
    /// glTF metallic-roughness texture (linear; G roughness, B metalness).
    pub metallic_roughness: Option<Texture2d>,
    /// Tangent-space normal map (linear; RGB = XYZ * 0.5 + 0.5, +Y "up" in the texture as glTF).
    pub normal: Option<Texture2d>,
    /// Scale of the normal map's X and Y (glTF `normalTexture.scale`).
    pub normal_scale: f32,
    /// Ambient occlusion texture (linear; R channel).
    pub occlusion: Option<Texture2d>,
    /// Strength of the occlusion (glTF `occlusionTexture.strength`).
    pub occlusion_strength: f32,
    /// Emissive texture (sRGB), multiplied by the draw's emissive colour.
    pub emissive: Option<Texture2d>,
    /// Alpha mode.
    pub alpha_mode: AlphaMode,
    /// Both faces drawn; back faces lit with the flipped normal (glTF `doubleSided`).
    pub double_sided: bool,
    /// Procedural bump detail on top of the normal (map), if any.
    pub detail: Option<DetailBump>,
    /// Terrain detail textures per surface type, if any.
    pub surface_detail: Option<SurfaceDetailLayers>,
    /// The sampler of every texture of the material (wrap modes and filters; glTF sampler).
    pub sampler: MaterialSampler,
}

/// Mirror of `MaterialUniform` in `forward.wgsl` (40 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct MaterialUniform {
    /// Bit flags: [`MaterialUniform::PBR`], [`MaterialUniform::NORMAL_MAP`],
    /// [`MaterialUniform::ALPHA_MASK`], [`MaterialUniform::DOUBLE_SIDED`],
    /// [`MaterialUniform::DETAIL_BUMP`].
    pub flags: u32,
    /// Alpha cutoff of MASK materials.
    pub alpha_cutoff: f32,
    /// Metalness factor.
    pub metallic: f32,
    /// Roughness factor.
    pub roughness: f32,
    /// Normal map XY scale.
    pub normal_scale: f32,
    /// Occlusion strength.
    pub occlusion_strength: f32,
    /// [`DetailBump::frequency`] (0 without detail).
    pub detail_frequency: f32,
    /// [`DetailBump::amplitude`] (0 without detail).
    pub detail_amplitude: f32,
    /// [`SurfaceDetailLayers::repeat`] (0 without).
    pub surface_detail_repeat: f32,
    /// [`SurfaceDetailLayers::normal_scale`] (0 without).
    pub surface_detail_normal_scale: f32,
}

impl MaterialUniform {
    /// Metallic-roughness BRDF instead of Blinn-Phong.
    pub const PBR: u32 = 1;
    /// A normal map is bound.
    pub const NORMAL_MAP: u32 = 2;
    /// Alpha test against `alpha_cutoff`.
    pub const ALPHA_MASK: u32 = 4;
    /// Back faces flip their normal.
    pub const DOUBLE_SIDED: u32 = 8;
    /// Procedural bump detail ([`DetailBump`]).
    pub const DETAIL_BUMP: u32 = 16;
    /// Terrain detail textures per surface type ([`SurfaceDetailLayers`]).
    pub const SURFACE_DETAIL: u32 = 32;

    /// The uniform for `material`.
    pub fn new(material: &SurfaceMaterial) -> Self {
        let mut flags = 0;
        let (metallic, roughness) = match material.model {
            ShadingModel::Phong => (0.0, 1.0),
            ShadingModel::MetallicRoughness {
                metallic,
                roughness,
            } => {
                flags |= Self::PBR;
                (metallic.clamp(0.0, 1.0), roughness.clamp(0.0, 1.0))
            }
        };
        if material.normal.is_some() {
            flags |= Self::NORMAL_MAP;
        }
        let alpha_cutoff = match material.alpha_mode {
            AlphaMode::Mask(cutoff) => {
                flags |= Self::ALPHA_MASK;
                cutoff
            }
            _ => 0.0,
        };
        if material.double_sided {
            flags |= Self::DOUBLE_SIDED;
        }
        let (detail_frequency, detail_amplitude) = match material.detail {
            Some(d) if d.frequency > 0.0 && d.amplitude != 0.0 => {
                flags |= Self::DETAIL_BUMP;
                (d.frequency, d.amplitude)
            }
            _ => (0.0, 0.0),
        };
        let (surface_detail_repeat, surface_detail_normal_scale) = match &material.surface_detail {
            Some(d) if d.repeat > 0.0 && d.repeat.is_finite() => {
                flags |= Self::SURFACE_DETAIL;
                (d.repeat, d.normal_scale)
            }
            _ => (0.0, 0.0),
        };
        Self {
            flags,
            alpha_cutoff,
            metallic,
            roughness,
            normal_scale: material.normal_scale,
            occlusion_strength: if material.occlusion.is_some() {
                material.occlusion_strength.clamp(0.0, 1.0)
            } else {
                0.0
            },
            detail_frequency,
            detail_amplitude,
            surface_detail_repeat,
            surface_detail_normal_scale,
        }
    }
}

/// Pipeline variant a material needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MaterialVariant {
    /// Alpha-blended (drawn after opaque draws, sorted, no depth writes).
    pub blend: bool,
    /// No back-face culling.
    pub double_sided: bool,
}

/// A material's GPU side: its bind group and the pipeline variant it needs.
#[derive(Clone, Debug)]
pub struct GpuMaterial {
    /// Group 2 of the forward pipeline.
    pub bind_group: wgpu::BindGroup,
    /// Pipeline variant.
    pub variant: MaterialVariant,
}

/// Creates group-3 bind groups: owns the layout, the samplers and the 1×1 default textures.
pub struct MaterialBinder {
    layout: wgpu::BindGroupLayout,
    samplers: SamplerCache,
    white_srgb: Texture2d,
    white_linear: Texture2d,
    flat_normal: Texture2d,
    /// One neutral layer (flat normal, albedo × 1) bound where a material has no
    /// [`SurfaceMaterial::surface_detail`].
    neutral_surface_detail: Texture2d,
}

impl MaterialBinder {
    /// Creates the layout, sampler and default textures.
    ///
    /// # Errors
    /// [`crate::RenderError::Gpu`].
    pub fn new(ctx: &GpuContext) -> Result<Self> {
        let texture_entry = |binding| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::FRAGMENT,
            ty: wgpu::BindingType::Texture {
                sample_type: wgpu::TextureSampleType::Float { filterable: true },
                view_dimension: wgpu::TextureViewDimension::D2,
                multisampled: false,
            },
            count: None,
        };
        let layout = ctx.scoped(
            || "creating the material layout".to_owned(),
            || {
                ctx.device
                    .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                        label: Some("material"),
                        entries: &[
                            wgpu::BindGroupLayoutEntry {
                                binding: 0,
                                visibility: wgpu::ShaderStages::FRAGMENT,
                                ty: wgpu::BindingType::Buffer {
                                    ty: wgpu::BufferBindingType::Storage { read_only: true },
                                    has_dynamic_offset: false,
                                    min_binding_size: wgpu::BufferSize::new(
                                        size_of::<MaterialUniform>() as u64,
                                    ),
                                },
                                count: None,
                            },
                            wgpu::BindGroupLayoutEntry {
                                binding: 1,
                                visibility: wgpu::ShaderStages::FRAGMENT,
                                ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                                count: None,
                            },
                            texture_entry(2),
                            texture_entry(3),
                            texture_entry(4),
                            texture_entry(5),
                            texture_entry(6),
                            wgpu::BindGroupLayoutEntry {
                                binding: 7,
                                visibility: wgpu::ShaderStages::FRAGMENT,
                                ty: wgpu::BindingType::Texture {
                                    sample_type: wgpu::TextureSampleType::Float {
                                        filterable: true,
                                    },
                                    view_dimension: wgpu::TextureViewDimension::D2Array,
                                    multisampled: false,
                                },
                                count: None,
                            },
                        ],
                    })
            },
        )?;
        Ok(Self {
            layout,
            samplers: SamplerCache::new(ctx.material_anisotropy()),
            white_srgb: Texture2d::solid(ctx, "white", [255; 4], ColorSpace::Srgb)?,
            white_linear: Texture2d::solid(ctx, "white linear", [255; 4], ColorSpace::Linear)?,
            flat_normal: Texture2d::solid(
                ctx,
                "flat normal",
                [128, 128, 255, 255],
                ColorSpace::Linear,
            )?,
            neutral_surface_detail: Texture2d::array_from_rgba8(
                ctx,
                "neutral surface detail",
                1,
                &[vec![128, 128, 128, 255]],
                ColorSpace::Linear,
            )?,
        })
    }

    /// The group-3 layout.
    pub fn layout(&self) -> &wgpu::BindGroupLayout {
        &self.layout
    }

    /// Uploads `material`'s uniform and binds its textures (defaults for absent ones).
    ///
    /// # Errors
    /// [`crate::RenderError::Gpu`].
    pub fn bind(&self, ctx: &GpuContext, material: &SurfaceMaterial) -> Result<GpuMaterial> {
        // A sampler without mip filtering reads mip 0 only: one-level views (`sampler.rs`).
        let base_level_only = material.sampler.mipmap_filter.is_none();
        let view = |t: &Option<Texture2d>, default: &Texture2d| match t {
            Some(t) if base_level_only => t.texture.create_view(&wgpu::TextureViewDescriptor {
                mip_level_count: Some(1),
                ..Default::default()
            }),
            Some(t) => t.view.clone(),
            None => default.view.clone(),
        };
        let views = [
            view(&material.base_color, &self.white_srgb),
            view(&material.metallic_roughness, &self.white_linear),
            view(&material.normal, &self.flat_normal),
            view(&material.occlusion, &self.white_linear),
            view(&material.emissive, &self.white_srgb),
        ];
        let sampler = self.samplers.get(&ctx.device, &material.sampler);
        let bind_group = ctx.scoped(
            || "binding a material".to_owned(),
            || {
                // Unmappable only on a lost device, which the frame's next check reports.
                let (uniform, _) = crate::buffer_init::create_buffer_init(
                    &ctx.device,
                    &wgpu::util::BufferInitDescriptor {
                        label: Some("material"),
                        contents: bytemuck::bytes_of(&MaterialUniform::new(material)),
                        usage: wgpu::BufferUsages::STORAGE,
                    },
                );
                let mut entries = vec![
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: uniform.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: wgpu::BindingResource::Sampler(&sampler),
                    },
                ];
                for (i, view) in views.iter().enumerate() {
                    entries.push(wgpu::BindGroupEntry {
                        binding: 2 + i as u32,
                        resource: wgpu::BindingResource::TextureView(view),
                    });
                }
                let layers = material
                    .surface_detail
                    .as_ref()
                    .map_or(&self.neutral_surface_detail, |d| &d.layers);
                entries.push(wgpu::BindGroupEntry {
                    binding: 7,
                    resource: wgpu::BindingResource::TextureView(&layers.view),
                });
                ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("material"),
                    layout: &self.layout,
                    entries: &entries,
                })
            },
        )?;
        Ok(GpuMaterial {
            bind_group,
            variant: MaterialVariant {
                blend: material.alpha_mode == AlphaMode::Blend,
                double_sided: material.double_sided,
            },
        })
    }
}
