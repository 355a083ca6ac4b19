//! Per-character animation state: the model (skeleton, skin, clips), the clip playing and the
//! crossfade from the previous one, and the buffers its animation job writes.
//!
//! Each tick [`animate_characters`] runs one [`CharacterJob`] per character in parallel (rayon,
//! [`sierra_anim::run_characters_parallel`]): sample + crossfade → IK hook → local-to-model → skinning palette.
//! The job's root is the character node's world matrix, so model matrices are world space and
//! IK goals are world positions. Joint world matrices are then written into the scene graph
//! (one driven node per joint under the character node), where attachments and the renderer find them.

use std::path::Path;
use std::sync::Arc;

use glam::{Affine3A, Mat4};
use rayon::prelude::*;
use sierra_anim::graph::GraphJob;
use sierra_anim::{
    CharacterJob, CharacterPose, ClipLayer, Crossfade, Playback, PoseHook, Skeleton,
};
use sierra_scene::{NodeId, Scene, Transform};

use super::character_model::CharacterModel;
use super::clip_binding::ClipTable;
use super::error::GameplayError;
use super::graph::CharacterGraph;

/// Crossfade length when a character changes clip, seconds.
pub const DEFAULT_FADE_SECONDS: f32 = 0.15;

/// One clip playing: index into the model's clips, its time (seconds) and playback.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Playing {
    /// Clip index.
    pub clip: usize,
    /// Playback time, seconds.
    pub time: f32,
    /// Loop or once.
    pub playback: Playback,
}

/// A character in the running level.
#[derive(Debug)]
pub struct Character {
    /// The object node carrying the `Character` component (the skeleton's parent).
    pub node: NodeId,
    /// Level object index (for messages and lookups by name).
    pub object: usize,
    /// The shared model.
    pub model: Arc<CharacterModel>,
    /// Clip fading in (or playing alone once the fade finished).
    pub current: Playing,
    /// Clip fading out.
    pub previous: Option<Playing>,
    /// The fade from `previous` to `current`.
    pub fade: Crossfade,
    /// Playback rate multiplier.
    pub speed: f32,
    /// One scene node per skeleton joint (driven: world written each tick), skeleton order.
    pub joint_nodes: Vec<NodeId>,
    /// The animation graph driving the pose, if any (the player's); it replaces
    /// `current`/`previous`/`fade`, which then play no part.
    pub graph: Option<Box<CharacterGraph>>,
    /// The level's binding of gameplay states to the model's clips.
    pub clips: ClipTable,
    /// The model as the level wrote it (for messages).
    pub model_name: String,
    /// JSON path of the `Character` component (for messages).
    pub json_path: String,
    /// The level's material for this character (`None`: the model's own), applied by the GPU
    /// bridge when it uploads the character's mesh.
    pub material: Option<sierra_scene::components::CharacterMaterial>,
}

impl Character {
    /// Starts clip `clip` (a model clip index) with a crossfade of `fade` seconds from what plays now.
    pub fn play(&mut self, clip: usize, playback: Playback, fade: f32) {
        self.previous = Some(self.current);
        self.current = Playing {
            clip,
            time: 0.0,
            playback,
        };
        self.fade = Crossfade::new(fade);
    }

    /// Whether a one-shot current clip has reached its end.
    pub fn finished(&self) -> bool {
        self.current.playback == Playback::Once
            && self.current.time >= self.model.clips[self.current.clip].duration()
    }

    /// Advances clip times and the fade by `dt` seconds.
    pub fn advance(&mut self, dt: f32) {
        let dt = dt * self.speed;
        self.current.time += dt;
        if let Some(p) = &mut self.previous {
            p.time += dt;
        }
        self.fade.advance(dt);
        if self.fade.is_finished() {
            self.previous = None;
        }
    }
}

/// Builds the job inputs of `character` (≤ 2 layers) into `layers`.
fn layers_of(character: &Character) -> ([ClipLayer<'_>; 2], usize) {
    let clips = &character.model.clips;
    let layer = |p: &Playing, weight: f32| ClipLayer {
        clip: &clips[p.clip],
        time: p.time,
        playback: p.playback,
        weight,
    };
    let (wa, wb) = character.fade.weights();
    match &character.previous {
        Some(prev) => ([layer(prev, wa), layer(&character.current, wb)], 2),
        None => {
            let l = layer(&character.current, 1.0);
            ([l, l], 1)
        }
    }
}

/// Runs every character's animation job in parallel (rayon), with `hook` (IK) after sampling,
/// then writes joint world matrices into the scene graph. `poses[i]` belongs to `characters[i]`.
/// A character with a graph runs a [`GraphJob`] (the graph's pose) instead of the clip crossfade.
///
/// Errors: [`GameplayError::Anim`] naming the character's level file.
pub fn animate_characters<H: PoseHook>(
    characters: &mut [Character],
    poses: &mut [CharacterPose],
    hook: &H,
    scene: &mut Scene,
    file: &Path,
) -> Result<(), GameplayError> {
    let roots: Vec<Mat4> = characters
        .iter()
        .map(|c| Mat4::from(scene.graph.world(c.node).unwrap_or(Affine3A::IDENTITY)))
        .collect();
    poses
        .par_iter_mut()
        .zip(characters.par_iter_mut())
        .enumerate()
        .try_for_each(|(i, (pose, c))| {
            // On the rayon worker that runs the job: the trace shows the job system at work.
            let _span = tracing::info_span!("animation_job", character = i).entered();
            let model = &*c.model;
            if let Some(g) = &mut c.graph {
                let g = &mut **g;
                return GraphJob {
                    skeleton: &model.skeleton,
                    skin: Some(&model.skin),
                    clips: &model.clips,
                    instance: &g.instance,
                    binding: &g.binding,
                    root: roots[i],
                    hook,
                    character: i,
                }
                .run(&mut g.buffers, pose);
            }
            let (layers, n) = layers_of(c);
            CharacterJob {
                skeleton: &model.skeleton,
                skin: Some(&model.skin),
                layers: &layers[..n],
                root: roots[i],
                hook,
                character: i,
            }
            .run(pose)
        })
        .map_err(|source| GameplayError::Anim {
            file: file.to_owned(),
            source,
        })?;
    for (c, pose) in characters.iter().zip(poses.iter()) {
        for (&node, m) in c.joint_nodes.iter().zip(&pose.model) {
            scene.graph.set_world(node, Affine3A::from_mat4(*m));
        }
    }
    Ok(())
}

/// Creates the joint nodes of a character under `node` (names as the skeleton's).
///
/// Errors: [`GameplayError::Scene`] for a stale node.
pub fn add_joint_nodes(
    scene: &mut Scene,
    node: NodeId,
    skeleton: &Skeleton,
    file: &Path,
) -> Result<Vec<NodeId>, GameplayError> {
    let mut ids = Vec::with_capacity(skeleton.joint_count());
    for (j, name) in skeleton.names().iter().enumerate() {
        let parent = skeleton.parent(j).map_or(node, |p| ids[p]);
        let id = scene
            .graph
            .add(name.clone(), Transform::IDENTITY, Some(parent))
            .map_err(|source| GameplayError::Scene {
                file: file.to_owned(),
                source,
            })?;
        scene.content.insert(id, Default::default());
        ids.push(id);
    }
    Ok(ids)
}
