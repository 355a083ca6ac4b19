//! The `Water` component in the game: the sea as water columns (virtual pipes; seed 002
//! Annex E, Mei et al. 2007) simulated on the GPU (`sierra_render::compute::water`), stepped
//! once per fixed tick with the component's fixed time step, drawn by the sea pass straight from
//! the simulation's buffers. Scheduled drops (birds diving; those falling on land are skipped)
//! spread rings that run up the beach.
//! Beyond the simulated grid a flat opaque sea plane carries the sea to the horizon.

use anyhow::{Context, Result};
use glam::{Mat4, Vec2, Vec3, Vec4};
use sierra_render::compute::water::WaterCompute;
use sierra_render::{DrawItem, GpuContext, Material, MeshData, MeshHandle, Renderer};
use sierra_terrain::water::{WaterComponent, WaterParams};
use sierra_terrain::Island;

/// Side of the far-sea plane, metres.
const FAR_SEA_SIZE: f32 = 6000.0;
/// The far plane lies this far under the rest level, so the simulated surface covers it.
const FAR_SEA_DROP: f32 = 0.4;

/// The sea of a level: parameters, grid corner and drop schedule.
pub struct Sea {
    /// The component.
    pub component: WaterComponent,
    /// Validated simulation parameters.
    pub params: WaterParams,
    /// World position of the grid's corner (the `Water` node's position).
    pub origin: Vec3,
}

/// The GPU simulation and the far-sea plane.
pub struct SeaGpu {
    water: WaterCompute,
    /// Floor height per cell (node-local metres), to keep drops off the land.
    floor: Vec<f32>,
    /// Far-sea plane mesh and its draw.
    pub far_sea: DrawItem,
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
        })
    }

    /// Rest level of the water surface, world metres.
    pub fn rest_level(&self) -> f32 {
        self.origin.y + self.component.initial_level
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

    /// Creates the GPU simulation over `island`, binds it to `renderer.sea` and uploads the
    /// far-sea plane.
    ///
    /// # Errors
    /// GPU and water parameter errors.
    pub fn upload(
        &self,
        ctx: &GpuContext,
        renderer: &mut Renderer,
        island: Option<&Island>,
    ) -> Result<SeaGpu> {
        let terrain = self.floor(island);
        let depth = self
            .component
            .initial_state()
            .depth(&self.params, &terrain)
            .context("Water initial state")?;
        let water = WaterCompute::new(ctx, self.params, &terrain, &depth)
            .context("creating the water simulation")?;
        let floor = terrain;
        renderer.sea.settings.origin = self.origin;
        renderer.sea.bind_water(ctx, &water)?;
        let level = self.rest_level() - FAR_SEA_DROP;
        let plane = far_sea_mesh(FAR_SEA_SIZE, level);
        let mesh: MeshHandle = renderer.upload_mesh(ctx, &plane, "far sea")?;
        let s = renderer.sea.settings;
        Ok(SeaGpu {
            water,
            floor,
            far_sea: DrawItem {
                mesh,
                model: Mat4::IDENTITY,
                material: Material {
                    base_color: (s.deep_color * 0.6 + s.shallow_color * 0.15).extend(1.0),
                    specular_color: Vec3::splat(0.5),
                    specular_power: 96.0,
                    emissive: Vec3::ZERO,
                },
            },
        })
    }

    /// One tick of `dt` seconds that ended at world time `time` (seconds): the drops scheduled
    /// in `(time − dt, time]` are added, then the simulation runs `ceil(dt / timeStep)` equal
    /// sub-steps, and the sea pass reads the new state.
    ///
    /// # Errors
    /// GPU errors.
    pub fn step(
        &self,
        gpu: &mut SeaGpu,
        ctx: &GpuContext,
        renderer: &mut Renderer,
        time: f64,
        dt: f32,
    ) -> Result<()> {
        if let Some(drops) = &self.component.drops {
            for k in drops.drops_between(time - f64::from(dt), time) {
                let at = drops.position(k, self.extent());
                let cell = (at / self.params.cell_size).as_uvec2();
                let index = cell.y as usize * self.params.cols + cell.x as usize;
                let floor = gpu.floor.get(index).copied().unwrap_or(f32::MAX);
                if floor > self.component.initial_level - 1.0 {
                    // Birds dive into the sea, not onto the land or the wet sand.
                    continue;
                }
                gpu.water
                    .add_drop(ctx, at, drops.radius, drops.amplitude)
                    .context("adding a water drop")?;
            }
        }
        let steps = (dt / self.component.time_step).ceil().max(1.0);
        gpu.water
            .step(ctx, dt / steps, steps as u32)
            .context("stepping the water")?;
        renderer.sea.set_current(gpu.water.current_index());
        Ok(())
    }
}

fn far_sea_mesh(size: f32, level: f32) -> MeshData {
    let h = size * 0.5;
    MeshData {
        positions: vec![
            [-h, level, -h],
            [h, level, -h],
            [-h, level, h],
            [h, level, h],
        ],
        normals: vec![[0.0, 1.0, 0.0]; 4],
        uvs: vec![[0.0, 0.0]; 4],
        tangents: Vec::new(),
        colors: vec![Vec4::ONE.to_array(); 4],
        indices: vec![0, 2, 1, 1, 2, 3],
    }
}
