//! The `Water` component in the game: the sea as water columns (virtual pipes; seed 002
//! Annex E, Mei et al. 2007) simulated on the GPU (`sierra_render::compute::water`), stepped
//! once per fixed tick with the component's fixed time step, drawn by the sea pass straight from
//! the simulation's buffers. With `"backend": "cpu"` the same model runs on the CPU
//! ([`WaterSim`], in the tick, profiler scope [`SEA_CPU_SCOPE`]) and each frame uploads its depth
//! and velocity into those buffers ([`SeaOp::State`]), so both paths draw the same surface. Scheduled drops (birds diving; those falling on land are skipped)
//! spread rings that run up the beach.
//! Beyond the simulated grid the sea pass draws open, still, deep water to the horizon with the
//! same shading, so the grid's edge does not show.

use anyhow::{Context, Result};
use glam::{Vec2, Vec3};
use sierra_render::passes::sea::{SeaSettings, ShoreHeights};
use sierra_render::passes::sea_lod::SeaLod;
use sierra_render::{GpuContext, Renderer, SeaOp, SeaState};
use sierra_terrain::island::Backend;
use sierra_terrain::water::{WaterComponent, WaterParams, WaterSim};
use sierra_terrain::Island;

use super::hidden_floor::HiddenFloor;

/// Profiler scope of the CPU sea's steps and drops within a tick.
pub const SEA_CPU_SCOPE: &str = "sea_cpu";

/// How far the open sea reaches from the grid's centre, metres (half the side of its square).
const HORIZON: f32 = 3000.0;

/// The sea of a level: parameters, grid corner and drop schedule.
pub struct Sea {
    /// The component.
    pub component: WaterComponent,
    /// Validated simulation parameters.
    pub params: WaterParams,
    /// World position of the grid's corner (the `Water` node's position).
    pub origin: Vec3,
    /// Ground deeper than this below the rest level is hidden by the sea and not drawn, metres
    /// ([`SeaSettings::opaque_floor_depth`]; `f32::INFINITY` draws all of it). Set before
    /// the upload.
    pub opaque_floor_depth: f32,
    /// Floor height per cell (`[rows * cols]`, node-local metres), set at
    /// [`Sea::upload`]; keeps scheduled drops off the land.
    floor: Vec<f32>,
    /// The CPU simulation (`"backend": "cpu"`), created at [`Sea::upload`].
    cpu: Option<CpuSea>,
    /// Draw the sea as before issue #49 ([`SeaSettings::legacy`]; set before [`Sea::upload`]):
    /// only `sierra demo --test-sea-legacy`, the control of `tests/sea_foam_view.rs`.
    pub legacy_look: bool,
}

/// The CPU path's simulation and whether it moved since the last frame took its state.
struct CpuSea {
    sim: WaterSim,
    changed: bool,
    /// A tick's drops and sub-steps, reused from tick to tick.
    queued: Vec<SeaOp>,
}

impl Sea {
    /// Validates the component.
    ///
    /// # Errors
    /// Invalid grid, time step or drop schedule.
    pub fn new(component: WaterComponent, origin: Vec3) -> Result<Self> {
        let params = component.params().context("Water component")?;
        Ok(Self {
            component,
            params,
            origin,
            opaque_floor_depth: SeaSettings::default().opaque_floor_depth,
            floor: Vec::new(),
            cpu: None,
            legacy_look: false,
        })
    }

    /// Rest level of the water surface, world metres.
    pub fn rest_level(&self) -> f32 {
        self.origin.y + self.component.initial_level
    }

    /// How the sea pass draws this sea (grid placement, open sea to [`HORIZON`], default look,
    /// coarser tiles away from the camera: [`SeaLod::default`]).
    pub fn settings(&self) -> SeaSettings {
        SeaSettings {
            origin: self.origin,
            rest_level: self.rest_level(),
            opaque_floor_depth: self.opaque_floor_depth,
            horizon: HORIZON,
            lod: Some(SeaLod::default()),
            legacy: self.legacy_look,
            ..SeaSettings::default()
        }
    }

