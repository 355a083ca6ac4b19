//! A glTF model posed at sample times of one clip and framed by its bounds: the frame source of
//! `sierra view` (headless and `--window`) and of the web viewer (`sierra_web`), so both draw the
//! same frames from the same code. [`ModelFrames::tick`] moves to the next sample time and
//! [`ModelFrames::extract`] writes the frame.
//!
//! Skinned meshes are posed by the animation job ([`crate::ModelPoser`]; the clip plays once,
//! so the last sample is its end pose) and skinned on the GPU; morph targets are applied before
//! skinning with the clip's `weights` channel of the mesh node ([`crate::poser::node_morph_weights`]);
//! unskinned morphed meshes go through the same pass with one joint. A grey ground plane under
//! the clip's bounds receives the model's sun shadow (not with `albedo`). Models without skins
//! or morph targets are drawn with their materials, each mesh placed by its node's world matrix
//! under the clip ([`crate::poser::NodePoser`]), or at rest without a clip.

use std::f32::consts::SQRT_2;

use glam::{Mat4, Vec3, Vec4};
use sierra_anim::Playback;
use sierra_gltf::GltfAsset;
use sierra_render::compute::skinning::{skin_on_cpu_morphed, SkinnedMeshData};
use sierra_render::passes::frustum::transform_aabb;
use sierra_render::{
    Camera, DebugView, DrawItem, FrameData, GpuContext, Material, MorphWeights, RenderError,
    Renderer, Result, ShadowSettings, SkinnedDrawItem, SkinnedMeshHandle, Sun,
};

use crate::gltf_material::{draw_factors, GltfMaterials};
use crate::gltf_model::upload_gltf;
use crate::poser::{node_morph_weights, NodeClips, NodePoser};
use crate::skinned_mesh::{rigid_primitive_mesh, skinned_primitive_mesh};
use crate::ModelPoser;

fn invalid(e: impl std::fmt::Display) -> RenderError {
    RenderError::InvalidInput(e.to_string())
}

struct SkinnedPart {
    mesh: SkinnedMeshData,
    /// The skin posing it, or `None` for an unskinned morphed mesh placed by `rest_world`.
    skin: Option<usize>,
    /// The mesh node (its `weights` channel drives the morph targets).
    node: usize,
    /// `[target]` weights when no channel animates them: the node's, else the mesh's defaults.
    default_weights: Vec<f32>,
    /// The primitive's glTF material.
    gltf_material: Option<usize>,
    /// Its draw factors, set when the part is uploaded ([`GltfMaterials::bind_skinned`]).
    material: Material,
}

/// Clips play once: the last of `--frames` is the clip's end pose (as `sierra pose` clamps).
const PLAYBACK: Playback = Playback::Once;

/// Poses sampled over the clip to find the bounds `view` frames.
const CLIP_BOUNDS_SAMPLES: usize = 32;

/// The morph weights of `part` at `time` into `out`: its node's channel in `clip` when there
/// is one, else its defaults.
fn part_weights(
    clips: Option<(&NodeClips, usize)>,
    part: &SkinnedPart,
    time: f32,
    out: &mut Vec<f32>,
) -> Result<()> {
    match clips.and_then(|(c, i)| c.clip(i)) {
        // Morph channels loop, as the game's characters play them.
        Some(clip) => node_morph_weights(
            clip,
            part.node,
            &part.default_weights,
            time,
            Playback::Loop,
            out,
        )
        .map_err(invalid)?,
        None => out.clone_from(&part.default_weights),
    }
    Ok(())
}

/// The frame source of `sierra view` and the web viewer: the model's parts at `times[index]` of its clip, through a
/// fixed camera. A tick moves to the next sample time (the last one repeats).
pub struct ModelFrames {
    parts: Vec<SkinnedPart>,
    handles: Vec<SkinnedMeshHandle>,
    /// One poser per skin a part uses (`None` for skins no part uses).
    posers: Vec<Option<ModelPoser>>,
    node_clips: Option<(NodeClips, usize)>,
    clip: Option<usize>,
    /// `[node]` rest world matrices (unskinned morphed parts).
    rest_world: Vec<Mat4>,
    static_draws: Vec<DrawItem>,
    /// `[static draw]` glTF node placing it.
    static_nodes: Vec<usize>,
    /// `[static draw]` model-space bounds.
    static_bounds: Vec<(Vec3, Vec3)>,
    /// Node animation of static models (BoxAnimated, AnimatedCube), when they have a clip.
    node_poser: Option<NodePoser>,
    camera: Option<Camera>,
    /// Lit or unlit-albedo frames (`--albedo`).
    debug_view: DebugView,
    /// The ground plane under the clip's bounds (lit frames only), receiving the sun's shadow.
    ground: Option<DrawItem>,
    /// The sun's shadows, sized to the model and its ground ([`fit_shadow`]).
    shadow: ShadowSettings,
    /// Sample times, seconds.
    times: Vec<f32>,
    /// Draw meshes as lines (the viewer's F key).
    wireframe: bool,
    index: Option<usize>,
    weights: Vec<f32>,
    palette: Vec<Mat4>,
}

