//! The imported asset: nodes, skins, clips, meshes, materials, images.

use std::path::PathBuf;

use glam::Mat4;
use sierra_anim::{Clip, RawClip, RawJointTrack, Skeleton, Skin, Transform};

use crate::animation::ImportedClip;
use crate::material::{ImportedImage, ImportedMaterial};
use crate::mesh::ImportedMesh;
use crate::{Error, Result};

/// One glTF node, as the scene engineer instantiates it.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportedNode {
    /// Node name (`""` when absent).
    pub name: String,
    /// Parent node index, `None` for a root.
    pub parent: Option<usize>,
    /// Child node indices, in file order.
    pub children: Vec<usize>,
    /// Local transform (a `matrix` is decomposed to TRS).
    pub transform: Transform,
    /// Index into [`GltfAsset::meshes`].
    pub mesh: Option<usize>,
    /// Index into [`GltfAsset::skins`] (with `mesh`, a skin instance).
    pub skin: Option<usize>,
    /// Node morph weights (overriding the mesh's defaults), empty when absent.
    pub weights: Vec<f32>,
    /// The node's `extras` JSON (e.g. collider or joint-constraint definitions).
    pub extras: Option<serde_json::Value>,
}

/// A glTF skin with its runtime skeleton.
///
/// The skeleton holds the skin's joints **and every ancestor node** of them up to
/// the scene root, so clips animating non-joint ancestors (RecursiveSkeletons,
/// `Armature` nodes) are honoured and model space equals glTF world space.
#[derive(Clone, Debug)]
pub struct ImportedSkin {
    /// Skin name.
    pub name: String,
    /// Node index of each skin joint, in the order of the glTF `joints` array.
    pub joint_nodes: Vec<usize>,
    /// Runtime skeleton (joints + ancestors, parents-first).
    pub skeleton: Skeleton,
    /// `[skeleton.joint_count()]` glTF node index of each skeleton joint.
    pub skeleton_nodes: Vec<usize>,
    /// Palette mapping: `skin.joints[i]` is the skeleton joint of skin joint `i`;
    /// inverse bind matrices (identity when the file has none).
    pub skin: Skin,
    /// Nodes that use this skin (mesh + skin), in node order.
    pub users: Vec<usize>,
}

impl ImportedSkin {
    /// Number of skin joints (palette length).
    pub fn joint_count(&self) -> usize {
        self.joint_nodes.len()
    }
}

/// A node that draws a skinned mesh: one skin instance per node (not per mesh),
/// as glTF requires (RecursiveSkeletons binds one mesh to 84 skins).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SkinInstance {
    /// The node.
    pub node: usize,
    /// Its mesh.
    pub mesh: usize,
    /// Its skin.
    pub skin: usize,
}

/// Which data [`GltfAsset::load_with`] imports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImportOptions {
    /// Decode images into RGBA8 (the slowest part of an import).
    pub images: bool,
    /// Read mesh vertex data.
    pub meshes: bool,
}

impl Default for ImportOptions {
    fn default() -> Self {
        Self {
            images: true,
            meshes: true,
        }
    }
}

impl ImportOptions {
    /// Skins, clips and nodes only (what `sierra pose` needs).
    pub const ANIMATION_ONLY: Self = Self {
        images: false,
        meshes: false,
    };
}

/// Everything imported from one `.gltf`/`.glb` file. The rest of the engine
/// sees only these types, never the `gltf` crate's.
#[derive(Clone, Debug)]
pub struct GltfAsset {
    /// The file (used in error messages).
    pub path: PathBuf,
    /// All nodes, indexed as in the file.
    pub nodes: Vec<ImportedNode>,
    /// Root nodes of the default scene (`scene`, else scene 0, else every parentless node).
    pub scene_roots: Vec<usize>,
    /// Skins, indexed as in the file.
    pub skins: Vec<ImportedSkin>,
    /// Animations, indexed as in the file.
    pub clips: Vec<ImportedClip>,
    /// Meshes (empty with [`ImportOptions::meshes`] off).
    pub meshes: Vec<ImportedMesh>,
    /// Materials, indexed as in the file.
    pub materials: Vec<ImportedMaterial>,
    /// Images decoded to RGBA8 (empty with [`ImportOptions::images`] off).
    pub images: Vec<ImportedImage>,
    /// Non-fatal problems (e.g. vertices whose weights sum to zero), each reported once.
    pub warnings: Vec<String>,
}

/// Selects a clip by name or index (`sierra pose --clip NAME|INDEX`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClipSelector {
    /// By name.
    Name(String),
    /// By index.
    Index(usize),
}

impl ClipSelector {
    /// A name that exists wins; otherwise a decimal string is an index.
    pub fn parse(s: &str) -> Self {
        match s.parse::<usize>() {
            Ok(i) => Self::Index(i),
            Err(_) => Self::Name(s.to_owned()),
        }
    }
}

