//! The environment's textures as the scene passes sample them: the diffuse irradiance cube, the
//! prefiltered specular cube (mip `m` at perceptual roughness `m / (mips - 1)`), the split-sum
//! BRDF table and their sampler; and the sizes they are made at ([`EnvironmentSizes`]).

use crate::context::GpuContext;
use crate::error::{RenderError, Result};

/// Format of every environment texture (filterable, and a storage format in core WebGPU).
pub const ENVIRONMENT_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;

/// Sizes and sample counts of the environment bake. The defaults are the renderer's; tests on
/// the software driver use smaller ones ([`crate::Renderer::set_environment_sizes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnvironmentSizes {
    /// Side of the source cube's and the prefiltered cube's mip 0, texels (a power of two).
    pub cube: u32,
    /// Mips of the prefiltered cube (roughness 0, 1/(n-1), …, 1); at most log2(cube) + 1.
    pub prefiltered_mips: u32,
    /// Side of the irradiance cube, texels.
    pub irradiance: u32,
    /// Side of the split-sum BRDF table, texels.
    pub brdf_lut: u32,
    /// GGX or cosine samples per texel of the prefiltered and irradiance cubes.
    pub samples: u32,
    /// GGX samples per texel of the BRDF table.
    pub lut_samples: u32,
}

impl Default for EnvironmentSizes {
    fn default() -> Self {
        Self {
            cube: 128,
            prefiltered_mips: 5,
            irradiance: 32,
            brdf_lut: 128,
            samples: 64,
            lut_samples: 128,
        }
    }
}

impl EnvironmentSizes {
    /// The smallest valid sizes, one sample each (placeholder maps; quick tests).
    pub fn smallest() -> Self {
        Self {
            cube: 2,
            prefiltered_mips: 2,
            irradiance: 1,
            brdf_lut: 1,
            samples: 1,
            lut_samples: 1,
        }
    }

    /// Mips of the source cube: down to 1×1.
    pub fn source_mips(&self) -> u32 {
        self.cube.max(1).ilog2() + 1
    }

    /// Checks the sizes.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] naming the field: a cube side that is not a power of two in
    /// 1..=2048, more prefiltered mips than the cube has or fewer than 2, a table or
    /// irradiance side outside 1..=2048, sample counts outside 1..=4096.
    pub fn validate(&self) -> Result<()> {
        let bad = |what: &str, value: u32, expected: &str| {
            Err(RenderError::InvalidInput(format!(
                "environment {what} is {value}, expected {expected}"
            )))
        };
        if !self.cube.is_power_of_two() || self.cube > 2048 {
            return bad("cube side", self.cube, "a power of two up to 2048");
        }
        if !(2..=self.source_mips()).contains(&self.prefiltered_mips) {
            return bad(
                "prefiltered mip count",
                self.prefiltered_mips,
                "2 up to log2(cube side) + 1",
            );
        }
        for (what, side) in [
            ("irradiance side", self.irradiance),
            ("BRDF table side", self.brdf_lut),
        ] {
            if !(1..=2048).contains(&side) {
                return bad(what, side, "1..=2048");
            }
        }
        for (what, n) in [
            ("sample count", self.samples),
            ("BRDF table sample count", self.lut_samples),
        ] {
            if !(1..=4096).contains(&n) {
                return bad(what, n, "1..=4096");
            }
        }
        Ok(())
    }
}

/// A cube texture of `size`² × 6 faces and `mips` mips.
pub(crate) fn cube_texture(
    ctx: &GpuContext,
    label: &str,
    size: u32,
    mips: u32,
    usage: wgpu::TextureUsages,
) -> Result<wgpu::Texture> {
    ctx.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d {
            width: size,
            height: size,
            depth_or_array_layers: 6,
        },
        mip_level_count: mips,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: ENVIRONMENT_FORMAT,
        usage,
        view_formats: &[],
    })
}

/// The irradiance cube and the prefiltered cube (with its mips) of `sizes`, labelled
/// `irradiance{suffix}` and `prefiltered environment{suffix}`: the maps the scene passes
/// sample, and the bake's work copies of them.
///
/// # Errors
/// As [`cube_texture`].
pub(crate) fn lighting_cubes(
    ctx: &GpuContext,
    sizes: &EnvironmentSizes,
    suffix: &str,
    usage: wgpu::TextureUsages,
) -> Result<[wgpu::Texture; 2]> {
    let irradiance_label = format!("irradiance{suffix}");
    let irradiance = cube_texture(ctx, &irradiance_label, sizes.irradiance, 1, usage)?;
    let prefiltered_label = format!("prefiltered environment{suffix}");
    let mips = sizes.prefiltered_mips;
    let prefiltered = cube_texture(ctx, &prefiltered_label, sizes.cube, mips, usage)?;
    Ok([irradiance, prefiltered])
}