impl ModelFrames {
    /// Shows clip `clip` (an index into the model's clips) at `time` seconds, seen by `camera`,
    /// as lines when `wireframe`: the interactive viewer's frame (`crate::viewer`).
    pub fn show(&mut self, clip: usize, time: f32, camera: Camera, wireframe: bool) {
        if self.clip.is_some() {
            self.clip = Some(clip);
            if let Some((_, c)) = &mut self.node_clips {
                *c = clip;
            }
        }
        self.times.clear();
        self.times.push(time);
        self.index = Some(0);
        self.camera = Some(camera);
        self.wireframe = wireframe;
    }

    /// Appends the palette of `part` at `time` to `out`: its skin's joint matrices (the
    /// animation job), identities without a clip, or its node's rest world matrix.
    fn part_palette(
        posers: &mut [Option<ModelPoser>],
        rest_world: &[Mat4],
        clip: Option<usize>,
        part: &SkinnedPart,
        time: f32,
        out: &mut Vec<Mat4>,
    ) -> Result<()> {
        match (part.skin, clip) {
            (Some(skin), Some(c)) => {
                let poser = posers
                    .get_mut(skin)
                    .and_then(Option::as_mut)
                    .ok_or_else(|| invalid("no poser for a skin a part uses"))?;
                out.extend_from_slice(poser.palette(c, time, PLAYBACK)?);
            }
            (Some(_), None) => out.extend(std::iter::repeat_n(
                Mat4::IDENTITY,
                part.mesh.joint_count as usize,
            )),
            (None, _) => out.push(rest_world[part.node]),
        }
        Ok(())
    }

    /// Bounds `(min, max)` of every part's vertices posed (morphed and skinned on the CPU) and
    /// every static draw placed by its node at `time` (infinite when there is nothing).
    fn posed_bounds(&mut self, time: f32) -> Result<(Vec3, Vec3)> {
        let (mut lo, mut hi) = (Vec3::MAX, Vec3::MIN);
        if let Some(world) = Self::node_world(&mut self.node_poser, self.clip, time)? {
            for (&node, &(l, h)) in self.static_nodes.iter().zip(&self.static_bounds) {
                let (a, b) = transform_aabb(&world[node], l, h);
                lo = lo.min(a);
                hi = hi.max(b);
            }
        } else {
            for (d, &(l, h)) in self.static_draws.iter().zip(&self.static_bounds) {
                let (a, b) = transform_aabb(&d.model, l, h);
                lo = lo.min(a);
                hi = hi.max(b);
            }
        }
        let (l, h) = self.skinned_bounds(time)?;
        Ok((lo.min(l), hi.max(h)))
    }

    /// The bounds of [`ModelFrames::posed_bounds`] over the whole clip: `CLIP_BOUNDS_SAMPLES`
    /// evenly spaced times and every frame's time, so the model stays in frame as it moves.
    fn clip_bounds(&mut self, duration: f32) -> Result<(Vec3, Vec3)> {
        let mut times: Vec<f32> = (0..CLIP_BOUNDS_SAMPLES)
            .map(|i| duration * i as f32 / (CLIP_BOUNDS_SAMPLES - 1) as f32)
            .collect();
        times.extend_from_slice(&self.times);
        let (mut lo, mut hi) = (Vec3::MAX, Vec3::MIN);
        for t in times {
            let (l, h) = self.posed_bounds(t)?;
            lo = lo.min(l);
            hi = hi.max(h);
        }
        Ok((lo, hi))
    }

    /// `[glTF node]` world matrices at `time` when the static model animates its nodes.
    fn node_world(
        poser: &mut Option<NodePoser>,
        clip: Option<usize>,
        time: f32,
    ) -> Result<Option<&[Mat4]>> {
        match (poser, clip) {
            (Some(poser), Some(c)) => Ok(Some(poser.world(c, time, PLAYBACK)?)),
            _ => Ok(None),
        }
    }

