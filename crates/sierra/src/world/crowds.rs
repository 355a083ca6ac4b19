//! The `Crowd` level component in the game: `count` instances of a skinned model drawn by the
//! renderer's baked-animation crowd pass ([`sierra_render::passes::crowd`], seed 004 done better).
//!
//! Two steps, like the rest of [`super::World`]:
//! - [`LevelCrowds::from_scene`] (level load, no GPU): validates every `Crowd` (count, spacing,
//!   clip names), imports each model once and bakes all its clips at [`CROWD_SAMPLE_RATE`]
//!   frames per second. Bad input is a [`CrowdError`] naming the level file and JSON path.
//! - [`LevelCrowds::upload`] (once, after the terrain heights exist): places the instances
//!   ([`LevelCrowd::instances`]: layout around the node, feet on the ground height, never in
//!   the sea) and adds one crowd per model primitive to `renderer.crowd`. Per frame only the
//!   crowd time goes into the frame ([`super::World::extract`]); instances change only when members react.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use glam::{Mat4, Quat, Vec3};
use sierra_anim::BakedAnimation;
use sierra_content::crowd::{bake_asset, baked_palettes, CrowdMaterials};
use sierra_render::compute::skinning::SkinnedMeshData;
use sierra_render::passes::crowd::{CrowdHandle, CrowdInstance};
use sierra_render::{CrowdFrame, GpuContext, Renderer};
use sierra_scene::components::{Crowd, CrowdLayout};
use sierra_scene::{Component, Scene};

use super::crowd_reaction::{write_changed, CrowdReaction};

/// Baking rate of crowd clips, frames per second (the vertex shader interpolates between frames).
pub const CROWD_SAMPLE_RATE: f32 = 30.0;

/// Most instances one `Crowd` component may ask for (the instance buffer holds 112 bytes each;
/// larger crowds belong in `sierra bench crowd`, not a level).
pub const MAX_CROWD_INSTANCES: u32 = 100_000;

/// Ground below this height above the sea level counts as sea (metres): members are not placed there.
pub const DRY_MARGIN: f32 = 0.2;

/// Redraws of a random-layout member that fell in the sea before it is dropped.
const DRY_TRIES: u32 = 64;

/// A `Crowd` component that cannot be drawn.
#[derive(Debug, thiserror::Error)]
pub enum CrowdError {
    /// A field value out of range or a clip the model lacks.
    #[error("{}: at `{json_path}`: {message}", file.display())]
    Invalid {
        /// Level file.
        file: PathBuf,
        /// JSON path of the offending field.
        json_path: String,
        /// What is wrong and what is allowed.
        message: String,
    },
    /// The model could not be imported.
    #[error("{}: at `{json_path}`: crowd model: {source}", file.display())]
    Model {
        /// Level file.
        file: PathBuf,
        /// JSON path of the `model` field.
        json_path: String,
        /// Import error (names the model file).
        source: sierra_gltf::Error,
    },
    /// The model has no skin or its clips cannot be baked.
    #[error("{}: at `{json_path}`: crowd model `{model}`: {source}", file.display())]
    Bake {
        /// Level file.
        file: PathBuf,
        /// JSON path of the `model` field.
        json_path: String,
        /// The model as written.
        model: String,
        /// What failed.
        source: sierra_render::RenderError,
    },
}

/// A model ready for the crowd pass, shared by every crowd that names it.
pub struct CrowdModel {
    /// `[primitive]` bind-pose meshes with 4 influences per vertex.
    pub meshes: Vec<SkinnedMeshData>,
    /// `[primitive]` glTF materials, uploaded with the crowd.
    pub materials: CrowdMaterials,
    /// Every clip of the model's first skin, baked at [`CROWD_SAMPLE_RATE`].
    pub baked: BakedAnimation,
}

/// One validated `Crowd` component.
pub struct LevelCrowd {
    /// The component as written.
    pub spec: Crowd,
    /// JSON path of the component (for messages).
    pub json_path: String,
    /// The node's world matrix at load (crowds do not follow moving nodes).
    pub node_world: Mat4,
    /// The model.
    pub model: Arc<CrowdModel>,
    /// `[spec.clips entry]` index into `model.baked.clips`.
    pub clips: Vec<u32>,
}

