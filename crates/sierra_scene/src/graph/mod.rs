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
//! stamp per node, so nothing is cleared per frame). The pass touches only the slot ranges
//! that hold the flagged nodes' subtrees and does nothing at all when no node was edited.
//!
//! Layout: local transforms are stored as a structure of arrays (one `f32` array per
//! component) and world matrices as affine 3×4 [`Affine3A`]s, each on its own 64-byte line. The
//! pass is chunked in two phases (private module `propagate`), with a 512-bit path for dirty
//! ranges that are whole subtrees on AVX-512 machines (private module `subtree_avx512`).
//!
//! Animated joints: the animation job computes joint world transforms itself (local-to-model
//! times the character's world). It writes them with [`SceneGraph::set_world`], which marks
//! the node *driven*: propagation never recomputes it from its local transform (no second
//! propagation of the skeleton), but still updates its children, so a sword attached to a
//! hand follows. The frame order (ARCHITECTURE.md) is propagate → animation jobs →
//! `set_world` on joints → propagate (only the attachments run the second time).

mod locals;
mod propagate;
mod slots;
#[cfg(target_arch = "x86_64")]
mod subtree_avx512;
mod transform;

pub use transform::{decompose, Decomposed, Transform};

use glam::Affine3A;
use slotmap::SlotMap;

use crate::error::Error;
use locals::LocalSoa;
use propagate::Kernel;
pub use slots::PropagationStats;
use slots::{PassArrays, World, DRIVEN, LOCAL_DIRTY, NO_PARENT, WORLD_WRITTEN};

slotmap::new_key_type! {
    /// Stable generational id of a scene node; stale ids (removed nodes) are detected.
    pub struct NodeId;
}

#[derive(Clone, Debug)]
struct NodeMeta {
    /// Slot in the dense arrays.
    slot: u32,
    parent: Option<NodeId>,
    children: Vec<NodeId>,
    name: String,
}

/// A flat, parent-first scene graph. See the [module docs](self).
#[derive(Clone, Debug, Default)]
pub struct SceneGraph {
    meta: SlotMap<NodeId, NodeMeta>,
    // Dense arrays, one entry per node, parents before children (structure of arrays so
    // the propagation pass streams only what it needs).
    ids: Vec<NodeId>,
    parents: Vec<u32>,
    /// Exclusive upper bound of the slots of each node's subtree (conservative).
    span_end: Vec<u32>,
    locals: LocalSoa,
    worlds: Vec<World>,
    flags: Vec<u8>,
    changed: Vec<u32>,
    /// Slots flagged `LOCAL_DIRTY` or `WORLD_WRITTEN` since the last pass, each once.
    dirty: Vec<u32>,
    epoch: u32,
    stats: PropagationStats,
}

impl SceneGraph {
    /// An empty graph.
    pub fn new() -> Self {
        Self::default()
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
        self.span_end.push(slot as u32 + 1);
        self.locals.push(local);
        self.worlds.push(World(Affine3A::IDENTITY));
        self.flags.push(0);
        self.changed.push(0);
        self.extend_ancestor_spans(slot);
        self.flag(slot, LOCAL_DIRTY);
        Ok(id)
    }

    /// Removes `id` and its whole subtree; returns how many nodes were removed. Ids of
    /// removed nodes become stale (every accessor then returns `None`/an error).
    ///
    /// # Errors
    /// [`Error::Graph`] when `id` is stale.
    pub fn remove(&mut self, id: NodeId) -> Result<usize, Error> {
        self.slot_of(id)?;
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
        // The old parent's span stays as it was (an upper bound is enough).
        self.extend_ancestor_spans(new_slot);
        self.flag(new_slot, LOCAL_DIRTY);
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
        self.meta.get(id).map(|m| self.locals.get(m.slot as usize))
    }

    /// Sets the local transform of `id` and flags it; returns `false` for a stale id.
    pub fn set_local(&mut self, id: NodeId, local: Transform) -> bool {
        let Some(m) = self.meta.get(id) else {
            return false;
        };
        let slot = m.slot as usize;
        self.locals.set(slot, local);
        self.flag(slot, LOCAL_DIRTY);
        true
    }