    /// Bounds of the skinned and morphed parts at `time`.
    fn skinned_bounds(&mut self, time: f32) -> Result<(Vec3, Vec3)> {
        let morph = self.node_clips.as_ref().map(|(clips, c)| (clips, *c));
        let (mut lo, mut hi) = (Vec3::MAX, Vec3::MIN);
        for part in &self.parts {
            self.palette.clear();
            Self::part_palette(
                &mut self.posers,
                &self.rest_world,
                self.clip,
                part,
                time,
                &mut self.palette,
            )?;
            part_weights(morph, part, time, &mut self.weights)?;
            for v in skin_on_cpu_morphed(&part.mesh, &self.weights, &self.palette).positions {
                lo = lo.min(Vec3::from(v));
                hi = hi.max(Vec3::from(v));
            }
        }
        Ok((lo, hi))
    }
}

impl ModelFrames {
    /// Moves to the next sample time (the last one repeats).
    pub fn tick(&mut self) {
        let last = self.times.len().saturating_sub(1);
        self.index = Some(self.index.map_or(0, |i| (i + 1).min(last)));
    }

    /// Writes the frame at the current sample time into `frame` (reusing its vectors).
    ///
    /// # Errors
    /// A clip or palette the model does not match ([`RenderError::InvalidInput`]).
    pub fn extract(&mut self, frame: &mut FrameData) -> Result<()> {
        let time = self
            .index
            .and_then(|i| self.times.get(i))
            .copied()
            .unwrap_or(0.0);
        if let Some(camera) = self.camera {
            frame.camera = camera;
        }
        frame.sun = Sun {
            direction: Vec3::new(0.4, -0.8, -0.6).normalize(),
            ambient: Vec3::splat(0.2),
            ..Sun::default()
        };
        frame.clear_color = Vec4::new(0.32, 0.42, 0.55, 1.0);
        // Metals and glossy surfaces reflect the procedural sky (not drawn: the backdrop stays).
        frame.post.environment.source = sierra_render::EnvironmentSource::Sky;
        frame.post.debug_view = self.debug_view;
        frame.post.wireframe = self.wireframe;
        frame.post.shadow = self.shadow;
        frame.draws.clear();
        frame.draws.extend_from_slice(&self.static_draws);
        if let Some(world) = Self::node_world(&mut self.node_poser, self.clip, time)? {
            for (draw, &node) in frame.draws.iter_mut().zip(&self.static_nodes) {
                draw.model = world[node];
            }
        }
        frame.draws.extend(self.ground);
        let morph = self.node_clips.as_ref().map(|(clips, c)| (clips, *c));
        let skinned = &mut frame.skinned;
        skinned.clear();
        for (part, &handle) in self.parts.iter().zip(&self.handles) {
            let offset = skinned.palettes.len() as u32;
            Self::part_palette(
                &mut self.posers,
                &self.rest_world,
                self.clip,
                part,
                time,
                &mut skinned.palettes,
            )?;
            part_weights(morph, part, time, &mut self.weights)?;
            skinned.morphs.push(MorphWeights {
                mesh: handle,
                first: skinned.morph_weights.len() as u32,
                count: self.weights.len() as u32,
            });
            skinned.morph_weights.extend_from_slice(&self.weights);
            skinned.draws.push(SkinnedDrawItem {
                mesh: handle,
                model: Mat4::IDENTITY,
                palette_offset: offset,
                material: part.material,
            });
        }
        Ok(())
    }
}

/// Vertical field of view of `view`'s camera.
const VIEW_FOV_DEGREES: f32 = 40.0;

/// `view`'s camera for the bounding sphere (`centre`, `radius` metres) of everything the clip
/// shows: from the front-right, above, at the distance where the sphere fits the narrower of
/// the two fields of view with 5 % to spare (`radius / sin(half angle)`), so no part of the
/// model leaves the image.
pub fn view_camera(centre: Vec3, radius: f32, aspect: f32) -> Camera {
    let half = (VIEW_FOV_DEGREES.to_radians() * 0.5).tan();
    let narrower = half.min(half * aspect).atan();
    let distance = 1.05 * radius / narrower.sin();
    Camera::look_at(
        centre + Vec3::new(0.35, 0.25, 1.0).normalize() * distance,
        centre,
        Vec3::Y,
        VIEW_FOV_DEGREES.to_radians(),
        aspect,
        radius * 0.05,
        distance + radius * 20.0,
    )
}

