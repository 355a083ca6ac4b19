//! The environment bake on the GPU (`bake.wgsl`, appended to `passes/sky_radiance.wgsl`): the source
//! cube (the procedural sky, a uniform colour or an equirectangular image) with its mip chain,
//! then the irradiance cube and the prefiltered cube's mips into work textures, published by a
//! copy over the maps the scene passes sample (so a bake spread over frames never shows half
//! done); and the BRDF table, once.

use glam::Vec4;

use super::maps::{
    clamped_linear_sampler, cube_texture, cube_view, faces_view, lighting_cubes, EnvironmentMaps,
};
use super::schedule::BakeStep;
use crate::context::GpuContext;
use crate::error::Result;
use crate::gpu_util;
use crate::passes::sky_radiance::SkyUniform;

/// `BakeStep` in `bake.wgsl`, 32 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct StepUniform {
    /// Face written by the source kernel.
    pub face: u32,
    /// Output side, texels.
    pub size: u32,
    /// Samples per output texel.
    pub samples: u32,
    /// Perceptual roughness of a prefiltered mip.
    pub roughness: f32,
    /// Side of the source cube's mip 0.
    pub source_size: f32,
    /// Mips of the source cube.
    pub source_mips: f32,
    /// Padding.
    pub _pad: [f32; 2],
}

/// `BakeSource` in `bake.wgsl`, 32 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct SourceUniform {
    /// 0 sky, 1 uniform colour, 2 equirectangular image.
    pub mode: u32,
    /// Padding.
    pub _pad0: u32,
    /// Padding.
    pub _pad1: u32,
    /// Padding.
    pub _pad2: u32,
    /// rgb: the uniform colour, or the image's factor.
    pub color: Vec4,
}

/// The bake's kernels, in `bake.wgsl` entry point order.
struct Kernels {
    source: wgpu::ComputePipeline,
    downsample: wgpu::ComputePipeline,
    irradiance: wgpu::ComputePipeline,
    prefilter: wgpu::ComputePipeline,
    lut: wgpu::ComputePipeline,
}

/// One dispatch: its bind group and workgroup counts.
struct Dispatch {
    group: wgpu::BindGroup,
    workgroups: [u32; 3],
}

/// Work textures, parameters and one bind group per dispatch (made once; the textures never
/// change size).
pub struct EnvironmentBaker {
    kernels: Kernels,
    source_cube: wgpu::Texture,
    work_irradiance: wgpu::Texture,
    work_prefiltered: wgpu::Texture,
    sky_buffer: wgpu::Buffer,
    source_buffer: wgpu::Buffer,
    sampler: wgpu::Sampler,
    faces: Vec<Dispatch>,
    mips: Vec<Dispatch>,
    irradiance: Vec<Dispatch>,
    prefilter: Vec<Dispatch>,
    lut: wgpu::BindGroup,
}

/// Workgroups of 8×8 covering `size` texels.
fn groups_for(size: u32) -> u32 {
    size.div_ceil(8)
}