    /// World matrix of `id` as of the last [`propagate`](Self::propagate) (column-major,
    /// local → world).
    pub fn world(&self, id: NodeId) -> Option<Affine3A> {
        self.meta.get(id).map(|m| self.worlds[m.slot as usize].0)
    }

    /// Writes the world matrix of an animated joint directly and marks the node *driven*
    /// (see the module docs): propagation will not recompute it from its local transform,
    /// and its children are updated by the next pass. Returns `false` for a stale id.
    pub fn set_world(&mut self, id: NodeId, world: Affine3A) -> bool {
        let Some(m) = self.meta.get(id) else {
            return false;
        };
        let slot = m.slot as usize;
        self.worlds[slot] = World(world);
        self.flag(slot, DRIVEN | WORLD_WRITTEN);
        true
    }

    /// Hands a driven node back to propagation from its local transform.
    pub fn release_driven(&mut self, id: NodeId) -> bool {
        let Some(m) = self.meta.get(id) else {
            return false;
        };
        let slot = m.slot as usize;
        self.flags[slot] &= !DRIVEN;
        self.flag(slot, LOCAL_DIRTY);
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
    /// recomputed node, in linear passes over the slot ranges of the flagged subtrees
    /// (parent-first, so one pass per range suffices). Allocates nothing. Returns the
    /// counters (also kept in [`last_stats`](Self::last_stats)).
    pub fn propagate(&mut self) -> PropagationStats {
        self.propagate_with(Kernel::detect())
    }

    /// [`propagate`](Self::propagate) with a chosen kernel (tests compare them).
    pub(crate) fn propagate_with(&mut self, kernel: Kernel) -> PropagationStats {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            // After 2³² passes: restart the stamps so no stale stamp equals the epoch.
            self.changed.fill(0);
            self.epoch = 1;
        }
        let mut arrays = PassArrays {
            parents: &self.parents,
            span_end: &self.span_end,
            locals: &self.locals,
            worlds: &mut self.worlds,
            flags: &mut self.flags,
            changed: &mut self.changed,
        };
        let stats = propagate::run(kernel, &mut self.dirty, self.epoch, &mut arrays);
        self.stats = stats;
        stats
    }

    /// Sets `bits` on `slot`, listing the slot as dirty the first time it is flagged.
    fn flag(&mut self, slot: usize, bits: u8) {
        if self.flags[slot] & (LOCAL_DIRTY | WORLD_WRITTEN) == 0 {
            self.dirty.push(slot as u32);
        }
        self.flags[slot] |= bits;
    }

    /// Widens the spans of `slot`'s ancestors to cover `slot`'s own span.
    fn extend_ancestor_spans(&mut self, slot: usize) {
        let end = self.span_end[slot];
        let mut p = self.parents[slot];
        while p != NO_PARENT && self.span_end[p as usize] < end {
            self.span_end[p as usize] = end;
            p = self.parents[p as usize];
        }
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
        self.locals.reorder(order);
        self.worlds = order.iter().map(|k| self.worlds[pick(k)]).collect();
        self.flags = order.iter().map(|k| self.flags[pick(k)]).collect();
        self.changed = order.iter().map(|k| self.changed[pick(k)]).collect();
        for (k, &id) in self.ids.iter().enumerate() {
            self.meta[id].slot = k as u32;
        }
        // Spans: each node's own slot, widened by its children's spans (children first).
        self.span_end = (1..=self.ids.len() as u32).collect();
        for s in (0..self.ids.len()).rev() {
            let p = self.parents[s];
            if p != NO_PARENT {
                let p = p as usize;
                self.span_end[p] = self.span_end[p].max(self.span_end[s]);
            }
        }
        self.dirty = (0..self.ids.len() as u32)
            .filter(|&s| self.flags[s as usize] & (LOCAL_DIRTY | WORLD_WRITTEN) != 0)
            .collect();
    }
}
