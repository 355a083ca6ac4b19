//! Per-frame post-processing, sky and shadow settings: bloom, tonemapping, the procedural sky,
//! wireframe and the sun's shadows. They travel in [`crate::FrameData::post`], so whoever builds a frame (a level's
//! `post` block, the window's overlay) decides them and the passes only read them.

use glam::Vec3;

/// User-facing bloom controls.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BloomSettings {
    /// Brightest-channel threshold of the bright pass (linear HDR units; seed 000: 0.8).
    pub threshold: f32,
    /// Scale of the blurred highlights added back (seed 000: 1.0).
    pub intensity: f32,
    /// Horizontal + vertical blur iterations (seed 000: 1); 0 skips the blur.
    pub blur_passes: u32,
    /// Whether the pass runs at all.
    pub enabled: bool,
}

impl Default for BloomSettings {
    fn default() -> Self {
        Self {
            threshold: 0.8,
            intensity: 1.0,
            blur_passes: 1,
            enabled: true,
        }
    }
}

/// Tone curve applied to the HDR image.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Tonemapper {
    /// Clamp to [0, 1] only; linear values pass unchanged (render tests).
    None,
    /// ACES filmic (Hill's RRT + ODT fit).
    #[default]
    Aces,
    /// AgX base look (Sobotka; Wrensch's polynomial fit).
    Agx,
}

impl Tonemapper {
    /// Parses `none`, `aces` or `agx` (any case).
    pub fn from_name(name: &str) -> Option<Self> {
        match name.to_ascii_lowercase().as_str() {
            "none" => Some(Self::None),
            "aces" => Some(Self::Aces),
            "agx" => Some(Self::Agx),
            _ => None,
        }
    }

    /// The shader's code for the curve (`tonemap.wgsl`: 0 none, 1 ACES, 2 AgX).
    pub fn code(self) -> u32 {
        match self {
            Self::None => 0,
            Self::Aces => 1,
            Self::Agx => 2,
        }
    }
}

/// Tonemapping controls.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TonemapSettings {
    /// The tone curve.
    pub tonemapper: Tonemapper,
    /// Exposure in stops (EV); the HDR value is scaled by `2^exposure_ev` before the curve.
    pub exposure_ev: f32,
}

impl Default for TonemapSettings {
    fn default() -> Self {
        Self {
            tonemapper: Tonemapper::Aces,
            exposure_ev: 0.0,
        }
    }
}

/// Post-process anti-aliasing of the final image ([`PostSettings::aa`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AntiAliasing {
    /// None: the tonemap pass writes the final image.
    #[default]
    None,
    /// FXAA 3.11 quality (Lottes 2011): the tonemap pass writes display-referred colour and
    /// perceptual luma into [`crate::RenderTargets::ldr`], the FXAA pass filters it into the
    /// final image ([`crate::passes::fxaa`]).
    Fxaa,
}

/// Sky colours and sun disc look (linear RGB).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SkySettings {
    /// Whether the sky is drawn (else the forward pass's clear colour stays).
    pub enabled: bool,
    /// Colour straight up.
    pub zenith: Vec3,
    /// Colour at the horizon (keep each channel under the bloom threshold, or the sky blooms).
    pub horizon: Vec3,
    /// Colour below the horizon.
    pub ground: Vec3,
    /// Gradient exponent: elevation^exponent mixes horizon → zenith (smaller: bluer sky sooner).
    pub gradient_exponent: f32,
    /// Angular radius of the sun disc in radians (the real sun: 0.00465; games use more).
    pub sun_angular_radius: f32,
    /// Disc radiance = sun colour × sun intensity × this (above the bloom threshold by default).
    pub sun_disc_scale: f32,
    /// Strength of the halo around the disc.
    pub sun_glow: f32,
}

impl Default for SkySettings {
    fn default() -> Self {
        Self {
            enabled: false,
            zenith: Vec3::new(0.12, 0.32, 0.75),
            // Brightest channel under the bloom threshold (0.8, seed 000): a brighter horizon is
            // cut out by the bright pass along a contour of the gradient, and the bloomed band
            // below it framed a darker, unbloomed ellipse of sky at the top of the view.
            horizon: Vec3::new(0.54, 0.65, 0.78),
            ground: Vec3::new(0.28, 0.26, 0.24),
            gradient_exponent: 0.5,
            sun_angular_radius: 0.03,
            sun_disc_scale: 20.0,
            sun_glow: 1.0,
        }
    }
}

/// Where image-based lighting's radiance comes from ([`EnvironmentSettings::source`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum EnvironmentSource {
    /// A uniform environment of the frame's ambient colour ([`crate::Sun::ambient`]): metallic-
    /// roughness materials keep the brightness the flat ambient term gave them.
    #[default]
    Ambient,
    /// The procedural sky of [`PostSettings::sky`] under the frame's sun, without the sun's disc
    /// (the sun lights the scene as a light of its own), whether or not the sky is drawn.
    Sky,
    /// A uniform environment of this linear RGB radiance (the white-furnace test's).
    Uniform(Vec3),
    /// The equirectangular image given to [`crate::Renderer::set_environment_image`], times
    /// this linear RGB factor.
    Image(Vec3),
}

