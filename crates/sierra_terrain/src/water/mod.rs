//! Water columns: the virtual-pipes shallow-water simulation on the CPU.
//!
//! Each cell of a regular grid holds a water depth over a terrain height and the outflow flux
//! through four virtual pipes to its neighbours. Each step updates the fluxes from the
//! differences in total height (gravity, pipe cross-section and length), scales them so no cell
//! drains more than it holds, then updates depths from the net flux
//! (Mei, Decaudin & Hu, "Fast Hydraulic Erosion Simulation and Visualization on GPU",
//! Pacific Graphics 2007, §3; virtual pipes from O'Brien & Hodgins 1995; the water-columns
//! design of seed 002, Annex E: two state buffers swapped each step).
//!
//! Two models, each on the CPU (here, the reference) and the GPU:
//! - **Mei's 4-pipe outflow flux** ([`WaterSim`]; GPU `sierra_render::compute::water`, same
//!   formulas, 16x16 workgroups staging 18x18 tiles) — the default, with open edges, sources
//!   and velocities;
//! - **the thesis's 8-connection columns** ([`Columns8Sim`], [`columns8`]; GPU
//!   `sierra_render::compute::water8`): 8 pipes per column, 4 shared flows stored per column
//!   (seed 002, Annex E.2.1), closed edges.
//!
//! Stability: a step must satisfy `dt <= min(sqrt(l * cell² / (2 A g)), cell / sqrt(g * d_max))`
//! ([`WaterParams::max_stable_dt`]); [`WaterSim::step`] refuses larger steps,
//! [`WaterSim::advance`] subdivides.
//!
//! ```
//! use sierra_terrain::water::{InitialState, WaterParams, WaterSim};
//! let p = WaterParams::new(32, 32, 1.0);
//! let terrain = vec![0.0; 32 * 32];
//! let depth = InitialState::Still { level: 1.0 }.depth(&p, &terrain).unwrap();
//! let mut sim = WaterSim::new(p, terrain, depth).unwrap();
//! sim.step(0.05).unwrap();
//! assert!((sim.total_volume() - 1024.0).abs() < 1e-3);
//! ```

pub mod columns8;
mod component;
mod error;
mod grid;
mod init;
mod params;
pub(crate) mod pipes;
mod probe;
mod sources;

pub use columns8::Columns8Sim;
pub use component::{BumpSpec, DropSchedule, WaterComponent};
pub use error::{Result, WaterError};
pub use grid::{Flux, WaterSim};
pub use init::InitialState;
pub use params::{Boundary, WaterParams, MAX_GRID_CELLS, MAX_GRID_SIDE};
pub use probe::{CopyProbe, STEP_BYTES_PER_CELL};
pub use sources::WaterSource;
