//! `Terrain`: the island height field (mountains, beach, sea floor) shaped from fBm;
//! generated on the GPU by default (seed 002, §2.3).
//! The parameters are `sierra_terrain`'s plain serde struct; every field is optional in JSON
//! (camelCase; defaults and units documented on the struct).

/// `"type": "Terrain"`: see [`sierra_terrain::island::TerrainParams`].
pub use sierra_terrain::island::TerrainParams as Terrain;