/// `texture` viewed as a cube (every mip).
pub(crate) fn cube_view(texture: &wgpu::Texture) -> wgpu::TextureView {
    texture.create_view(&wgpu::TextureViewDescriptor {
        dimension: Some(wgpu::TextureViewDimension::Cube),
        ..Default::default()
    })
}

/// Mip `mip` of a cube `texture` as a 2D array of its six faces.
pub(crate) fn faces_view(texture: &wgpu::Texture, mip: u32) -> wgpu::TextureView {
    texture.create_view(&wgpu::TextureViewDescriptor {
        dimension: Some(wgpu::TextureViewDimension::D2Array),
        base_mip_level: mip,
        mip_level_count: Some(1),
        ..Default::default()
    })
}

/// The textures the scene passes sample (`forward.wgsl` group 0, bindings 3–6).
pub struct EnvironmentMaps {
    /// The sizes they were made at.
    pub sizes: EnvironmentSizes,
    pub(crate) irradiance: wgpu::Texture,
    pub(crate) prefiltered: wgpu::Texture,
    pub(crate) lut: wgpu::Texture,
    irradiance_view: wgpu::TextureView,
    prefiltered_view: wgpu::TextureView,
    lut_view: wgpu::TextureView,
    sampler: wgpu::Sampler,
}

impl EnvironmentMaps {
    /// Creates the maps (black until baked: [`crate::environment::Environment`]).
    ///
    /// # Errors
    /// As [`EnvironmentSizes::validate`]; [`RenderError::Gpu`].
    pub fn new(ctx: &GpuContext, sizes: EnvironmentSizes) -> Result<Self> {
        sizes.validate()?;
        let sampled = wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST;
        let [irradiance, prefiltered] = lighting_cubes(ctx, &sizes, "", sampled)?;
        let lut = ctx.create_texture(&crate::targets::texture_desc(
            "BRDF table",
            sizes.brdf_lut,
            sizes.brdf_lut,
            ENVIRONMENT_FORMAT,
            sampled | wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::COPY_SRC,
        ))?;
        Ok(Self {
            sizes,
            irradiance_view: cube_view(&irradiance),
            prefiltered_view: cube_view(&prefiltered),
            lut_view: lut.create_view(&Default::default()),
            irradiance,
            prefiltered,
            lut,
            sampler: clamped_linear_sampler(&ctx.device, "environment"),
        })
    }

    /// The BRDF table (tests read it back).
    pub fn lut(&self) -> &wgpu::Texture {
        &self.lut
    }

    /// Bindings 3–6 of the scene passes' group 0: irradiance, prefiltered, table, sampler.
    pub fn bindings(&self) -> [wgpu::BindingResource<'_>; 4] {
        [
            wgpu::BindingResource::TextureView(&self.irradiance_view),
            wgpu::BindingResource::TextureView(&self.prefiltered_view),
            wgpu::BindingResource::TextureView(&self.lut_view),
            wgpu::BindingResource::Sampler(&self.sampler),
        ]
    }
}

/// Trilinear, clamped to the edge.
pub(crate) fn clamped_linear_sampler(device: &wgpu::Device, label: &str) -> wgpu::Sampler {
    device.create_sampler(&wgpu::SamplerDescriptor {
        label: Some(label),
        mag_filter: wgpu::FilterMode::Linear,
        min_filter: wgpu::FilterMode::Linear,
        mipmap_filter: wgpu::MipmapFilterMode::Linear,
        ..Default::default()
    })
}

/// The layout entries of the scene passes' group 0 after camera and lights: binding
/// `first` the [`crate::environment::EnvironmentUniform`] (read-only storage: the shader branches
/// on its flags), then the irradiance cube, prefiltered cube, BRDF table and sampler.
pub fn layout_entries(first: u32) -> [wgpu::BindGroupLayoutEntry; 5] {
    use crate::gpu_util::{sampler_entry, storage_entry};
    let fragment = wgpu::ShaderStages::FRAGMENT;
    let texture = |binding, view_dimension| wgpu::BindGroupLayoutEntry {
        binding,
        visibility: fragment,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable: true },
            view_dimension,
            multisampled: false,
        },
        count: None,
    };
    [
        storage_entry(first, fragment, true),
        texture(first + 1, wgpu::TextureViewDimension::Cube),
        texture(first + 2, wgpu::TextureViewDimension::Cube),
        texture(first + 3, wgpu::TextureViewDimension::D2),
        sampler_entry(first + 4, fragment, wgpu::SamplerBindingType::Filtering),
    ]
}
