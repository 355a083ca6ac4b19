//! The scene graph: a flat node store with generational ids, kept in parent-first order,
//! with dirty flags so that propagation recomputes only what moved.
//!
//! Design (seed 001, "Optimizing the Scene Graph"): every node — level object, glTF node,
//! skeleton joint, attachment — lives in one flat, topologically sorted array with parent
//! indices, and [`SceneGraph::propagate`] is one linear pass `world[i] = world[parent[i]] ·
//! local[i]` over the nodes that changed. Unlike the seed's raw indices, callers hold
//! [`NodeId`]s (slotmap generational keys) that stay valid while nodes are added, removed
//! and re-parented; a node's slot in the dense, parent-first arrays is private and may move.
//!
//! Dirty tracking: editing a node's local transform flags it; a propagation pass recomputes
//! a node when it is flagged or when its parent was recomputed in the same pass (an epoch
//! stamp per node, so nothing is cleared per frame). The pass starts at the lowest flagged
//! slot and does nothing at all when no node was edited.
//!
//! Animated joints: the animation job computes joint world transforms itself (local-to-model
//! times the character's world). It writes them with [`SceneGraph::set_world`], which marks
//! the node *driven*: propagation never recomputes it from its local transform (no second
//! propagation of the skeleton), but still updates its children, so a sword attached to a
//! hand follows. The frame order (ARCHITECTURE.md) is propagate → animation jobs →
//! `set_world` on joints → propagate (only the attachments run the second time).

mod transform;

pub use transform::{decompose, Decomposed, Transform};

use glam::Affine3A;
use slotmap::SlotMap;

use crate::error::Error;

slotmap::new_key_type! {
    /// Stable generational id of a scene node; stale ids (removed nodes) are detected.
    pub struct NodeId;
}

const NO_PARENT: u32 = u32::MAX;
const NONE_DIRTY: usize = usize::MAX;

/// Node flag: the local transform changed since the last pass.
const LOCAL_DIRTY: u8 = 1;
/// Node flag: [`SceneGraph::set_world`] wrote the world matrix since the last pass.
const WORLD_WRITTEN: u8 = 2;
/// Node flag: the world matrix comes from outside (animation), never from the local transform.
const DRIVEN: u8 = 4;

#[derive(Clone, Debug)]
struct NodeMeta {
    /// Slot in the dense arrays.
    slot: u32,
    parent: Option<NodeId>,
    children: Vec<NodeId>,
    name: String,
}

/// Counters of the last [`SceneGraph::propagate`] call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PropagationStats {
    /// World matrices recomputed from `parent world · local`.
    pub recomputed: usize,
    /// Slots visited (from the first flagged slot to the end); 0 when nothing was edited.
    pub visited: usize,
}

/// A flat, parent-first scene graph. See the [module docs](self).
#[derive(Clone, Debug, Default)]
pub struct SceneGraph {
    meta: SlotMap<NodeId, NodeMeta>,
    // Dense arrays, one entry per node, parents before children (structure of arrays so
    // the propagation pass streams only what it needs).
    ids: Vec<NodeId>,
    parents: Vec<u32>,
    locals: Vec<Transform>,
    worlds: Vec<Affine3A>,
    flags: Vec<u8>,
    changed: Vec<u32>,
    epoch: u32,
    first_dirty: usize,
    stats: PropagationStats,
}

