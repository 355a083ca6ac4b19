//! The level's frame settings as the renderer takes them, shared by the load-time upload
//! ([`crate::gpu_bridge`]'s environment bake) and the per-frame extract
//! ([`crate::scene_to_frame`]): the `post` block as [`PostSettings`], its image-based lighting
//! and the sun.

use glam::Vec3;
use sierra_render::{
    BloomSettings, EnvironmentSettings, EnvironmentSource, PostSettings, ShadowSettings,
    SkySettings, Sun, TonemapSettings, Tonemapper,
};

/// The level's `post` block as render settings (sky colours at their defaults).
/// `brightest_light` is the largest channel of any light's colour × intensity: without a
/// `tonemap` in the block, ACES applies when it exceeds 1 ([`sierra_scene::level::Post::tonemap`]).
pub fn post_settings(
    post: &sierra_scene::level::Post,
    wireframe: bool,
    brightest_light: f32,
) -> PostSettings {
    use sierra_scene::level::Tonemap;
    let tonemap = post.tonemap.unwrap_or(if brightest_light > 1.0 {
        Tonemap::Aces
    } else {
        Tonemap::None
    });
    PostSettings {
        bloom: BloomSettings {
            enabled: post.bloom,
            threshold: post.bloom_threshold,
            intensity: post.bloom_intensity,
            ..BloomSettings::default()
        },
        tonemap: TonemapSettings {
            tonemapper: match tonemap {
                Tonemap::None => Tonemapper::None,
                Tonemap::Aces => Tonemapper::Aces,
                Tonemap::Agx => Tonemapper::Agx,
            },
            exposure_ev: post.exposure,
        },
        sky: SkySettings {
            enabled: post.sky,
            ..SkySettings::default()
        },
        wireframe,
        debug_view: Default::default(),
        aa: match post.aa {
            sierra_scene::level::AntiAliasing::None => sierra_render::AntiAliasing::None,
            sierra_scene::level::AntiAliasing::Fxaa => sierra_render::AntiAliasing::Fxaa,
        },
        environment: environment_settings(post.environment.as_ref(), post.sky, 0.0),
        shadow: ShadowSettings::default(),
    }
}

/// The image-based lighting of a frame at `time_s` whose sky is drawn when `sky_drawn`: the
/// level's `post.environment` (lighting Phong materials too), else the sky when drawn or the
/// sun's ambient colour for metallic-roughness materials only.
pub fn environment_settings(
    level: Option<&sierra_scene::level::Environment>,
    sky_drawn: bool,
    time_s: f64,
) -> EnvironmentSettings {
    use sierra_scene::level::EnvironmentSource as Source;
    let fallback = if sky_drawn {
        EnvironmentSource::Sky
    } else {
        EnvironmentSource::Ambient
    };
    let Some(level) = level else {
        return EnvironmentSettings {
            source: fallback,
            time_s,
            ..EnvironmentSettings::default()
        };
    };
    EnvironmentSettings {
        source: match level.source {
            Source::Sky => EnvironmentSource::Sky,
            Source::Ambient => EnvironmentSource::Ambient,
            Source::Image(_) => EnvironmentSource::Image(Vec3::ONE),
        },
        intensity: level.intensity.max(0.0),
        phong: true,
        time_s,
        ..EnvironmentSettings::default()
    }
}

/// The level's sun as the renderer takes it.
pub fn level_sun(scene: &sierra_scene::scene::Scene) -> Sun {
    Sun {
        direction: scene.sun.direction,
        color: scene.sun.color,
        intensity: scene.sun.intensity,
        ambient: scene.sun.ambient,
    }
}
