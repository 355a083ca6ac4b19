//! Level components: one module per component type, listed once in the `component_registry!` invocation below.
//!
//! # Adding a component type
//! 1. Write `components/my_thing.rs` with a plain data struct deriving
//!    `Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema`, with
//!    `#[serde(rename_all = "camelCase", deny_unknown_fields)]` (and
//!    `#[schemars(with = "[f32; 3]")]` on glam fields). Document units and defaults.
//! 2. Add `mod my_thing;` / `pub use my_thing::MyThing;` below and one line
//!    `MyThing => MyThing,` to the `component_registry!` invocation.
//! 3. Behaviour on its own node each tick (like `Spinner`): implement [`NodeBehaviour`] in
//!    the same file and write the line `MyThing => MyThing [behaviour],`; the game's tick runs
//!    it through [`crate::node_behaviour::tick_node_components`]. Nothing else changes.
//!
//! That line generates the [`Component`] enum variant, the `"type"` name (the
//! variant's name), the JSON dispatch, the schema entry and the list of valid type
//! names used in error messages ([`COMPONENT_TYPES`]). Regenerate
//! `assets/levels/schema.json` afterwards
//! (`SIERRA_BLESS=1 cargo test --release -p sierra_scene --test schema`; without the variable the
//! test fails when the file is stale and says so).
//!
//! In JSON a component is an object with a `"type"` field naming the type and the
//! struct's fields beside it: `{"type": "Spinner", "degreesPerSecond": 45}`.

mod animator;
mod attachment;
mod audio_loop;
mod behaviour;
mod birds;
mod character;
mod collision_box;
mod crowd;
mod figure_eight;
mod follow_camera;
mod ik_target;
mod palm_trees;
mod planet;
mod player_control;
mod point_light;
mod spinner;
mod terrain;
mod water;

pub use animator::{Animator, AnimatorClip, AnimatorPlayback};
pub use attachment::{Attachment, AttachmentOffset};
pub use audio_loop::{AudioLoop, SoundRef, BUILTIN_SOUNDS};
pub use behaviour::NodeBehaviour;
pub use birds::Birds;
pub use character::{Character, CharacterMaterial, ClipBinding, ClipWithSpeed};
pub use collision_box::CollisionBox;
pub use crowd::{Crowd, CrowdLayout};
pub use figure_eight::FigureEight;
pub use follow_camera::FollowCamera;
pub use ik_target::{IkSolverKind, IkTarget, LimitDef, LimitType};
pub use palm_trees::PalmTrees;
pub use planet::Planet;
pub use player_control::PlayerControl;
pub use point_light::PointLight;
pub use spinner::Spinner;
pub use terrain::Terrain;
pub use water::Water;

use std::borrow::Cow;
use std::fmt;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::value::MapAccessDeserializer;
use serde::de::{DeserializeOwned, Error as _, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Generates [`Component`], [`COMPONENT_TYPES`], the JSON/schema dispatch and
/// [`Component::behaviour`] from one `Name => Type,` line per component type (`Name => Type
/// [behaviour],` for a type implementing [`NodeBehaviour`]).
macro_rules! component_registry {
    ($($name:ident => $ty:ty $([$behaviour:ident])?),* $(,)?) => {
        /// One component attached to a level object. The variant name is the JSON `"type"`.
        #[derive(Debug, Clone, PartialEq)]
        pub enum Component {
            $(
                #[doc = concat!("`\"type\": \"", stringify!($name), "\"`")]
                $name($ty),
            )*
        }

        /// Every valid component `"type"`, in registry order.
        pub const COMPONENT_TYPES: &[&str] = &[$(stringify!($name)),*];

        impl Component {
            /// The JSON `"type"` of this component.
            pub fn type_name(&self) -> &'static str {
                match self { $(Component::$name(_) => stringify!($name),)* }
            }

            /// The component's per-tick behaviour on its node, for types registered with
            /// `[behaviour]`; `None` for plain data the game's systems read.
            pub fn behaviour(&self) -> Option<&dyn NodeBehaviour> {
                match self { $(Component::$name(_c) => behaviour_of!(_c $(, $behaviour)?),)* }
            }

            fn fields_json(&self) -> Result<serde_json::Value, serde_json::Error> {
                match self { $(Component::$name(c) => serde_json::to_value(c),)* }
            }
        }

        fn deserialize_typed<'de, D: Deserializer<'de>>(type_name: &str, d: D) -> Result<Component, D::Error> {
            match type_name {
                $(stringify!($name) => <$ty>::deserialize(d).map(Component::$name),)*
                other => Err(D::Error::custom(unknown_type_message(other))),
            }
        }

        fn registry_schemas(generator: &mut SchemaGenerator) -> Vec<serde_json::Value> {
            vec![$(tagged_schema::<$ty>(generator, stringify!($name)),)*]
        }
    };
}

/// `Some(component as &dyn NodeBehaviour)` for a registry line marked `[behaviour]`, else `None`.
macro_rules! behaviour_of {
    ($c:ident) => {
        None
    };
    ($c:ident, behaviour) => {
        Some($c as &dyn NodeBehaviour)
    };
}