impl SceneGraph {
    /// An empty graph.
    pub fn new() -> Self {
        Self {
            first_dirty: NONE_DIRTY,
            ..Default::default()
        }
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether the graph has no nodes.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Whether `id` names a live node.
    pub fn contains(&self, id: NodeId) -> bool {
        self.meta.contains_key(id)
    }

    /// Adds a node under `parent` (or as a root) and returns its id. Its world matrix is
    /// valid after the next [`propagate`](Self::propagate).
    ///
    /// # Errors
    /// [`Error::Graph`] when `parent` is stale.
    pub fn add(
        &mut self,
        name: impl Into<String>,
        local: Transform,
        parent: Option<NodeId>,
    ) -> Result<NodeId, Error> {
        let parent_slot = match parent {
            Some(p) => self.slot_of(p)? as u32,
            None => NO_PARENT,
        };
        let slot = self.ids.len();
        let id = self.meta.insert(NodeMeta {
            slot: slot as u32,
            parent,
            children: Vec::new(),
            name: name.into(),
        });
        if let Some(p) = parent {
            self.meta[p].children.push(id);
        }
        // Appending keeps parents first: the parent already has a lower slot.
        self.ids.push(id);
        self.parents.push(parent_slot);
        self.locals.push(local);
        self.worlds.push(Affine3A::IDENTITY);
        self.flags.push(LOCAL_DIRTY);
        self.changed.push(0);
        self.mark_dirty_slot(slot);
        Ok(id)
    }

    /// Removes `id` and its whole subtree; returns how many nodes were removed. Ids of
    /// removed nodes become stale (every accessor then returns `None`/an error).
    ///
    /// # Errors
    /// [`Error::Graph`] when `id` is stale.
    pub fn remove(&mut self, id: NodeId) -> Result<usize, Error> {
        let first = self.slot_of(id)?;
        let subtree = self.subtree(id);
        if let Some(p) = self.meta[id].parent {
            self.meta[p].children.retain(|&c| c != id);
        }
        for &n in &subtree {
            self.meta.remove(n);
        }
        // Stable compaction: surviving nodes keep their relative (parent-first) order.
        let keep: Vec<u32> = (0..self.ids.len() as u32)
            .filter(|&s| self.meta.contains_key(self.ids[s as usize]))
            .collect();
        self.apply_order(&keep);
        self.mark_dirty_slot(first.min(self.ids.len()));
        Ok(subtree.len())
    }

    /// Makes `id` a child of `parent` (or a root), keeping its local transform (so its
    /// world transform changes with the new parent). Keeps the parent-first order valid
    /// by moving the subtree behind the new parent when needed (O(n), stable).
    ///
    /// # Errors
    /// [`Error::Graph`] when an id is stale or `parent` is `id` or one of its descendants.
    pub fn set_parent(&mut self, id: NodeId, parent: Option<NodeId>) -> Result<(), Error> {
        let slot = self.slot_of(id)?;
        if let Some(p) = parent {
            self.slot_of(p)?;
            let mut walk = Some(p);
            while let Some(w) = walk {
                if w == id {
                    return Err(Error::Graph(format!(
                        "cannot re-parent `{}` under its own descendant `{}`",
                        self.meta[id].name, self.meta[p].name
                    )));
                }
                walk = self.meta[w].parent;
            }
        }
        if let Some(old) = self.meta[id].parent {
            self.meta[old].children.retain(|&c| c != id);
        }
        self.meta[id].parent = parent;
        if let Some(p) = parent {
            self.meta[p].children.push(id);
        }
        let parent_slot = parent.map(|p| self.meta[p].slot as usize);
        if parent_slot.is_some_and(|ps| ps > slot) {
            // Move the subtree (in its current relative order) to the end.
            let mut in_subtree = vec![false; self.ids.len()];
            for n in self.subtree(id) {
                in_subtree[self.meta[n].slot as usize] = true;
            }
            let n = self.ids.len() as u32;
            let order: Vec<u32> = (0..n)
                .filter(|&s| !in_subtree[s as usize])
                .chain((0..n).filter(|&s| in_subtree[s as usize]))
                .collect();
            self.apply_order(&order);
        }
        let new_slot = self.meta[id].slot as usize;
        self.parents[new_slot] = parent.map_or(NO_PARENT, |p| self.meta[p].slot);
        self.flags[new_slot] |= LOCAL_DIRTY;
        self.mark_dirty_slot(slot.min(new_slot));
        Ok(())
    }

    /// Parent of `id` (`None` for roots and stale ids).
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.meta.get(id).and_then(|m| m.parent)
    }

    /// Children of `id`, in insertion order (empty for stale ids).
    pub fn children(&self, id: NodeId) -> &[NodeId] {
        self.meta.get(id).map_or(&[], |m| m.children.as_slice())
    }

    /// Name of `id`.
    pub fn name(&self, id: NodeId) -> Option<&str> {
        self.meta.get(id).map(|m| m.name.as_str())
    }