impl GltfAsset {
    /// Index of the clip chosen by `selector`. Errors: [`Error::UnknownClip`].
    pub fn find_clip(&self, selector: &ClipSelector) -> Result<usize> {
        let by_name = |name: &str| self.clips.iter().position(|c| c.name == name);
        let found = match selector {
            ClipSelector::Name(n) => by_name(n),
            ClipSelector::Index(i) => {
                by_name(&i.to_string()).or((*i < self.clips.len()).then_some(*i))
            }
        };
        found.ok_or_else(|| {
            self.unknown_clip(match selector {
                ClipSelector::Name(n) => n.clone(),
                ClipSelector::Index(i) => i.to_string(),
            })
        })
    }

    fn unknown_clip(&self, name: String) -> Error {
        Error::UnknownClip {
            file: self.path.clone(),
            name,
            available: self
                .clips
                .iter()
                .enumerate()
                .map(|(i, c)| format!("{i}: {}", c.name))
                .collect(),
        }
    }

    /// Skin `index`. Errors: [`Error::UnknownSkin`].
    pub fn skin(&self, index: usize) -> Result<&ImportedSkin> {
        self.skins.get(index).ok_or(Error::UnknownSkin {
            file: self.path.clone(),
            index,
            count: self.skins.len(),
        })
    }

    /// Every node drawing a skinned mesh, in node order.
    pub fn skin_instances(&self) -> Vec<SkinInstance> {
        self.nodes
            .iter()
            .enumerate()
            .filter_map(|(node, n)| {
                Some(SkinInstance {
                    node,
                    mesh: n.mesh?,
                    skin: n.skin?,
                })
            })
            .collect()
    }

    /// Builds clip `clip` for a skeleton whose joint `j` is glTF node
    /// `joint_nodes[j]`: channels on other nodes are dropped, morph `weights`
    /// channels are kept (target = node index). The clip's duration is the glTF
    /// animation's (latest key of all its channels).
    pub fn build_clip(
        &self,
        clip: usize,
        skeleton: &Skeleton,
        joint_nodes: &[usize],
    ) -> Result<Clip> {
        let Some(c) = self.clips.get(clip) else {
            return Err(self.unknown_clip(clip.to_string()));
        };
        let mut raw = RawClip {
            name: c.name.clone(),
            duration: Some(c.duration),
            ..Default::default()
        };
        for (j, &node) in joint_nodes.iter().enumerate() {
            let mut track = RawJointTrack {
                joint: j,
                ..Default::default()
            };
            let mut any = false;
            for ch in c.channels.iter().filter(|ch| ch.node == node) {
                any = true;
                match &ch.data {
                    crate::ChannelData::Translation(t) => track.translation = t.clone(),
                    crate::ChannelData::Rotation(t) => track.rotation = t.clone(),
                    crate::ChannelData::Scale(t) => track.scale = t.clone(),
                    crate::ChannelData::Weights(_) => {}
                }
            }
            if any {
                raw.tracks.push(track);
            }
        }
        raw.morph_tracks = c
            .channels
            .iter()
            .filter_map(|ch| match &ch.data {
                crate::ChannelData::Weights(w) => Some(w.clone()),
                _ => None,
            })
            .collect();
        Clip::build(&raw, skeleton).map_err(|source| Error::Anim {
            file: self.path.clone(),
            context: format!("building clip {clip} ({:?})", c.name),
            source,
        })
    }

    /// Clip `clip` built for skin `skin`'s skeleton.
    pub fn skin_clip(&self, skin: usize, clip: usize) -> Result<Clip> {
        let s = self.skin(skin)?;
        self.build_clip(clip, &s.skeleton, &s.skeleton_nodes)
    }

    /// A skeleton with one joint per node of the file (`joint j` = node
    /// `skeleton_nodes[j]`), for animating plain nodes (BoxAnimated, AnimatedCube)
    /// and computing world transforms of the whole scene.
    pub fn node_skeleton(&self) -> Result<(Skeleton, Vec<usize>)> {
        let raw = sierra_anim::RawSkeleton {
            joints: self
                .nodes
                .iter()
                .map(|n| sierra_anim::RawJoint {
                    name: n.name.clone(),
                    parent: n.parent,
                    rest: n.transform,
                })
                .collect(),
        };
        let skeleton = Skeleton::build(&raw).map_err(|source| Error::Anim {
            file: self.path.clone(),
            context: "node hierarchy".into(),
            source,
        })?;
        let nodes = skeleton.raw_index().iter().map(|&r| r as usize).collect();
        Ok((skeleton, nodes))
    }

    /// Rest-pose global (world) matrix of every node, `[nodes.len()]` column-major.
    pub fn rest_world_matrices(&self) -> Vec<Mat4> {
        let mut world: Vec<Option<Mat4>> = vec![None; self.nodes.len()];
        fn resolve(nodes: &[ImportedNode], world: &mut [Option<Mat4>], i: usize) -> Mat4 {
            if let Some(m) = world[i] {
                return m;
            }
            let local = nodes[i].transform.to_matrix();
            let m = match nodes[i].parent {
                Some(p) => resolve(nodes, world, p) * local,
                None => local,
            };
            world[i] = Some(m);
            m
        }
        (0..self.nodes.len())
            .map(|i| resolve(&self.nodes, &mut world, i))
            .collect()
    }
}
