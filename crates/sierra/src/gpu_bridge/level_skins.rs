//! Skin and morph-weight playback of the glTF files a level places: every skinned or morphed
//! mesh node the file made under a level object with an `Animator` is drawn through the
//! skinning pass instead of in its bind pose.
//!
//! - A skinned node's palette is `world(joint node) × inverse bind matrix` per skin joint
//!   (glTF 2.0 §3.7.3.3: the skinned mesh node's own transform is not applied). The joints are
//!   the scene nodes the file made, which the `Animator` moves
//!   ([`sierra_scene::node_animation::NodeAnimators`]), so the skin follows the clip after
//!   transform propagation, with the level object's placement included.
//! - A morphed node without a skin has a one-entry palette, its node's world matrix.
//! - Morph weights come from the animator's clip (`weights` channels target glTF nodes,
//!   [`sierra_content::poser::node_morph_weights`]) at its time, else the node's default weights.
//!
//! Each node instance is its own skinned mesh (the skinning pass writes one output per
//! instance); materials come from the file ([`GltfMaterials`], the one glTF material conversion).
//! Objects without an `Animator` keep the static bind-pose draw of [`super::level_gltf`].
//! Skinned draws use the tick's transforms (not interpolated between ticks).

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use anyhow::{Context, Result};
use glam::Mat4;
use sierra_content::poser::node_morph_weights;
use sierra_content::skinned_mesh::{rigid_primitive_mesh, skinned_primitive_mesh};
use sierra_content::GltfMaterials;
use sierra_render::{
    GpuContext, Material, MorphWeights, Renderer, SkinnedDrawItem, SkinnedFrame, SkinnedMeshHandle,
};
use sierra_scene::graph::NodeId;
use sierra_scene::node_animation::NodeAnimators;
use sierra_scene::scene::GltfInstance;
use sierra_scene::Scene;

/// How one part's palette is made.
#[derive(Clone, Debug)]
enum Posing {
    /// `[skin joint]` (joint scene node, inverse bind matrix).
    Skin(Vec<(Option<NodeId>, Mat4)>),
    /// The mesh node's own world matrix (morphed, no skin).
    Node,
}

/// One primitive of one animated skinned or morphed mesh node.
#[derive(Clone, Debug)]
struct Part {
    handle: SkinnedMeshHandle,
    material: Material,
    /// The scene node drawing the mesh.
    node: NodeId,
    /// Its glTF node (the target of `weights` channels).
    gltf_node: usize,
    /// Level object index of its `Animator`.
    object: usize,
    posing: Posing,
    /// `[target]` weights when no channel animates them.
    default_weights: Vec<f32>,
}

/// The skinned and morphed mesh nodes of animated level objects, uploaded once at load.
#[derive(Clone, Debug, Default)]
pub struct LevelSkins {
    parts: Vec<Part>,
    /// Scene nodes drawn here (the static glTF path skips them).
    nodes: HashSet<NodeId>,
    /// Scratch weights, reused every frame.
    weights: Vec<f32>,
}

impl LevelSkins {
    /// Uploads every skinned or morphed mesh node of the level objects that `animators` plays.
    ///
    /// # Errors
    /// Primitives without skin influences on a skinned node, weights counts that do not match
    /// the morph targets, bad material indices (naming the file, node and primitive), GPU errors.
    pub fn upload(
        ctx: &GpuContext,
        renderer: &mut Renderer,
        scene: &Scene,
        animators: &NodeAnimators,
    ) -> Result<Self> {
        let mut out = Self::default();
        // One material conversion per file, however many objects place it.
        let mut materials: HashMap<usize, GltfMaterials> = HashMap::new();
        for instance in &scene.gltf_instances {
            if animators.clip_of(instance.object_index).is_none() {
                continue;
            }
            let import = &instance.asset.import;
            let converted = match materials.entry(Arc::as_ptr(&instance.asset) as usize) {
                Entry::Occupied(e) => e.into_mut(),
                Entry::Vacant(e) => {
                    e.insert(GltfMaterials::upload(ctx, import).with_context(|| {
                        format!("uploading the materials of {}", import.path.display())
                    })?)
                }
            };
            out.upload_instance(ctx, renderer, instance, converted)?;
        }
        Ok(out)
    }

