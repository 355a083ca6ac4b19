//! `Water`: the sea as water columns (virtual pipes, seed 002 Annex E; Mei et al. 2007):
//! grid size, cell size, initial level, boundary, damping, time step, an optional sinc bump
//! and periodic drops. The parameters are `sierra_terrain`'s plain serde struct (camelCase,
//! unknown fields refused; defaults and units documented on the struct).

/// `"type": "Water"`: see [`sierra_terrain::water::WaterComponent`].
pub use sierra_terrain::water::WaterComponent as Water;
