//! Evaluating a graph instance to a local pose with the crate's public sampling and
//! blending jobs ([`sample_clip`], [`blend_poses`]) and the graph's per-joint layer
//! blends ([`blend_masked`], [`apply_additive`]).

use super::additive::apply_additive;
use super::blend_space::blend1d_weights;
use super::definition::{AnimGraph, LayerBlend, Motion, State};
use super::machine::{LayerState, Playhead};
use super::mask::blend_masked;
use super::{GraphBinding, GraphInstance};
use crate::{
    blend_poses, sample_clip, AnimError, BlendLayer, Clip, Playback, SamplingContext, Skeleton,
    Transform,
};

/// Sampling contexts per layer: two clips of the playing state, two of the one fading out.
const CONTEXTS_PER_LAYER: usize = 4;

/// Scratch buffers of [`evaluate_graph`] for one character, allocated once
/// ([`GraphPoseBuffers::new`]) and reused: evaluation allocates nothing.
#[derive(Debug, Clone)]
pub struct GraphPoseBuffers {
    contexts: Vec<SamplingContext>,
    /// `[5][joint_count]`: playing state, fading-out state, layer, two blend-space clips.
    poses: Vec<Vec<Transform>>,
}

impl GraphPoseBuffers {
    /// Buffers for `graph` on a skeleton of `joint_count` joints.
    pub fn new(graph: &AnimGraph, joint_count: usize) -> Self {
        Self {
            contexts: (0..graph.layers.len() * CONTEXTS_PER_LAYER)
                .map(|_| SamplingContext::new(joint_count))
                .collect(),
            poses: (0..5)
                .map(|_| vec![Transform::IDENTITY; joint_count])
                .collect(),
        }
    }
}

struct Inputs<'a> {
    values: &'a [f32],
    binding: &'a GraphBinding,
    clips: &'a [Clip],
    rest: &'a [Transform],
    graph: &'a AnimGraph,
}

impl Inputs<'_> {
    /// Samples slot `slot` at clip time `time` into `out` (the rest pose when unbound).
    fn sample_slot(
        &self,
        slot: u16,
        time: f32,
        ctx: &mut SamplingContext,
        out: &mut [Transform],
    ) -> Result<(), AnimError> {
        let Some(clip) = self.binding.slot_clips[slot as usize].and_then(|c| self.clips.get(c))
        else {
            out.copy_from_slice(self.rest);
            return Ok(());
        };
        let playback = if self.graph.slots[slot as usize].looping {
            Playback::Loop
        } else {
            Playback::Once
        };
        sample_clip(clip, time, playback, ctx, out)
    }

    /// The pose of one playhead into `out`; `sa`, `sb` hold a blend space's two clips.
    fn state_pose(
        &self,
        state: &State,
        p: Playhead,
        ctx: &mut [SamplingContext],
        out: &mut [Transform],
        sa: &mut [Transform],
        sb: &mut [Transform],
    ) -> Result<(), AnimError> {
        match &state.motion {
            Motion::Clip(slot) => self.sample_slot(*slot, p.time, &mut ctx[0], out),
            Motion::Blend1d { parameter, points } => {
                let (a, b, w) = blend1d_weights(points, self.values[*parameter as usize]);
                let d = |i: usize| self.binding.slot_durations[points[i].1 as usize];
                let (c0, c1) = ctx.split_at_mut(1);
                if w <= 0.0 || a == b {
                    return self.sample_slot(points[a].1, p.time * d(a), &mut c0[0], out);
                }
                self.sample_slot(points[a].1, p.time * d(a), &mut c0[0], sa)?;
                self.sample_slot(points[b].1, p.time * d(b), &mut c1[0], sb)?;
                blend_poses(
                    &[BlendLayer::new(sa, 1.0 - w), BlendLayer::new(sb, w)],
                    self.rest,
                    out,
                )
            }
        }
    }

    /// One layer's pose (its crossfade included) into `out`.
    fn layer_pose(
        &self,
        layer: usize,
        ls: &LayerState,
        ctx: &mut [SamplingContext],
        bufs: &mut [Vec<Transform>],
        out: &mut [Transform],
    ) -> Result<(), AnimError> {
        let states = &self.graph.layers[layer].states;
        let [cur, prev, sa, sb] = bufs else {
            return Err(AnimError::BufferSize {
                what: "graph scratch poses",
                expected: 4,
                actual: bufs.len(),
            });
        };
        let (cctx, pctx) = ctx.split_at_mut(2);
        let Some(previous) = ls.previous else {
            return self.state_pose(
                &states[ls.current.state as usize],
                ls.current,
                cctx,
                out,
                sa,
                sb,
            );
        };
        self.state_pose(
            &states[ls.current.state as usize],
            ls.current,
            cctx,
            cur,
            sa,
            sb,
        )?;
        self.state_pose(
            &states[previous.state as usize],
            previous,
            pctx,
            prev,
            sa,
            sb,
        )?;
        let (wa, wb) = ls.fade.weights();
        blend_poses(
            &[BlendLayer::new(prev, wa), BlendLayer::new(cur, wb)],
            self.rest,
            out,
        )
    }
}

/// Evaluates `instance` (bound by `binding` to `clips` of `skeleton`) into `out`
/// (`[joint_count]` local transforms): the base layer's pose, then each further layer
/// blended over it with weight `weight × weightParameter` and its mask — override layers
/// by [`blend_masked`], additive layers by [`apply_additive`] against the skeleton's rest pose.
///
/// Errors: [`AnimError::BufferSize`] when `out`, the buffers or a clip do not match `skeleton`.
pub fn evaluate_graph(
    instance: &GraphInstance,
    binding: &GraphBinding,
    clips: &[Clip],
    skeleton: &Skeleton,
    buffers: &mut GraphPoseBuffers,
    out: &mut [Transform],
) -> Result<(), AnimError> {
    let graph = instance.graph();
    let n = skeleton.joint_count();
    if out.len() != n || buffers.poses.iter().any(|p| p.len() != n) {
        return Err(AnimError::BufferSize {
            what: "graph pose",
            expected: n,
            actual: out.len(),
        });
    }
    let inputs = Inputs {
        values: instance.values(),
        binding,
        clips,
        rest: skeleton.rest_pose(),
        graph,
    };
    let (layer_buf, bufs) = buffers.poses.split_at_mut(1);
    for (i, (ls, ctx)) in instance
        .layers()
        .iter()
        .zip(buffers.contexts.chunks_exact_mut(CONTEXTS_PER_LAYER))
        .enumerate()
    {
        if i == 0 {
            inputs.layer_pose(0, ls, ctx, bufs, out)?;
            continue;
        }
        let layer = &graph.layers[i];
        let weight = layer.weight
            * layer
                .weight_parameter
                .map_or(1.0, |p| instance.value(p).clamp(0.0, 1.0));
        if weight <= 0.0 {
            continue;
        }
        let lp = &mut layer_buf[0];
        inputs.layer_pose(i, ls, ctx, bufs, lp)?;
        let mask = binding.masks.get(i).and_then(|m| m.as_deref());
        match layer.blend {
            LayerBlend::Override => blend_masked(out, lp, mask, weight, inputs.rest)?,
            LayerBlend::Additive => apply_additive(out, lp, inputs.rest, mask, weight)?,
        }
    }
    Ok(())
}