    fn upload_instance(
        &mut self,
        ctx: &GpuContext,
        renderer: &mut Renderer,
        instance: &GltfInstance,
        materials: &GltfMaterials,
    ) -> Result<()> {
        let asset = &instance.asset.import;
        let file = asset.path.display().to_string();
        for (n, gltf_node) in asset.nodes.iter().enumerate() {
            let (Some(m), Some(Some(node))) = (gltf_node.mesh, instance.nodes.get(n)) else {
                continue;
            };
            let mesh = asset
                .meshes
                .get(m)
                .with_context(|| format!("{file}: node {n} draws missing mesh {m}"))?;
            if gltf_node.skin.is_none() && mesh.morph_target_count() == 0 {
                continue;
            }
            let posing = match gltf_node.skin {
                Some(s) => {
                    let skin = asset.skin(s)?;
                    Posing::Skin(
                        skin.joint_nodes
                            .iter()
                            .zip(&skin.skin.inverse_bind_matrices)
                            .map(|(&j, &ibm)| (instance.nodes.get(j).copied().flatten(), ibm))
                            .collect(),
                    )
                }
                None => Posing::Node,
            };
            let default_weights = if gltf_node.weights.is_empty() {
                mesh.weights.clone()
            } else {
                gltf_node.weights.clone()
            };
            for (p, primitive) in mesh.primitives.iter().enumerate() {
                let label = format!("{file} node {n} primitive {p}");
                let data = match &posing {
                    Posing::Skin(joints) => skinned_primitive_mesh(primitive, joints.len()),
                    Posing::Node => rigid_primitive_mesh(primitive),
                }
                .with_context(|| label.clone())?;
                anyhow::ensure!(
                    data.morph_targets.len() == default_weights.len(),
                    "{label}: {} morph weights for {} morph targets",
                    default_weights.len(),
                    data.morph_targets.len()
                );
                let handle = renderer
                    .upload_skinned_mesh(ctx, &data, &label)
                    .with_context(|| format!("uploading {label}"))?;
                let material = materials
                    .bind_skinned(ctx, renderer, handle, primitive.material)
                    .with_context(|| format!("binding the material of {label}"))?;
                self.parts.push(Part {
                    handle,
                    material,
                    node: *node,
                    gltf_node: n,
                    object: instance.object_index,
                    posing: posing.clone(),
                    default_weights: default_weights.clone(),
                });
            }
            self.nodes.insert(*node);
        }
        Ok(())
    }

    /// Whether scene node `node` is drawn here (and not by the static glTF path).
    pub fn draws_node(&self, node: NodeId) -> bool {
        self.nodes.contains(&node)
    }

    /// Number of skinned draws per frame.
    pub fn len(&self) -> usize {
        self.parts.len()
    }

    /// Whether no animated object has a skinned or morphed mesh.
    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// Appends every part's palette (world space, so each draw's model matrix is the identity),
    /// morph weights and draw to `frame`, from the scene's propagated world matrices and the
    /// animators' clips. Allocates nothing once the frame's lists have grown.
    ///
    /// # Errors
    /// A morph sampling error (not expected for a clip built at load).
    pub fn extract(
        &mut self,
        scene: &Scene,
        animators: &NodeAnimators,
        frame: &mut SkinnedFrame,
    ) -> Result<()> {
        let world = |node: Option<NodeId>| {
            node.and_then(|n| scene.graph.world(n))
                .map_or(Mat4::IDENTITY, Mat4::from)
        };
        for part in &self.parts {
            let offset = frame.palettes.len() as u32;
            match &part.posing {
                Posing::Skin(joints) => frame
                    .palettes
                    .extend(joints.iter().map(|&(node, ibm)| world(node) * ibm)),
                Posing::Node => frame.palettes.push(world(Some(part.node))),
            }
            if !part.default_weights.is_empty() {
                match animators.clip_of(part.object) {
                    Some((clip, playback, time)) => node_morph_weights(
                        clip,
                        part.gltf_node,
                        &part.default_weights,
                        time,
                        playback,
                        &mut self.weights,
                    )
                    .context("sampling morph weights")?,
                    None => self.weights.clone_from(&part.default_weights),
                }
                frame.morphs.push(MorphWeights {
                    mesh: part.handle,
                    first: frame.morph_weights.len() as u32,
                    count: self.weights.len() as u32,
                });
                frame.morph_weights.extend_from_slice(&self.weights);
            }
            frame.draws.push(SkinnedDrawItem {
                mesh: part.handle,
                model: Mat4::IDENTITY,
                palette_offset: offset,
                material: part.material,
            });
        }
        Ok(())
    }
}
