//! Image-based lighting: an environment baked on the GPU from the procedural sky (the sky pass's
//! own `sky_radiance`, without the sun's disc), a uniform colour or an equirectangular image,
//! into what the scene passes sample ([`EnvironmentMaps`]):
//!
//! - a diffuse irradiance cube (32², cosine-weighted mean radiance, i.e. irradiance / π);
//! - a prefiltered specular cube (128², 5 mips; mip `m` convolved with the GGX lobe of
//!   perceptual roughness `m / 4` by importance sampling, Karis 2013);
//! - a split-sum BRDF table (128²: `(A, B)` with `E(F0) = F0·A + B` per `(N·V, roughness)`),
//!   which `forward.wgsl` also uses for multiple-scattering energy compensation (Fdez-Agüera
//!   2019, "A Multiple-Scattering Microfacet Model for Real-Time Image-based Lighting", JCGT 8(1)).
//!
//! The first frame (or a load-time [`Environment::bake_now`]) bakes everything at once; when
//! the sky or sun changes, [`schedule::BakeSchedule`] bakes again at most every
//! [`REBAKE_INTERVAL_S`] seconds, one face or mip per frame, inside an `environment` GPU scope.
//! Sizes and sample counts are [`EnvironmentSizes`] (tests use small ones).

pub mod bake;
pub mod maps;
pub mod schedule;

pub use maps::{layout_entries, EnvironmentMaps, EnvironmentSizes, ENVIRONMENT_FORMAT};
pub use schedule::{BakeStep, REBAKE_INTERVAL_S};

use bake::{EnvironmentBaker, SourceUniform};
use schedule::{BakeKey, BakeSchedule, Plan};

use crate::context::GpuContext;
use crate::error::Result;
use crate::frame::Sun;
use crate::passes::sky_radiance::SkyUniform;
use crate::post::{EnvironmentSettings, EnvironmentSource, PostSettings};

/// `EnvironmentUniform` in `forward.wgsl` (group 0, binding 2; read-only storage), 16 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct EnvironmentUniform {
    /// Multiplies the environment's light.
    pub intensity: f32,
    /// [`EnvironmentUniform::PHONG`] | [`EnvironmentUniform::ENERGY_COMPENSATION`].
    pub flags: u32,
    /// The prefiltered cube's last mip (roughness 1).
    pub max_lod: f32,
    /// Padding.
    pub _pad: f32,
}

impl EnvironmentUniform {
    /// Phong materials are lit by the environment.
    pub const PHONG: u32 = 1;
    /// Multiple-scattering energy compensation is on.
    pub const ENERGY_COMPENSATION: u32 = 2;

    /// The uniform for `settings` with maps of `sizes`.
    pub fn new(settings: &EnvironmentSettings, sizes: &EnvironmentSizes) -> Self {
        let mut flags = 0;
        if settings.phong {
            flags |= Self::PHONG;
        }
        if settings.energy_compensation {
            flags |= Self::ENERGY_COMPENSATION;
        }
        Self {
            intensity: settings.intensity.max(0.0),
            flags,
            max_lod: (sizes.prefiltered_mips - 1) as f32,
            _pad: 0.0,
        }
    }
}

/// The source parameters the bake reads for `sun` and `post`, and the key they make.
fn source_of(
    sun: &Sun,
    post: &PostSettings,
    image_generation: u64,
) -> (SkyUniform, SourceUniform, BakeKey) {
    let uniform = |color: glam::Vec3| SourceUniform {
        mode: 1,
        color: color.max(glam::Vec3::ZERO).extend(1.0),
        ..SourceUniform::default()
    };
    let zero_sky: SkyUniform = bytemuck::Zeroable::zeroed();
    let (sky, source, kind) = match post.environment.source {
        EnvironmentSource::Sky => (
            SkyUniform::for_sun(sun, &post.sky),
            SourceUniform::default(),
            0,
        ),
        EnvironmentSource::Ambient => (zero_sky, uniform(sun.ambient), 1),
        EnvironmentSource::Uniform(color) => (zero_sky, uniform(color), 1),
        EnvironmentSource::Image(factor) => (
            zero_sky,
            SourceUniform {
                mode: 2,
                color: factor.extend(1.0),
                ..SourceUniform::default()
            },
            2 + (image_generation << 2),
        ),
    };
    let mut params = bytemuck::bytes_of(&sky).to_vec();
    params.extend_from_slice(bytemuck::bytes_of(&source));
    (sky, source, BakeKey { kind, params })
}

/// The environment: its maps, the baker and the schedule.
pub struct Environment {
    /// What the scene passes sample.
    pub maps: EnvironmentMaps,
    baker: EnvironmentBaker,
    schedule: BakeSchedule,
    /// This frame's steps ([`Environment::prepare`]).
    steps: Vec<BakeStep>,
    /// Counts images set, so a new image bakes at once.
    image_generation: u64,
}

