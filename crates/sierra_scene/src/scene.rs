//! A level instantiated as a scene: graph nodes plus what each node carries.

use std::collections::HashMap;
use std::sync::Arc;

use glam::Vec3;
use slotmap::SecondaryMap;

use crate::assets::{AssetCache, GltfScene};
use crate::components::Component;
use crate::error::Error;
use crate::graph::{NodeId, SceneGraph, Transform};
use crate::level::{Camera, Level, Material, MeshRef, Primitive, Sun};

/// What a node draws.
#[derive(Clone, Debug)]
pub enum NodeMesh {
    /// A built-in primitive with the level's Phong material.
    Primitive {
        /// The primitive.
        primitive: Primitive,
        /// Its material.
        material: Material,
    },
    /// Mesh `mesh` of an imported glTF file (materials come from the file).
    Gltf {
        /// The shared import (one per file, from the [`AssetCache`]).
        asset: Arc<GltfScene>,
        /// Index into the file's meshes.
        mesh: usize,
        /// Index of the glTF node drawing it (its skin, morph weights and animation channels).
        node: usize,
    },
}

/// One glTF file instantiated under a level object ([`Scene::instantiate_gltf`]).
#[derive(Clone, Debug)]
pub struct GltfInstance {
    /// The level object's node (the instance's parent).
    pub object: NodeId,
    /// Index of the level object, as in `Level::objects`.
    pub object_index: usize,
    /// The shared import.
    pub asset: Arc<GltfScene>,
    /// `[glTF node]` the scene node made for it (`None` outside the default scene).
    pub nodes: Vec<Option<NodeId>>,
}

/// Everything a node carries besides its transform.
#[derive(Clone, Debug, Default)]
pub struct NodeContent {
    /// What to draw at the node's world transform, if anything.
    pub mesh: Option<NodeMesh>,
    /// The level components; for nodes that came from glTF files, a `CollisionBox` made
    /// from the node's `extras.collider` (seed 001's `ColliderDef`), if any.
    pub components: Vec<Component>,
    /// Index of the level object this node was made from (`None` for glTF nodes).
    pub object: Option<usize>,
}

/// A running scene: camera, lights, the node graph and node contents.
#[derive(Clone, Debug)]
pub struct Scene {
    /// Camera from the level (gameplay may move it).
    pub camera: Camera,
    /// The sun.
    pub sun: Sun,
    /// Linear RGB clear colour.
    pub clear_color: Vec3,
    /// Post-processing and sky settings.
    pub post: crate::level::Post,
    /// The transform hierarchy.
    pub graph: SceneGraph,
    /// Mesh and components per node (every node has an entry).
    pub content: SecondaryMap<NodeId, NodeContent>,
    /// Node of each level object, indexed like `Level::objects`.
    pub objects: Vec<NodeId>,
    /// Every glTF file instantiated under a level object (objects whose `mesh` is a file), in
    /// object order.
    pub gltf_instances: Vec<GltfInstance>,
    /// The level's asset resolver (root, level folder, budgets): everything loaded later for
    /// this scene (character and crowd models, normal maps, sounds) is opened through it.
    pub assets: sierra_assets::Resolver,
}

impl Scene {
    /// Loads a level file and builds its scene with a fresh [`AssetCache`] rooted at the
    /// level's folder.
    ///
    /// # Errors
    /// Those of [`crate::level::load_level`] and [`Scene::from_level`].
    pub fn load(path: impl AsRef<std::path::Path>) -> Result<Self, Error> {
        let level = crate::level::load_level(path)?;
        let mut assets = AssetCache::for_level(&level);
        Self::from_level(&level, &mut assets)
    }

    /// Builds the scene of a validated level: one node per object (parents created
    /// first, whatever the file order), glTF meshes instantiated as node subtrees
    /// under their object's node, then one propagation so world matrices are valid.
    ///
    /// # Errors
    /// [`Error::InLevel`] (file, `objects[i].mesh`) wrapping the asset error when a glTF
    /// file cannot be loaded.
    pub fn from_level(level: &Level, assets: &mut AssetCache) -> Result<Self, Error> {
        let mut scene = Scene {
            camera: level.camera.clone(),
            sun: level.sun.clone(),
            clear_color: level.clear_color,
            post: level.post.clone(),
            graph: SceneGraph::new(),
            content: SecondaryMap::new(),
            objects: Vec::with_capacity(level.objects.len()),
            gltf_instances: Vec::new(),
            assets: assets.resolver(level.folder())?,
        };
        let index: HashMap<&str, usize> = level
            .objects
            .iter()
            .enumerate()
            .map(|(i, o)| (o.name.as_str(), i))
            .collect();
        let mut nodes: Vec<Option<NodeId>> = vec![None; level.objects.len()];
        for i in 0..level.objects.len() {
            scene.add_object(level, &index, &mut nodes, i, assets)?;
        }
        scene.objects = nodes.into_iter().flatten().collect();
        scene.graph.propagate();
        Ok(scene)
    }

