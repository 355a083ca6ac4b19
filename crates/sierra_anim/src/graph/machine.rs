//! One layer's state machine at run time: the playing state, the state fading out, and
//! the transition rules (conditions on parameters, exit times, crossfades).

use super::asset::ConditionTest;
use super::blend_space::blend1d_weights;
use super::definition::{AnimGraph, Condition, Layer, Motion, State, StateId, Transition};
use super::events::{emit_crossed, EventBuffer};
use super::GraphBinding;
use crate::Crossfade;

/// A state and how far it has played: clip states count playback seconds (unwrapped,
/// speed applied); blend spaces count normalised cycles (1 = one blended clip length).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Playhead {
    /// The state.
    pub state: StateId,
    /// Seconds (clip) or cycles (blend space) since the state was entered.
    pub time: f32,
}

/// One layer's run-time state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LayerState {
    /// The state playing (fading in while `previous` is set).
    pub current: Playhead,
    /// The state fading out, if a crossfade runs. A transition firing during a crossfade
    /// drops the state fading out (the fade restarts from the current state).
    pub previous: Option<Playhead>,
    /// The crossfade from `previous` to `current`.
    pub fade: Crossfade,
}

impl LayerState {
    /// The layer at its entry state, time 0.
    pub fn new(layer: &Layer) -> Self {
        Self {
            current: Playhead {
                state: layer.entry,
                time: 0.0,
            },
            previous: None,
            fade: Crossfade::new(0.0),
        }
    }
}

/// Seconds one cycle of `state` lasts at parameter values `values` (the weighted mean of
/// a blend space's two active clips), before the state's speed.
pub(crate) fn cycle_seconds(state: &State, values: &[f32], binding: &GraphBinding) -> f32 {
    match &state.motion {
        Motion::Clip(s) => binding.slot_durations[*s as usize],
        Motion::Blend1d { parameter, points } => {
            let (a, b, w) = blend1d_weights(points, values[*parameter as usize]);
            let d = |i: usize| binding.slot_durations[points[i].1 as usize];
            d(a) * (1.0 - w) + d(b) * w
        }
    }
}

/// Normalised time of a playhead: clip seconds / duration (∞ for a zero-length clip), or cycles.
pub(crate) fn normalized_time(state: &State, p: Playhead, binding: &GraphBinding) -> f32 {
    match &state.motion {
        Motion::Clip(s) => {
            let d = binding.slot_durations[*s as usize];
            if d > 0.0 {
                p.time / d
            } else {
                f32::INFINITY
            }
        }
        Motion::Blend1d { .. } => p.time,
    }
}

/// Advances a playhead by `dt` seconds; with `events`, appends the clip events passed
/// (for a blend space, those of its heavier clip).
fn advance(
    (graph, layer_index, values, binding): (&AnimGraph, u16, &[f32], &GraphBinding),
    state: &State,
    p: &mut Playhead,
    dt: f32,
    events: Option<&mut EventBuffer>,
) {
    let dt = dt * state.speed;
    let t0 = p.time;
    let (slot, scale) = match &state.motion {
        Motion::Clip(s) => {
            p.time += dt;
            (*s, 1.0)
        }
        Motion::Blend1d { parameter, points } => {
            let cycle = cycle_seconds(state, values, binding);
            p.time += if cycle > 0.0 { dt / cycle } else { dt };
            let (a, b, w) = blend1d_weights(points, values[*parameter as usize]);
            let heavy = points[if w > 0.5 { b } else { a }].1;
            (heavy, binding.slot_durations[heavy as usize])
        }
    };
    if let Some(out) = events {
        let slot_def = &graph.slots[slot as usize];
        let d = binding.slot_durations[slot as usize];
        emit_crossed(
            slot_def,
            slot,
            layer_index,
            d,
            t0 * scale,
            p.time * scale,
            out,
        );
    }
}

fn holds(c: &Condition, values: &[f32]) -> bool {
    let v = values[c.parameter as usize];
    match c.test {
        ConditionTest::Greater => v > c.value,
        ConditionTest::Less => v < c.value,
        ConditionTest::IsTrue | ConditionTest::Triggered => v != 0.0,
        ConditionTest::IsFalse => v == 0.0,
    }
}

fn can_fire(
    t: &Transition,
    layer: &Layer,
    ls: &LayerState,
    values: &[f32],
    b: &GraphBinding,
) -> bool {
    let cur = ls.current;
    let from_ok = t.from.map_or(t.to != cur.state, |f| f == cur.state);
    from_ok
        && t.exit_time
            .is_none_or(|e| normalized_time(&layer.states[cur.state as usize], cur, b) >= e)
        && t.conditions.iter().all(|c| holds(c, values))
}

/// One update of layer `index`: advance the playing (and fading-out) state by `dt`
/// seconds, appending the playing state's clip events to `events`; advance the crossfade;
/// then fire the first transition (in file order) whose source, exit time and conditions
/// hold, consuming the triggers it tested. At most one transition fires per update.
pub(crate) fn update_layer(
    graph: &AnimGraph,
    index: usize,
    ls: &mut LayerState,
    dt: f32,
    values: &mut [f32],
    binding: &GraphBinding,
    events: &mut EventBuffer,
) {
    let layer = &graph.layers[index];
    let dt = if dt.is_finite() { dt.max(0.0) } else { 0.0 };
    let li = index as u16;
    let cur_state = &layer.states[ls.current.state as usize];
    let inputs = (graph, li, &*values, binding);
    advance(inputs, cur_state, &mut ls.current, dt, Some(events));
    if let Some(prev) = &mut ls.previous {
        advance(inputs, &layer.states[prev.state as usize], prev, dt, None);
    }
    ls.fade.advance(dt);
    if ls.fade.is_finished() {
        ls.previous = None;
    }
    let Some(t) = layer
        .transitions
        .iter()
        .find(|t| can_fire(t, layer, ls, values, binding))
    else {
        return;
    };
    for c in t
        .conditions
        .iter()
        .filter(|c| c.test == ConditionTest::Triggered)
    {
        values[c.parameter as usize] = 0.0;
    }
    ls.previous = (t.duration > 0.0).then_some(ls.current);
    ls.current = Playhead {
        state: t.to,
        time: 0.0,
    };
    ls.fade = Crossfade::new(t.duration);
}