/// Every `Crowd` of a level.
#[derive(Default)]
pub struct LevelCrowds {
    /// In level order.
    pub crowds: Vec<LevelCrowd>,
    /// `[crowd]` the instances uploaded by [`LevelCrowds::upload`] (empty before); members
    /// change at run time ([`super::crowd_reaction`]).
    pub placed: Vec<Vec<CrowdInstance>>,
    /// `[crowd]` its members' reaction to the player.
    pub reactions: Vec<CrowdReaction>,
    /// Reused list of changed members ([`LevelCrowds::flush`]).
    pub(super) dirty_scratch: Vec<usize>,
}

/// splitmix64 (Steele, Lea, Flood 2014): a tiny seeded generator, so a seed gives the same crowd everywhere.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
}

impl LevelCrowds {
    /// Validates and prepares every `Crowd` component of `scene` (loaded from `file`; glTF
    /// model paths are relative to its folder). Each model is imported and baked once.
    ///
    /// # Errors
    /// [`CrowdError`] naming `file` and the JSON path: `count` 0 or above
    /// [`MAX_CROWD_INSTANCES`], `spacing` not finite and > 0, an empty `clips` list, a clip the
    /// model lacks (listing those it has), a model that fails to import, has no skin or cannot
    /// be baked.
    pub fn from_scene(scene: &Scene, file: &Path) -> Result<Self, CrowdError> {
        let assets = &scene.assets;
        let mut models: HashMap<String, Arc<CrowdModel>> = HashMap::new();
        let mut crowds = Vec::new();
        for (i, &node) in scene.objects.iter().enumerate() {
            for (j, component) in scene.components(node).iter().enumerate() {
                let Component::Crowd(spec) = component else {
                    continue;
                };
                let json_path = format!("objects[{i}].components[{j}]");
                let invalid = |field: &str, message: String| CrowdError::Invalid {
                    file: file.to_owned(),
                    json_path: format!("{json_path}.{field}"),
                    message,
                };
                if spec.count == 0 || spec.count > MAX_CROWD_INSTANCES {
                    return Err(invalid(
                        "count",
                        format!(
                            "{} instances; a crowd has 1 to {MAX_CROWD_INSTANCES}",
                            spec.count
                        ),
                    ));
                }
                if !(spec.spacing.is_finite() && spec.spacing > 0.0) {
                    return Err(invalid(
                        "spacing",
                        format!("{} must be a finite distance > 0 metres", spec.spacing),
                    ));
                }
                if spec.clips.is_empty() {
                    return Err(invalid(
                        "clips",
                        "empty: name at least one clip to play".into(),
                    ));
                }
                let model = match models.get(&spec.model) {
                    Some(m) => m.clone(),
                    None => {
                        let m = Arc::new(load_model(&spec.model, assets, file, &json_path)?);
                        models.insert(spec.model.clone(), m.clone());
                        m
                    }
                };
                let clips = spec
                    .clips
                    .iter()
                    .enumerate()
                    .map(|(k, name)| {
                        model
                            .baked
                            .clips
                            .iter()
                            .position(|c| &c.name == name)
                            .map(|c| c as u32)
                            .ok_or_else(|| {
                                let names: Vec<&str> =
                                    model.baked.clips.iter().map(|c| c.name.as_str()).collect();
                                invalid(
                                    &format!("clips[{k}]"),
                                    format!(
                                        "model `{}` has no clip `{name}` (clips: {})",
                                        spec.model,
                                        names.join(", ")
                                    ),
                                )
                            })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                let node_world = scene
                    .graph
                    .world(node)
                    .map(Mat4::from)
                    .unwrap_or(Mat4::IDENTITY);
                crowds.push(LevelCrowd {
                    spec: spec.clone(),
                    json_path,
                    node_world,
                    model,
                    clips,
                });
            }
        }
        Ok(Self {
            crowds,
            ..Default::default()
        })
    }

    /// Whether the level has no crowd.
    pub fn is_empty(&self) -> bool {
        self.crowds.is_empty()
    }

    /// Places every crowd ([`LevelCrowd::instances`] with `ground` and `sea_level`) and adds one
    /// crowd per model primitive to `renderer.crowd`. Call once, after the terrain heights exist.
    /// Returns, per crowd in level order, the renderer crowds drawing it (the GPU bridge keeps
    /// them; [`LevelCrowds::flush`] names them).
    ///
    /// # Errors
    /// GPU errors and crowd pass limits (a bake taller than the device's texture limit), with
    /// the crowd's JSON path.
    pub fn upload(
        &mut self,
        ctx: &GpuContext,
        renderer: &mut Renderer,
        ground: impl Fn(f32, f32) -> Option<f32>,
        sea_level: Option<f32>,
    ) -> anyhow::Result<Vec<Vec<CrowdHandle>>> {
        use anyhow::Context;
        self.placed.clear();
        let mut all = Vec::with_capacity(self.crowds.len());
        self.reactions.clear();
        for crowd in &self.crowds {
            let instances = crowd.instances(&ground, sea_level);
            if instances.len() < crowd.spec.count as usize {
                log::warn!(
                    "{}: {} of {} crowd members would stand in the sea and are left out",
                    crowd.json_path,
                    crowd.spec.count as usize - instances.len(),
                    crowd.spec.count
                );
            }
            let m = &crowd.model;
            let palettes = baked_palettes(&m.baked);
            let materials = m
                .materials
                .upload(ctx)
                .with_context(|| format!("uploading the materials of `{}`", crowd.json_path))?;
            let mut handles = Vec::new();
            for (mesh, (surface, material)) in m.meshes.iter().zip(&materials) {
                let handle = renderer
                    .crowd
                    .add_crowd(ctx, mesh, &palettes, material, surface, &instances)
                    .with_context(|| format!("uploading the crowd at `{}`", crowd.json_path))?;
                handles.push(handle);
            }
            let walk = m.baked.clips.iter().position(|c| c.name == "walk");
            self.reactions
                .push(CrowdReaction::new(&instances, walk.map(|w| w as u32)));
            all.push(handles);
            self.placed.push(instances);
        }
        Ok(all)
    }
}

fn load_model(
    model: &str,
    assets: &sierra_assets::Resolver,
    file: &Path,
    json_path: &str,
) -> Result<CrowdModel, CrowdError> {
    let asset = if model.starts_with("builtin:") {
        sierra_gltf::builtin::load_model(model)
    } else {
        sierra_gltf::GltfAsset::load_in(
            assets,
            Path::new(model),
            sierra_gltf::ImportOptions::default(),
        )
    }
    .map_err(|source| CrowdError::Model {
        file: file.to_owned(),
        json_path: format!("{json_path}.model"),
        source,
    })?;
    let (meshes, baked) =
        bake_asset(&asset, CROWD_SAMPLE_RATE).map_err(|source| CrowdError::Bake {
            file: file.to_owned(),
            json_path: format!("{json_path}.model"),
            model: model.to_owned(),
            source,
        })?;
    if meshes.iter().any(|m| !m.morph_targets.is_empty()) {
        // Baked crowds carry skinning matrices only; per-instance morph weights are not baked.
        log::warn!(
            "{}: at `{json_path}.model`: crowd model `{model}` has morph targets; crowds draw its base shape",
            file.display()
        );
    }
    Ok(CrowdModel {
        materials: CrowdMaterials::of(&asset),
        meshes,
        baked,
    })
}

impl LevelCrowd {
    /// The crowd's members, deterministic in `spec.seed`.
    ///
    /// Layout in the node's horizontal plane (node rotation applied, node scale not, so
    /// `spacing` stays in metres): a `grid` of `ceil(√count)` columns centred on the node, or
    /// `random` positions uniform in a centred square of side `spacing · √count`. Each member's
    /// feet (model origin) are put at `ground(x, z)` where it is `Some` (else at the node's
    /// height); members whose ground is below `sea_level + DRY_MARGIN` are redrawn (random,
    /// up to 64 times) or left out (grid), so none stands in the sea. Each member turns by a
    /// random yaw about +Y, is scaled by the node's scale, plays a clip drawn uniformly from
    /// `spec.clips` (repeat a name to weight it) from a random phase in `[0, duration)` seconds at
    /// a speed in `[0.85, 1.15)`, and wears the tint
    /// [`member_tint`](sierra_content::crowd_tint::member_tint)`(spec.seed, index)` (white when
    /// `spec.tints` is off).
    pub fn instances(
        &self,
        ground: impl Fn(f32, f32) -> Option<f32>,
        sea_level: Option<f32>,
    ) -> Vec<CrowdInstance> {
        let spec = &self.spec;
        let (scale, rotation, origin) = self.node_world.to_scale_rotation_translation();
        let mut rng = Rng(spec.seed ^ 0x5CE7_A11C_0DD5_EED5);
        let n = spec.count;
        let columns = (n as f32).sqrt().ceil().max(1.0) as u32;
        let rows = n.div_ceil(columns);
        let side = spec.spacing * (n as f32).sqrt();
        let mut out = Vec::with_capacity(n as usize);
        let place = |local: Vec3| -> (Vec3, bool) {
            let p = origin + rotation * local;
            match ground(p.x, p.z) {
                Some(h) => (p.with_y(h), sea_level.is_none_or(|s| h >= s + DRY_MARGIN)),
                None => (p, true),
            }
        };
        for i in 0..n {
            let position = match spec.layout {
                CrowdLayout::Grid => {
                    let x = (i % columns) as f32 - (columns - 1) as f32 * 0.5;
                    let z = (i / columns) as f32 - (rows - 1) as f32 * 0.5;
                    let (p, dry) = place(Vec3::new(x, 0.0, z) * spec.spacing);
                    dry.then_some(p)
                }
                CrowdLayout::Random => (0..DRY_TRIES).find_map(|_| {
                    let x = (rng.unit() - 0.5) * side;
                    let z = (rng.unit() - 0.5) * side;
                    let (p, dry) = place(Vec3::new(x, 0.0, z));
                    dry.then_some(p)
                }),
            };
            // Drawn for every member, placed or not, so one member in the sea does not
            // reshuffle the others.
            let yaw = rng.unit() * std::f32::consts::TAU;
            let pick = ((rng.unit() * self.clips.len() as f32) as usize).min(self.clips.len() - 1);
            let phase = rng.unit();
            let speed = 0.85 + 0.3 * rng.unit();
            let Some(position) = position else {
                continue;
            };
            let clip = self.clips[pick];
            let duration = self.model.baked.clips[clip as usize].duration;
            let model = Mat4::from_scale_rotation_translation(
                scale,
                rotation * Quat::from_rotation_y(yaw),
                position,
            );
            let tint = if spec.tints {
                sierra_content::crowd_tint::member_tint(spec.seed, i)
            } else {
                [1.0; 3]
            };
            out.push(CrowdInstance::new(model, clip, phase * duration, speed).with_tint(tint));
        }
        out
    }
}

/// Run time: the members' reactions to the player ([`super::crowd_reaction`]).
impl LevelCrowds {
    /// One tick of every placed crowd's reaction to the player at `focus` (see the module docs).
    pub fn react(&mut self, focus: Option<Vec3>, now: f32, dt: f32) {
        for (reaction, instances) in self.reactions.iter_mut().zip(&mut self.placed) {
            reaction.tick(instances, focus, now, dt);
        }
    }

    /// Lists the members changed since the last flush as updates of the renderer's crowds in
    /// `frame` ([`write_changed`]); `handles[crowd]` are the renderer crowds drawing each crowd
    /// (as [`LevelCrowds::upload`] returned them).
    pub fn flush(&mut self, handles: &[Vec<CrowdHandle>], frame: &mut CrowdFrame) {
        let mut dirty = std::mem::take(&mut self.dirty_scratch);
        for ((reaction, instances), handles) in
            self.reactions.iter_mut().zip(&self.placed).zip(handles)
        {
            reaction.take_dirty(&mut dirty);
            write_changed(frame, handles, instances, &dirty);
        }
        self.dirty_scratch = dirty;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crowd(layout: CrowdLayout, count: u32, seed: u64, node_world: Mat4) -> LevelCrowd {
        let asset = sierra_gltf::builtin::mannequin::load().unwrap();
        let (meshes, baked) = bake_asset(&asset, CROWD_SAMPLE_RATE).unwrap();
        let clips =
            ["idle", "run"].map(|n| baked.clips.iter().position(|c| c.name == n).unwrap() as u32);
        LevelCrowd {
            spec: Crowd {
                model: "builtin:mannequin".into(),
                count,
                layout,
                spacing: 1.5,
                clips: vec!["idle".into(), "run".into()],
                seed,
                tints: true,
            },
            json_path: "objects[0].components[0]".into(),
            node_world,
            model: Arc::new(CrowdModel {
                materials: CrowdMaterials::of(&asset),
                meshes,
                baked,
            }),
            clips: clips.to_vec(),
        }
    }

    #[test]
    fn members_stand_on_the_ground_out_of_the_sea_deterministically() {
        // A beach sloping down towards +x: dry for x < 2, sea beyond.
        let ground = |x: f32, _z: f32| Some(2.0 - x);
        let node = Mat4::from_scale_rotation_translation(
            Vec3::splat(2.0),
            Quat::from_rotation_y(0.3),
            Vec3::new(0.0, 50.0, 0.0),
        );
        for layout in [CrowdLayout::Random, CrowdLayout::Grid] {
            let c = crowd(layout, 40, 9, node);
            let members = c.instances(ground, Some(0.0));
            if layout == CrowdLayout::Random {
                assert_eq!(
                    members.len(),
                    40,
                    "random members are redrawn onto dry ground"
                );
            } else {
                assert!((10..40).contains(&members.len()), "{}", members.len());
            }
            for m in &members {
                let (scale, _, p) = m.model.to_scale_rotation_translation();
                assert!((p.y - ground(p.x, p.z).unwrap()).abs() < 1e-5, "{p}");
                assert!(p.y >= DRY_MARGIN, "in the sea at {p}");
                assert!(
                    (scale - Vec3::splat(2.0)).length() < 1e-4,
                    "node scale {scale}"
                );
                assert!(c.clips.contains(&m.clip), "clip {}", m.clip);
                let duration = c.model.baked.clips[m.clip as usize].duration;
                assert!((0.0..duration).contains(&m.time_offset));
                assert!((0.85..1.15).contains(&m.speed));
            }
            assert_eq!(
                members,
                c.instances(ground, Some(0.0)),
                "same seed, same crowd"
            );
            let other = crowd(layout, 40, 10, node).instances(ground, Some(0.0));
            assert_ne!(members, other, "another seed, another crowd");
        }
        // Both clips of the mix are played.
        let c = crowd(CrowdLayout::Random, 40, 9, node);
        let members = c.instances(|_, _| None, None);
        assert!(c.clips.iter().all(|k| members.iter().any(|m| m.clip == *k)));
    }

    #[test]
    fn grid_is_centred_on_the_node_in_metres_and_random_stays_in_its_square() {
        let node = Mat4::from_scale_rotation_translation(
            Vec3::splat(3.0),
            Quat::IDENTITY,
            Vec3::new(10.0, 1.0, -4.0),
        );
        let grid = crowd(CrowdLayout::Grid, 9, 1, node).instances(|_, _| None, None);
        let centre = grid.iter().map(|m| m.model.w_axis.truncate()).sum::<Vec3>() / 9.0;
        assert!(
            (centre - Vec3::new(10.0, 1.0, -4.0)).length() < 1e-4,
            "{centre}"
        );
        let xs: Vec<f32> = grid.iter().map(|m| m.model.w_axis.x).collect();
        // Spacing 1.5 m whatever the node scale.
        assert!((xs[1] - xs[0] - 1.5).abs() < 1e-5, "{xs:?}");
        let half = 1.5 * 100f32.sqrt() * 0.5;
        for m in crowd(CrowdLayout::Random, 100, 2, node).instances(|_, _| None, None) {
            let p = m.model.w_axis.truncate() - Vec3::new(10.0, 1.0, -4.0);
            assert!(
                p.x.abs() <= half && p.z.abs() <= half && p.y.abs() < 1e-5,
                "{p}"
            );
        }
    }
}