    /// Creates object `i` (after its parent chain); validated levels have no cycles.
    fn add_object(
        &mut self,
        level: &Level,
        index: &HashMap<&str, usize>,
        nodes: &mut [Option<NodeId>],
        i: usize,
        assets: &mut AssetCache,
    ) -> Result<NodeId, Error> {
        if let Some(id) = nodes[i] {
            return Ok(id);
        }
        // Iterative walk up to the first created ancestor, so deep chains cannot overflow the stack.
        let mut chain = vec![i];
        while let Some(&p) = level.objects[*chain.last().unwrap_or(&i)]
            .parent
            .as_deref()
            .and_then(|p| index.get(p))
        {
            if nodes[p].is_some() || chain.contains(&p) {
                break;
            }
            chain.push(p);
        }
        let mut last = None;
        for &k in chain.iter().rev() {
            let obj = &level.objects[k];
            let parent = obj
                .parent
                .as_deref()
                .and_then(|p| index.get(p))
                .and_then(|&p| nodes[p]);
            let local = Transform::new(obj.position, obj.rotation, obj.scale);
            let id = self.graph.add(obj.name.clone(), local, parent)?;
            let mesh = match &obj.mesh {
                None => None,
                Some(MeshRef::Primitive(primitive)) => Some(NodeMesh::Primitive {
                    primitive: *primitive,
                    material: obj.material.clone(),
                }),
                Some(MeshRef::Gltf(rel)) => {
                    let in_level = |source: Error| Error::InLevel {
                        file: level.file.clone(),
                        json_path: format!("objects[{k}].mesh"),
                        source: Box::new(source),
                    };
                    let asset = assets
                        .load::<GltfScene>(level.folder(), rel)
                        .map_err(in_level)?;
                    let nodes = self.instantiate_gltf(&asset, id)?;
                    self.gltf_instances.push(GltfInstance {
                        object: id,
                        object_index: k,
                        asset,
                        nodes,
                    });
                    None
                }
            };
            self.content.insert(
                id,
                NodeContent {
                    mesh,
                    components: obj.components.clone(),
                    object: Some(k),
                },
            );
            nodes[k] = Some(id);
            last = Some(id);
        }
        last.ok_or_else(|| Error::Graph("empty object chain".into()))
    }

    /// Adds the glTF file's default scene under `parent`: one node per glTF node, with
    /// names, local TRS and meshes, and a [`CollisionBox`](crate::components::CollisionBox)
    /// for each node with an `extras.collider` (its box, or a capsule's or sphere's bounding
    /// box: [`ColliderDef::box_half_extents`](crate::assets::ColliderDef::box_half_extents)),
    /// so the collision world holds the file's colliders and they follow their nodes.
    ///
    /// # Errors
    /// [`Error::Graph`] only if `parent` is stale. Returns `[glTF node]` the node made for it
    /// (`None` for nodes outside the default scene).
    pub fn instantiate_gltf(
        &mut self,
        asset: &Arc<GltfScene>,
        parent: NodeId,
    ) -> Result<Vec<Option<NodeId>>, Error> {
        let mut created: Vec<Option<NodeId>> = vec![None; asset.nodes.len()];
        // Parents first: walk each root's subtree breadth-first.
        let mut queue: Vec<(usize, NodeId)> = asset.roots.iter().map(|&r| (r, parent)).collect();
        let mut head = 0;
        while head < queue.len() {
            let (n, under) = queue[head];
            head += 1;
            let Some(node) = asset.nodes.get(n) else {
                continue;
            };
            if created[n].is_some() {
                continue;
            }
            let id = self.graph.add(node.name.clone(), node.local, Some(under))?;
            let mesh = node.mesh.map(|mesh| NodeMesh::Gltf {
                asset: asset.clone(),
                mesh,
                node: n,
            });
            let collider = node
                .collider
                .as_ref()
                .and_then(|c| c.box_half_extents())
                .map(|half_extents| {
                    Component::CollisionBox(crate::components::CollisionBox {
                        center: Vec3::ZERO,
                        half_extents,
                    })
                });
            self.content.insert(
                id,
                NodeContent {
                    mesh,
                    components: collider.into_iter().collect(),
                    object: None,
                },
            );
            created[n] = Some(id);
            queue.extend(node.children.iter().map(|&c| (c, id)));
        }
        Ok(created)
    }

    /// Node of the level object called `name` (level object names are unique).
    pub fn object(&self, name: &str) -> Option<NodeId> {
        self.objects
            .iter()
            .copied()
            .find(|&id| self.graph.name(id) == Some(name))
    }

    /// Node at a path of names from a root (`"Robot/Armature/Hand_R"`).
    pub fn find_path(&self, path: &str) -> Option<NodeId> {
        self.graph.find_path(path)
    }

    /// Removes `node` and its subtree from the graph and drops their contents; returns
    /// how many nodes were removed (0 for a stale id).
    pub fn remove_node(&mut self, node: NodeId) -> usize {
        let mut subtree = vec![node];
        let mut i = 0;
        while i < subtree.len() {
            subtree.extend_from_slice(self.graph.children(subtree[i]));
            i += 1;
        }
        let Ok(removed) = self.graph.remove(node) else {
            return 0;
        };
        for id in subtree {
            self.content.remove(id);
        }
        self.objects.retain(|&id| self.graph.contains(id));
        removed
    }

    /// Components of `node`.
    pub fn components(&self, node: NodeId) -> &[Component] {
        self.content
            .get(node)
            .map_or(&[], |c| c.components.as_slice())
    }

    /// Every component of every node, with its node.
    pub fn all_components(&self) -> impl Iterator<Item = (NodeId, &Component)> + '_ {
        self.content
            .iter()
            .flat_map(|(id, c)| c.components.iter().map(move |comp| (id, comp)))
    }
}
