//! The extract step: the game state (scene graph, gameplay, world) becomes the renderer's
//! complete [`FrameData`] for one frame — the camera, sun and point lights (each `PointLight`
//! component at its node's world position; when there are more than [`MAX_POINT_LIGHTS`],
//! document 000's limit of 8, the 8 nearest to the camera this frame,
//! [`nearest_point_lights`]), one [`DrawItem`] per node with a primitive mesh and per primitive
//! of a glTF mesh node ([`LevelGltfMeshes`], at its world matrix), the characters' skinned draws
//! ([`CharacterMeshes::extract`]), the skinned and morphed glTF nodes of objects with an
//! `Animator` ([`LevelSkins::extract`]), the world's terrain,
//! sky objects, crowds and sea inputs ([`crate::world::World::extract`]) and the level's post
//! settings. The renderer never sees the scene graph, and nothing else reaches the passes.
//!
//! A window extracts between ticks: [`View::alpha`] interpolates node transforms, the camera
//! and the world clock between the previous tick ([`TickSnapshot`]) and the last one, so motion
//! is smooth at any frame rate. Skinned palettes are those of the last tick.

use std::collections::HashMap;

use anyhow::{Context, Result};
use glam::{Mat4, Vec3};
use sierra_render::{
    primitives, BloomSettings, Camera, DebugView, DrawItem, EnvironmentSettings, EnvironmentSource,
    FrameData, GpuContext, Material, MeshData, MeshHandle, PointLight, PostSettings, Renderer,
    SkySettings, Sun, TonemapSettings, Tonemapper, MAX_POINT_LIGHTS,
};
use sierra_scene::scene::NodeMesh;
use sierra_scene::{Component, Primitive};

use crate::character_meshes::CharacterMeshes;
use crate::game::Game;
use crate::level_gltf::LevelGltfMeshes;
use crate::level_skins::LevelSkins;
pub use crate::level_surfaces::load_normal_map;
use crate::level_surfaces::LevelSurfaces;

/// Renderer meshes of the primitives a scene uses.
///
/// Each primitive is uploaded once, however many materials draw it: a textured node's draw names
/// the surface material of its (normal map, normal scale, colour texture) ([`LevelSurfaces`]).
#[derive(Clone, Debug, Default)]
pub struct SceneMeshes {
    primitives: HashMap<Primitive, MeshHandle>,
    /// Cubes drawn with a non-uniform scale, by their relative scale ([`box_key`]): UVs spread
    /// so every face has the same texels per metre ([`primitives::cube_for_scale`]).
    scaled_cubes: Vec<([u32; 3], MeshHandle)>,
    /// The surface materials of textured primitives (normal maps, colour textures).
    pub surfaces: LevelSurfaces,
    /// The meshes of the level's glTF files.
    pub gltf: LevelGltfMeshes,
    /// Their skinned and morphed mesh nodes under objects with an `Animator`.
    pub skins: LevelSkins,
}

impl SceneMeshes {
    /// The mesh to draw `primitive` with at `world` (its own cube for a non-uniform scale).
    fn mesh_for(&self, primitive: Primitive, world: &Mat4) -> Option<MeshHandle> {
        if primitive == Primitive::Cube {
            if let Some(key) = box_key(world) {
                if let Some(&(_, mesh)) = self.scaled_cubes.iter().find(|(k, _)| *k == key) {
                    return Some(mesh);
                }
            }
        }
        self.primitives.get(&primitive).copied()
    }
}

/// The length of each of `world`'s axes: its scale along x, y and z.
fn scale_of(world: &Mat4) -> Vec3 {
    Vec3::new(
        world.x_axis.truncate().length(),
        world.y_axis.truncate().length(),
        world.z_axis.truncate().length(),
    )
}

/// The relative scale (each axis over the largest, in thousandths) of a non-uniformly scaled
/// `world` transform; `None` for a uniform (or degenerate) scale, which the plain cube serves.
fn box_key(world: &Mat4) -> Option<[u32; 3]> {
    let scale = scale_of(world);
    let largest = scale.max_element();
    if !(largest > 0.0 && scale.is_finite()) {
        return None;
    }
    let key = (scale / largest * 1000.0).round().as_uvec3().to_array();
    (key != [1000; 3]).then_some(key)
}