component_registry! {
    PointLight => PointLight,
    CollisionBox => CollisionBox,
    Spinner => Spinner [behaviour],
    FollowCamera => FollowCamera,
    PlayerControl => PlayerControl,
    Terrain => Terrain,
    Planet => Planet,
    Birds => Birds,
    PalmTrees => PalmTrees,
    AudioLoop => AudioLoop,
    Character => Character,
    Crowd => Crowd,
    IkTarget => IkTarget,
    Attachment => Attachment,
    FigureEight => FigureEight,
    Water => Water,
    Animator => Animator,
}

fn unknown_type_message(name: &str) -> String {
    format!(
        "unknown component type `{name}`; valid types: {}",
        COMPONENT_TYPES.join(", ")
    )
}

/// The component's schema with the `"type"` discriminator added.
fn tagged_schema<T: JsonSchema + DeserializeOwned>(
    generator: &mut SchemaGenerator,
    name: &str,
) -> serde_json::Value {
    let mut schema = T::json_schema(generator).to_value();
    if let Some(obj) = schema.as_object_mut() {
        let props = obj
            .entry("properties")
            .or_insert_with(|| serde_json::json!({}));
        if let Some(props) = props.as_object_mut() {
            props.insert("type".into(), serde_json::json!({ "const": name }));
        }
        let required = obj
            .entry("required")
            .or_insert_with(|| serde_json::json!([]));
        if let Some(req) = required.as_array_mut() {
            req.insert(0, serde_json::json!("type"));
        }
        obj.insert("title".into(), serde_json::json!(name));
    }
    schema
}

impl JsonSchema for Component {
    fn schema_name() -> Cow<'static, str> {
        "Component".into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let one_of = registry_schemas(generator);
        let mut schema = Schema::default();
        schema.insert(
            "description".into(),
            serde_json::json!(
                "A component: an object whose `type` names one of the registered component types."
            ),
        );
        schema.insert("oneOf".into(), serde_json::Value::Array(one_of));
        schema
    }
}

impl<'de> Deserialize<'de> for Component {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(ComponentVisitor)
    }
}

struct ComponentVisitor;

impl<'de> Visitor<'de> for ComponentVisitor {
    type Value = Component;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "a component object with a \"type\" field (one of {})",
            COMPONENT_TYPES.join(", ")
        )
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Component, A::Error> {
        let Some(first) = map.next_key::<String>()? else {
            return Err(A::Error::missing_field("type"));
        };
        if first == "type" {
            // The usual spelling: the rest of the map streams straight into the typed
            // struct, so errors keep their JSON path and line:column.
            let name: String = map.next_value()?;
            return deserialize_typed(&name, MapAccessDeserializer::new(map));
        }
        // `type` comes later: buffer the object, then dispatch.
        let mut fields = serde_json::Map::new();
        fields.insert(first, map.next_value()?);
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value()?;
            fields.insert(key, value);
        }
        let name = match fields.remove("type") {
            Some(serde_json::Value::String(name)) => name,
            Some(other) => {
                return Err(A::Error::custom(format!(
                    "component `type` must be a string, got {other}"
                )))
            }
            None => return Err(A::Error::missing_field("type")),
        };
        let value = serde_json::Value::Object(fields);
        let mut track = serde_path_to_error::Track::new();
        deserialize_typed(
            &name,
            serde_path_to_error::Deserializer::new(value, &mut track),
        )
        .map_err(|e| {
            let path = track.path().to_string();
            if path == "." {
                A::Error::custom(e)
            } else {
                A::Error::custom(format!("field `{path}`: {e}"))
            }
        })
    }
}

impl Serialize for Component {
    /// Writes the level spelling: `{"type": "...", fields...}`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut value = self.fields_json().map_err(serde::ser::Error::custom)?;
        if let Some(obj) = value.as_object_mut() {
            obj.insert(
                "type".into(),
                serde_json::Value::String(self.type_name().into()),
            );
        }
        value.serialize(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_first_or_later_both_parse() {
        let a: Component =
            serde_json::from_str(r#"{"type":"Spinner","degreesPerSecond":90}"#).unwrap();
        let b: Component =
            serde_json::from_str(r#"{"degreesPerSecond":90,"type":"Spinner"}"#).unwrap();
        assert_eq!(a, b);
        assert!(matches!(a, Component::Spinner(s) if s.degrees_per_second == 90.0));
    }

    #[test]
    fn unknown_type_lists_valid_ones() {
        let err = serde_json::from_str::<Component>(r#"{"type":"Lamp"}"#)
            .unwrap_err()
            .to_string();
        for t in COMPONENT_TYPES {
            assert!(err.contains(t), "{err}");
        }
    }

    #[test]
    fn serialize_round_trips() {
        let c: Component = serde_json::from_str(
            r#"{"type":"PointLight","lightColor":[1,0.5,0],"innerRadius":2,"outerRadius":5}"#,
        )
        .unwrap();
        let back: Component = serde_json::from_value(serde_json::to_value(&c).unwrap()).unwrap();
        assert_eq!(c, back);
    }
}
