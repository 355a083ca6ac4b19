//! Node animation of glTF files placed in a level: each [`Animator`] component plays one clip
//! of its object's glTF file on the scene nodes the file made under the object
//! ([`crate::scene::GltfInstance`]). Clips are built once at load for the file's node hierarchy
//! (`sierra_gltf::GltfAsset::node_skeleton`, one joint per glTF node) and sampled each tick
//! (`sierra_anim::sample_clip`); the sampled local transforms become the nodes' local
//! transforms, so meshes, children and colliders follow before transform propagation. Skins
//! follow in the binary's extract step (`sierra::level_skins`: palettes from these nodes' world
//! matrices, morph weights from [`NodeAnimators::clip_of`]).
//!
//! Tick order: [`crate::node_behaviour::tick_node_components`] → [`NodeAnimators::update`] → gameplay →
//! propagation.

use std::path::Path;

use sierra_anim::{sample_clip, Clip, Playback, SamplingContext, Transform as AnimTransform};
use sierra_gltf::ClipSelector;

use crate::components::{Animator, AnimatorClip, AnimatorPlayback, Component};
use crate::error::Error;
use crate::graph::{NodeId, Transform};
use crate::scene::Scene;

/// One `Animator` playing.
#[derive(Debug)]
struct Player {
    /// `[skeleton joint]` the scene node it drives (`None` for glTF nodes outside the scene).
    nodes: Vec<Option<NodeId>>,
    /// `[skeleton joint]` the glTF node it is.
    gltf_nodes: Vec<usize>,
    clip: Clip,
    playback: Playback,
    speed: f32,
    /// Seconds of clip time played.
    time: f32,
    context: SamplingContext,
    pose: Vec<AnimTransform>,
    /// Level object index.
    object: usize,
}

/// Every `Animator` of a scene with its built clip and clock.
#[derive(Debug, Default)]
pub struct NodeAnimators {
    players: Vec<Player>,
}

impl NodeAnimators {
    /// Builds a player for every `Animator` in `scene` (loaded from level `file`).
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the component's JSON path when the object's `mesh` is not a
    /// glTF file, the clip does not exist (listing the file's clips), the speed is negative or
    /// not finite, or the clip cannot be built for the file's nodes.
    pub fn from_scene(scene: &Scene, file: &Path) -> Result<Self, Error> {
        let mut players = Vec::new();
        for (object, &node) in scene.objects.iter().enumerate() {
            let Some(content) = scene.content.get(node) else {
                continue;
            };
            for (c, component) in content.components.iter().enumerate() {
                let Component::Animator(animator) = component else {
                    continue;
                };
                let invalid = |message: String| Error::Invalid {
                    file: file.to_owned(),
                    json_path: format!("objects[{object}].components[{c}]"),
                    message,
                };
                let index = content.object.unwrap_or(object);
                players.push(Player::new(scene, index, animator).map_err(invalid)?);
            }
        }
        Ok(Self { players })
    }

    /// How many animators play.
    pub fn len(&self) -> usize {
        self.players.len()
    }

    /// Whether none does.
    pub fn is_empty(&self) -> bool {
        self.players.is_empty()
    }

    /// Advances every animator by `dt` seconds (times its speed) and writes the sampled local
    /// transforms of its file's nodes into `scene` (propagate afterwards). A sampling error
    /// (not expected for a clip built at load) leaves that animator's nodes as they were.
    pub fn update(&mut self, scene: &mut Scene, dt: f32) {
        for p in &mut self.players {
            p.time += dt * p.speed;
            if sample_clip(&p.clip, p.time, p.playback, &mut p.context, &mut p.pose).is_err() {
                continue;
            }
            for (node, t) in p.nodes.iter().zip(&p.pose) {
                if let Some(node) = node {
                    scene.graph.set_local(
                        *node,
                        Transform {
                            translation: t.translation.into(),
                            rotation: t.rotation,
                            scale: t.scale.into(),
                        },
                    );
                }
            }
        }
    }

    /// The clip, its playback and the clip time of the animator on level object `object`
    /// (its file's morph `weights` tracks target glTF node indices), if it has one.
    pub fn clip_of(&self, object: usize) -> Option<(&Clip, Playback, f32)> {
        self.players
            .iter()
            .find(|p| p.object == object)
            .map(|p| (&p.clip, p.playback, p.time))
    }

    /// `[skeleton joint]` glTF node of the animator on level object `object`.
    pub fn joint_nodes(&self, object: usize) -> Option<&[usize]> {
        self.players
            .iter()
            .find(|p| p.object == object)
            .map(|p| p.gltf_nodes.as_slice())
    }
}

impl Player {
    fn new(scene: &Scene, object: usize, animator: &Animator) -> Result<Self, String> {
        let Some(instance) = scene
            .gltf_instances
            .iter()
            .find(|i| i.object_index == object)
        else {
            return Err("an Animator needs the object's `mesh` to be a .gltf/.glb file".to_owned());
        };
        if !(animator.speed.is_finite() && animator.speed >= 0.0) {
            return Err(format!(
                "speed {} must be finite and not negative",
                animator.speed
            ));
        }
        let asset = &instance.asset.import;
        let selector = match &animator.clip {
            AnimatorClip::Index(i) => ClipSelector::Index(*i),
            AnimatorClip::Name(n) => ClipSelector::Name(n.clone()),
        };
        let clip = asset.find_clip(&selector).map_err(|e| e.to_string())?;
        let (skeleton, gltf_nodes) = asset.node_skeleton().map_err(|e| e.to_string())?;
        let clip = asset
            .build_clip(clip, &skeleton, &gltf_nodes)
            .map_err(|e| e.to_string())?;
        let nodes = gltf_nodes
            .iter()
            .map(|&n| instance.nodes.get(n).copied().flatten())
            .collect();
        let joints = clip.joint_count();
        Ok(Self {
            nodes,
            gltf_nodes,
            pose: vec![AnimTransform::default(); joints],
            context: SamplingContext::new(joints),
            clip,
            playback: match animator.playback {
                AnimatorPlayback::Loop => Playback::Loop,
                AnimatorPlayback::Once => Playback::Once,
            },
            speed: animator.speed,
            time: 0.0,
            object,
        })
    }
}
