//! A graph playing on one character: parameter values and each layer's state machine.

use std::sync::Arc;

use super::asset::ParameterKind;
use super::definition::{AnimGraph, ParamId, StateId};
use super::machine::{normalized_time, update_layer, LayerState};
use super::{EventBuffer, GraphBinding};

/// One character's graph state: `[parameter]` values and `[layer]` machines. Cloning or
/// updating allocates nothing after creation.
#[derive(Debug, Clone)]
pub struct GraphInstance {
    graph: Arc<AnimGraph>,
    values: Vec<f32>,
    layers: Vec<LayerState>,
}

impl GraphInstance {
    /// Every layer at its entry state, parameters at their defaults.
    pub fn new(graph: Arc<AnimGraph>) -> Self {
        let values = graph.parameters.iter().map(|p| p.default).collect();
        let layers = graph.layers.iter().map(LayerState::new).collect();
        Self {
            graph,
            values,
            layers,
        }
    }

    /// The graph.
    pub fn graph(&self) -> &Arc<AnimGraph> {
        &self.graph
    }

    /// Sets parameter `id` (bools: 0 false, else true; triggers: any value fires). Ignores
    /// an out-of-range id.
    pub fn set(&mut self, id: ParamId, value: f32) {
        if let (Some(v), Some(p)) = (
            self.values.get_mut(id as usize),
            self.graph.parameters.get(id as usize),
        ) {
            *v = match p.kind {
                ParameterKind::Float => value,
                _ => f32::from(u8::from(value != 0.0)),
            };
        }
    }

    /// Sets the float parameter `name`; returns false when the graph has no such parameter.
    pub fn set_float(&mut self, name: &str, value: f32) -> bool {
        self.graph
            .parameter(name)
            .map(|p| self.set(p, value))
            .is_some()
    }

    /// Sets the bool parameter `name`; returns false when the graph has no such parameter.
    pub fn set_bool(&mut self, name: &str, value: bool) -> bool {
        self.set_float(name, f32::from(u8::from(value)))
    }

    /// Fires the trigger `name` for the next update; returns false when the graph has no such parameter.
    pub fn fire(&mut self, name: &str) -> bool {
        self.set_float(name, 1.0)
    }

    /// Value of parameter `id` (bools and triggers 0 or 1).
    pub fn value(&self, id: ParamId) -> f32 {
        self.values.get(id as usize).copied().unwrap_or(0.0)
    }

    /// `[parameter]` values.
    pub fn values(&self) -> &[f32] {
        &self.values
    }

    /// `[layer]` machine states.
    pub fn layers(&self) -> &[LayerState] {
        &self.layers
    }

    /// The state playing in `layer` (0 if out of range).
    pub fn state(&self, layer: usize) -> StateId {
        self.layers.get(layer).map_or(0, |l| l.current.state)
    }

    /// Name of the state playing in `layer`.
    pub fn state_name(&self, layer: usize) -> &str {
        self.state_info(layer).map_or("", |s| s.name.as_str())
    }

    /// Tag of the state playing in `layer`.
    pub fn state_tag(&self, layer: usize) -> &str {
        self.state_info(layer).map_or("", |s| s.tag.as_str())
    }

    fn state_info(&self, layer: usize) -> Option<&super::State> {
        let l = self.layers.get(layer)?;
        self.graph.layers[layer]
            .states
            .get(l.current.state as usize)
    }

    /// Normalised time of `layer`'s playing state (1 = one clip length).
    pub fn normalized_time(&self, layer: usize, binding: &GraphBinding) -> f32 {
        match (self.layers.get(layer), self.state_info(layer)) {
            (Some(l), Some(s)) => normalized_time(s, l.current, binding),
            _ => 0.0,
        }
    }

    /// Advances every layer by `dt` seconds (see the [module docs](super)), appending clip
    /// events to `events`; unconsumed triggers are then cleared, so a trigger is seen by
    /// exactly one update. Allocates nothing.
    pub fn update(&mut self, dt: f32, binding: &GraphBinding, events: &mut EventBuffer) {
        for (i, ls) in self.layers.iter_mut().enumerate() {
            update_layer(&self.graph, i, ls, dt, &mut self.values, binding, events);
        }
        for (v, p) in self.values.iter_mut().zip(&self.graph.parameters) {
            if p.kind == ParameterKind::Trigger {
                *v = 0.0;
            }
        }
    }
}
