//! Binding a graph to one model: clip slots to the model's clips, masks to its joints.

use super::definition::AnimGraph;
use super::mask::joint_mask;
use super::GraphError;
use crate::{Clip, Skeleton};

/// A graph bound to a model: which of the model's clips each slot plays, each slot's
/// duration, and each layer's `[joint_count]` mask. Built once per (graph, model).
#[derive(Debug, Clone, PartialEq)]
pub struct GraphBinding {
    /// `[slot]` index into the model's clip list (`None`: unbound, the state shows the rest pose).
    pub slot_clips: Vec<Option<usize>>,
    /// `[slot]` seconds: the bound clip's duration, else the slot's `fallbackDuration`.
    pub slot_durations: Vec<f32>,
    /// `[layer]` joint weights (`None`: every joint).
    pub masks: Vec<Option<Vec<f32>>>,
}

impl GraphBinding {
    /// No model: every slot unbound (fallback durations), no masks. The state machine runs
    /// (for gameplay logic), poses are not evaluated.
    pub fn unbound(graph: &AnimGraph) -> Self {
        Self {
            slot_clips: vec![None; graph.slots.len()],
            slot_durations: graph.slots.iter().map(|s| s.fallback_duration).collect(),
            masks: vec![None; graph.layers.len()],
        }
    }

    /// Binds `graph` to a model with `skeleton` and `clips`: a slot plays the clip its entry
    /// in `rename` (`(slot, clip name)` pairs, a character's clip table) names, else the clip
    /// of the slot's own name; a slot whose clip the model lacks stays unbound. Masks resolve
    /// joint names in `skeleton`.
    ///
    /// Errors: [`GraphError::Invalid`] naming the graph file and mask entry for a joint the
    /// skeleton lacks; a bound clip built for another skeleton (joint count differs).
    pub fn bind(
        graph: &AnimGraph,
        skeleton: &Skeleton,
        clips: &[Clip],
        rename: &[(String, String)],
    ) -> Result<Self, GraphError> {
        let mut b = Self::unbound(graph);
        for (s, slot) in graph.slots.iter().enumerate() {
            let wanted = rename
                .iter()
                .find(|(from, _)| *from == slot.name)
                .map_or(slot.name.as_str(), |(_, to)| to.as_str());
            if let Some(c) = clips.iter().position(|c| c.name() == wanted) {
                if clips[c].joint_count() != skeleton.joint_count() {
                    return Err(GraphError::Invalid {
                        file: graph.file.clone(),
                        json_path: format!("clips[{s}]"),
                        message: format!(
                            "clip `{wanted}` has {} joints, the skeleton {}",
                            clips[c].joint_count(),
                            skeleton.joint_count()
                        ),
                    });
                }
                b.slot_clips[s] = Some(c);
                b.slot_durations[s] = clips[c].duration();
            }
        }
        for (l, layer) in graph.layers.iter().enumerate() {
            let Some((include, exclude)) = &layer.mask else {
                continue;
            };
            let resolve = |names: &[String], field: &str| {
                names
                    .iter()
                    .enumerate()
                    .map(|(k, n)| {
                        skeleton.find_joint(n).ok_or_else(|| GraphError::Invalid {
                            file: graph.file.clone(),
                            json_path: format!("{}.{field}[{k}]", layer.mask_path),
                            message: format!("the skeleton has no joint `{n}`"),
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()
            };
            let (inc, exc) = (resolve(include, "include")?, resolve(exclude, "exclude")?);
            b.masks[l] = Some(joint_mask(skeleton, &inc, &exc));
        }
        Ok(b)
    }

    /// [`GraphBinding::bind`] with each slot bound to the clip of the same name.
    ///
    /// Errors: as [`GraphBinding::bind`].
    pub fn by_name(
        graph: &AnimGraph,
        skeleton: &Skeleton,
        clips: &[Clip],
    ) -> Result<Self, GraphError> {
        Self::bind(graph, skeleton, clips, &[])
    }
}