impl EnvironmentBaker {
    /// Compiles the kernels, makes the work textures for `maps`' sizes and bakes `maps`' BRDF
    /// table (submitted, not waited for).
    ///
    /// # Errors
    /// [`crate::RenderError::Gpu`] when creation fails.
    pub fn new(ctx: &GpuContext, maps: &EnvironmentMaps) -> Result<Self> {
        let sizes = maps.sizes;
        let storage = wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::STORAGE_BINDING;
        let source_cube = cube_texture(
            ctx,
            "environment source",
            sizes.cube,
            sizes.source_mips(),
            storage,
        )?;
        let work = storage | wgpu::TextureUsages::COPY_SRC;
        let [work_irradiance, work_prefiltered] = lighting_cubes(ctx, &sizes, " (bake)", work)?;
        let equirect = crate::texture::Texture2d::solid(
            ctx,
            "environment image placeholder",
            [255; 4],
            crate::texture::ColorSpace::Linear,
        )?;
        ctx.scoped(
            || "creating the environment bake".to_owned(),
            || {
                let device = &ctx.device;
                let kernels = kernels(ctx);
                let sky_buffer = gpu_util::uniform_buffer(
                    device,
                    "environment sky",
                    &bytemuck::Zeroable::zeroed() as &SkyUniform,
                );
                let source_buffer = gpu_util::storage_buffer(
                    device,
                    "environment source",
                    &SourceUniform::default(),
                );
                let sampler = clamped_linear_sampler(device, "environment bake");
                let mut baker = Self {
                    faces: Vec::new(),
                    mips: Vec::new(),
                    irradiance: Vec::new(),
                    lut: lut_group(ctx, &kernels, maps, &sizes),
                    prefilter: Vec::new(),
                    kernels,
                    source_cube,
                    work_irradiance,
                    work_prefiltered,
                    sky_buffer,
                    source_buffer,
                    sampler,
                };
                baker.bake_lut(ctx, maps);
                baker.make_dispatches(ctx, maps, &equirect.view);
                baker
            },
        )
    }

    /// Records and submits the BRDF table's kernel (the table depends on no source).
    fn bake_lut(&self, ctx: &GpuContext, maps: &EnvironmentMaps) {
        let side = groups_for(maps.sizes.brdf_lut);
        let workgroups = [side, side, 1];
        gpu_util::submit_dispatch(ctx, "BRDF table", &self.kernels.lut, &self.lut, workgroups);
    }

    /// The bind groups of every step over the source image `equirect`.
    fn make_dispatches(
        &mut self,
        ctx: &GpuContext,
        maps: &EnvironmentMaps,
        equirect: &wgpu::TextureView,
    ) {
        let sizes = maps.sizes;
        let step = |face, size, samples, roughness: f32| StepUniform {
            face,
            size,
            samples,
            roughness,
            source_size: sizes.cube as f32,
            source_mips: sizes.source_mips() as f32,
            _pad: [0.0; 2],
        };
        let cube_groups = groups_for(sizes.cube);
        self.faces = (0..6)
            .map(|face| Dispatch {
                group: self.source_group(ctx, &step(face, sizes.cube, 1, 0.0), equirect),
                workgroups: [cube_groups, cube_groups, 1],
            })
            .collect();
        self.mips = (1..sizes.source_mips())
            .map(|mip| {
                let size = sizes.cube >> mip;
                let resources = [
                    (
                        6,
                        wgpu::BindingResource::TextureView(&faces_view(&self.source_cube, mip - 1)),
                    ),
                    (
                        7,
                        wgpu::BindingResource::TextureView(&faces_view(&self.source_cube, mip)),
                    ),
                ];
                self.dispatch(
                    ctx,
                    &self.kernels.downsample,
                    &step(0, size, 1, 0.0),
                    &resources,
                    6,
                )
            })
            .collect();
        let irradiance_out = faces_view(&self.work_irradiance, 0);
        self.irradiance = vec![self.filter_dispatch(
            ctx,
            &self.kernels.irradiance,
            &step(0, sizes.irradiance, sizes.samples, 0.0),
            &irradiance_out,
        )];
        self.prefilter = (0..sizes.prefiltered_mips)
            .map(|mip| {
                let roughness = mip as f32 / (sizes.prefiltered_mips - 1) as f32;
                let out = faces_view(&self.work_prefiltered, mip);
                let params = step(0, sizes.cube >> mip, sizes.samples, roughness);
                self.filter_dispatch(ctx, &self.kernels.prefilter, &params, &out)
            })
            .collect();
    }