/// The mesh data of a level primitive (sizes as `sierra_scene::Primitive` documents).
pub fn primitive_mesh(primitive: Primitive) -> MeshData {
    match primitive {
        Primitive::Cube => primitives::cube(1.0),
        Primitive::Sphere => primitives::uv_sphere(0.5, 32, 16),
        Primitive::Plane => primitives::plane(1.0),
        Primitive::Grid { cells } => primitives::grid(cells, 1.0),
    }
}

/// Uploads each distinct primitive the scene uses, and each mesh of its glTF files, once.
///
/// # Errors
/// GPU errors while uploading.
pub fn upload_scene_meshes(
    ctx: &GpuContext,
    renderer: &mut Renderer,
    game: &Game,
) -> Result<SceneMeshes> {
    let msaa = game.scene.post.msaa;
    if let Err(e) = renderer.set_sample_count(ctx, msaa) {
        // A level asking for more than the adapter offers still runs, without anti-aliasing.
        log::warn!(
            "{}: post.msaa = {msaa}: {e}; rendering without MSAA",
            game.file.display()
        );
    }
    let mut meshes = SceneMeshes::default();
    for (node, content) in game.scene.content.iter() {
        if let Some(NodeMesh::Primitive { primitive, .. }) = &content.mesh {
            if !meshes.primitives.contains_key(primitive) {
                let handle = renderer
                    .upload_mesh(ctx, &primitive_mesh(*primitive), &format!("{primitive:?}"))
                    .with_context(|| format!("uploading the {primitive:?} primitive"))?;
                meshes.primitives.insert(*primitive, handle);
            }
            upload_scaled_cube(ctx, renderer, game, node, *primitive, &mut meshes)?;
        }
        if let Some(NodeMesh::Primitive { material, .. }) = &content.mesh {
            let json_path = format!("objects[{}].material", content.object.unwrap_or_default());
            meshes
                .surfaces
                .add(ctx, renderer, &game.scene.assets, material, &json_path)
                .with_context(|| format!("{}: {json_path}", game.file.display()))?;
        }
    }
    meshes.gltf = LevelGltfMeshes::upload(ctx, renderer, &game.scene)
        .with_context(|| format!("{}: uploading the glTF meshes", game.file.display()))?;
    meshes.skins = LevelSkins::upload(ctx, renderer, &game.scene, &game.node_animators)
        .with_context(|| format!("{}: uploading the animated glTF skins", game.file.display()))?;
    Ok(meshes)
}

/// Uploads the cube mesh of `node`'s scale when it is non-uniform and not uploaded yet.
fn upload_scaled_cube(
    ctx: &GpuContext,
    renderer: &mut Renderer,
    game: &Game,
    node: sierra_scene::NodeId,
    primitive: Primitive,
    meshes: &mut SceneMeshes,
) -> Result<()> {
    let world = game.scene.graph.world(node).map(Mat4::from);
    let Some((world, key)) = world.and_then(|w| Some((w, box_key(&w)?))) else {
        return Ok(());
    };
    if primitive != Primitive::Cube || meshes.scaled_cubes.iter().any(|(k, _)| *k == key) {
        return Ok(());
    }
    let scale = scale_of(&world);
    let label = format!("Cube scaled {scale}");
    let handle = renderer
        .upload_mesh(ctx, &primitives::cube_for_scale(scale), &label)
        .with_context(|| format!("uploading the {label} primitive"))?;
    meshes.scaled_cubes.push((key, handle));
    Ok(())
}

/// What the viewer adds to the game state when a frame is extracted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// Output width / height.
    pub aspect: f32,
    /// A free camera `(eye, target)` replacing the level's (the window's fly camera), world
    /// metres; the level camera's field of view and clip planes are kept.
    pub camera: Option<(Vec3, Vec3)>,
    /// Where between the previous tick (0) and the last one (1) to draw: the fixed-step clock's
    /// [`crate::game_loop::FixedTimestep::alpha`] in a window, 1 headless.
    pub alpha: f32,
}

impl View {
    /// The last tick as it is, through the level's camera, at `aspect`.
    pub fn at_tick(aspect: f32) -> Self {
        Self {
            aspect,
            camera: None,
            alpha: 1.0,
        }
    }
}

/// The state of the tick before the last, for interpolating: node world transforms (in
/// parent-first order), camera and world clock. Taken by [`TickSnapshot::take`] before a tick.
#[derive(Clone, Debug, Default)]
pub struct TickSnapshot {
    worlds: Vec<glam::Affine3A>,
    eye: Vec3,
    target: Vec3,
    time: f64,
    valid: bool,
}

