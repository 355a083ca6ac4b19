//! The `Terrain` component in the game: the island's heights (generated on the GPU by default,
//! `sierra_content::terrain::generate_island_gpu`, or on the CPU with `"backend": "cpu"`),
//! kept for ground-height queries. Its chunked level-of-detail meshes and their surface are
//! the GPU bridge's (`crate::gpu_bridge::landscape`).

use anyhow::{Context, Result};
use sierra_terrain::island::Backend;
use sierra_terrain::noise::grid::Threads;
use sierra_terrain::{Island, TerrainParams};

/// The island of a level.
pub struct Landscape {
    /// The component's parameters.
    pub params: TerrainParams,
    /// Heights and surface classes; `None` until generated (GPU terrain: in
    /// the GPU bridge's upload, `crate::gpu_bridge::landscape`).
    pub island: Option<Island>,
    /// Draw the terrain with its detail textures per surface type
    /// ([`sierra_terrain::surface_detail::ISLAND_SURFACES`]; default true). Read once, when the
    /// GPU bridge uploads the landscape; `false` draws the bands and bumps alone (what the island
    /// looked like before them; the detail test's control).
    pub surface_detail: bool,
}

impl Landscape {
    /// Validates the parameters; CPU terrain is generated now (GPU terrain at upload).
    ///
    /// # Errors
    /// Invalid parameters, CPU generation errors.
    pub fn new(params: TerrainParams) -> Result<Self> {
        params.validate().context("Terrain component")?;
        let island = match params.backend {
            Backend::Cpu => Some(
                Island::generate_cpu(&params, Threads::All)
                    .context("generating the island on the CPU")?,
            ),
            Backend::Gpu => None,
        };
        Ok(Self {
            params,
            island,
            surface_detail: true,
        })
    }

    /// Ground height at world `(x, z)`, metres; `None` off the island or before generation.
    pub fn height_at(&self, x: f32, z: f32) -> Option<f32> {
        self.island.as_ref()?.height_at(x, z)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_terrain_heights_are_ready_at_creation_and_match_the_island() {
        let params = TerrainParams {
            resolution: 129,
            chunk_cells: 32,
            backend: Backend::Cpu,
            ..TerrainParams::default()
        };
        let landscape = Landscape::new(params.clone()).unwrap();
        let island = Island::generate_cpu(&params, Threads::All).unwrap();
        for (x, z) in [(0.0, 0.0), (60.0, 170.0), (-100.0, 30.0)] {
            assert_eq!(landscape.height_at(x, z), island.height_at(x, z));
        }
    }
}
