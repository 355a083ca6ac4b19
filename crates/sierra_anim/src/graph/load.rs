//! Parsing and validating graph JSON (text the caller read) into an [`AnimGraph`].

use std::path::{Path, PathBuf};

use super::asset::{self, ConditionTest, GraphFile, LayerBlendDef, ParameterKind};
use super::definition::{
    AnimGraph, Condition, Layer, LayerBlend, Motion, ParamId, Parameter, Slot, SlotEvent, State,
    StateId, Transition,
};
use super::GraphError;

/// Most parameters, slots, states per layer or layers a graph may have (indices are `u16`).
pub const MAX_GRAPH_ITEMS: usize = 4096;

impl AnimGraph {
    /// Parses and validates graph JSON; `file` names it in errors. This crate reads no files:
    /// the caller reads the graph (through its asset boundary, or `include_str!` for the
    /// built-in ones) and hands the text here.
    ///
    /// Errors: [`GraphError::Json`]; [`GraphError::Invalid`] for duplicate or unknown names
    /// (parameters, slots, states, events), a condition whose test does not fit its
    /// parameter's type or lacks its `value`, a blend space on a non-float parameter or
    /// with unsorted points, non-finite or negative numbers, no layers or states.
    pub fn from_json_str(text: &str, file: impl Into<PathBuf>) -> Result<Self, GraphError> {
        let file = file.into();
        let mut de = serde_json::Deserializer::from_str(text);
        let parsed: GraphFile = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let json_path = e.path().to_string();
            json_error(&file, json_path, e.into_inner())
        })?;
        de.end().map_err(|e| json_error(&file, ".".into(), e))?;
        Validator { file: &file }.graph(&parsed)
    }
}

fn json_error(file: &Path, json_path: String, inner: serde_json::Error) -> GraphError {
    let (line, column) = (inner.line(), inner.column());
    let mut message = inner.to_string();
    if let Some(s) = message.strip_suffix(&format!(" at line {line} column {column}")) {
        message = s.to_owned();
    }
    GraphError::Json {
        file: file.to_owned(),
        json_path,
        line,
        column,
        message,
    }
}

/// `check(element, json_path)` for every element of the JSON array at `at` (element `k` at
/// `{at}[{k}]`), in order; the first error ends it.
fn each<T, U>(
    items: &[T],
    at: &str,
    check: impl Fn(&T, String) -> Result<U, GraphError>,
) -> Result<Vec<U>, GraphError> {
    items
        .iter()
        .enumerate()
        .map(|(k, item)| check(item, format!("{at}[{k}]")))
        .collect()
}

struct Validator<'a> {
    file: &'a Path,
}

