//! `Planet`: the fractal planet in the sky (a sphere displaced by 3D fBm) with its
//! slowly rotating cloud layer (seed 002, §2.3).
//! The parameters are `sierra_terrain`'s plain serde struct; every field is optional in JSON
//! (camelCase; defaults and units documented on the struct).

/// `"type": "Planet"`: see [`sierra_terrain::planet::PlanetParams`].
pub use sierra_terrain::planet::PlanetParams as Planet;