    /// Root nodes (no parent), in parent-first order.
    pub fn roots(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.ids
            .iter()
            .zip(&self.parents)
            .filter(|(_, &p)| p == NO_PARENT)
            .map(|(&id, _)| id)
    }

    /// Every node in parent-first order (each node after its parent).
    pub fn parent_first_order(&self) -> &[NodeId] {
        &self.ids
    }

    /// Finds a node by a `/`-separated path of names from a root, e.g.
    /// `"Player/Armature/Hand_R"`. The first child with a matching name is taken at each step.
    pub fn find_path(&self, path: &str) -> Option<NodeId> {
        let mut parts = path.split('/').filter(|p| !p.is_empty());
        let first = parts.next()?;
        let mut node = self.roots().find(|&r| self.meta[r].name == first)?;
        for part in parts {
            node = *self.meta[node]
                .children
                .iter()
                .find(|&&c| self.meta[c].name == part)?;
        }
        Some(node)
    }

    /// The path of names from the root to `id` (inverse of [`find_path`](Self::find_path)).
    pub fn path_of(&self, id: NodeId) -> Option<String> {
        let mut names = Vec::new();
        let mut walk = Some(id);
        while let Some(w) = walk {
            let m = self.meta.get(w)?;
            names.push(m.name.as_str());
            walk = m.parent;
        }
        names.reverse();
        Some(names.join("/"))
    }

    /// Local transform of `id`.
    pub fn local(&self, id: NodeId) -> Option<Transform> {
        self.meta.get(id).map(|m| self.locals[m.slot as usize])
    }

    /// Sets the local transform of `id` and flags it; returns `false` for a stale id.
    pub fn set_local(&mut self, id: NodeId, local: Transform) -> bool {
        let Some(m) = self.meta.get(id) else {
            return false;
        };
        let slot = m.slot as usize;
        self.locals[slot] = local;
        self.flags[slot] |= LOCAL_DIRTY;
        self.mark_dirty_slot(slot);
        true
    }

    /// World matrix of `id` as of the last [`propagate`](Self::propagate) (column-major,
    /// local → world).
    pub fn world(&self, id: NodeId) -> Option<Affine3A> {
        self.meta.get(id).map(|m| self.worlds[m.slot as usize])
    }

    /// Writes the world matrix of an animated joint directly and marks the node *driven*
    /// (see the module docs): propagation will not recompute it from its local transform,
    /// and its children are updated by the next pass. Returns `false` for a stale id.
    pub fn set_world(&mut self, id: NodeId, world: Affine3A) -> bool {
        let Some(m) = self.meta.get(id) else {
            return false;
        };
        let slot = m.slot as usize;
        self.worlds[slot] = world;
        self.flags[slot] |= DRIVEN | WORLD_WRITTEN;
        self.mark_dirty_slot(slot);
        true
    }

    /// Hands a driven node back to propagation from its local transform.
    pub fn release_driven(&mut self, id: NodeId) -> bool {
        let Some(m) = self.meta.get(id) else {
            return false;
        };
        let slot = m.slot as usize;
        self.flags[slot] = (self.flags[slot] & !DRIVEN) | LOCAL_DIRTY;
        self.mark_dirty_slot(slot);
        true
    }

    /// Whether `id`'s world matrix changed in the last [`propagate`](Self::propagate)
    /// (for renderers, physics proxies and bounding volumes that only need the movers).
    pub fn moved_last_pass(&self, id: NodeId) -> bool {
        self.meta
            .get(id)
            .is_some_and(|m| self.epoch != 0 && self.changed[m.slot as usize] == self.epoch)
    }

    /// Number of the last [`propagate`](Self::propagate) pass (0 before the first). A
    /// consumer that runs less often than propagation keeps it and later asks
    /// [`moved_since`](Self::moved_since).
    pub fn pass(&self) -> u32 {
        self.epoch
    }

    /// Whether `id`'s world matrix changed in any pass after pass `pass` (the same stamps
    /// as [`moved_last_pass`](Self::moved_last_pass), which is `moved_since(id, pass() − 1)`).
    /// After the pass counter wraps (2³² passes) every node counts as moved once.
    pub fn moved_since(&self, id: NodeId, pass: u32) -> bool {
        let Some(m) = self.meta.get(id) else {
            return false;
        };
        if self.epoch < pass {
            return true;
        }
        self.changed[m.slot as usize] > pass
    }

