//! Clip events (footsteps) and the caller-owned buffer they are written into.

use super::definition::{Slot, SlotId};

/// One event that fired during an update.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GraphEvent {
    /// Layer whose state played the clip.
    pub layer: u16,
    /// Clip slot.
    pub slot: SlotId,
    /// Index into [`super::AnimGraph::event_names`].
    pub name: u16,
    /// The event's clip time, seconds.
    pub time: f32,
}

/// A fixed-capacity event list owned by the caller: [`super::GraphInstance::update`] appends
/// to it and never grows it, so updates allocate nothing; events past the capacity are
/// counted in [`EventBuffer::dropped`] instead.
#[derive(Debug, Clone, Default)]
pub struct EventBuffer {
    events: Vec<GraphEvent>,
    dropped: usize,
}

impl EventBuffer {
    /// A buffer holding up to `capacity` events between [`EventBuffer::clear`]s.
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            events: Vec::with_capacity(capacity),
            dropped: 0,
        }
    }

    /// Forgets the events (keeps the storage).
    pub fn clear(&mut self) {
        self.events.clear();
        self.dropped = 0;
    }

    /// The events since the last clear, in firing order.
    pub fn events(&self) -> &[GraphEvent] {
        &self.events
    }

    /// Events lost because the buffer was full.
    pub fn dropped(&self) -> usize {
        self.dropped
    }

    pub(crate) fn push(&mut self, e: GraphEvent) {
        if self.events.len() < self.events.capacity() {
            self.events.push(e);
        } else {
            self.dropped += 1;
        }
    }
}

/// Most times one event can fire in one update (a huge `dt` on a short loop).
const MAX_REPEATS: u64 = 8;

/// Occurrences `k ≥ 0` of an event at `te + k·period` strictly before clip time `t`
/// (looping), or whether `te < t` (one-shot, `period` = `None`).
fn occurrences_before(te: f64, t: f64, period: Option<f64>) -> u64 {
    if t <= te {
        return 0;
    }
    match period {
        Some(d) => ((t - te) / d).ceil() as u64,
        None => 1,
    }
}

/// Appends the events of `slot` whose clip times the playhead passed going from `t0` to
/// `t1` seconds (unwrapped playback time; an event at `te` fires when `t0 ≤ te + k·d < t1`),
/// so a looping clip of duration `d` fires each event once per loop and a one-shot clip at
/// most once. `duration` ≤ 0 disables looping.
pub(crate) fn emit_crossed(
    slot: &Slot,
    slot_id: SlotId,
    layer: u16,
    duration: f32,
    t0: f32,
    t1: f32,
    out: &mut EventBuffer,
) {
    if slot.events.is_empty() || t1.partial_cmp(&t0) != Some(std::cmp::Ordering::Greater) {
        return;
    }
    let period = (slot.looping && duration > 0.0).then_some(f64::from(duration));
    for e in &slot.events {
        let te = f64::from(e.time);
        let n = occurrences_before(te, f64::from(t1), period)
            - occurrences_before(te, f64::from(t0), period);
        for _ in 0..n.min(MAX_REPEATS) {
            out.push(GraphEvent {
                layer,
                slot: slot_id,
                name: e.name,
                time: e.time,
            });
        }
    }
}