    /// The ground this sea hides ([`HiddenFloor`]): below
    /// [`SeaSettings::hidden_floor_height`] within the simulated grid and the open sea's square
    /// around it.
    pub fn hidden_floor(&self) -> HiddenFloor {
        let corner = Vec2::new(self.origin.x, self.origin.z);
        let centre = corner + 0.5 * self.extent();
        HiddenFloor {
            below: self.settings().hidden_floor_height(),
            areas: vec![
                (corner, corner + self.extent()),
                (centre - Vec2::splat(HORIZON), centre + Vec2::splat(HORIZON)),
            ],
        }
    }

    /// Grid size, metres (x, z).
    pub fn extent(&self) -> Vec2 {
        Vec2::new(self.params.cols as f32, self.params.rows as f32) * self.params.cell_size
    }

    /// Sea-floor heights under each cell centre (`[rows * cols]`, row-major, node-local metres):
    /// the island's heights where it covers, else its sea floor (or 10 m down with no island).
    pub fn floor(&self, island: Option<&Island>) -> Vec<f32> {
        let (cols, rows, cell) = (self.params.cols, self.params.rows, self.params.cell_size);
        let deep = island.map_or(-10.0, |i| i.params().sea_level - i.params().sea_depth);
        (0..rows * cols)
            .map(|i| {
                let x = self.origin.x + ((i % cols) as f32 + 0.5) * cell;
                let z = self.origin.z + ((i / cols) as f32 + 0.5) * cell;
                island.and_then(|is| is.height_at(x, z)).unwrap_or(deep) - self.origin.y
            })
            .collect()
    }

    /// Creates the GPU simulation over `island` and hands it to the renderer
    /// ([`Renderer::set_water`]), with the open sea around it.
    ///
    /// # Errors
    /// GPU and water parameter errors.
    pub fn upload(
        &mut self,
        ctx: &GpuContext,
        renderer: &mut Renderer,
        island: Option<&Island>,
    ) -> Result<()> {
        let terrain = self.floor(island);
        let depth = self
            .component
            .initial_state()
            .depth(&self.params, &terrain)
            .context("Water initial state")?;
        let water = sierra_content::water::water_compute(ctx, self.params, &terrain, &depth)
            .context("creating the water simulation")?;
        if self.component.backend == Backend::Cpu {
            let sim = WaterSim::new(self.params, terrain.clone(), depth)
                .context("creating the CPU water simulation")?;
            self.cpu = Some(CpuSea {
                sim,
                changed: false,
                queued: Vec::new(),
            });
        }
        renderer.set_water(ctx, water, self.settings())?;
        if let Some(field) = island.map(Island::height_field) {
            // The water ends where it meets the terrain mesh, not along its coarser cells.
            let shore = ShoreHeights {
                origin: field.sample_xz(0, 0),
                spacing: field.spacing(),
                resolution: field.resolution() as u32,
                heights: field.heights(),
            };
            renderer
                .set_sea_shore(ctx, &shore)
                .context("giving the sea the island's heights")?;
        }
        self.floor = terrain;
        Ok(())
    }

    /// The simulation inputs of one tick of `dt` seconds that ended at world time `time`
    /// (seconds), appended to `ops`: the drops scheduled in `(time − dt, time]` (those falling on
    /// land skipped), then `ceil(dt / timeStep)` equal sub-steps. Nothing before
    /// [`Sea::upload`].
    ///
    /// On the CPU path the drops and sub-steps run here instead (a drop or step the simulation
    /// refuses is skipped with a warning naming why), and
    /// [`Sea::take_state`] hands the result to the frame.
    pub fn tick(&mut self, time: f64, dt: f32, ops: &mut Vec<SeaOp>) {
        if self.floor.is_empty() {
            return;
        }
        if let Some(cpu) = &mut self.cpu {
            let mut queued = std::mem::take(&mut cpu.queued);
            queued.clear();
            self.queue_tick(time, dt, &mut queued);
            let _scope = tracing::info_span!(SEA_CPU_SCOPE).entered();
            self.run_on_cpu(&queued);
            if let Some(cpu) = &mut self.cpu {
                cpu.queued = queued;
            }
            return;
        }
        self.queue_tick(time, dt, ops);
    }