/// Image-based lighting (`crate::environment`): the environment's diffuse irradiance and
/// prefiltered specular radiance light metallic-roughness materials (split-sum with multiple-
/// scattering energy compensation) instead of the flat ambient term, and Phong materials too
/// when [`EnvironmentSettings::phong`] is set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EnvironmentSettings {
    /// Where the radiance comes from.
    pub source: EnvironmentSource,
    /// Multiplies the environment's light (unitless; 1: as baked).
    pub intensity: f32,
    /// Whether Phong materials are lit by the environment too (their diffuse term by the
    /// irradiance, their specular colour by the radiance prefiltered at the roughness of their
    /// specular power) instead of the flat ambient term.
    pub phong: bool,
    /// Multiple-scattering energy compensation (Fdez-Agüera 2019); off only to show what it
    /// corrects (rough metals lose up to ~40 % of the light without it).
    pub energy_compensation: bool,
    /// The frame's time in seconds (simulation time): a changed sky or sun is baked again at
    /// most every [`crate::environment::REBAKE_INTERVAL_S`] of it.
    pub time_s: f64,
}

impl Default for EnvironmentSettings {
    fn default() -> Self {
        Self {
            source: EnvironmentSource::Ambient,
            intensity: 1.0,
            phong: false,
            energy_compensation: true,
            time_s: 0.0,
        }
    }
}

/// What the scene passes (forward and crowd) write for each surface.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DebugView {
    /// Lit shading (the normal image).
    #[default]
    Lit,
    /// Unlit albedo: base colour factor × vertex colour × base colour texture (linear RGB),
    /// alpha-tested and blended as usual, with no light, occlusion or emission; a debug view
    /// and the way tests check which texels reach the screen.
    UnlitAlbedo,
    /// The sea's foam mask: the sea pass writes its foam coverage times its wet edge's fade
    /// (0 to 1, grey, opaque), every other scene surface black (`sea.wgsl`, `forward.wgsl`).
    Foam,
}

/// Everything [`crate::FrameData`] says about the look of a frame beyond its geometry and lights.
///
/// The default passes linear values through (no bloom, no tone curve, no sky, filled
/// triangles), which render tests rely on; a level's `post` block sets its own.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PostSettings {
    /// Bloom (bright pass, blur, additive composite).
    pub bloom: BloomSettings,
    /// Tone curve and exposure.
    pub tonemap: TonemapSettings,
    /// The procedural sky drawn behind the geometry (off: the clear colour stays).
    pub sky: SkySettings,
    /// Draw meshes as lines where the adapter can (`POLYGON_MODE_LINE`); filled elsewhere.
    pub wireframe: bool,
    /// Lit or unlit-albedo shading ([`DebugView`]).
    pub debug_view: DebugView,
    /// Post-process anti-aliasing ([`AntiAliasing`]; MSAA is the renderer's sample count).
    pub aa: AntiAliasing,
    /// Image-based lighting ([`EnvironmentSettings`]).
    pub environment: EnvironmentSettings,
    /// The sun's shadows ([`ShadowSettings`]).
    pub shadow: ShadowSettings,
}

/// The sun's shadows in a frame ([`PostSettings::shadow`]); the shadow map's resolution and the
/// casters' depth bias are the renderer's (`passes::shadow`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShadowSettings {
    /// Whether the sun casts shadows.
    pub enabled: bool,
    /// Shadows are drawn up to this distance from the camera (metres).
    pub max_distance: f32,
    /// Extra depth of the sun frustum towards the sun, for casters outside the view (metres).
    pub caster_margin: f32,
    /// Receiver offset along its normal, in shadow-map texels.
    pub normal_offset_texels: f32,
    /// PCF kernel radius r in texels: (2r+1)² comparison samples (at most 4 is used).
    pub pcf_radius: u32,
}

impl Default for ShadowSettings {
    /// On, up to 40 m from the camera, casters up to 50 m beyond the view towards the sun, a
    /// 1.5-texel normal offset, 3×3 PCF: the game's shadows.
    fn default() -> Self {
        Self {
            enabled: true,
            max_distance: 40.0,
            caster_margin: 50.0,
            normal_offset_texels: 1.5,
            pcf_radius: 1,
        }
    }
}

impl Default for PostSettings {
    fn default() -> Self {
        Self {
            bloom: BloomSettings {
                enabled: false,
                ..BloomSettings::default()
            },
            tonemap: TonemapSettings {
                tonemapper: Tonemapper::None,
                ..TonemapSettings::default()
            },
            sky: SkySettings::default(),
            wireframe: false,
            debug_view: DebugView::Lit,
            aa: AntiAliasing::None,
            environment: EnvironmentSettings::default(),
            shadow: ShadowSettings::default(),
        }
    }
}