impl TickSnapshot {
    /// Records `game`'s state now (no allocation once grown).
    pub fn take(&mut self, game: &Game) {
        let graph = &game.scene.graph;
        self.worlds.clear();
        self.worlds.extend(
            graph
                .parent_first_order()
                .iter()
                .map(|&n| graph.world(n).unwrap_or_default()),
        );
        self.eye = game.scene.camera.position;
        self.target = game.scene.camera.target;
        self.time = game.world.time;
        self.valid = true;
    }
}

/// Interpolates two affine transforms: translation and scale linearly, rotation by slerp
/// (exactly `b` at `t = 1`, and when they are equal).
fn lerp_affine(a: &glam::Affine3A, b: &glam::Affine3A, t: f32) -> Mat4 {
    if t >= 1.0 || a == b {
        return Mat4::from(*b);
    }
    let (sa, ra, ta) = a.to_scale_rotation_translation();
    let (sb, rb, tb) = b.to_scale_rotation_translation();
    Mat4::from_scale_rotation_translation(sa.lerp(sb, t), ra.slerp(rb, t), ta.lerp(tb, t))
}

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
            ..TonemapSettings::default()
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

/// The level's sun as the renderer takes it.
fn level_sun(scene: &sierra_scene::scene::Scene) -> Sun {
    Sun {
        direction: scene.sun.direction,
        color: scene.sun.color,
        intensity: scene.sun.intensity,
        ambient: scene.sun.ambient,
    }
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

/// The GPU-side content of a level that frames name: primitive meshes and the characters'
/// skinned instances, uploaded once.
pub struct SceneContent {
    /// Primitive meshes.
    pub meshes: SceneMeshes,
    /// One skinned instance per character.
    pub characters: CharacterMeshes,
}

impl SceneContent {
    /// Uploads the level's primitives and characters and the world's landscape (terrain, sea,
    /// sky objects, crowds) into `renderer`.
    ///
    /// # Errors
    /// GPU and upload errors, with context.
    pub fn upload(ctx: &GpuContext, renderer: &mut Renderer, game: &mut Game) -> Result<Self> {
        let mut startup = std::mem::take(&mut game.startup);
        let uploaded = startup.time("mesh_upload", || -> Result<_> {
            let meshes = upload_scene_meshes(ctx, renderer, game)?;
            let characters = CharacterMeshes::upload(ctx, renderer, &game.gameplay)?;
            Ok((meshes, characters))
        });
        // GPU terrain generation, terrain chunks, water, sky and crowd textures.
        let world = match &uploaded {
            Ok(_) => game
                .world
                .upload(ctx, renderer, &mut startup)
                .context("uploading the landscape"),
            Err(_) => Ok(()),
        };
        let environment = match (&uploaded, &world) {
            (Ok(_), Ok(())) => startup.time("environment", || {
                bake_level_environment(ctx, renderer, game)
            }),
            _ => Ok(()),
        };
        game.startup = startup;
        let (meshes, characters) = uploaded?;
        world?;
        environment?;
        Ok(Self { meshes, characters })
    }
}

/// The extract step: writes the complete frame for the game's current state seen through
/// `view` into `frame`, reusing its vectors (no allocation once they have grown). `previous`
/// (the tick before the last) is used when `view.alpha < 1`. The world's queued sea inputs and
/// crowd changes move into the frame, so each frame must be rendered.
///
/// # Errors
/// A character whose palette does not match its model.
pub fn extract(
    game: &mut Game,
    content: &mut SceneContent,
    view: &View,
    previous: Option<&TickSnapshot>,
    frame: &mut FrameData,
) -> Result<()> {
    let previous = previous.filter(|p| p.valid && view.alpha < 1.0);
    let alpha = view.alpha.clamp(0.0, 1.0);
    extract_scene(game, &content.meshes, view, previous, frame);
    frame.skinned.clear();
    content
        .characters
        .extract(&game.gameplay, &mut frame.skinned)?;
    content
        .meshes
        .skins
        .extract(&game.scene, &game.node_animators, &mut frame.skinned)?;
    frame.post = post_settings(&game.scene.post, game.wireframe, brightest_light(frame));
    if game.debug_view != DebugView::Lit {
        frame.post = PostSettings {
            debug_view: game.debug_view,
            wireframe: game.wireframe,
            ..PostSettings::default()
        };
    }
    let time = match previous {
        Some(p) => p.time + (game.world.time - p.time) * f64::from(alpha),
        None => game.world.time,
    };
    let eye = frame.camera.position;
    game.world.extract(eye, time, frame);
    frame.post.environment = environment_settings(
        game.scene.post.environment.as_ref(),
        frame.post.sky.enabled,
        time,
    );
    Ok(())
}

/// The largest channel of the sun's or any point light's colour × intensity in `frame`.
fn brightest_light(frame: &FrameData) -> f32 {
    let sun = (frame.sun.color * frame.sun.intensity).max_element();
    (frame.point_lights.iter())
        .map(|l| (l.color * l.intensity).max_element())
        .fold(sun, f32::max)
}

/// Camera, sun, lights and primitive draws of `game.scene` (see [`extract`]).
fn extract_scene(
    game: &Game,
    meshes: &SceneMeshes,
    view: &View,
    previous: Option<&TickSnapshot>,
    frame: &mut FrameData,
) {
    let scene = &game.scene;
    let c = &scene.camera;
    let alpha = view.alpha.clamp(0.0, 1.0);
    let (eye, target) = match (view.camera, previous) {
        (Some(free), _) => free,
        (None, Some(p)) => (
            p.eye.lerp(c.position, alpha),
            p.target.lerp(c.target, alpha),
        ),
        (None, None) => (c.position, c.target),
    };
    frame.camera = Camera::look_at(
        eye,
        target,
        Vec3::Y,
        c.fov_y_degrees.to_radians(),
        view.aspect,
        c.near,
        c.far,
    );
    frame.sun = level_sun(scene);
    frame.clear_color = scene.clear_color.extend(1.0);
    frame.draws.clear();
    frame.point_lights.clear();
    let order = scene.graph.parent_first_order();
    let previous = previous.filter(|p| p.worlds.len() == order.len());
    for (index, &node) in order.iter().enumerate() {
        let (Some(content), Some(world)) = (scene.content.get(node), scene.graph.world(node))
        else {
            continue;
        };
        let world = match previous {
            Some(p) => lerp_affine(&p.worlds[index], &world, alpha),
            None => Mat4::from(world),
        };
        if let Some(NodeMesh::Primitive {
            primitive,
            material,
        }) = &content.mesh
        {
            let surface = meshes.surfaces.get(material);
            if let Some(mesh) = meshes.mesh_for(*primitive, &world) {
                frame.draws.push(DrawItem {
                    mesh,
                    model: world,
                    material: Material {
                        base_color: material.base_color.extend(1.0),
                        specular_color: material.specular_color,
                        specular_power: material.specular_power,
                        emissive: material.emissive,
                    },
                    surface,
                });
            }
        }
        if let Some(NodeMesh::Gltf { asset, mesh, .. }) = &content.mesh {
            if !meshes.skins.draws_node(node) {
                meshes.gltf.draw(asset, *mesh, world, &mut frame.draws);
            }
        }
        for component in &content.components {
            if let Component::PointLight(light) = component {
                frame.point_lights.push(PointLight {
                    position: world.w_axis.truncate(),
                    color: light.light_color,
                    intensity: light.intensity,
                    inner_radius: light.inner_radius,
                    outer_radius: light.outer_radius,
                });
            }
        }
    }
    nearest_point_lights(&mut frame.point_lights, eye);
}

/// Keeps the [`MAX_POINT_LIGHTS`] lights nearest to `eye` (Euclidean distance to the
/// light's position, metres), nearest first, when there are more; fewer are left as they
/// are. A light farther than the 8th nearest is not shaded this frame, so a level may
/// place any number of lights and the ones around the camera light it. Runs per frame
/// in the extract step without allocating (`select_nth_unstable_by`, O(n), then a sort
/// of the 8 kept).
pub fn nearest_point_lights(lights: &mut Vec<PointLight>, eye: Vec3) {
    if lights.len() <= MAX_POINT_LIGHTS {
        return;
    }
    let distance = |l: &PointLight| l.position.distance_squared(eye);
    lights.select_nth_unstable_by(MAX_POINT_LIGHTS - 1, |a, b| {
        distance(a).total_cmp(&distance(b))
    });
    lights.truncate(MAX_POINT_LIGHTS);
    lights.sort_unstable_by(|a, b| distance(a).total_cmp(&distance(b)));
}

/// An empty frame to fill with [`extract`].
pub fn empty_frame() -> FrameData {
    FrameData::new(Camera::look_at(
        Vec3::Z,
        Vec3::ZERO,
        Vec3::Y,
        1.0,
        1.0,
        0.1,
        10.0,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thin_cube_draws_its_own_mesh_and_a_uniform_one_the_shared_cube() {
        let thin = Mat4::from_scale_rotation_translation(
            Vec3::new(4.0, 0.4, 4.0),
            glam::Quat::from_rotation_y(0.7),
            Vec3::new(38.0, 3.0, 200.0),
        );
        assert_eq!(box_key(&thin), Some([1000, 100, 1000]));
        assert_eq!(box_key(&Mat4::from_scale(Vec3::splat(2.5))), None);
        assert_eq!(box_key(&Mat4::from_scale(Vec3::ZERO)), None);
        let mut meshes = SceneMeshes::default();
        meshes.primitives.insert(Primitive::Cube, MeshHandle(0));
        meshes.primitives.insert(Primitive::Sphere, MeshHandle(1));
        meshes.scaled_cubes.push(([1000, 100, 1000], MeshHandle(2)));
        assert_eq!(meshes.mesh_for(Primitive::Cube, &thin), Some(MeshHandle(2)));
        assert_eq!(
            meshes.mesh_for(Primitive::Cube, &Mat4::IDENTITY),
            Some(MeshHandle(0))
        );
        // Only cubes get their own mesh; a scale with no uploaded mesh falls back to the cube.
        assert_eq!(
            meshes.mesh_for(Primitive::Sphere, &thin),
            Some(MeshHandle(1))
        );
        let other = Mat4::from_scale(Vec3::new(1.0, 2.0, 3.0));
        assert_eq!(
            meshes.mesh_for(Primitive::Cube, &other),
            Some(MeshHandle(0))
        );
    }
    use crate::game::game_from_json;

    #[test]
    fn children_are_drawn_at_parent_times_local_and_lights_follow_their_node() {
        let game = game_from_json(
            r#"{"objects": [
              {"name": "child", "parent": "root", "position": [0, 1, 0], "mesh": "sphere",
               "material": {"baseColor": [0.1, 0.2, 0.3]},
               "components": [{"type": "PointLight", "lightColor": [1, 0, 0], "innerRadius": 1, "outerRadius": 2}]},
              {"name": "root", "position": [5, 0, 0], "scale": 2, "mesh": "cube"}]}"#,
            60.0,
        )
        .unwrap();
        let mut meshes = SceneMeshes::default();
        meshes.primitives.insert(Primitive::Cube, MeshHandle(0));
        meshes.primitives.insert(Primitive::Sphere, MeshHandle(1));
        let mut frame = empty_frame();
        extract_scene(&game, &meshes, &View::at_tick(1.5), None, &mut frame);
        assert_eq!(frame.draws.len(), 2);
        // Parent first, whatever the file order.
        assert_eq!(frame.draws[0].mesh, MeshHandle(0));
        let child = frame.draws[1];
        assert_eq!(child.mesh, MeshHandle(1));
        assert_eq!(
            child.material.base_color,
            glam::Vec4::new(0.1, 0.2, 0.3, 1.0)
        );
        let p = child.model.transform_point3(Vec3::ZERO);
        assert!((p - Vec3::new(5.0, 2.0, 0.0)).length() < 1e-6, "{p}");
        assert_eq!(frame.point_lights.len(), 1);
        assert!((frame.point_lights[0].position - Vec3::new(5.0, 2.0, 0.0)).length() < 1e-6);
    }

    /// A level with 12 point lights in a row along +X, 5 m apart, at x = 0, 5, …, 55.
    fn twelve_lights() -> Game {
        let lights: Vec<String> = (0..12)
            .map(|i| {
                format!(
                    r#"{{"name": "light{i}", "position": [{}, 2, 0], "components": [{{"type": "PointLight",
                        "lightColor": [1, 1, 1], "intensity": {}, "innerRadius": 1, "outerRadius": 4}}]}}"#,
                    5 * i,
                    1 + i
                )
            })
            .collect();
        let json = format!(
            r#"{{"camera": {{"position": [-10, 2, 5], "target": [0, 2, 0]}}, "objects": [{}]}}"#,
            lights.join(",")
        );
        game_from_json(&json, 60.0).unwrap()
    }

    /// Light numbers (intensity − 1) the frame shades with, sorted.
    fn used(frame: &FrameData) -> Vec<u32> {
        let mut v: Vec<u32> = frame
            .point_lights
            .iter()
            .map(|l| l.intensity as u32 - 1)
            .collect();
        v.sort_unstable();
        v
    }

    /// The 8 nearest to `eye` by brute force over the 12 positions.
    fn brute_force_nearest(eye: Vec3) -> Vec<u32> {
        let mut all: Vec<(f32, u32)> = (0..12)
            .map(|i| (Vec3::new(5.0 * i as f32, 2.0, 0.0).distance(eye), i))
            .collect();
        all.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut v: Vec<u32> = all[..8].iter().map(|&(_, i)| i).collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn the_eight_point_lights_nearest_to_the_camera_are_used_each_frame() {
        let mut game = twelve_lights();
        let meshes = SceneMeshes::default();
        let mut frame = empty_frame();
        let mut seen = Vec::new();
        for eye in [
            Vec3::new(-10.0, 2.0, 5.0),
            Vec3::new(60.0, 2.0, 5.0),
            Vec3::new(27.0, 2.0, 3.0),
        ] {
            game.scene.camera.position = eye;
            extract_scene(&game, &meshes, &View::at_tick(1.5), None, &mut frame);
            assert_eq!(frame.point_lights.len(), MAX_POINT_LIGHTS);
            assert_eq!(used(&frame), brute_force_nearest(eye), "camera at {eye}");
            // Nearest first.
            let d: Vec<f32> = frame
                .point_lights
                .iter()
                .map(|l| l.position.distance(eye))
                .collect();
            assert!(d.windows(2).all(|w| w[0] <= w[1]), "{d:?}");
            seen.push(used(&frame));
        }
        // Moving the camera changes the set (negative control: not the first 8 in file order).
        assert_eq!(seen[0], (0..8).collect::<Vec<_>>());
        assert_eq!(seen[1], (4..12).collect::<Vec<_>>());
        assert_eq!(seen[2], (2..10).collect::<Vec<_>>());
    }

    #[test]
    fn between_ticks_node_transforms_and_the_camera_are_interpolated_and_headless_draws_the_tick() {
        // A cube spinning 90 degrees per second about +Y, at x = 2: one tick turns it by 1.5 degrees.
        let mut game = game_from_json(
            r#"{"camera": {"position": [0, 2, 8], "target": [0, 0, 0]}, "objects": [{"name": "s",
               "position": [2, 0, 0], "mesh": "cube",
               "components": [{"type": "Spinner", "degreesPerSecond": 90}]}]}"#,
            60.0,
        )
        .unwrap();
        let mut meshes = SceneMeshes::default();
        meshes.primitives.insert(Primitive::Cube, MeshHandle(0));
        for _ in 0..10 {
            game.tick();
        }
        let mut previous = TickSnapshot::default();
        previous.take(&game);
        game.scene.camera.position.x += 1.0;
        game.tick();
        let angle = |frame: &FrameData| {
            let x = frame.draws[0].model.transform_vector3(Vec3::X);
            (-x.z).atan2(x.x).to_degrees()
        };
        let mut frame = empty_frame();
        let at = |alpha: f32| View {
            alpha,
            ..View::at_tick(1.0)
        };
        extract_scene(&game, &meshes, &at(1.0), Some(&previous), &mut frame);
        assert!((angle(&frame) - 16.5).abs() < 1e-3, "{}", angle(&frame));
        assert!((frame.camera.position.x - 1.0).abs() < 1e-6);
        extract_scene(&game, &meshes, &at(0.0), Some(&previous), &mut frame);
        assert!((angle(&frame) - 15.0).abs() < 1e-3, "{}", angle(&frame));
        assert!(frame.camera.position.x.abs() < 1e-6);
        extract_scene(&game, &meshes, &at(0.5), Some(&previous), &mut frame);
        assert!((angle(&frame) - 15.75).abs() < 1e-3, "{}", angle(&frame));
        assert!((frame.camera.position.x - 0.5).abs() < 1e-6);
        // The spinner stays at x = 2 while it turns (rotation slerped, translation kept).
        let p = frame.draws[0].model.w_axis.truncate();
        assert!((p - Vec3::new(2.0, 0.0, 0.0)).length() < 1e-5, "{p}");
        // Without a previous tick (headless), alpha is irrelevant: the last tick is drawn.
        extract_scene(&game, &meshes, &at(0.0), None, &mut frame);
        assert!((angle(&frame) - 16.5).abs() < 1e-3);
    }
}