    /// Counters of the last [`propagate`](Self::propagate).
    pub fn last_stats(&self) -> PropagationStats {
        self.stats
    }

    /// Recomputes the world matrices of every flagged node and of every descendant of a
    /// recomputed node, in one linear pass over the parent-first arrays, starting at the
    /// lowest flagged slot. Allocates nothing. Returns the counters (also kept in
    /// [`last_stats`](Self::last_stats)).
    pub fn propagate(&mut self) -> PropagationStats {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            // After 2³² passes: restart the stamps so no stale stamp equals the epoch.
            self.changed.fill(0);
            self.epoch = 1;
        }
        let start = self.first_dirty;
        self.first_dirty = NONE_DIRTY;
        let mut stats = PropagationStats::default();
        if start < self.ids.len() {
            stats = propagate_slots(
                start,
                self.epoch,
                &self.parents,
                &self.locals,
                &mut self.worlds,
                &mut self.flags,
                &mut self.changed,
            );
        }
        self.stats = stats;
        stats
    }

    fn mark_dirty_slot(&mut self, slot: usize) {
        self.first_dirty = self.first_dirty.min(slot);
    }

    fn slot_of(&self, id: NodeId) -> Result<usize, Error> {
        self.meta
            .get(id)
            .map(|m| m.slot as usize)
            .ok_or_else(|| Error::Graph("stale node id".into()))
    }

    /// `id` and all its descendants (pre-order).
    fn subtree(&self, id: NodeId) -> Vec<NodeId> {
        let mut out = vec![id];
        let mut i = 0;
        while i < out.len() {
            out.extend_from_slice(&self.meta[out[i]].children);
            i += 1;
        }
        out
    }

    /// Rebuilds the dense arrays so that new slot `k` holds old slot `order[k]`; nodes not
    /// listed are dropped. `order` must be parent-first.
    fn apply_order(&mut self, order: &[u32]) {
        let mut new_slot = vec![NO_PARENT; self.ids.len()];
        for (k, &old) in order.iter().enumerate() {
            new_slot[old as usize] = k as u32;
        }
        let pick = |k: &u32| *k as usize;
        self.ids = order.iter().map(|k| self.ids[pick(k)]).collect();
        self.parents = order
            .iter()
            .map(|k| {
                let p = self.parents[pick(k)];
                if p == NO_PARENT {
                    NO_PARENT
                } else {
                    new_slot[p as usize]
                }
            })
            .collect();
        self.locals = order.iter().map(|k| self.locals[pick(k)]).collect();
        self.worlds = order.iter().map(|k| self.worlds[pick(k)]).collect();
        self.flags = order.iter().map(|k| self.flags[pick(k)]).collect();
        self.changed = order.iter().map(|k| self.changed[pick(k)]).collect();
        for (k, &id) in self.ids.iter().enumerate() {
            self.meta[id].slot = k as u32;
        }
    }
}

/// The hot loop, on plain slices so the compiler sees no aliasing.
fn propagate_slots(
    start: usize,
    epoch: u32,
    parents: &[u32],
    locals: &[Transform],
    worlds: &mut [Affine3A],
    flags: &mut [u8],
    changed: &mut [u32],
) -> PropagationStats {
    let n = parents.len();
    let mut recomputed = 0;
    for i in start..n {
        let p = parents[i];
        let parent_moved = p != NO_PARENT && changed[p as usize] == epoch;
        let f = flags[i];
        if f & (LOCAL_DIRTY | WORLD_WRITTEN) == 0 && !parent_moved {
            continue;
        }
        if f & DRIVEN != 0 {
            // Animated joint: its world came from the animation job; only tell the children.
            if f & WORLD_WRITTEN != 0 {
                changed[i] = epoch;
            }
            flags[i] = DRIVEN;
            continue;
        }
        let local = locals[i].to_affine();
        worlds[i] = if p == NO_PARENT {
            local
        } else {
            worlds[p as usize] * local
        };
        changed[i] = epoch;
        flags[i] = 0;
        recomputed += 1;
    }
    PropagationStats {
        recomputed,
        visited: n - start,
    }
}