/// A grey square ground plane of side `6 · radius` under the clip's bounds `lo..hi` (at their
/// lowest point), on which the model casts the sun's shadow.
fn ground(
    ctx: &GpuContext,
    renderer: &mut Renderer,
    lo: Vec3,
    hi: Vec3,
    radius: f32,
) -> Result<DrawItem> {
    let mesh = renderer.upload_mesh(ctx, &sierra_render::primitives::plane(1.0), "view ground")?;
    let centre = (lo + hi) * 0.5;
    Ok(DrawItem {
        mesh,
        model: Mat4::from_scale_rotation_translation(
            Vec3::new(
                2.0 * GROUND_HALF_SIDE * radius,
                1.0,
                2.0 * GROUND_HALF_SIDE * radius,
            ),
            glam::Quat::IDENTITY,
            Vec3::new(centre.x, lo.y, centre.z),
        ),
        material: Material {
            base_color: Vec4::new(0.5, 0.5, 0.47, 1.0),
            specular_color: Vec3::ZERO,
            ..Material::default()
        },
        surface: None,
    })
}

/// Sizes the sun's shadow map to the model and its ground, whatever the model's scale (Fox is
/// ~150 units long, beyond the game's 40 m shadow distance): the map covers the camera's view
/// up to the far corner of the ground (`6 · radius` square around `centre`) and takes casters
/// from up to `2 · radius` beyond it towards the sun.
fn fit_shadow(camera: &Camera, centre: Vec3, radius: f32) -> ShadowSettings {
    ShadowSettings {
        max_distance: camera.position.distance(centre) + GROUND_HALF_SIDE * SQRT_2 * radius,
        caster_margin: 2.0 * radius,
        ..ShadowSettings::default()
    }
}

/// Half the side of the ground plane, in bounding radii.
const GROUND_HALF_SIDE: f32 = 3.0;

/// A model loaded for viewing: its frame source (framed, on its ground), its clips and the
/// bounds of the clip shown (the last three read by the interactive viewer only).
pub struct LoadedModel {
    /// The frame source.
    pub source: ModelFrames,
    /// `(name, duration seconds)` of every clip, file order.
    pub clips: Vec<(String, f32)>,
    /// The clip shown (`--clip`, else the first), `None` for a model without clips.
    pub clip: Option<usize>,
    /// The bounding sphere `(centre, radius)` of the clip's poses, metres.
    pub sphere: (Vec3, f32),
}

/// What to load a model for: its name for messages, the lighting, the sample count and the
/// framing camera's aspect.
pub struct ModelLoad<'a> {
    /// The model as the user named it (for messages).
    pub name: &'a str,
    /// Unlit albedo, no ground.
    pub albedo: bool,
    /// Sample times spread evenly over the clip.
    pub frames: usize,
    /// Image aspect ratio (width / height), for the framing camera.
    pub aspect: f32,
}