impl Validator<'_> {
    fn err(&self, json_path: impl Into<String>, message: impl Into<String>) -> GraphError {
        GraphError::Invalid {
            file: self.file.to_owned(),
            json_path: json_path.into(),
            message: message.into(),
        }
    }

    /// The position of `name` among `names`, or an error at `at` with the message
    /// `missing(list)`, `list` the names comma-separated.
    fn find<'n>(
        &self,
        at: String,
        names: impl Iterator<Item = &'n str> + Clone,
        name: &str,
        missing: impl FnOnce(String) -> String,
    ) -> Result<usize, GraphError> {
        names.clone().position(|n| n == name).ok_or_else(|| {
            let list: Vec<&str> = names.collect();
            self.err(at, missing(list.join(", ")))
        })
    }

    fn number(&self, at: String, v: f32, min: f32) -> Result<f32, GraphError> {
        if v.is_finite() && v >= min {
            Ok(v)
        } else {
            Err(self.err(at, format!("{v} must be a finite number >= {min}")))
        }
    }

    fn unique<'n>(
        &self,
        names: impl Iterator<Item = &'n str>,
        at: impl Fn(usize) -> String,
        what: &str,
    ) -> Result<(), GraphError> {
        let mut seen: Vec<&str> = Vec::new();
        for (i, n) in names.enumerate() {
            if n.is_empty() || seen.contains(&n) {
                return Err(self.err(at(i), format!("{what} `{n}` is empty or defined twice")));
            }
            seen.push(n);
        }
        if seen.len() > MAX_GRAPH_ITEMS {
            return Err(self.err(at(0), format!("more than {MAX_GRAPH_ITEMS} {what}s")));
        }
        Ok(())
    }

    fn graph(&self, g: &GraphFile) -> Result<AnimGraph, GraphError> {
        self.unique(
            g.parameters.iter().map(|p| p.name.as_str()),
            |i| format!("parameters[{i}].name"),
            "parameter",
        )?;
        self.unique(
            g.clips.iter().map(|c| c.slot.as_str()),
            |i| format!("clips[{i}].slot"),
            "clip slot",
        )?;
        self.unique(
            g.layers.iter().map(|l| l.name.as_str()),
            |i| format!("layers[{i}].name"),
            "layer",
        )?;
        if g.layers.is_empty() {
            return Err(self.err("layers", "a graph needs at least one layer"));
        }
        let parameters = g
            .parameters
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let default =
                    self.number(format!("parameters[{i}].default"), p.default, f32::MIN)?;
                Ok(Parameter {
                    name: p.name.clone(),
                    kind: p.kind,
                    default: match p.kind {
                        ParameterKind::Float => default,
                        ParameterKind::Bool => f32::from(u8::from(default != 0.0)),
                        ParameterKind::Trigger => 0.0,
                    },
                })
            })
            .collect::<Result<Vec<_>, GraphError>>()?;
        let mut event_names: Vec<String> = Vec::new();
        let mut slots = Vec::new();
        for (i, c) in g.clips.iter().enumerate() {
            let fallback_duration = self.number(
                format!("clips[{i}].fallbackDuration"),
                c.fallback_duration,
                0.0,
            )?;
            let mut events = Vec::new();
            for (k, e) in c.events.iter().enumerate() {
                let time = self.number(format!("clips[{i}].events[{k}].time"), e.time, 0.0)?;
                let name = match event_names.iter().position(|n| *n == e.name) {
                    Some(n) => n,
                    None => {
                        event_names.push(e.name.clone());
                        event_names.len() - 1
                    }
                };
                events.push(SlotEvent {
                    name: name as u16,
                    time,
                });
            }
            events.sort_by(|a, b| a.time.total_cmp(&b.time));
            slots.push(Slot {
                name: c.slot.clone(),
                looping: c.r#loop,
                fallback_duration,
                events,
            });
        }
        let names = Names {
            parameters: &parameters,
            slots: &slots,
        };
        let layers = g
            .layers
            .iter()
            .enumerate()
            .map(|(i, l)| self.layer(l, i, &names))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(AnimGraph {
            file: self.file.to_owned(),
            parameters,
            slots,
            event_names,
            layers,
        })
    }

    fn layer(&self, l: &asset::LayerDef, i: usize, n: &Names) -> Result<Layer, GraphError> {
        let at = format!("layers[{i}]");
        if l.states.is_empty() {
            return Err(self.err(format!("{at}.states"), "a layer needs at least one state"));
        }
        self.unique(
            l.states.iter().map(|s| s.name.as_str()),
            |k| format!("{at}.states[{k}].name"),
            "state",
        )?;
        let weight = self.number(format!("{at}.weight"), l.weight, 0.0)?;
        if weight > 1.0 {
            return Err(self.err(format!("{at}.weight"), format!("{weight} is above 1")));
        }
        let weight_parameter = l
            .weight_parameter
            .as_deref()
            .map(|p| {
                n.parameter(
                    self,
                    p,
                    ParameterKind::Float,
                    format!("{at}.weightParameter"),
                )
            })
            .transpose()?;
        if i == 0 && (l.mask.is_some() || l.blend != LayerBlendDef::Override) {
            return Err(self.err(
                at,
                "the base layer (the first) must be an override layer without a mask",
            ));
        }
        let state_of = |name: &str, path: String| -> Result<StateId, GraphError> {
            let names = l.states.iter().map(|s| s.name.as_str());
            self.find(path, names, name, |list| {
                format!("no state `{name}` in this layer (states: {list})")
            })
            .map(|s| s as StateId)
        };
        let entry = state_of(&l.entry, format!("{at}.entry"))?;
        let states = each(&l.states, &format!("{at}.states"), |s, p| {
            self.state(s, p, n)
        })?;
        let mut transitions = Vec::new();
        for (k, t) in l.transitions.iter().enumerate() {
            let tat = format!("{at}.transitions[{k}]");
            let from = if t.from == "*" {
                None
            } else {
                Some(state_of(&t.from, format!("{tat}.from"))?)
            };
            let to = state_of(&t.to, format!("{tat}.to"))?;
            let exit_time = t
                .exit_time
                .map(|e| self.number(format!("{tat}.exitTime"), e, 0.0))
                .transpose()?;
            let duration = self.number(format!("{tat}.duration"), t.duration, 0.0)?;
            let conditions = each(&t.conditions, &format!("{tat}.conditions"), |c, p| {
                self.condition(c, p, n)
            })?;
            transitions.push(Transition {
                from,
                to,
                conditions,
                exit_time,
                duration,
            });
        }
        Ok(Layer {
            name: l.name.clone(),
            blend: match l.blend {
                LayerBlendDef::Override => LayerBlend::Override,
                LayerBlendDef::Additive => LayerBlend::Additive,
            },
            weight,
            weight_parameter,
            mask: l
                .mask
                .as_ref()
                .map(|m| (m.include.clone(), m.exclude.clone())),
            mask_path: format!("{at}.mask"),
            entry,
            states,
            transitions,
        })
    }

    fn state(&self, s: &asset::StateDef, at: String, n: &Names) -> Result<State, GraphError> {
        let speed = self.number(format!("{at}.speed"), s.speed, 0.0)?;
        let motion = match (&s.clip, &s.blend1d) {
            (Some(clip), None) => Motion::Clip(n.slot(self, clip, format!("{at}.clip"))?),
            (None, Some(b)) => {
                let parameter = n.parameter(
                    self,
                    &b.parameter,
                    ParameterKind::Float,
                    format!("{at}.blend1d.parameter"),
                )?;
                if b.points.is_empty() {
                    return Err(
                        self.err(format!("{at}.blend1d.points"), "needs at least one point")
                    );
                }
                let mut points = Vec::new();
                for (k, p) in b.points.iter().enumerate() {
                    let pat = format!("{at}.blend1d.points[{k}]");
                    let value = self.number(format!("{pat}.value"), p.value, f32::MIN)?;
                    if points.last().is_some_and(|&(v, _)| value <= v) {
                        return Err(self.err(
                            format!("{pat}.value"),
                            "point values must increase strictly",
                        ));
                    }
                    points.push((value, n.slot(self, &p.clip, format!("{pat}.clip"))?));
                }
                Motion::Blend1d { parameter, points }
            }
            _ => {
                return Err(self.err(at, "a state needs exactly one of `clip` and `blend1d`"));
            }
        };
        Ok(State {
            name: s.name.clone(),
            tag: s.tag.clone().unwrap_or_else(|| s.name.clone()),
            motion,
            speed,
        })
    }

    fn condition(
        &self,
        c: &asset::ConditionDef,
        at: String,
        n: &Names,
    ) -> Result<Condition, GraphError> {
        let kind = match c.test {
            ConditionTest::Greater | ConditionTest::Less => ParameterKind::Float,
            ConditionTest::IsTrue | ConditionTest::IsFalse => ParameterKind::Bool,
            ConditionTest::Triggered => ParameterKind::Trigger,
        };
        let parameter = n.parameter(self, &c.parameter, kind, format!("{at}.parameter"))?;
        let value = match (kind, c.value) {
            (ParameterKind::Float, Some(v)) => self.number(format!("{at}.value"), v, f32::MIN)?,
            (ParameterKind::Float, None) => {
                return Err(self.err(format!("{at}.value"), "`greater` and `less` need a `value`"))
            }
            (_, Some(_)) => {
                return Err(self.err(
                    format!("{at}.value"),
                    "only `greater` and `less` take a `value`",
                ))
            }
            (_, None) => 0.0,
        };
        Ok(Condition {
            parameter,
            test: c.test,
            value,
        })
    }
}

struct Names<'a> {
    parameters: &'a [Parameter],
    slots: &'a [Slot],
}

impl Names<'_> {
    fn parameter(
        &self,
        v: &Validator,
        name: &str,
        kind: ParameterKind,
        at: String,
    ) -> Result<ParamId, GraphError> {
        let names = self.parameters.iter().map(|p| p.name.as_str());
        let i = v.find(at.clone(), names, name, |list| {
            format!("no parameter `{name}` (parameters: {list})")
        })?;
        if self.parameters[i].kind != kind {
            return Err(v.err(
                at,
                format!(
                    "parameter `{name}` is a {:?}; this needs a {kind:?}",
                    self.parameters[i].kind
                ),
            ));
        }
        Ok(i as ParamId)
    }

    fn slot(&self, v: &Validator, name: &str, at: String) -> Result<u16, GraphError> {
        let names = self.slots.iter().map(|s| s.name.as_str());
        v.find(at, names, name, |list| {
            format!("no clip slot `{name}` (slots: {list})")
        })
        .map(|i| i as u16)
    }
}