impl Environment {
    /// Creates black maps of `sizes` and the bake (the BRDF table is baked now).
    ///
    /// # Errors
    /// As [`EnvironmentSizes::validate`]; GPU errors.
    pub fn new(ctx: &GpuContext, sizes: EnvironmentSizes) -> Result<Self> {
        let maps = EnvironmentMaps::new(ctx, sizes)?;
        let baker = EnvironmentBaker::new(ctx, &maps)?;
        Ok(Self {
            schedule: BakeSchedule::new(sizes.prefiltered_mips),
            maps,
            baker,
            steps: Vec::new(),
            image_generation: 0,
        })
    }

    /// Plans this frame's bake steps for `sun` and `post` (writing the source parameters when a
    /// bake starts).
    pub fn prepare(&mut self, ctx: &GpuContext, sun: &Sun, post: &PostSettings) {
        let (sky, source, key) = source_of(sun, post, self.image_generation);
        self.steps = match self.schedule.plan(&key, post.environment.time_s) {
            Plan::Idle => Vec::new(),
            Plan::Start(steps) => {
                self.baker.write_source(ctx, &sky, &source);
                steps
            }
            Plan::Continue(steps) => steps,
        };
    }

    /// Whether [`Environment::record`] records anything this frame.
    pub fn active(&self) -> bool {
        !self.steps.is_empty()
    }

    /// Records this frame's steps into one compute pass timed by `timestamps`.
    pub fn record(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        timestamps: Option<wgpu::ComputePassTimestampWrites<'_>>,
    ) {
        self.baker
            .record(encoder, &self.steps, &self.maps, timestamps);
    }

    /// Bakes the environment of `sun` and `post` completely now and waits for the GPU (at
    /// load: the time shows in `startup_ms`).
    ///
    /// # Errors
    /// [`crate::RenderError::Gpu`] when the bake fails or the device is lost.
    pub fn bake_now(&mut self, ctx: &GpuContext, sun: &Sun, post: &PostSettings) -> Result<()> {
        let (sky, source, key) = source_of(sun, post, self.image_generation);
        self.baker.write_source(ctx, &sky, &source);
        let mut encoder = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("environment bake"),
            });
        self.baker.record(
            &mut encoder,
            &schedule::bake_steps(self.maps.sizes.prefiltered_mips),
            &self.maps,
            None,
        );
        ctx.queue.submit([encoder.finish()]);
        ctx.wait_idle("baking the environment")?;
        ctx.take_uncaptured_errors("baking the environment")?;
        self.schedule.baked_now(key, post.environment.time_s);
        Ok(())
    }

    /// Sets the equirectangular image [`EnvironmentSource::Image`] reads: `width` × `height`
    /// linear RGBA texels, row 0 at the top (+Y), the centre column (u = 0.5) toward −Z, u = 0.75
    /// toward +X (`u = atan2(x, −z) / 2π + 0.5`, `bake.wgsl`); baked at the next frame.
    ///
    /// # Errors
    /// [`crate::RenderError::InvalidInput`] when `rgba` does not hold `width × height × 4`
    /// values or a side is 0; size limits and GPU errors.
    pub fn set_image(
        &mut self,
        ctx: &GpuContext,
        width: u32,
        height: u32,
        rgba: &[f32],
    ) -> Result<()> {
        let texture = image_texture(ctx, width, height, rgba)?;
        let view = texture.create_view(&Default::default());
        self.baker.set_image(ctx, &self.maps, &view)?;
        self.image_generation += 1;
        Ok(())
    }
}

/// An `Rgba16Float` texture of `rgba` (linear values, clamped to binary16's range).
fn image_texture(ctx: &GpuContext, width: u32, height: u32, rgba: &[f32]) -> Result<wgpu::Texture> {
    if width == 0 || height == 0 || rgba.len() as u64 != u64::from(width) * u64::from(height) * 4 {
        return Err(crate::RenderError::InvalidInput(format!(
            "an environment image of {width}x{height} needs {} values, got {}",
            u64::from(width) * u64::from(height) * 4,
            rgba.len()
        )));
    }
    ctx.check_texture_size("the environment image", width, height)?;
    let texture = ctx.create_texture(&crate::targets::texture_desc(
        "environment image",
        width,
        height,
        ENVIRONMENT_FORMAT,
        wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
    ))?;
    let halves: Vec<u16> = rgba.iter().map(|&v| f32_to_f16(v)).collect();
    ctx.queue.write_texture(
        texture.as_image_copy(),
        bytemuck::cast_slice(&halves),
        wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(width * 8),
            rows_per_image: Some(height),
        },
        texture.size(),
    );
    Ok(texture)
}

/// f32 → IEEE 754 binary16, rounding to nearest; NaN and negatives become 0, values past
/// 65504 become 65504, values under the smallest normal flush to 0 (radiance, not data).
pub fn f32_to_f16(value: f32) -> u16 {
    let v = if value.is_nan() {
        0.0
    } else {
        value.clamp(0.0, 65504.0)
    };
    if v < 6.103_515_6e-5 {
        return 0;
    }
    let bits = v.to_bits();
    let exponent = ((bits >> 23) & 0xff) as i32 - 127 + 15;
    let mantissa = bits & 0x7f_ffff;
    // Round to nearest on the 13 dropped bits; a carry correctly bumps the exponent.
    let rounded = ((exponent as u32) << 10) + ((mantissa + 0x1000) >> 13);
    rounded.min(0x7bff) as u16
}
