//! The level's environment at load: its equirectangular image (when `post.environment` names
//! one) handed to the renderer, and the environment of the first frame baked.

use anyhow::{Context, Result};
use sierra_render::{GpuContext, Renderer};

use crate::frame_settings::{environment_settings, level_sun, post_settings};
use crate::game::Game;

/// Reads the level's equirectangular environment image `path` (a Radiance `.hdr`, or an sRGB
/// `.png`/`.jpg`) through `assets` and its budgets, and hands it to the renderer as linear
/// radiance.
///
/// # Errors
/// Unreadable, refused or undecodable files (naming the file); GPU errors.
fn load_environment_image(
    ctx: &GpuContext,
    renderer: &mut Renderer,
    assets: &sierra_assets::Resolver,
    path: &std::path::Path,
) -> Result<()> {
    let shown = assets.display(path).display().to_string();
    let is_hdr = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("hdr"));
    let (width, height, linear) = if is_hdr {
        let bytes = assets
            .read(path)
            .with_context(|| format!("reading the environment image {shown}"))?;
        let budgets = assets.budgets();
        let image = sierra_content::radiance::decode_radiance(
            &bytes,
            budgets.image_size,
            budgets.gltf_decoded_bytes,
        )
        .map_err(|e| anyhow::anyhow!("{shown}: {e}"))?;
        (image.width, image.height, image.rgba)
    } else {
        let image = sierra_gltf::load_image_file(assets, path)
            .with_context(|| format!("reading the environment image {shown}"))?;
        let linear = image
            .rgba8
            .chunks_exact(4)
            .flat_map(|p| {
                let c = |i: usize| sierra_render::texture::srgb_to_linear(f32::from(p[i]) / 255.0);
                [c(0), c(1), c(2), 1.0]
            })
            .collect();
        (image.width, image.height, linear)
    };
    renderer
        .set_environment_image(ctx, width, height, &linear)
        .with_context(|| format!("uploading the environment image {shown}"))
}

/// Bakes the environment the level's first frame will have (the level's sun and `post`, the
/// world's sky) and waits for it: the `environment` start-up stage.
///
/// # Errors
/// GPU errors.
pub fn bake_level_environment(
    ctx: &GpuContext,
    renderer: &mut Renderer,
    game: &Game,
) -> Result<()> {
    let scene = &game.scene;
    let sun = level_sun(scene);
    let mut post = post_settings(&scene.post, false, 0.0);
    game.world.apply_sky(&sun, &mut post.sky);
    if let Some(sierra_scene::level::Environment {
        source: sierra_scene::level::EnvironmentSource::Image(path),
        ..
    }) = &scene.post.environment
    {
        load_environment_image(ctx, renderer, &scene.assets, path)?;
    }
    post.environment = environment_settings(
        scene.post.environment.as_ref(),
        post.sky.enabled,
        game.world.time,
    );
    renderer
        .bake_environment(ctx, &sun, &post)
        .context("baking the environment")
}