    /// The source kernel's bind group for one face.
    fn source_group(
        &self,
        ctx: &GpuContext,
        step: &StepUniform,
        equirect: &wgpu::TextureView,
    ) -> wgpu::BindGroup {
        let step_buffer = gpu_util::storage_buffer(&ctx.device, "environment step", step);
        let out = faces_view(&self.source_cube, 0);
        bind_sparse(
            ctx,
            &self.kernels.source,
            &[
                (0, self.sky_buffer.as_entire_binding()),
                (1, self.source_buffer.as_entire_binding()),
                (2, step_buffer.as_entire_binding()),
                (3, wgpu::BindingResource::TextureView(equirect)),
                (4, wgpu::BindingResource::Sampler(&self.sampler)),
                (7, wgpu::BindingResource::TextureView(&out)),
            ],
        )
    }

    /// A dispatch of an irradiance or prefilter kernel reading the source cube into `out`.
    fn filter_dispatch(
        &self,
        ctx: &GpuContext,
        kernel: &wgpu::ComputePipeline,
        step: &StepUniform,
        out: &wgpu::TextureView,
    ) -> Dispatch {
        let cube = cube_view(&self.source_cube);
        let resources = [
            (4, wgpu::BindingResource::Sampler(&self.sampler)),
            (5, wgpu::BindingResource::TextureView(&cube)),
            (7, wgpu::BindingResource::TextureView(out)),
        ];
        self.dispatch(ctx, kernel, step, &resources, 6)
    }

    /// A dispatch of `kernel` over `step.size`² × `layers` with `resources` and the step's buffer.
    fn dispatch(
        &self,
        ctx: &GpuContext,
        kernel: &wgpu::ComputePipeline,
        step: &StepUniform,
        resources: &[(u32, wgpu::BindingResource<'_>)],
        layers: u32,
    ) -> Dispatch {
        let step_buffer = gpu_util::storage_buffer(&ctx.device, "environment step", step);
        let mut all = vec![(2, step_buffer.as_entire_binding())];
        all.extend(resources.iter().cloned());
        let side = groups_for(step.size);
        Dispatch {
            group: bind_sparse(ctx, kernel, &all),
            workgroups: [side, side, layers],
        }
    }

    /// Writes the source's parameters for the bake starting this frame.
    pub fn write_source(&self, ctx: &GpuContext, sky: &SkyUniform, source: &SourceUniform) {
        ctx.queue
            .write_buffer(&self.sky_buffer, 0, bytemuck::bytes_of(sky));
        ctx.queue
            .write_buffer(&self.source_buffer, 0, bytemuck::bytes_of(source));
    }

    /// Records `steps`' dispatches into one compute pass timed by `timestamps`, then (for a
    /// [`BakeStep::Publish`]) the copies over `maps`.
    pub fn record(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        steps: &[BakeStep],
        maps: &EnvironmentMaps,
        timestamps: Option<wgpu::ComputePassTimestampWrites<'_>>,
    ) {
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("environment"),
                timestamp_writes: timestamps,
            });
            for (kernel, dispatches) in steps.iter().filter_map(|&step| self.dispatches_of(step)) {
                for dispatch in dispatches {
                    pass.set_pipeline(kernel);
                    pass.set_bind_group(0, &dispatch.group, &[]);
                    let [x, y, z] = dispatch.workgroups;
                    pass.dispatch_workgroups(x, y, z);
                }
            }
        }
        if steps.contains(&BakeStep::Publish) {
            self.publish(encoder, maps);
        }
    }

    /// The kernel of `step` and its dispatches (none past the end of a list); `None` for
    /// [`BakeStep::Publish`], which dispatches nothing.
    fn dispatches_of(&self, step: BakeStep) -> Option<(&wgpu::ComputePipeline, &[Dispatch])> {
        fn one(list: &[Dispatch], i: u32) -> &[Dispatch] {
            list.get(i as usize..=i as usize).unwrap_or_default()
        }
        let k = &self.kernels;
        Some(match step {
            BakeStep::SourceFace(face) => (&k.source, one(&self.faces, face)),
            BakeStep::SourceMips => (&k.downsample, &self.mips),
            BakeStep::Irradiance => (&k.irradiance, &self.irradiance),
            BakeStep::Prefilter(mip) => (&k.prefilter, one(&self.prefilter, mip)),
            BakeStep::Publish => return None,
        })
    }

    /// Copies the work irradiance and prefiltered cubes (every mip) over `maps`'.
    fn publish(&self, encoder: &mut wgpu::CommandEncoder, maps: &EnvironmentMaps) {
        let copy = |encoder: &mut wgpu::CommandEncoder,
                    from: &wgpu::Texture,
                    to: &wgpu::Texture,
                    mip: u32| {
            let size = (from.width() >> mip).max(1);
            encoder.copy_texture_to_texture(
                wgpu::TexelCopyTextureInfo {
                    mip_level: mip,
                    ..from.as_image_copy()
                },
                wgpu::TexelCopyTextureInfo {
                    mip_level: mip,
                    ..to.as_image_copy()
                },
                wgpu::Extent3d {
                    width: size,
                    height: size,
                    depth_or_array_layers: 6,
                },
            );
        };
        copy(encoder, &self.work_irradiance, &maps.irradiance, 0);
        for mip in 0..maps.sizes.prefiltered_mips {
            copy(encoder, &self.work_prefiltered, &maps.prefiltered, mip);
        }
    }

    /// Replaces the equirectangular source image (the bind groups of the source kernel).
    pub fn set_image(
        &mut self,
        ctx: &GpuContext,
        maps: &EnvironmentMaps,
        image: &wgpu::TextureView,
    ) -> Result<()> {
        ctx.scoped(
            || "binding the environment image".to_owned(),
            || self.make_dispatches(ctx, maps, image),
        )
    }
}

