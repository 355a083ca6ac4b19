//! What lives around the island (seed 002, §2.3): the fractal planet in the sky with its slowly
//! rotating translucent cloud layer (`Planet`), a flock of birds flapping between wing poses
//! (`Birds`, updated every tick) and palm trees on the dry-sand band (`PalmTrees`).
//!
//! What is uploaded for them, and drawn from them each frame, is the GPU bridge's
//! (`crate::gpu_bridge::sky_objects`).

use anyhow::{Context, Result};
use sierra_terrain::birds::{BirdsParams, Flock};
use sierra_terrain::palm::PalmParams;
use sierra_terrain::planet::PlanetParams;

/// CPU state: parameters and the flock.
#[derive(Default)]
pub struct SkyObjects {
    /// The planet and its clouds.
    pub planet: Option<PlanetParams>,
    /// The birds' parameters.
    pub birds: Option<BirdsParams>,
    /// The birds.
    pub flock: Option<Flock>,
    /// The palm trees (placed on the island's beach at upload).
    pub palms: Option<PalmParams>,
}

impl SkyObjects {
    /// Sets the planet.
    ///
    /// # Errors
    /// Invalid parameters.
    pub fn set_planet(&mut self, params: PlanetParams) -> Result<()> {
        params.validate().context("Planet component")?;
        self.planet = Some(params);
        Ok(())
    }

    /// Creates the flock.
    ///
    /// # Errors
    /// Invalid parameters.
    pub fn set_birds(&mut self, params: &BirdsParams) -> Result<()> {
        self.flock = Some(Flock::new(params).context("Birds component")?);
        self.birds = Some(params.clone());
        Ok(())
    }

    /// Birds fly for `dt` seconds.
    pub fn tick(&mut self, dt: f32) {
        if let Some(flock) = &mut self.flock {
            flock.update(dt);
        }
    }
}
