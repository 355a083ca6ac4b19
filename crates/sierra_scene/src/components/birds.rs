//! `Birds`: N birds (default 10) flapping between wing poses, flying straight lines
//! between random waypoints (seed 002, §2.3).
//! The parameters are `sierra_terrain`'s plain serde struct; every field is optional in JSON
//! (camelCase; defaults and units documented on the struct).

/// `"type": "Birds"`: see [`sierra_terrain::birds::BirdsParams`].
pub use sierra_terrain::birds::BirdsParams as Birds;
