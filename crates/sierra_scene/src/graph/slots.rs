//! The graph's dense layout shared by the graph and its propagation kernels: the slot
//! flags, the aligned world matrix, the arrays one pass works on ([`PassArrays`]) and its
//! counters ([`PropagationStats`]).

use glam::Affine3A;

use super::locals::LocalSoa;

/// `parents[slot]` of a root.
pub(super) const NO_PARENT: u32 = u32::MAX;

/// Node flag: the local transform changed since the last pass.
pub(super) const LOCAL_DIRTY: u8 = 1;
/// Node flag: [`SceneGraph::set_world`](super::SceneGraph::set_world) wrote the world matrix
/// since the last pass.
pub(super) const WORLD_WRITTEN: u8 = 2;
/// Node flag: the world matrix comes from outside (animation), never from the local transform.
pub(super) const DRIVEN: u8 = 4;

/// A world matrix on its own 64-byte cache line (an `Affine3A` is 64 bytes): the pass's
/// 512-bit stores then never straddle two lines (`Vec`'s allocation is only 16-byte aligned
/// otherwise).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(super) struct World(pub(super) Affine3A);

/// Counters of the last [`SceneGraph::propagate`](super::SceneGraph::propagate) call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PropagationStats {
    /// World matrices recomputed from `parent world · local`.
    pub recomputed: usize,
    /// Slots inside the dirty ranges (the flagged nodes' subtree spans, merged); 0 when
    /// nothing was edited.
    pub visited: usize,
}

/// The arrays one pass reads and writes (all of the graph's length).
pub(crate) struct PassArrays<'a> {
    pub parents: &'a [u32],
    pub span_end: &'a [u32],
    pub locals: &'a LocalSoa,
    pub worlds: &'a mut [World],
    pub flags: &'a mut [u8],
    pub changed: &'a mut [u32],
}