/// Uploads an imported model into `renderer` and frames it: `sierra view`'s and the web
/// viewer's model (`clip`: the clip shown, `None` for a model without clips).
///
/// # Errors
/// [`RenderError::InvalidInput`] for malformed meshes naming the model, GPU errors.
pub fn upload_model(
    ctx: &GpuContext,
    renderer: &mut Renderer,
    request: &ModelLoad<'_>,
    asset: &GltfAsset,
    clip: Option<usize>,
) -> Result<LoadedModel> {
    let frames = request.frames;
    let albedo = request.albedo;
    let duration = clip.map_or(0.0, |c| asset.clips[c].duration);
    let default_weights = |node: usize, mesh: usize| {
        let n = &asset.nodes[node];
        if n.weights.is_empty() {
            asset.meshes[mesh].weights.clone()
        } else {
            n.weights.clone()
        }
    };
    let mut parts = Vec::new();
    for inst in asset.skin_instances() {
        let joints = asset.skin(inst.skin).map_err(invalid)?.joint_count();
        for (p, prim) in asset.meshes[inst.mesh].primitives.iter().enumerate() {
            let mesh = skinned_primitive_mesh(prim, joints).map_err(|e| {
                invalid(format!(
                    "{}: mesh {} primitive {p}: {e}",
                    request.name, inst.mesh
                ))
            })?;
            parts.push(SkinnedPart {
                mesh,
                skin: Some(inst.skin),
                node: inst.node,
                default_weights: default_weights(inst.node, inst.mesh),
                gltf_material: prim.material,
                material: draw_factors(None),
            });
        }
    }
    let rest_world = asset.rest_world_matrices();
    for (node, n) in asset.nodes.iter().enumerate() {
        let Some(m) = n.mesh.filter(|_| n.skin.is_none()) else {
            continue;
        };
        if asset.meshes[m].morph_target_count() == 0 {
            continue;
        }
        for (p, prim) in asset.meshes[m].primitives.iter().enumerate() {
            let mesh = rigid_primitive_mesh(prim)
                .map_err(|e| invalid(format!("{}: mesh {m} primitive {p}: {e}", request.name)))?;
            parts.push(SkinnedPart {
                mesh,
                skin: None,
                node,
                default_weights: default_weights(node, m),
                gltf_material: prim.material,
                material: draw_factors(None),
            });
        }
    }
    // A weights count the targets do not match is the file's error, not a panic.
    for part in &parts {
        if part.default_weights.len() != part.mesh.morph_targets.len() {
            return Err(invalid(format!(
                "{}: node {} has {} morph weights for {} morph targets",
                request.name,
                part.node,
                part.default_weights.len(),
                part.mesh.morph_targets.len()
            )));
        }
    }
    let node_clips = match clip {
        Some(c) if parts.iter().any(|p| !p.default_weights.is_empty()) => {
            Some((NodeClips::new(asset)?, c))
        }
        _ => None,
    };
    // One poser per skin a part uses, built once: every frame runs the animation job.
    let mut posers: Vec<Option<ModelPoser>> = (0..asset.skins.len()).map(|_| None).collect();
    if clip.is_some() {
        for skin in parts.iter().filter_map(|p| p.skin) {
            if posers[skin].is_none() {
                posers[skin] = Some(ModelPoser::new(asset, skin)?);
            }
        }
    }
    // Models without skinned or morphed parts are drawn statically with their materials.
    let static_model = if parts.is_empty() {
        Some(upload_gltf(ctx, renderer, asset)?)
    } else {
        None
    };
    let materials = GltfMaterials::upload(ctx, asset)?;
    let mut handles = Vec::new();
    for (i, part) in parts.iter_mut().enumerate() {
        let handle = renderer.upload_skinned_mesh(ctx, &part.mesh, &format!("part {i}"))?;
        part.material = materials.bind_skinned(ctx, renderer, handle, part.gltf_material)?;
        handles.push(handle);
    }

    let times: Vec<f32> = (0..frames)
        .map(|f| duration * f as f32 / frames.max(2).saturating_sub(1) as f32)
        .collect();
    let mut source = ModelFrames {
        parts,
        handles,
        posers,
        node_clips,
        clip,
        rest_world,
        static_draws: static_model
            .as_ref()
            .map(|m| m.draws.clone())
            .unwrap_or_default(),
        static_nodes: static_model
            .as_ref()
            .map(|m| m.nodes.clone())
            .unwrap_or_default(),
        static_bounds: static_model
            .as_ref()
            .map(|m| m.local_bounds.clone())
            .unwrap_or_default(),
        node_poser: match (&static_model, clip) {
            (Some(_), Some(_)) => Some(NodePoser::new(asset)?),
            _ => None,
        },
        camera: None,
        ground: None,
        shadow: ShadowSettings::default(),
        debug_view: if albedo {
            DebugView::UnlitAlbedo
        } else {
            DebugView::Lit
        },
        times,
        wireframe: false,
        index: None,
        weights: Vec::new(),
        palette: Vec::new(),
    };
    // Frame once, from the bounds of the whole clip (rest bounds without a clip).
    let (lo, hi) = source.clip_bounds(duration)?;
    if !lo.is_finite() || !hi.is_finite() {
        return Err(invalid(format!(
            "{}: the model has no vertices to view",
            request.name
        )));
    }
    let centre = (lo + hi) * 0.5;
    let radius = ((hi - lo).length() * 0.5).max(1e-3);
    let camera = view_camera(centre, radius, request.aspect);
    source.camera = Some(camera);
    if !albedo {
        source.ground = Some(ground(ctx, renderer, lo, hi, radius)?);
        source.shadow = fit_shadow(&camera, centre, radius);
    }
    Ok(LoadedModel {
        source,
        clips: asset
            .clips
            .iter()
            .map(|c| (c.name.clone(), c.duration))
            .collect(),
        clip,
        sphere: (centre, radius),
    })
}
