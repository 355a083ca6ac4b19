//! The procedural sky's model, shared by the sky pass ([`crate::passes::sky`]) and the
//! environment bake ([`crate::environment`]): its WGSL (`sky_radiance.wgsl`: `sky_radiance`) and
//! its parameters ([`SkyUniform`]). A leaf: the sky pass binds the view group
//! ([`crate::passes::view::FrameBindings`]), which binds the environment's maps.

use glam::{Vec3, Vec4};

use crate::frame::{FrameData, Sun};
use crate::post::SkySettings;

/// WGSL of the sky's radiance (`SkyUniform`, `sky_radiance`), shared with the environment bake.
pub const SKY_RADIANCE_WGSL: &str = include_str!("sky_radiance.wgsl");

/// Mirror of `SkyUniform` in `sky_radiance.wgsl` (80 bytes): the sky's own parameters (the
/// camera comes from the view group). The sky pass binds it at group 1, the environment bake at
/// group 0.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct SkyUniform {
    /// Unit vector towards the sun; w: cosine of the disc's angular radius.
    pub to_sun: Vec4,
    /// Zenith colour.
    pub zenith: Vec4,
    /// Horizon colour; w: gradient exponent.
    pub horizon: Vec4,
    /// Ground colour.
    pub ground: Vec4,
    /// Disc radiance; w: glow strength.
    pub sun: Vec4,
}

impl SkyUniform {
    /// The uniform for `frame` with `settings`.
    pub fn new(frame: &FrameData, settings: &SkySettings) -> Self {
        Self::for_sun(&frame.sun, settings)
    }

    /// The sky of `settings` under `sun`: what the sky pass draws and the environment bake reads
    /// ([`crate::environment`]).
    pub fn for_sun(sun: &Sun, settings: &SkySettings) -> Self {
        let to_sun = (-sun.direction).normalize_or(Vec3::Y);
        Self {
            to_sun: to_sun.extend(settings.sun_angular_radius.cos()),
            zenith: settings.zenith.extend(0.0),
            horizon: settings
                .horizon
                .extend(settings.gradient_exponent.max(1e-3)),
            ground: settings.ground.extend(0.0),
            sun: (sun.color * sun.intensity * settings.sun_disc_scale).extend(settings.sun_glow),
        }
    }
}