    /// The drops and sub-steps of a tick, as [`Sea::tick`] documents.
    fn queue_tick(&self, time: f64, dt: f32, ops: &mut Vec<SeaOp>) {
        if let Some(drops) = &self.component.drops {
            for k in drops.drops_between(time - f64::from(dt), time) {
                let at = drops.position(k, self.extent());
                let cell = (at / self.params.cell_size).as_uvec2();
                let index = cell.y as usize * self.params.cols + cell.x as usize;
                let floor = self.floor.get(index).copied().unwrap_or(f32::MAX);
                if floor > self.component.initial_level - 1.0 {
                    // Birds dive into the sea, not onto the land or the wet sand.
                    continue;
                }
                ops.push(SeaOp::Drop {
                    at,
                    radius: drops.radius,
                    amplitude: drops.amplitude,
                });
            }
        }
        let steps = (dt / self.component.time_step).ceil().max(1.0);
        let sub_dt = dt / steps;
        match ops.last_mut() {
            // Ticks not yet drawn (a minimised window) merge, so the queue stays short.
            Some(SeaOp::Step { dt, count }) if *dt == sub_dt => *count += steps as u32,
            _ => ops.push(SeaOp::Step {
                dt: sub_dt,
                count: steps as u32,
            }),
        }
    }

    /// Runs `ops` (drops and steps) on the CPU simulation.
    fn run_on_cpu(&mut self, ops: &[SeaOp]) {
        let Some(cpu) = &mut self.cpu else {
            return;
        };
        for op in ops {
            let result = match *op {
                SeaOp::Drop {
                    at,
                    radius,
                    amplitude,
                } => cpu.sim.add_drop(at, radius, amplitude),
                SeaOp::Step { dt, count } => (0..count).try_for_each(|_| cpu.sim.step(dt)),
                SeaOp::State(_) => Ok(()),
            };
            if let Err(e) = result {
                tracing::warn!("CPU sea: {e}");
            }
            cpu.changed = true;
        }
    }

    /// On the CPU path: runs the drops queued in `ops` since the last frame (the overlay's, see
    /// [`Sea::drop_at`]) on the simulation, then replaces `ops` with the simulation's depth and
    /// velocity as the frame's [`SeaOp::State`] when they changed since the last call. On the
    /// GPU path `ops` is left as it is.
    pub fn take_state(&mut self, ops: &mut Vec<SeaOp>) {
        if self.cpu.is_none() {
            return;
        }
        let queued = std::mem::take(ops);
        self.run_on_cpu(&queued);
        let Some(cpu) = &mut self.cpu else {
            return;
        };
        if !std::mem::take(&mut cpu.changed) {
            return;
        }
        let mut velocity = vec![Vec2::ZERO; cpu.sim.depth().len()];
        cpu.sim.velocity_field(&mut velocity);
        ops.push(SeaOp::State(SeaState {
            depth: cpu.sim.depth().into(),
            velocity: velocity.into(),
        }));
    }

    /// Whether [`Sea::upload`] ran (the simulation exists, so drops can be queued).
    pub fn is_uploaded(&self) -> bool {
        !self.floor.is_empty()
    }

    /// The CPU simulation (`"backend": "cpu"` after [`Sea::upload`]), for tests and tools.
    pub fn cpu_simulation(&self) -> Option<&WaterSim> {
        self.cpu.as_ref().map(|c| &c.sim)
    }

    /// A raised-cosine drop of `radius` and `amplitude` metres centred on world `(x, z)` `at`
    /// (the overlay's "water drop"), as a simulation input appended to `ops`; the sea shows
    /// its rings from the next frame. Returns `false` (nothing added) when `at` lies outside
    /// the simulated grid.
    pub fn drop_at(&self, at: Vec2, radius: f32, amplitude: f32, ops: &mut Vec<SeaOp>) -> bool {
        let local = at - Vec2::new(self.origin.x, self.origin.z);
        let extent = self.extent();
        if !(local.cmpge(Vec2::ZERO).all() && local.cmplt(extent).all()) {
            return false;
        }
        ops.push(SeaOp::Drop {
            at: local,
            radius,
            amplitude,
        });
        true
    }
}
