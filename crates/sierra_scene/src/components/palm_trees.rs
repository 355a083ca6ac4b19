//! `PalmTrees`: procedural palm trees placed on the island's dry-sand band (seed 002, §2.3).
//! The parameters are `sierra_terrain`'s plain serde struct; every field is optional in JSON
//! (camelCase; defaults and units documented on the struct).

/// `"type": "PalmTrees"`: see [`sierra_terrain::palm::PalmParams`].
pub use sierra_terrain::palm::PalmParams as PalmTrees;
