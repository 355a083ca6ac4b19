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
        let slot_clips: Vec<Option<usize>> = graph
            .slots
            .iter()
            .map(|slot| {
                let wanted = rename
                    .iter()
                    .find(|(from, _)| *from == slot.name)
                    .map_or(slot.name.as_str(), |(_, to)| to.as_str());
                clips.iter().position(|c| c.name() == wanted)
            })
            .collect();
        Self::with_slot_clips(graph, skeleton, clips, &slot_clips)
    }

    /// Binds `graph` to a model whose clips the caller already chose: `slot_clips[slot]` is
    /// an index into `clips` (`None`: unbound). Masks resolve joint names in `skeleton`.
    ///
    /// Errors: [`GraphError::Invalid`] for a `slot_clips` of another length than the graph's
    /// slots, an index past `clips`, a clip built for another skeleton (joint count differs),
    /// or a mask joint the skeleton lacks.
    pub fn with_slot_clips(
        graph: &AnimGraph,
        skeleton: &Skeleton,
        clips: &[Clip],
        slot_clips: &[Option<usize>],
    ) -> Result<Self, GraphError> {
        let invalid = |json_path: String, message: String| GraphError::Invalid {
            file: graph.file.clone(),
            json_path,
            message,
        };
        if slot_clips.len() != graph.slots.len() {
            return Err(invalid(
                "clips".into(),
                format!(
                    "{} slot bindings for {} slots",
                    slot_clips.len(),
                    graph.slots.len()
                ),
            ));
        }
        let mut b = Self::unbound(graph);
        for (s, &bound) in slot_clips.iter().enumerate() {
            let Some(c) = bound else { continue };
            let clip = clips.get(c).ok_or_else(|| {
                invalid(
                    format!("clips[{s}]"),
                    format!("clip index {c} past the model's {} clips", clips.len()),
                )
            })?;
            if clip.joint_count() != skeleton.joint_count() {
                return Err(invalid(
                    format!("clips[{s}]"),
                    format!(
                        "clip `{}` has {} joints, the skeleton {}",
                        clip.name(),
                        clip.joint_count(),
                        skeleton.joint_count()
                    ),
                ));
            }
            b.slot_clips[s] = Some(c);
            b.slot_durations[s] = clip.duration();
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