/// WGSL of the bake: `passes/sky_radiance.wgsl` (the sky's radiance) followed by `bake.wgsl`.
pub fn shader_source() -> String {
    format!(
        "{}\n{}",
        crate::passes::sky_radiance::SKY_RADIANCE_WGSL,
        include_str!("bake.wgsl")
    )
}

/// The bake's compute pipelines (layouts derived from each entry point's bindings).
fn kernels(ctx: &GpuContext) -> Kernels {
    let module = ctx.create_shader_module("sky_radiance.wgsl + bake.wgsl", shader_source());
    let [source, downsample, irradiance, prefilter, lut] = gpu_util::compute_pipelines(
        ctx,
        None,
        &module,
        [
            "bake_source",
            "bake_downsample",
            "bake_irradiance",
            "bake_prefilter",
            "bake_brdf_lut",
        ],
    );
    Kernels {
        source,
        downsample,
        irradiance,
        prefilter,
        lut,
    }
}

/// The BRDF table kernel's bind group, writing `maps`' table.
fn lut_group(
    ctx: &GpuContext,
    kernels: &Kernels,
    maps: &EnvironmentMaps,
    sizes: &super::maps::EnvironmentSizes,
) -> wgpu::BindGroup {
    let step = StepUniform {
        size: sizes.brdf_lut,
        samples: sizes.lut_samples,
        ..StepUniform::default()
    };
    let step_buffer = gpu_util::storage_buffer(&ctx.device, "BRDF table step", &step);
    let out = maps.lut.create_view(&Default::default());
    bind_sparse(
        ctx,
        &kernels.lut,
        &[
            (2, step_buffer.as_entire_binding()),
            (8, wgpu::BindingResource::TextureView(&out)),
        ],
    )
}

/// A bind group of `kernel`'s derived group-0 layout with `(binding, resource)` entries.
fn bind_sparse(
    ctx: &GpuContext,
    kernel: &wgpu::ComputePipeline,
    resources: &[(u32, wgpu::BindingResource<'_>)],
) -> wgpu::BindGroup {
    let entries: Vec<wgpu::BindGroupEntry<'_>> = resources
        .iter()
        .map(|(binding, resource)| wgpu::BindGroupEntry {
            binding: *binding,
            resource: resource.clone(),
        })
        .collect();
    ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("environment bake"),
        layout: &kernel.get_bind_group_layout(0),
        entries: &entries,
    })
}
